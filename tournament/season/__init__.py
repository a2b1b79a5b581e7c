"""Club seasons: standings and OpenSkill ratings across a season's tournaments (issue 16).

- :mod:`~tournament.season.config`: the season file (TOML) and its scoring;
- :mod:`~tournament.season.projection`: one tournament as the season sees it, read from its logs;
- :mod:`~tournament.season.standings`: season points per final place, best N counted;
- :mod:`~tournament.season.ratings`: OpenSkill ratings, overall and per game, with history;
- :mod:`~tournament.season.audit`: which correction moved whom;
- :mod:`~tournament.season.service`: the services the front ends call.
"""
