"""The front door (issue 19): ``sandbox run``'s tables fit the width and are plain text off a terminal, the account
ends with a key to the codes it used (``--plain`` spells them out), no library prints a banner, and a config file
with no ``#:schema`` line takes its kind from its folder or its keys."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from sandbox.cli import app
from sandbox.components.rules import LEVEL_CODES, TEST_WORDS
from sandbox.config.layout import kind_of, kind_of_folder
from sandbox.glossary import CODES, codes_in, key_line, spell_out

runner = CliRunner()
SHIPPED = Path(__file__).resolve().parents[1] / "configs"
ANY_CODE = re.compile(r"(?<![\w-])(" + "|".join([*LEVEL_CODES[1:], *TEST_WORDS, "HR"]) + r")(?![\w-])")
ANSI = re.compile(r"\x1b\[")
BOX = re.compile(r"[─━│┃┌┐└┘├┤┬┴┼╭╮╯╰]")


def sandbox(*args: str, columns: int | None = None) -> tuple[int, str]:
    """``sandbox args`` with its output captured (not a terminal), at ``columns`` (``None``: COLUMNS unset)."""
    env = {"COLUMNS": str(columns) if columns is not None else None}
    result = runner.invoke(app, list(args), env=env)
    out = result.output + (result.stderr if result.stderr_bytes is not None else "")
    assert "Traceback" not in out, out
    return result.exit_code, out


def account_parts(out: str) -> tuple[list[str], str]:
    """The lines of an account before its key, and the key line (``""`` when there is none)."""
    lines = out.rstrip("\n").split("\n")
    if lines[-1].startswith("Key: "):
        return lines[:-2], lines[-1]
    return lines, ""


# ------------------------------------------------------------------------------------------ tables that fit


def test_off_a_terminal_with_no_width_every_row_is_one_plain_line() -> None:
    code, out = sandbox("run", "skirmish", "-q")
    assert code == 0, out
    assert not ANSI.search(out) and not BOX.search(out), out
    lines = out.split("\n")
    header = next(i for i, line in enumerate(lines) if line.startswith("creature "))
    assert lines[header].split() == ["creature", "team", "alive", "health", "shock", "wounds", "(*", "bleeding)",
                                     "conditions"]
    assert set(lines[header + 1].replace(" ", "")) == {"-"}, "a row of dashes under the header"
    rows = lines[header + 2:header + 8]
    assert [row.split()[0] + " " + row.split()[1] for row in rows] == [
        "Red Sword", "Red Axe", "Red Bow", "Blue Mace", "Blue Spear", "Blue Bow"]
    # The columns line up: each row's team starts where the header's does.
    team_at = lines[header].index("team")
    assert all(row[team_at:team_at + 4].strip() in {"Red", "Blue"} for row in rows), rows


@pytest.mark.parametrize("columns", [80, 100, 120])
@pytest.mark.parametrize("args", [("run", "skirmish"), ("run", "battle", "-q", "--aftermath", "5"),
                                  ("run", "skirmish", "--model", "all"), ("run", "skirmish", "--plain"),
                                  ("body", "human"), ("blows", "--mode", "broadsword.cut", "-n", "200"),
                                  ("blows", "--mode", "broadsword.cut", "--exact")])
def test_every_line_fits_the_width(args: tuple[str, ...], columns: int) -> None:
    code, out = sandbox(*args, columns=columns)
    assert code == 0, out
    too_wide = [line for line in out.split("\n") if len(line) > columns]
    assert not too_wide, "\n".join(too_wide)
    assert not ANSI.search(out) and not BOX.search(out), out


def test_no_word_is_broken_across_lines_at_80_columns() -> None:
    code, out = sandbox("run", "skirmish", "--model", "all", columns=80)
    assert code == 0, out
    assert "incapacitated" in out and "incapacit\n" not in out
    header = next(line for line in out.split("\n") if line.lstrip().startswith("anatomy"))
    assert header.split() == ["anatomy", "severity", "depth", "strength", "status"], "every model keeps its column"


def test_a_narrow_closing_table_lists_the_wounds_under_it() -> None:
    _, narrow = sandbox("run", "skirmish", "-q", columns=80)
    _, wide = sandbox("run", "skirmish", "-q", columns=120)
    assert "Wounds (* bleeding):" in narrow and "  Blue Mace: Left Calf G4 S3 S3;" in narrow, narrow
    assert "wounds (* bleeding)" in wide.split("\n")[1] and "Wounds (* bleeding):" not in wide, wide


def test_a_battle_is_summed_up_by_team_and_state() -> None:
    """Past 60 creatures a row per creature is unreadable: a row per team and state, the counts summing to the
    fight's creatures, each state as the creature's own readout labels it; --every-creature lists each one."""
    from sandbox.array_world import ArrayWorld

    code, out = sandbox("run", "battle", "--engine", "array", "--seed", "2", "-q", columns=120)
    assert code == 0, out
    assert "200 creatures: a row per team and state" in out, out
    rows = [re.split(r"\s{2,}", line.strip()) for line in out.split("\n") if re.match(r"^(Red|Blue)\s{2,}", line)]
    world = ArrayWorld.from_scenario("battle", 2)
    world.run()
    expected: dict[tuple[str, str], int] = {}
    for entity in world.names:
        standing = world.standing(entity)
        expected[standing.team, standing.label] = expected.get((standing.team, standing.label), 0) + 1
    assert {(team, state): int(n) for team, state, n, _ in rows} == expected
    code, every = sandbox("run", "battle", "--engine", "array", "--seed", "2", "-q", "--every-creature",
                          columns=120)
    assert code == 0 and "a row per team and state" not in every
    assert all(name in every for name in world.names.values())


def test_a_small_fight_keeps_a_row_per_creature() -> None:
    _, out = sandbox("run", "skirmish", "-q", columns=120)
    assert "a row per team and state" not in out and "Blue Mace" in out


# ------------------------------------------------------------------------------------------ a key to the codes


def test_the_account_ends_with_a_key_to_exactly_the_codes_it_used() -> None:
    code, out = sandbox("run", "skirmish")
    assert code == 0, out
    body, key = account_parts(out)
    used = {m.group(1) for line in body for m in ANY_CODE.finditer(line)}
    assert key.startswith("Key: ")
    entries = key.removeprefix("Key: ").split("; ")
    assert [e.split(" ", 1)[0] for e in entries] == [c for c in CODES if c in used], "only those used, in order"
    assert "MF marginal failure" in entries and "S3 serious wound, level 3" in entries


def test_the_key_lists_only_what_a_quiet_account_used() -> None:
    _, out = sandbox("run", "duel", "-q")
    body, key = account_parts(out)
    used = [c for c in CODES if any(re.search(rf"(?<![\w-]){c}(?![\w-])", line) for line in body)]
    assert key == (key_line(used) if used else "")
    assert "MF" not in key or any("MF" in line for line in body)


def test_plain_spells_every_code_out_and_needs_no_key() -> None:
    code, out = sandbox("run", "skirmish", "--plain", "--aftermath", "2")
    assert code == 0, out
    body, key = account_parts(out)
    assert key == ""
    leftover = [line for line in body if ANY_CODE.search(line)]
    assert not leftover, "\n".join(leftover)
    assert "shock 7 marginal failure -> incapacitated" in out
    assert "serious edged wound, level 3" in out
    assert "extended shock (Healing Rate 5)" in out


@pytest.mark.parametrize(("text", "words"), [
    ("S3 edged (impact 13 - 0)", "serious edged wound, level 3 (impact 13 - 0)"),
    ("G4 blunt", "grievous blunt wound, level 4"),
    ("M1 piercing", "minor piercing wound, level 1"),
    ("shock 6 MF -> stunned", "shock 6 marginal failure -> stunned"),
    ("shock 5 CS -> none", "shock 5 critical success -> none"),
    ("Right Calf S3 G4", "Right Calf serious wound, level 3 grievous wound, level 4"),
    ("extended shock (HR 5)", "extended shock (Healing Rate 5)"),
    ("Blue MS-1 -> MSX", "Blue MS-1 -> MSX"),  # not a code: part of a longer word
])
def test_spell_out(text: str, words: str) -> None:
    assert spell_out(text) == words


def test_the_key_and_plain_use_the_words_of_the_attack_explanations() -> None:
    """The viewer shows an attack's explanation; ``--plain`` says the same words for the same codes."""
    from sandbox import Sandbox

    world = Sandbox.from_scenario("skirmish", seed=0)
    world.run()
    explanations = "\n".join(line for entry in world.log if entry.headline for line in entry.explain(world.names))
    for code in ("S2", "S3", "MF", "MS"):
        assert f"{code} ({CODES[code].split(',')[0]})" in explanations, code


