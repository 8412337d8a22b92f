"""The evidence: a source's passages and sentences, the claim's parts, the cross-encoder run over passages (engine) and the quote shown."""
