"""Wikis, articles, revisions and the scans that read them."""
