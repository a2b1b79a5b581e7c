"""The match log's format: the ``tournament-match/1`` JSON Lines, its hash chains, plain JSON.

Bytes in, values out, and back: the same bytes every version writes and reads.
"""
