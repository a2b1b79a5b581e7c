"""The web front end (Starlette): the public pages and their JSON twins, the organizer's and the
referees' pages, the live stream of stored events.

:mod:`~tournament.web.app` builds the app; the routes render through
:mod:`~tournament.web.pages`, never through the app. It shares the services with the command
line and never imports it.
"""
