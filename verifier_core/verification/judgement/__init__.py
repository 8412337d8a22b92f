"""The judgement: claim features, the calibrated verdict head, the score-to-verdict rule, the rules over it and the reasons in words."""
