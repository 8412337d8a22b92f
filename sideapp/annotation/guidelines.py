"""The annotation guidelines' version: stored with every vote, so results can be split
by the instructions annotators read. Bump it (and add a template under
templates/annotation/guidelines/) whenever the instructions change."""
VERSION = "2026-11-v1"
TEMPLATE = f"annotation/guidelines/{VERSION}.html"
