from __future__ import annotations

import os

import pytest

# The command line speaks the tournament's language or the user's locale (docs/cli.md,
# "Language"); the tests read its English unless one asks for Italian (``--lang it``). Set in
# the environment, so that the processes the tests start speak it too.
os.environ["TOURNAMENT_LANG"] = "en"

from engine.lexicon import Lexicon, default_lexicon


@pytest.fixture
def lexicon() -> Lexicon:
    return default_lexicon()
