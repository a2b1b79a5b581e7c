"""The application, one package a layer (docs/packages.md): ``domain`` (the tournament and its
decisions), ``logformat`` (the match log's format and chains), ``storage`` (the event store),
``readside`` (read models and queries), ``verify``, ``services`` (one function per flow),
``season``, and the two front ends ``cli`` and ``web``; ``errors`` is what a user can be told."""

# The one place the version is written: pyproject.toml reads it from here (setuptools' dynamic
# version), so the installed package's metadata says the same. CHANGELOG.md names each release.
__version__ = "0.2.0"


def version() -> str:
    """The installed package's version, or :data:`__version__` where there is no metadata (the
    source tree on ``sys.path`` without ``pip install``)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("tournament")
    except PackageNotFoundError:
        return __version__
