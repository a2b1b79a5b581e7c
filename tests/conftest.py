from __future__ import annotations

import pytest

from engine.lexicon import Lexicon, default_lexicon


@pytest.fixture
def lexicon() -> Lexicon:
    return default_lexicon()
