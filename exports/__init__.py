"""Printable exports: HTML made for A4 printing, and CSV, JSON and Markdown for posting.

One Jinja environment built in a function (autoescape on); one small render function per output
(:mod:`exports.render`); an organizer's own templates, in a folder of theirs, are searched first.
Reads what the application hands it; never touches the event store.
"""
