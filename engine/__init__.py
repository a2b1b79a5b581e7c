"""The rules engine: pure functions over immutable states, one module per game.

No I/O (except opening the lexicon), no clock, no randomness, no import of the application.
"""
