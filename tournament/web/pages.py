"""Rendering a page: a template of ``exports/templates/web/`` with the visitor's words.

Shared by the app's public pages and the organizer's and referee's routes (which never import
the app itself).
"""

from __future__ import annotations

from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from tournament.web.security import csrf_token
from tournament.web.words import lang_of, page_words

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
