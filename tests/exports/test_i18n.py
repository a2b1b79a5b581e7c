"""One catalogue for every text a person reads: complete in Italian, compiled as committed, and
no English left on an Italian sheet (every game's filled sheet, from the examples and the demo)."""

from __future__ import annotations

import gettext
import html as htmllib
import io
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("babel", reason="Babel is a test dependency (pip install -e '.[test]')")

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

from engine.games import game  # noqa: E402
from engine.message import msg, nmsg  # noqa: E402
from exports.i18n import LANGS, LOCALES, Catalogue, say, translator  # noqa: E402
from tests.support import EXAMPLES  # noqa: E402
from tests.tournament.test_match_cli import ok  # noqa: E402
from tournament.services.demo import build_demo  # noqa: E402
from tournament.services.printing import Printer  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
KEYWORDS = {**DEFAULT_KEYWORDS, "msg": None, "expecting": None, "nmsg": (1, 2)}
METHODS = [
    ("engine/**.py", "python"),
    ("exports/**.py", "python"),
    ("tournament/cli/**.py", "tournament.cli.catalogue:extract"),  # and --help (#28)
    ("tournament/**.py", "python"),
    ("exports/templates/**.html", "jinja2"),
]


def extracted() -> set[str]:
    """The message ids the code and templates use, as ``pybabel extract -F babel.cfg`` does."""
    ids = set()
    for _, _, message, _, _ in extract_from_dir(str(ROOT), METHODS, keywords=KEYWORDS):
        ids.add(message[0] if isinstance(message, tuple) else message)
    # The command line's sentences, t("..."): only there (elsewhere t is a tournament, a table),
    # and only sentences (Babel also takes a subscript such as t["rounds"] for a call).
    cli = extract_from_dir(str(ROOT / "tournament" / "cli"), [("**.py", "python")],
                           keywords={"t": None})  # fmt: skip
    ids |= {text for _, _, text, _, _ in cli if isinstance(text, str) and " " in text}
    return ids


def catalogue(lang: str):
    with open(LOCALES / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def test_the_config_names_the_sources_the_test_extracts() -> None:
    cfg = (ROOT / "babel.cfg").read_text()
    for pattern, method in METHODS:
        assert f"[{method}: {pattern}]" in cfg


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_in_the_catalogue(lang: str) -> None:
    used = extracted()
    assert len(used) > 200
    po = catalogue(lang)
    held = {m.id[0] if isinstance(m.id, tuple) else m.id for m in po if m.id}
    assert sorted(used - held) == [], f"run the catalogue refresh of exports/i18n.py ({lang})"
    assert sorted(held - used) == [], f"the {lang} catalogue holds messages nothing uses"
    if lang == "it":
        forms = {m.id: m.string if m.pluralizable else [m.string] for m in po if m.id}
        untranslated = [k for k, strings in forms.items() if not all(strings)]
        assert untranslated == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_compiled_catalogue_matches_its_po(lang: str) -> None:
    """The committed .mo is the .po compiled (``pybabel compile -d exports/locale``)."""
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(lang))
    committed = (LOCALES / lang / "LC_MESSAGES" / "messages.mo").read_bytes()
    assert committed == compiled.getvalue(), "run: pybabel compile -d exports/locale"
    it = gettext.GNUTranslations(io.BytesIO(committed))
    if lang == "it":
        assert it.gettext("Score sheet") == "Foglio di gioco"


