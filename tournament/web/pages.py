"""Rendering a page: a template of ``exports/templates/web/`` with the visitor's words.

Shared by the app's public pages and the organizer's and referee's routes (which never import
the app itself).
"""

from __future__ import annotations

import threading
from types import CodeType
from typing import Any

import jinja2
from markupsafe import escape
from starlette.requests import Request
from starlette.responses import HTMLResponse

from tournament.web.security import csrf_token
from tournament.web.words import lang_of, page_words


def quick_escape(value: Any) -> Any:
    """What a template shows of ``value``, escaped as :func:`markupsafe.escape` escapes it (the
    same characters, the same entities): a plain string as a plain string, where markupsafe
    makes a ``Markup`` of each (#27: a hundred a table's page). Only what a template writes
    out is escaped (its output, or the text of a ``{% set %}`` block, made markup as a whole)."""
    if type(value) is str:
        return (
            value.replace("&", "&amp;")
            .replace(">", "&gt;")
            .replace("<", "&lt;")
            .replace("'", "&#39;")
            .replace('"', "&#34;")
        )
    if type(value) is int:  # (a position, a count: digits alone)
        return str(value)
    return escape(value)


class QuickTemplate(jinja2.Template):
    """A template of the web's environments, whose output is escaped by :func:`quick_escape`
    (the name its compiled code calls, set when it is loaded)."""

    @classmethod
    def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Any:
        namespace["escape"] = quick_escape
        return super()._from_namespace(environment, namespace, globals)


class CompiledOnce(jinja2.BytecodeCache):
    """Each template compiled once a process, its code shared by every web environment (one a
    language, one set a test's app): the environments are made alike, and a template differs
    in what it is run with, not in its code (#27: Jinja compiles a page's templates in some
    half a second, for each environment, on the first phones' requests). A template of a
    club's own folder is another file, its source another checksum: compiled for itself."""

    def __init__(self) -> None:
        self._codes: dict[str, tuple[str, CodeType]] = {}
        self._lock = threading.Lock()

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        kept = self._codes.get(bucket.key)
        if kept is not None and kept[0] == bucket.checksum:
            bucket.code = kept[1]

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.code is not None:
            with self._lock:
                self._codes[bucket.key] = (bucket.checksum, bucket.code)


COMPILED = CompiledOnce()  # (one a process: every app's web environments)


def warm(envs: dict[str, jinja2.Environment]) -> int:
    """Load every page template of ``envs`` before the first request (a server's start: the
    code compiled once, each environment's template made from it); how many were loaded."""
    names = [n for n in next(iter(envs.values())).list_templates() if n.startswith("web/")]
    for env in envs.values():
        for name in names:
            env.get_template(name)
    return len(names)


FORMS = (
    "login.html",
    "organizer.html",
    "correction.html",
    "table.html",
    "confirm.html",
    "checkin.html",
)


def page(
    request: Request,
    template: str,
    data: dict[str, Any],
    api: str | None = None,
    status: int = 200,
    **extra: Any,
) -> HTMLResponse:
    """Render a page of ``exports/templates/web/`` with the words of the visitor's language."""
    lang = lang_of(request)
    env: jinja2.Environment = request.app.state.envs[lang]
    name = template[1:] if template.startswith("/") else f"web/{template}"
    html = env.get_template(name).render(
        w=page_words(lang),
        lang=lang,
        data=data,
        api=api,
        path=request.url.path,
        # Only pages with forms start a session: a public visitor gets no cookie at all.
        csrf=csrf_token(request.session) if template in FORMS else "",
        **extra,
    )
    headers = {"Link": f'<{api}>; rel="alternate"; type="application/json"'} if api else {}
    headers["Cache-Control"] = "no-store"
    return HTMLResponse(html, status_code=status, headers=headers)
