"""The application's services: one function per flow, called alike by the CLI, the console and the
web.

Open a store (:mod:`~tournament.services.stores`); create, register, pair, close
(:mod:`~tournament.services.day`); start a challenge and record a move, digital dice included
(:mod:`~tournament.services.play`); correct: a ruling, a void, its replacement, an amended result,
previewed then stored (:mod:`~tournament.services.corrections`); import and show a match
(:mod:`~tournament.services.matches`); the sheets (:mod:`~tournament.services.printing`); copy,
the demo, simulations, the audit. A save that meets another terminal's is made again in one place
(:mod:`~tournament.services.retry`).
"""
