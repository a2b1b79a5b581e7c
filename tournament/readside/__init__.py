"""The read side: the read models (plain tables for SQL tools), reading a stored match, what the
sheets need.

Queries only: standings, players, matches, outcomes.
"""
