"""The shipped content: TOML data only, installed as the package ``sandbox.shipped`` (``pyproject.toml``)."""
