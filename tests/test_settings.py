"""The settings file: parse/format, the folder it lives in, broken files, atomic writes."""

import json
import os

import pytest
from hypothesis import given, strategies as st

from workbench.settings import (
    MAX_BYTES,
    Settings,
    SettingsError,
    format_settings,
    load_settings,
    parse_settings,
    save_settings,
    settings_path,
)
from workbench.state import OVERLAYS


def test_the_file_lives_under_xdg_config_home_or_dot_config(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert settings_path() == tmp_path / "cfg" / "workbench" / "settings.json"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert settings_path() == tmp_path / "home" / ".config" / "workbench" / "settings.json"


def test_no_file_means_the_defaults_and_a_saved_file_reads_back(tmp_path):
    path = tmp_path / "workbench" / "settings.json"
    assert load_settings(path) == Settings() == Settings(None, "none", "off", "O")
    chosen = Settings(theme="textual-light", overlay="values", engine_mode="perfect", engine_side="X")
    save_settings(chosen, path)  # makes the folder too
    assert load_settings(path) == chosen
    assert json.loads(path.read_text()) == {
        "theme": "textual-light",
        "overlay": "values",
        "engine_mode": "perfect",
        "engine_side": "X",
        "variant": "3x3k3",
    }
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]  # no temporary file left


@given(
    st.builds(
        Settings,
        theme=st.none() | st.text(min_size=1).filter(str.strip),
        overlay=st.sampled_from([o for o in OVERLAYS if o != "line"]),
        engine_mode=st.sampled_from(["off", "perfect", "trap", "random"]),
        engine_side=st.sampled_from(["X", "O"]),
        variant=st.sampled_from(["3x3k3", "3x3k3-misere", "3x4k3", "2x5k3-misere"]),
    )
)
def test_format_and_parse_are_a_pair(settings):
    assert parse_settings(format_settings(settings)) == settings


def test_the_best_line_overlay_of_a_move_is_never_read_back():
    """Finding 11: `r`'s overlay was saved, and every new game started as an empty board covered in numbers."""
    assert parse_settings('{"overlay": "line"}') == Settings(overlay="none")


def test_unknown_keys_are_ignored_and_missing_ones_default():
    assert parse_settings('{"overlay": "best", "sparkles": "many"}') == Settings(overlay="best")


def test_a_variant_is_kept_in_its_own_spelling():
    assert parse_settings('{"variant": "3×4K3-Misère"}').variant == "3x4k3-misere"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{", "not valid JSON"),
        ("[1, 2]", "expected a JSON object, found list"),
        ('"dark"', "expected a JSON object, found str"),
        (
            '{"overlay": "sparkles"}',
            "'overlay' must be one of none, values, win, block, fork, perfect_win, perfect_lose, best, line, not "
            "'sparkles'",
        ),
        ('{"engine_mode": 3}', "'engine_mode' must be one of off, perfect, trap, random, not 3"),
        ('{"engine_side": "x"}', "'engine_side' must be one of X, O, not 'x'"),
        ('{"theme": 7}', "'theme' must be a theme's name, not 7"),
        ('{"variant": 3}', "'variant' must be a variant such as 3x4k3, not 3"),
        ('{"variant": "chess"}', "'variant': unknown variant 'chess'"),
        ('{"variant": "16x3k3"}', "'variant': unknown variant '16x3k3': boards have 1 to 15 rows and columns"),
        ('{"theme": "  "}', "'theme' must be a theme's name, not '  '"),
        ("[" * 60_000, "not valid JSON"),  # nested past the recursion limit, still under the size limit
    ],
)
def test_a_broken_file_names_the_problem(text, reason, tmp_path):
    with pytest.raises(SettingsError) as error:
        parse_settings(text)
    assert reason in str(error.value)
    path = tmp_path / "settings.json"
    path.write_text(text)
    with pytest.raises(SettingsError) as error:
        load_settings(path)
    assert str(error.value).startswith(f"settings '{path}': ") and reason in str(error.value)
    assert "\n" not in str(error.value)


@given(st.binary(max_size=200))
def test_any_bytes_load_or_raise_settings_error(tmp_path_factory, data):
    path = tmp_path_factory.mktemp("fuzz") / "settings.json"
    path.write_bytes(data)
    try:
        assert isinstance(load_settings(path), Settings)
    except SettingsError as error:
        assert str(error).startswith(f"settings '{path}': ")


def test_not_a_file_too_big_and_not_text_are_refused(tmp_path):
    folder = tmp_path / "settings.json"
    folder.mkdir()
    with pytest.raises(SettingsError, match="not a regular file"):
        load_settings(folder)
    big = tmp_path / "big.json"
    big.write_text("{" + " " * MAX_BYTES + "}")
    with pytest.raises(SettingsError, match="too big to be a settings file"):
        load_settings(big)
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{"theme": "caf\xe9"}')
    with pytest.raises(SettingsError, match="not UTF-8 text"):
        load_settings(latin)


def test_a_write_that_fails_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    save_settings(Settings(overlay="values"), path)

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(SettingsError, match=r"^settings '.*settings\.json': No space left on device$"):
        save_settings(Settings(overlay="best"), path)
    assert load_settings(path) == Settings(overlay="values")
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path):
    blocker = tmp_path / "workbench"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(SettingsError, match=r"^settings '.*': "):
        save_settings(Settings(), blocker / "settings.json")


def test_the_file_is_indented_json_a_person_can_edit(tmp_path):
    path = tmp_path / "settings.json"
    save_settings(Settings(theme="nord", overlay="best"), path)
    assert path.read_text() == (
        '{\n  "theme": "nord",\n  "overlay": "best",\n  "engine_mode": "off",\n  "engine_side": "O",\n  "variant": '
        '"3x3k3"\n}\n'
    )


def test_a_file_of_exactly_the_limit_still_loads(tmp_path):
    path = tmp_path / "settings.json"
    body = '{"overlay": "values"}'
    path.write_text(body[:-1] + " " * (MAX_BYTES - len(body)) + "}")
    assert path.stat().st_size == MAX_BYTES
    assert load_settings(path) == Settings(overlay="values")


def test_an_unreadable_file_is_one_line_naming_it(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    path.write_text("{}")

    def refuse(self, *args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(type(path), "read_text", refuse)
    with pytest.raises(SettingsError) as error:
        load_settings(path)
    assert str(error.value) == f"settings '{path}': Permission denied"


def test_the_folders_are_made_and_the_temporary_file_sits_beside_the_settings(tmp_path, monkeypatch):
    path = tmp_path / "config" / "workbench" / "settings.json"  # neither folder exists yet
    seen = []
    real_fsync = os.fsync

    def look(fd):
        seen.extend(sorted(p.name for p in path.parent.iterdir()))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", look)
    save_settings(Settings(), path)
    [temporary] = seen  # written beside the file, so the final rename is atomic
    assert temporary.startswith(".settings-") and temporary.endswith(".tmp")
    assert [p.name for p in path.parent.iterdir()] == ["settings.json"]
