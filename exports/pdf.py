"""PDF files written straight from the HTML with WeasyPrint: A4, the margins and the
"pagina 1 di 2" footer of the templates' ``@page`` rule, no browser header or footer.

WeasyPrint needs the pango library of the system; where either is missing the HTML is still
written and :class:`PdfUnavailable` says, in one sentence, what to install.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.message import msg


class PdfUnavailable(RuntimeError):
    """WeasyPrint or the pango library it draws text with is not installed."""


def write_pdf(html: str, path: Path) -> Path:
    """Print ``html`` into the PDF file ``path`` and return the path."""
    try:
        import weasyprint
    except ImportError:
        raise PdfUnavailable(
            msg(  # the install the README gives: the project's pdf extra (#28)
                "PDF files need WeasyPrint: pip install -e '.[pdf]' (the HTML files were written)"
            )
        ) from None
    except OSError:  # WeasyPrint is there, but the pango library it loads is not
        raise PdfUnavailable(
            msg(
                "PDF files need the pango library: apt-get install libpango-1.0-0 "
                "(the HTML files were written)"
            )
        ) from None
    data = weasyprint.HTML(string=html, base_url=str(path.parent)).write_pdf()
    # Written beside and moved into place: a refusal (a full disk) leaves no partial PDF (#29).
    new = path.with_name(f".{path.name}.{os.getpid()}.new")
    try:
        new.write_bytes(data)
        os.replace(new, path)
    finally:
        new.unlink(missing_ok=True)
    return path
