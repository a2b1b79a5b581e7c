"""Storage: the event store (SQLite or PostgreSQL), where it is, the stored names, its own tables.

The only package that knows eventsourcing's persistence, sqlite3 and psycopg.
"""
