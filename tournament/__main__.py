from tournament.cli import run

run()
