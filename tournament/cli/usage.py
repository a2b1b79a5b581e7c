"""click's usage errors in the command line's own words and language (#28).

typer's vendored click writes its refusals as English literals ("Missing argument 'by'", "No
such option: --round (Possible options: --out)"). The root command says each kind here instead:
an argument named as the user types it (its metavar, ``BY``), an option by its flags; for an
unknown option, the one a typo most likely meant, or else the command's options, all of them.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from exports.i18n import N_
from tournament.cli.words import t

# click's sentences that carry no structured fields, read back into the catalogue's.
_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"No such command '(?P<name>.*)'\.?"), N_("no such command: %(name)s")),
    (
        re.compile(r"Got unexpected extra arguments? \((?P<args>.*)\)"),
        N_("unexpected extra arguments: %(args)s"),
    ),
    (
        re.compile(r"Option '(?P<option>.*)' requires an argument\.?"),
        N_("%(option)s needs a value"),
    ),
    (
        re.compile(r"Option '(?P<option>.*)' does not take a value\.?"),
        N_("%(option)s takes no value"),
    ),
]
_VALUE_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"(?P<value>'.*') is not a valid int(eger)?\.?"),
        N_("%(value)s is not a whole number"),
    ),
    (re.compile(r"(?P<value>'.*') is not a valid float\.?"), N_("%(value)s is not a number")),
    (re.compile(r"(?P<value>'.*') is not a valid boolean\.?"), N_("%(value)s is not yes or no")),
    (
        re.compile(r"(?P<value>'.*') is not one of (?P<choices>.*)\.?"),
        N_("%(value)s is not one of %(choices)s"),
    ),
    (
        re.compile(r"(?P<value>'.*') is not in the range (?P<range>.*)\.?"),
        N_("%(value)s is not in %(range)s"),
    ),
    (
        re.compile(r"(File|Directory|Path) (?P<value>'.*') does not exist\.?"),
        N_("%(value)s does not exist"),
    ),
]


def _hint(param: Any, ctx: Any) -> str:
    """A parameter as the user types it: an argument's metavar (``BY``), an option's flags."""
    if param is None:
        return ""
    if getattr(param, "param_type_name", "") == "argument":
        return str(param.metavar or param.name.upper())
    return " / ".join(param.opts)


def _matched(patterns: list[tuple[re.Pattern[str], str]], text: str) -> str | None:
    for pattern, id in patterns:
        if found := pattern.fullmatch(text.strip()):
            params = {k: v for k, v in found.groupdict().items() if v is not None}
            return t(id, **params)
    return None


def _options(ctx: Any) -> list[str]:
    if ctx is None:
        return []
    return sorted(
        {o for p in ctx.command.get_params(ctx) if p.param_type_name == "option" for o in p.opts}
        - {"--help"}
    )


def sentence(e: Any) -> str:
    """One sentence for a click usage error, in the run's language."""
    kind = type(e).__name__
    ctx = getattr(e, "ctx", None)
    if kind == "MissingParameter":
        param = e.param
        if getattr(param, "param_type_name", "") == "argument":
            return t("missing argument %(name)s", name=_hint(param, ctx))
        return t("missing option %(name)s", name=_hint(param, ctx))
    if kind == "NoSuchOption":
        options = _options(ctx)
        close = difflib.get_close_matches(e.option_name, options, n=1, cutoff=0.75)
        if close:
            return t(
                "no such option: %(option)s (did you mean %(close)s?)",
                option=e.option_name,
                close=close[0],
            )
        if options:
            return t(
                "no such option: %(option)s (the options here: %(options)s)",
                option=e.option_name,
                options=", ".join(options),
            )
        return t("no such option: %(option)s", option=e.option_name)
    if kind in ("BadParameter",) and getattr(e, "param", None) is not None:
        why = _matched(_VALUE_PATTERNS, e.message) or e.message
        return t("invalid value for %(name)s: %(why)s", name=_hint(e.param, ctx), why=why)
    message = getattr(e, "message", "") or e.format_message()
    return _matched(_PATTERNS, message) or _matched(_VALUE_PATTERNS, message) or message
