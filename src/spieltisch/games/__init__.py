"""One package per game; each exposes ``SPEC`` (a ``GameSpec``) and is found automatically."""
