"""The application's services: one function per flow, called alike by the CLI, the console and the
web.

Register, pair, start a challenge, record a move, correct, close, import, copy, the demo.
"""
