"""Blind A/B annotation: people judge the wiki's citation against the suggested source."""
