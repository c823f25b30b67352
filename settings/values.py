"""How a setting's raw value is read: whole numbers, flags, secrets from a file, and the one
error every unusable value raises (the start stops with its line, exit status 2)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

FLAG_VALUES = {"1": True, "true": True, "yes": True, "on": True,
               "0": False, "false": False, "no": False, "off": False}  # fmt: skip
MAX_SECRET_FILE_BYTES = 1024 * 1024  # a secret's file: tokens or a key, never a large file


class SettingsError(ValueError):
    """An environment variable holds a value arraygraph cannot use."""


def _int(env: Mapping[str, str], name: str, default: int, *, minimum: int = 1) -> int:
    raw = env.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} must be a whole number, got {raw!r}") from None
    if value < minimum:
        raise SettingsError(f"{name} must be at least {minimum}, got {value}")
    return value


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw not in FLAG_VALUES:
        raise SettingsError(f"{name} must be on or off (1/0, true/false, yes/no), got {raw!r}")
    return FLAG_VALUES[raw]


def secret(env: Mapping[str, str], name: str, file_name: str) -> str | None:
    """A secret from `name`, or from the file `file_name` names (as container secrets are
    mounted), never both; stripped of surrounding whitespace. Never echoed in an error."""
    given = env.get(name, "").strip()
    path = env.get(file_name, "").strip()
    if given and path:
        raise SettingsError(f"{name} and {file_name} are both set: set one of them")
    if not path:
        return given or None
    try:
        with Path(path).open("rb") as file:
            raw = file.read(MAX_SECRET_FILE_BYTES + 1)
    except OSError as exc:
        raise SettingsError(f"{file_name}: cannot read {path}: {exc.strerror}") from None
    if len(raw) > MAX_SECRET_FILE_BYTES:
        raise SettingsError(f"{file_name}: {path} is over {MAX_SECRET_FILE_BYTES} bytes")
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SettingsError(f"{file_name}: {path} is not UTF-8 text") from None
    if not text:
        raise SettingsError(f"{file_name}: {path} is empty")
    return text
