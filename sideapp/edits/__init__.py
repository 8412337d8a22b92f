"""Editors act on the wiki: apply a suggestion, tag a citation, report an article; and the
audit log of every action."""
