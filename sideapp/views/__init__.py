"""Thin views: check the role, call a service, render (a partial for htmx requests)."""
