"""Where things live: the default vault, per-vault app data, user config."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "pixelmem"
VAULT_ENV = "PIXELMEM_VAULT"
APPDATA_DIRNAME = ".pixelmem"


def default_vault_dir() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / "memories"


def config_dir() -> Path:
    override = os.environ.get("PIXELMEM_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME))


def resolve_vault(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The vault to use: an explicit argument, else ``$PIXELMEM_VAULT``, else the default."""
    if explicit:
        return Path(explicit).expanduser()
    env = os.environ.get(VAULT_ENV)
    if env:
        return Path(env).expanduser()
    return default_vault_dir()


def appdata_dir(vault: Path) -> Path:
    """``<vault>/.pixelmem``: embedding cache, inbox, trash (not scanned as memories)."""
    return vault / APPDATA_DIRNAME
