from tournament.cli import main

main()
