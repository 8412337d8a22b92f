"""Django admin registrations; Django imports this module, each feature registers its own."""
from sideapp.edits import admin as _edits_admin  # noqa: F401  (registers AuditEntry)