@pytest.mark.parametrize("lang", LANGS)
def test_the_catalogue_read_as_asked_says_what_gettext_says(lang: str) -> None:
    """The catalogue found by binary search of the file (#27) holds every text, plural form and
    header field gettext's whole reading does, and misses what it misses."""
    data = (LOCALES / lang / "LC_MESSAGES" / "messages.mo").read_bytes()
    whole, asked = gettext.GNUTranslations(io.BytesIO(data)), Catalogue(io.BytesIO(data))
    assert type(asked._catalog).__name__ == "_Sorted"  # not gettext's fallback
    for key, text in whole._catalog.items():
        assert asked._catalog.get(key) == text, key
    assert dict(asked._catalog) == whole._catalog
    assert (asked._info, asked._charset) == (whole._info, whole._charset)
    for n in (0, 1, 2, 5):
        assert asked.plural(n) == whole.plural(n)
        assert asked.ngettext("%(num)s player", "%(num)s players", n) == whole.ngettext(
            "%(num)s player", "%(num)s players", n
        )
    for missing in ("no such text in any catalogue", ("no such text", 0), ("Score sheet", 0)):
        assert asked._catalog.get(missing) is None
    assert asked.gettext("no such text") == "no such text"


def test_a_catalogue_out_of_order_is_read_whole() -> None:
    """A .mo whose ids are not sorted (not as Babel or msgfmt write them) is read gettext's way."""
    import struct

    def mo(entries: list[tuple[bytes, bytes]]) -> bytes:
        n = len(entries)
        ids, texts = 28, 28 + 8 * n
        data = 28 + 16 * n
        blob, table_ids, table_texts = b"", [], []
        for original, _ in entries:
            table_ids += [len(original), data + len(blob)]
            blob += original + b"\0"
        for _, text in entries:
            table_texts += [len(text), data + len(blob)]
            blob += text + b"\0"
        head = struct.pack("<7I", 0x950412DE, 0, n, ids, texts, 0, 0)
        return head + struct.pack(f"<{4 * n}I", *table_ids, *table_texts) + blob

    header = b"Content-Type: text/plain; charset=UTF-8\n"
    unsorted = mo([(b"", header), (b"zebra", b"zebra!"), (b"apple", b"mela")])
    asked = Catalogue(io.BytesIO(unsorted))
    assert type(asked._catalog) is dict
    assert asked.gettext("apple") == "mela" and asked.gettext("zebra") == "zebra!"
    ordered = Catalogue(io.BytesIO(mo([(b"", header), (b"apple", b"mela"), (b"zebra", b"z!")])))
    assert type(ordered._catalog).__name__ == "_Sorted"
    assert ordered.gettext("apple") == "mela" and ordered.gettext("zebra") == "z!"
    assert ordered.gettext("mango") == "mango"


def test_plural_forms_and_engine_messages() -> None:
    it = translator("it")
    assert it.ngettext("%(num)s player", "%(num)s players", 1) % {"num": 1} == "1 giocatore"
    assert it.ngettext("%(num)s player", "%(num)s players", 3) % {"num": 3} == "3 giocatori"
    chain = nmsg("chain of %(n)s word", "chain of %(n)s words", 1)
    assert chain == "chain of 1 word" and say(chain, "it") == "catena di 1 parola"
    summary = msg(
        "round %(round)s; common letters %(common)s; totals %(totals)s",
        round=1,
        common=msg("none yet"),
        totals=("giallo 0", "blu 0"),
    )
    assert summary == "round 1; common letters none yet; totals giallo 0, blu 0"
    assert say(summary, "it") == "turno 1; lettere comuni ancora nessuna; totali giallo 0, blu 0"
    assert say(summary, "en") == summary
    assert say("giallo", "it") == "giallo"  # names and words played are not translated


# --- no English on an Italian sheet ----------------------------------------------------------

ENGLISH = (
    "roll rolls rolled round rounds winner winners total totals none true false answer answers "
    "doubt doubts end consonant consonants vowel letter letters different scores score the of "
    "and is with not out yet chain word words die target best key void ruling referee accepted "
    "rejected bye seed page player players points sinks hits makes stands writes passes "
    "entered mistake game games match matches table tables sheet signature pairings results "
    "challenge challenges after ships sunk hit turn damage attack defence guess card call "
    "running value expression divisions multiplications subtractions log state who what judged "
    "why yes rank third place final"
).split()  # not "standings" nor "bracket": the web lists files by name (standings.html)
# Names that stay as they are in both languages: game titles and tie-break names.
PROPER = ("Texas Word'em", "Sonneborn-Berger", "Buchholz")


