"""Printable exports (Jinja templates and their render functions): see the exports issue."""
