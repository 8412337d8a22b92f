"""The retrieval corpus and admins' corpus imports."""
