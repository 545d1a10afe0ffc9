"""The ``cardkit`` command line."""
