"""Settings remembered between runs: one small JSON file in the user's config folder.

An edge, like the library: a file problem becomes a :class:`SettingsError` of one line, and
a broken file never stops the app (it starts on the defaults and says so once). Writes go
to a temporary file that replaces the old one, so a killed process leaves the old settings
or the new ones, never half of either.

Rooms it may import: ``errors``, ``engine``, ``state``.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from .engine import TIC_TAC_TOE, Geometry
from .engine.geometry import format_variant, parse_variant
from .errors import InputError
from .state import OVERLAYS, EngineMode

FILE_NAME = "settings.json"
MAX_BYTES = 64 * 1024
"""A settings file is a few hundred bytes; anything this big is not one."""
SIDES = ("X", "O")
FORGOTTEN_OVERLAYS = ("line",)
"""Overlays of one move that are never remembered: the best line is of the move under the cursor (``r``), and a new
game under it would be an empty board covered in numbers. One found in the file reads as ``none``."""


class SettingsError(InputError):
    """The settings file cannot be read or written; the message names the file and the reason."""


@dataclass(frozen=True, slots=True)
class Settings:
    theme: str | None = None
    """A Textual theme's name; None for Textual's default."""
    overlay: str = "none"
    engine_mode: str = EngineMode.OFF.value
    engine_side: str = "O"
    variant: str = "3x3k3"
    """The variant of the last new game (``3x4k3``, ``3x3k3-misere``): the next run starts on it."""


_CHOICES: dict[str, tuple[str, ...]] = {
    "overlay": OVERLAYS,
    "engine_mode": tuple(mode.value for mode in EngineMode),
    "engine_side": SIDES,
}


def settings_path() -> Path:
    """``$XDG_CONFIG_HOME/workbench/settings.json``, or under ``~/.config`` when that is unset."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "workbench" / FILE_NAME


def parse_settings(text: str) -> Settings:
    """Settings from the file's text. Keys this version does not know are ignored (a newer
    version may have written them); a known key with a wrong value is an error naming it.

    :raises SettingsError: not JSON, not an object, or a value of the wrong kind.
    """
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise SettingsError(f"not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise SettingsError(f"expected a JSON object, found {type(data).__name__}")
    values = {}
    for field in fields(Settings):
        if field.name not in data:
            continue
        value = data[field.name]
        if field.name == "theme":
            if value is not None and not (isinstance(value, str) and value.strip()):
                raise SettingsError(f"'theme' must be a theme's name, not {value!r}")
        elif field.name == "variant":
            value = _app_variant(value)
        elif value not in _CHOICES[field.name]:
            raise SettingsError(f"'{field.name}' must be one of {', '.join(_CHOICES[field.name])}, not {value!r}")
        elif field.name == "overlay" and value in FORGOTTEN_OVERLAYS:
            value = "none"
        values[field.name] = value
    return Settings(**values)


def _app_variant(value: object) -> str:
    """A variant the app can start on, in its canonical spelling; else a :class:`SettingsError` saying why."""
    if not isinstance(value, str):
        raise SettingsError(f"'variant' must be a variant such as 3x4k3, not {value!r}")
    try:
        geometry = parse_variant(value)
    except ValueError as error:
        raise SettingsError(f"'variant': {error}") from None
    return format_variant(geometry)


def app_variant(text: str | None) -> Geometry:
    """The variant the app starts on: ``text``'s (``--game``), else the last played.

    :raises VariantError: ``text`` names no variant."""
    return remembered_variant() if text is None else parse_variant(text)


def remembered_variant() -> Geometry:
    """The variant the last new game was played on; classic 3×3 when nothing (or nothing usable) is remembered."""
    try:
        return parse_variant(load_settings().variant)
    except SettingsError:  # the app says so itself, once it shows
        return TIC_TAC_TOE


def format_settings(settings: Settings) -> str:
    return json.dumps(asdict(settings), indent=2) + "\n"


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; the defaults when there is no file yet.

    :raises SettingsError: the file exists but cannot be read or makes no sense.
    """
    path = path or settings_path()
    try:
        if not path.exists():
            return Settings()
        if not path.is_file():
            raise SettingsError(f"settings '{path}': not a regular file")
        if path.stat().st_size > MAX_BYTES:
            raise SettingsError(f"settings '{path}': too big to be a settings file")
        # UTF-8 is Python's locale encoding here (PEP 538/540), so no spelling of it changes anything
        text = path.read_text(encoding="utf-8")  # pragma: no mutate - the encoding's spelling (see above)
    except OSError as error:
        raise SettingsError(f"settings '{path}': {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise SettingsError(f"settings '{path}': not UTF-8 text") from None
    try:
        return parse_settings(text)
    except SettingsError as error:
        raise SettingsError(f"settings '{path}': {error}") from None


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings whole (a temporary file renamed over the old one).

    :raises SettingsError: the folder or the file cannot be written.
    """
    path = path or settings_path()
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
        with os.fdopen(handle, "w", encoding="utf-8") as file:  # pragma: no mutate - as for read_text above
            file.write(format_settings(settings))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise SettingsError(f"settings '{path}': {error.strerror or error}") from None
    finally:
        if temporary is not None:
            temporary.unlink(missing_ok=True)  # pragma: no mutate - only another process could have removed it first
