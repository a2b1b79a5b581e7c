"""A table's referee page drawn in process (issue 27): the server's CPU of the page a move
answers with, by its parts, with no HTTP or other process to blur it on a shared machine. A
tournament of two players, its Tiro three moves in (two turns open, a log of three lines):

- the template's render alone (``web/table.html`` with the gathered data), each language, and
  the words said in Python for it (``tableview.worded``);
- gathering its data (``table_view``), its log's lines (kept) and the whole ``GET /table/TOKEN``
  through the app's middleware, in this process's CPU (the worker thread's included).

    python benchmarks/table_page.py                 # from the checkout
    PYTHONPATH=../main python benchmarks/table_page.py   # another checkout's code
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.append(str(Path(__file__).resolve().parents[1]))  # (PYTHONPATH first: to compare)

from tests.web.conftest import TIRO, build, csrf, make_client  # noqa: E402
from tests.web.test_festival import start_tiro  # noqa: E402


def each(count: int, work: Any) -> float:
    """This process's CPU seconds of one ``work()``, over ``count`` of them."""
    started = time.process_time()
    for _ in range(count):
        work()
    return (time.process_time() - started) / count


def asgi_get(app: Any, path: str, cookie: str) -> Any:
    """A GET of ``path`` through the whole app, as uvicorn calls it (no socket)."""
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 80),
             "headers": [(b"host", b"127.0.0.1"), (b"accept-encoding", b"gzip"),
                         (b"cookie", cookie.encode())]}  # fmt: skip

    async def get() -> None:
        sent: list[dict[str, Any]] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            sent.append(message)

        await app(dict(scope), receive, send)
        assert sent[0]["status"] == 200, sent[0]

    return get


def parts(app: Any, store: Any, t: Any, table: str, lang: str, n: int) -> str:
    """The page's render, its data gathered and its log's lines, in ``lang``: one line."""
    from tournament.web import tableview
    from tournament.web.words import page_words

    env, words = app.state.envs[lang], page_words(lang)
    data = tableview.table_view(store, 1, 1, None, lang, None, t)
    log = data["current"]["log"]
    gather = each(n, lambda: tableview.table_view(store, 1, 1, None, lang, None, t))
    lines = each(n, lambda: tableview.log_html(env, lang, words, log))
    data["current"]["log_html"] = tableview.log_html(env, lang, words, log)
    worded = getattr(tableview, "worded", None)  # (its words said in Python, #27; an older
    said = each(n, lambda: worded(data, lang, words)) if worded else 0.0  # checkout: none)
    template = env.get_template("web/table.html")
    fields = dict(w=words, lang=lang, data=data, api=None, path=table, csrf="x" * 43,
                  flash={"text": "ok", "good": True}, salt=None,
                  token=table.rsplit("/", 1)[1], kept=tableview.kept_of(None),
                  switch_to=table)  # fmt: skip
    render = each(n, lambda: template.render(**fields))
    return (f"render {render * 1000:.3f} ms, its words said {said * 1000:.3f} ms, "
            f"table_view {gather * 1000:.3f} ms, log lines {lines * 1000:.3f} ms")  # fmt: skip


def main() -> None:
    from tournament.web import views

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500, help="draws of each measure")
    n = parser.parse_args().count
    store = build(Path(tempfile.mkdtemp()) / "t.db")
    client = make_client(store)
    with client:
        table = start_tiro(client, store)
        page = client.get(table).text
        number = re.search(r'name="match" value="(M\d+)"', page).group(1)  # type: ignore[union-attr]
        for at, (by, kind, fields) in enumerate(TIRO[:3]):
            body = {"csrf": csrf(page), "match": number, "at": at, "page": True,
                    "fields": {"kind": kind, "by": by, **fields}}  # fmt: skip
            assert client.post(f"{table}/move", json=body).json()["status"] == "stored"
        cookie = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
        app, t = client.app, views.current_tournament(store)
        print(f"a table's page, {n} draws each, this process's CPU:")
        for lang in ("it", "en"):
            print(f"  {lang}: {parts(app, store, t, table, lang, n)}")
        get = asgi_get(app, table, cookie)

        async def gets() -> float:
            for _ in range(20):  # (the worker threads started)
                await get()
            started = time.process_time()
            for _ in range(n):
                await get()
            return (time.process_time() - started) / n

        whole = asyncio.run(gets())
        print(f"  GET /table/TOKEN through the app (it): {whole * 1000:.3f} ms")


if __name__ == "__main__":
    main()
