"""The web shell: roles, the home page, view helpers."""
