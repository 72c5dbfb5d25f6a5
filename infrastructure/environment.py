"""Reading ``GAMELEDGER_*`` variables (docs/operations.md lists every variable): the error a
setting the service cannot run with raises, and the reading of a yes/no setting. Shared by
:mod:`infrastructure.config` and the settings modules beside it."""

from __future__ import annotations


class ConfigurationError(ValueError):
    """A setting the service cannot run with."""


def yes_no(value: str, name: str) -> bool:
    """A yes/no setting."""
    if value.lower() not in ("yes", "no"):
        raise ConfigurationError(f"{name} must be yes or no.")
    return value.lower() == "yes"
