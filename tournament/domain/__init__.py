"""The domain: the tournament aggregate and its pure decisions (standings, pairing, names).

No storage, no front end: what a tournament is and what may happen to it.
"""
