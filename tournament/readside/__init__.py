"""The read side: the read models (plain tables for SQL tools), reading a stored match.

Queries only: standings, players, matches, outcomes (:mod:`tournament.readside.queries`, which
the services and both front ends ask instead of writing SQL of their own). It imports no service.
"""
