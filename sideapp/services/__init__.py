"""Workflows of Side editor. Views and jobs call these; they call verifier_core."""
