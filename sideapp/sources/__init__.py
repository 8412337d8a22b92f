"""Cited pages: fetching them and the text they hold."""
