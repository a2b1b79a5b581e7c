"""Storage: the event store (SQLite or PostgreSQL), where it is, the stored names, its own tables.

Where eventsourcing's persistence, sqlite3 and psycopg are used; their errors leave it as the
application's (:mod:`tournament.storage.failures`). The front ends never import it: they open a
store through :mod:`tournament.services.stores`. verify reads its rows as bytes.
"""
