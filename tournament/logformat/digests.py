"""SHA-1 and SHA-256 from CPython's own modules, the digests hashlib gives.

``import hashlib`` loads OpenSSL first: 3 ms, near a tenth of what a recording call adds to the
start-up of its libraries (#15). The chain's hashes (:mod:`tournament.logformat.matchlog`) and the
match ids (uuid5, :func:`tournament.storage.store.match_uuid`) need only these two; where CPython
is built without them, hashlib's serve.
"""

from __future__ import annotations

try:
    from _sha1 import sha1  # type: ignore[import-not-found]
    from _sha256 import sha256  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.12 renamed _sha256; other Pythons: hashlib
    try:
        from _sha1 import sha1  # type: ignore[import-not-found, no-redef, unused-ignore]

        from _sha2 import sha256  # type: ignore[import-not-found, no-redef, unused-ignore]
    except ImportError:
        from hashlib import sha1, sha256  # type: ignore[assignment, unused-ignore]

__all__ = ["sha1", "sha256"]