def test_codes_in_orders_levels_then_tests() -> None:
    assert codes_in(["shock 6 MF", "Skull G4 M1", "(HR 5) CS"]) == ["M1", "G4", "CS", "MF", "HR"]
    assert key_line([]) == ""


# ------------------------------------------------------------------------------------------ quiet libraries


def test_the_viewer_prints_no_library_banner(tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("PYGAME_HIDE_SUPPORT_PROMPT", None)
    shot = tmp_path / "shot.png"
    proc = subprocess.run([sys.executable, "-m", "sandbox", "view", "duel", "--frames", "2", "--screenshot",
                           str(shot)], capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("rendered 2 frames"), proc.stdout
    assert "pygame" not in proc.stdout + proc.stderr, proc.stdout + proc.stderr
    assert proc.stderr == ""


# ------------------------------------------------------------------------------------------ files tell their kind


def wolf_body(named: str) -> str:
    """The shipped wolf body, without its ``#:schema`` line, renamed."""
    lines = (SHIPPED / "bodies" / "wolf.toml").read_text(encoding="utf-8").split("\n")
    text = "\n".join(line for line in lines if not line.startswith("#:schema"))
    return text.replace('name = "Gray Wolf"', f'name = "{named}"', 1)


@pytest.mark.parametrize(("folder", "kind"), [
    ("bodies", "body"), ("my_bodies", "body"), ("troll-weapons", "weapon"), ("Armour", "armor"),
    ("creature", "creature"), ("test_scenarios", "scenario"), ("body_armour", None), ("misc", None)])
def test_kind_of_folder(folder: str, kind: str | None) -> None:
    assert kind_of_folder(Path(folder)) == kind


def test_a_file_takes_its_kind_from_its_folder(tmp_path: Path) -> None:
    troll = tmp_path / "my_bodies" / "troll.toml"
    troll.parent.mkdir()
    troll.write_text(wolf_body("Troll"), encoding="utf-8")
    assert "Gray Wolf" not in troll.read_text(encoding="utf-8") and not troll.read_text().startswith("#:schema")
    assert kind_of(troll) == "body"
    code, out = sandbox("validate", str(troll))
    assert code == 0, out
    assert out.startswith("OK:"), out


def test_a_first_line_beats_the_folder_s_words(tmp_path: Path) -> None:
    odd = tmp_path / "my_bodies" / "claws.toml"
    odd.parent.mkdir()
    odd.write_text("#:schema ../schemas/weapon.schema.json\nname = \"Claws\"\n", encoding="utf-8")
    assert kind_of(odd) == "weapon"


def test_a_file_takes_its_kind_from_its_keys_when_only_one_kind_fits(tmp_path: Path) -> None:
    troll = tmp_path / "misc" / "troll.toml"
    troll.parent.mkdir()
    troll.write_text(wolf_body("Troll"), encoding="utf-8")
    assert kind_of(troll) is None
    code, out = sandbox("validate", str(troll))
    assert code == 0, out
    assert "is read as a body file: its keys fit no other kind" in out


@pytest.mark.parametrize(("text", "could"), [
    ('body = "wolf"\n', "its keys (body) could be an armor or a creature file"),
    ('name = "x"\n', "its keys (name) could be a body, a weapon, an armor, an item, a creature, a scenario or a "
                     "content file"),
    ('name = "x"\nfoo = 1\n', "its keys (name, foo) fit no kind"),
    ("name = \n", "a file of unknown kind, not TOML either"),
])
def test_a_file_whose_kind_is_unclear_says_what_it_could_be_and_how_to_say(tmp_path: Path, text: str,
                                                                             could: str) -> None:
    odd = tmp_path / "misc" / "odd.toml"
    odd.parent.mkdir()
    odd.write_text(text, encoding="utf-8")
    code, out = sandbox("validate", str(odd))
    assert code == 2, out
    assert could in out, out
    assert "or a first line '#:schema <kind>.schema.json' that names its kind" in out
    assert "(or in a folder named for one, such as my_bodies/)" in out
