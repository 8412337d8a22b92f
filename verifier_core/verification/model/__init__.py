"""The model: the cross-encoder's network and weights, its training data and training, the score cache and the fallback without a checkpoint."""