class Text(HTMLParser):
    """The text of a page as a reader sees it (no style, no SVG)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.hidden += tag in ("style", "svg", "title")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("style", "svg", "title")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = Text()
    parser.feed(html)
    text = " ".join(parser.parts)
    for name in PROPER:
        text = text.replace(name, "")
    return text


def english_in(text: str, played: frozenset[str] = frozenset()) -> list[str]:
    """The words of the list in ``text``, but for the words played at the table and the chains
    a solver suggests (``none`` and ``dice`` are Italian words too)."""
    text = re.sub(r"\w+(?:-\w+)+", " ", text)  # chains: casa-rasa-resa
    words = re.findall(r"[A-Za-z]+", text)
    return sorted({w for w in words if w.lower() in ENGLISH and w.lower() not in played})


def played_words(store) -> frozenset[str]:
    """Every word, chain link and guess of every match in ``store``."""
    from engine.events import Chain, Guess, Reveal, Word
    from tournament.services.matches import load

    found: set[str] = set()
    for match in store.matches():
        for e in load(store, match.number).replay.events:
            if isinstance(e, (Word, Guess, Reveal)):
                found.add(e.word.lower())
            elif isinstance(e, Chain):
                found.update(w.lower() for w in e.words)
    return frozenset(found)


def test_the_detector_finds_english() -> None:
    assert english_in(visible("<p>roll: Nero consonant S N</p>")) == ["consonant", "roll"]
    assert english_in(visible("<p>risposta: blu False</p>")) == ["False"]
    assert english_in(visible("<p>giallo tira il dado delle consonanti: S N</p>")) == []
    assert english_in("la più corta: 3 parole (nane-none-nome)") == []
    assert english_in("giallo scrive none", frozenset({"none"})) == []


def printed(store, out: Path) -> dict[str, str]:
    """Every page the printer writes for ``store``, in Italian: name -> HTML."""
    written = Printer(store, out, "it").everything()
    return {p.name: p.read_text(encoding="utf-8") for p in written if p.suffix == ".html"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], frozenset[str]]:
    """Everything printed in Italian for the demo (its tournament, every example match) and for
    a single-elimination tournament (its bracket), and the words played in them."""
    from tournament.services.simulate import Simulation, run
    from tournament.storage.store import Store

    tmp = tmp_path_factory.mktemp("demo")
    store = build_demo(tmp / "demo.db")
    pages = printed(store, tmp / "out")
    knockout = Store(tmp / "knockout.db")
    run(knockout, Simulation(players=8, format="elimination", plays="tiro", seed=5, name="Coppa"))
    pages |= {f"knockout-{k}": v for k, v in printed(knockout, tmp / "knockout").items()}
    return pages, played_words(store) | played_words(knockout)


def test_the_pages_looked_at_are_every_kind_of_sheet(
    demo: tuple[dict[str, str], frozenset[str]],
) -> None:
    """Every game's filled sheet and report, a partita, the standings, pairings with closed
    rounds, the bracket and every blank sheet are among the pages the tests below read."""
    from engine.games import GAMES
    from exports.render import sheets

    pages = demo[0]
    titles = {
        htmllib.unescape(t[1]).strip()
        for name, html in pages.items()
        if name.startswith("scoresheet-") and (t := re.search(r"<h1>([^<·]+)", html))
    }
    assert titles == {game(g).title for g in GAMES}
    assert {f"sheet-{g}.html" for g in sheets()} <= set(pages)
    assert any(n.startswith("partita-") for n in pages)
    assert {"standings.html", "pairings-3.html", "knockout-bracket.html"} <= set(pages)
    assert "Risultati del turno 2" in pages["pairings-3.html"]
    assert sum(n.startswith("report-") for n in pages) == sum(
        n.startswith("scoresheet-") for n in pages
    )


def test_no_english_on_any_italian_sheet_of_the_demo(
    demo: tuple[dict[str, str], frozenset[str]],
) -> None:
    printed_demo, played = demo
    titles = (re.search(r"<h1>([^<·]+)", html) for html in printed_demo.values())
    games = {htmllib.unescape(t[1]).strip() for t in titles if t}
    assert {"Texas Word'em", "Tiro di precisione", "La parola nascosta", "Tetragon"} <= games
    assert sum(name.startswith("scoresheet-") for name in printed_demo) > 50
    found = {}
    for name, html in printed_demo.items():
        words = english_in(visible(html), played)
        if words:
            found[name] = words
    assert found == {}


def test_no_python_values_on_a_sheet(demo: tuple[dict[str, str], frozenset[str]]) -> None:
    for name, html in demo[0].items():
        text = visible(html)
        assert not re.search(r"\b(True|False|None)\b|\[\'|\{\'|\[\"|\{\"|\[\]|\{\}", text), name


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.jsonl")))
def test_every_example_prints_in_italian(example: str, tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "match", "import", str(EXAMPLES / example))
    out = tmp_path / "out"
    ok(db, "export", "scoresheet", "M1", "--out", str(out), "--lang", "it")
    for page in ("scoresheet-M1.html", "report-M1.html"):
        text = visible((out / page).read_text())
        assert english_in(text) == [], (page, english_in(text))
        assert "Registro degli eventi" in text or "Resoconto" in text
    ok(db, "export", "scoresheet", "M1", "--out", str(out), "--lang", "en")
    assert "Event log" in visible((out / "scoresheet-M1.html").read_text())


def test_the_pairings_reasons_are_the_pairings_own_texts() -> None:
    """exports says the Swiss pairing's reasons by their codes: the same English texts."""
    from exports.wording import REASONS, SEATED, pairing_reason
    from tournament.domain.pairing.seats import SEAT_NAMES
    from tournament.domain.pairing.tables import TEXTS

    assert REASONS == TEXTS
    for (code, seat), text in SEATED.items():
        assert seat in SEAT_NAMES.values() and text == TEXTS[code].replace("%(seat)s", seat)
    table = {
        "table": 1,
        "players": ["Rosa", "Nero"],
        "bye": False,
        "why": "Rosa (3) - Nero (3): same score; Rosa first: higher in the standings",
        "reasons": [
            {"code": "same_score", "params": {"score": "3"}},
            {"code": "seat_rank", "params": {"player": "Rosa"}},
        ],
    }
    assert pairing_reason(table, "en") == table["why"]
    assert pairing_reason(table, "it") == (
        "Rosa (3) - Nero (3): stesso punteggio; Rosa per primo: più in alto in classifica"
    )


def test_a_tiro_best_play_counts_its_operations_in_words(tmp_path: Path) -> None:
    """The audit's best expression (TIR-3) gives its divisions, multiplications and
    subtractions as a hit's own line does, not the solver's bare key ``(2, 0, 0)``."""
    import json

    from exports.wording import best_play

    db = tmp_path / "t.db"
    ok(db, "match", "import", str(EXAMPLES / "tiro-seed.jsonl"))
    best = json.loads(ok(db, "audit", "M1", "--json"))["timeline"][4]["best"]
    assert best.endswith(" (key (2, 0, 0))")  # the engine's sentence, kept in the JSON
    expr = best.removeprefix("best: ").removesuffix(" (key (2, 0, 0))")
    assert say(best_play(best), "it") == f"migliore: {expr} (2 div., 0 molt., 0 sottr.)"
    assert say(best_play(best), "en") == f"best: {expr} (2 div, 0 mul, 0 sub)"
