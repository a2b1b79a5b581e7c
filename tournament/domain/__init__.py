"""The domain: the tournament aggregate, the read-only views of its state (rounds, tables,
players), and its pure decisions (results, standings, pairing, names).

No storage, no front end: what a tournament is and what may happen to it.
"""
