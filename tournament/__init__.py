"""The application: the match log on eventsourcing, its interchange format and the CLI."""
