"""The ``sandbox`` command line.

Every command turns a bad config or bad option into a clear message on stderr and exit code 2, never a
traceback. Every command that reads content takes ``--content DIR`` (default: the ``SANDBOX_CONTENT`` variable, read
here and nowhere else: ``content_default``), and a scenario or body file inside a content tree brings its tree
along. The trees are handed on as arguments (a scenario resolved once, as a ``ScenarioRef`` that carries them), never
through the environment.

The heavy modules (pydantic and the config schemas, numpy, the systems, matplotlib, pygame) are imported inside the
commands that need them, never here: ``sandbox --help`` and a ``sandbox validate`` of content that validated before
start in a fraction of the time (``benchmarks/startup.py``).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from sandbox import __version__
from sandbox.config.errors import ConfigError, Problem, readable
from sandbox.config.limits import MAX_SCORE, MAX_SPREAD, MAX_TICKS
from sandbox.setup_error import SetupError

if TYPE_CHECKING:
    from sandbox.config.content import ScenarioRef
    from sandbox.files import Target

__all__ = [
    "CONTENT_ENV",
    "ENGINE_HELP",
    "EXIT_CODES",
    "MAX_AFTERMATH_DAYS",
    "MAX_BLOWS",
    "MAX_CHUNK",
    "MAX_FRAMES",
    "MAX_RUNS",
    "MAX_SEED",
    "SCENARIO_HELP",
    "ContentOption",
    "Format",
    "app",
    "blows",
    "body",
    "content_default",
    "init",
    "lab",
    "main",
    "run",
    "schema",
    "validate",
    "view",
]

MAX_BLOWS = 10_000_000
"""The most blows one ``sandbox blows`` samples (more would run for minutes and fill memory)."""
MAX_AFTERMATH_DAYS = 3650.0
"""The longest ``sandbox run --aftermath`` (ten years: every wound has long healed or killed by then)."""
MAX_RUNS = 10_000_000
"""The most runs per model one ``sandbox lab`` takes (about 2.5 hours per model on two cores)."""
MAX_CHUNK = 100_000
"""The most runs one chunk of ``sandbox lab`` takes: on the array engine one world, so 200,000 creatures for a duel
(about 0.9 GB of memory, measured), five times the default world (``sandbox.lab.plan.ARRAY_WORLD``)."""
MAX_SEED = 2**63 - 1
"""The largest root seed (seeds are 0 .. 2**63 - 1)."""

app = typer.Typer(
    name="sandbox",
    help="Combat sandbox: creatures made of data fight, and every blow lands somewhere real.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rendering it with rich would import rich's markdown, a tenth of a second
)

CONTENT_ENV = "SANDBOX_CONTENT"
"""The environment variable that names the content trees a command uses when it is given no ``--content`` (several:
separated by ``os.pathsep``). The command line's default only: the library (``load_catalog``, ``Sandbox``) never reads
it."""


def content_default() -> list[Path]:
    """``--content``'s default: the trees ``SANDBOX_CONTENT`` names (empty entries skipped).

    The one place the variable is read; everything below the command line is handed the trees.
    """
    value = os.environ.get(CONTENT_ENV, "")
    return [Path(part) for part in value.split(os.pathsep) if part.strip()]


ContentOption = Annotated[list[Path] | None, typer.Option(
    "--content", help="A content tree (a folder with a content.toml) extending the shipped content; repeat it for "
                      f"several. Default: the trees in ${CONTENT_ENV}.", show_default=False)]
"""``--content``: ``None`` when not given, for ``content_default`` (``_named``)."""
SCENARIO_HELP = "A scenario id (duel, skirmish, or one of your content's) or a scenario TOML file."


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"combat-sandbox {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_show_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Combat sandbox: creatures made of data fight, and every blow lands somewhere real."""


class Format(StrEnum):
    """Output formats of ``sandbox blows``."""

    table = "table"
    jsonl = "jsonl"


def _fail(message: str) -> None:
    typer.echo(readable(message), err=True)  # a value the user gave is shown cut to a readable length
    raise typer.Exit(2)


def _named(content: list[Path] | None) -> list[Path]:
    """The trees ``--content`` named, else its default (``content_default``)."""
    return content_default() if content is None else content


def _trees(content: list[Path] | None, near: Iterable[str | Path] = ()) -> tuple[Path, ...]:
    """The content trees of a command.

    ``--content`` (else ``SANDBOX_CONTENT``) plus the tree of each file it was given by path (a body file).
    """
    from sandbox.config.content import is_scenario_path, resolve_content

    return resolve_content(_named(content), near=[Path(p) for p in near if is_scenario_path(p)])


def _scenario(scenario: str, content: list[Path] | None) -> ScenarioRef:
    """The command's scenario, resolved once: what the world, the lab and its workers, or the viewer are handed.

    The scenario is an id, or a file and the tree it lies in, resolved with the trees of ``--content`` (else
    ``SANDBOX_CONTENT``).
    """
    from sandbox.config.content import scenario_ref

    return scenario_ref(scenario, _named(content))


@contextmanager
def _friendly() -> Iterator[None]:
    """Turn the errors a user can cause into a message and exit code 2."""
    try:
        yield
    except ConfigError as exc:
        _fail(str(exc))
    except SetupError as exc:
        _fail(f"error: {exc}")
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM (the entry point's): no traceback, exit 130
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None


@app.command()
def body(
    name: Annotated[str, typer.Argument(help="A body id (human, wolf, or one of your content's) or a path to a body "
                                             "TOML file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")] = False,
    content: ContentOption = None,
) -> None:
    """Show an anatomy: zones and their zone numbers, parts, locations and the unaimed hit odds."""
    import json

    from sandbox.config.loader import load_body
    from sandbox.report import body_json, body_report

    with _friendly():
        structure = load_body(name, _trees(content, [name]))
        if as_json:
            typer.echo(json.dumps(body_json(structure), indent=2))
        else:
            typer.echo(body_report(structure))


@app.command()
def blows(
    body: Annotated[str, typer.Option(help="Target body id (yours too) or body TOML path.")] = "human",
    mode: Annotated[str | None, typer.Option(help="Strike mode WEAPON.MODE (broadsword.cut).")] = None,
    impact: Annotated[int | None, typer.Option(help="A final impact used as is (no Strength modifier).",
                                               min=-1000, max=1000)] = None,
    aspect: Annotated[str | None, typer.Option(help="Aspect of an --impact blow: blunt, edged, piercing, fire.")]
    = None,
    armor: Annotated[str, typer.Option(help="Armour pieces worn by the target, comma-separated.")] = "",
    aim: Annotated[str | None, typer.Option(help="The part or location aimed at (a location: its part's zone; "
                                                 "default: unaimed).")] = None,
    spread: Annotated[int | None, typer.Option(help="Spread (default: the mode's, or 1 with --impact).",
                                               max=MAX_SPREAD)] = None,  # at least 1: BlowSetup says so
    location: Annotated[str | None, typer.Option(help="Force the location struck.")] = None,
    strength: Annotated[int | None, typer.Option(help="Attacker's STR (default: the average human's).", min=0,
                                                 max=MAX_SCORE)] = None,
    shock_ml: Annotated[int | None, typer.Option(help="Target's Shock ML (default: its creature's).", min=0,
                                                 max=MAX_SCORE)] = None,
    strength_ml: Annotated[int | None, typer.Option(help="Target's Strength ML (default: its creature's).", min=0,
                                                    max=MAX_SCORE)] = None,
    n: Annotated[int, typer.Option("-n", help="How many blows.", min=1, max=MAX_BLOWS)] = 10000,
    seed: Annotated[int, typer.Option(help="Root seed; the same seed gives the same blows.", min=0,
                                      max=MAX_SEED)] = 0,
    fmt: Annotated[Format, typer.Option("--format", help="table (odds) or jsonl (one record per blow).")]
    = Format.table,
    exact: Annotated[bool, typer.Option("--exact", help="Print the exact odds (location, level, shock state ...) "
                                                        "instead of sampling blows.")] = False,
    content: ContentOption = None,
) -> None:
    """What one strike does to one body, blow by blow (jsonl) or as odds (table; vectorised from 100,000 blows)."""
    import json

    from sandbox.blows import BlowSetup, Odds, seeded_blows
    from sandbox.blows import record as blow_record
    from sandbox.config.loader import default_catalog, load_body
    from sandbox.report import odds_report
    from sandbox.vector_odds import VECTOR_FROM, exact_odds, exact_report, vector_odds

    with _friendly():
        trees = _trees(content, [body])
        catalog = default_catalog(trees)
        target_body = load_body(body, trees)
        setup = BlowSetup.build(
            catalog, body=target_body, mode=mode, impact=impact, aspect=aspect,
            armor=[a.strip() for a in armor.split(",") if a.strip()], aim=aim, spread=spread, location=location,
            strength=strength, shock_ml=shock_ml, strength_ml=strength_ml)
        if exact:
            if fmt is Format.jsonl:
                raise SetupError("--exact prints an odds table; it does not go with --format jsonl")
            typer.echo(exact_report(exact_odds(setup), setup, setup.describe()))
            return
        if fmt is Format.table and n >= VECTOR_FROM:  # records stay per blow; big odds tables go vectorised
            typer.echo(odds_report(vector_odds(setup, n, seed), f"{setup.describe()}; seed {seed} (vectorised)"))
            return
        results = seeded_blows(setup, n, seed)
        if fmt is Format.jsonl:
            write = sys.stdout.write
            for result in results:
                write(json.dumps(blow_record(result, target_body)) + "\n")
            return
        odds = Odds()
        for result in results:
            odds.add(result, target_body)
        typer.echo(odds_report(odds, f"{setup.describe()}; seed {seed}"))


@app.command()
def run(
    scenario: Annotated[str, typer.Argument(help=SCENARIO_HELP)],
    model: Annotated[str | None, typer.Option(
        help="Damage model (default: the scenario's); 'all' runs every model and compares them.")] = None,
    seed: Annotated[int, typer.Option(help="Root seed; the same seed gives the same fight.", min=0,
                                      max=MAX_SEED)] = 0,
    ticks: Annotated[int | None, typer.Option(help="Tick limit (default: the scenario's).", min=1,
                                              max=MAX_TICKS)] = None,
    log: Annotated[Path | None, typer.Option(help="Write every event as JSON lines to this file ('-' or a device "
                                                  "such as /dev/stdout: printed; the account then goes to stderr).")
                   ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only the outcome and the closing table.")] = False,
    plain: Annotated[bool, typer.Option("--plain", help="Spell the rules' codes out in words (S3: serious wound, "
                                        "level 3; MF: marginal failure) instead of ending with a key to them.")]
    = False,
    aftermath: Annotated[float | None, typer.Option(
        help="Then carry the survivors through this many days of treatment and healing.", min=0,
        max=MAX_AFTERMATH_DAYS)] = None,
    content: ContentOption = None,
    engine: Annotated[str, typer.Option(help=ENGINE_HELP)] = "esper",
    trace: Annotated[list[str] | None, typer.Option(
        "--trace", help="With --engine array: account for this creature's landed blows in full (repeat it for "
                        "several; default: every creature, none with -q).", show_default=False)] = None,
    every_creature: Annotated[bool, typer.Option(
        "--every-creature", help="A closing row per creature however many fought (past 60 the table sums the fight "
                                 "up by team and state).")] = False,
) -> None:
    """Run a skirmish headless and print what happened: every landed blow, then each creature's state."""
    from sandbox.interrupts import sigterm_as_interrupt

    _import_before_interrupts(engine)
    try:
        with _friendly(), sigterm_as_interrupt():
            _run(scenario, model, seed, ticks, log, quiet, aftermath, plain, engine, trace or [], every_creature,
                 content)
    except KeyboardInterrupt:
        # Ctrl-C or SIGTERM: the log is whole or absent (written last, through a temporary file).
        typer.echo("interrupted" + (f"; the log {log} is whole or absent" if log is not None else ""), err=True)
        raise typer.Exit(130) from None


def _import_before_interrupts(engine: str = "esper") -> None:
    """Import every damage model, the systems and numpy's generators before SIGTERM becomes an interrupt.

    An interrupt raised while a module is being imported is unreliable in CPython 3.11: inside code built by
    ``exec`` from a string (dataclasses and named tuples are made that way) it is remembered as "unhandled" even
    when caught, so the process ends killed by SIGINT instead of with exit code 130; inside an extension module's
    initialisation (numpy.random) it can be lost altogether. Importing first keeps the interrupt out of both.

    The heavy modules are imported here, when the command starts, not with the CLI, so a Ctrl-C can land in these
    imports: it stops the command as any interrupt does (exit 130, no traceback), as far as CPython lets it.
    ``engine``: what that engine runs on too (the array engine: numpy, numba; an unknown name is refused later).
    """
    try:
        import numpy.random  # noqa: F401 (numpy loads it lazily, on the first seed)

        from sandbox.engines import ENGINES  # the esper world and the systems come with it
        from sandbox.models import available_models

        if engine in ENGINES:
            ENGINES[engine].load()
        available_models()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise typer.Exit(130) from None


def _run(scenario: str, model: str | None, seed: int, ticks: int | None, log: Path | None, quiet: bool,
         aftermath: float | None, plain: bool = False, engine: str = "esper", trace: list[str] | None = None,
         every_creature: bool = False, content: list[Path] | None = None) -> None:
    """The body of ``sandbox run``: the account, then (unless ``plain``) a key to the codes it used."""
    from sandbox.account import account_key, blow_lines, closing_table, outcome_line
    from sandbox.engines import DEFAULT_ENGINE, ENGINES, TRACE_ALL, World, engine_named, open_world
    from sandbox.eventlog import write_jsonl
    from sandbox.files import atomic_text
    from sandbox.models import available_models
    from sandbox.world import Sandbox, SandboxError

    if model is not None and model not in (*available_models(), "all"):
        raise SetupError(f"--model: expected one of {', '.join(available_models())} or all, found {model!r}")
    if not scenario.strip():
        raise SetupError("expected a scenario id (duel, skirmish ...) or a scenario file, found an empty name")
    ref = _scenario(scenario, content)
    where = _check_writable(log) if log is not None else None  # before the fight, not after it ran for minutes
    to_stdout = where is not None and where.kind == "fd" and where.fd == 1  # a printed log keeps stdout to itself

    def echo(text: str, wrap: bool = False, indent: int = 0) -> None:
        if wrap:
            _say(text, indent, err=to_stdout)
        else:
            typer.echo(text, err=to_stdout)

    _check_engine(engine, [model] if model != "all" else [], [
        (model == "all", "--model all (it compares every model)"), (aftermath is not None, "--aftermath")])
    if trace and not engine_named(engine).traces:
        tracing = " or ".join(name for name, known in ENGINES.items() if known.traces)
        raise SetupError(f"--trace goes with --engine {tracing} (the {engine} engine accounts for every creature)")
    if model == "all":
        from sandbox.account import comparison_table, run_model

        if log is not None:
            raise SetupError("--log goes with one model (--model all compares the models, it keeps no log)")
        try:
            runs = [run_model(ref, seed, name, ticks) for name in available_models()]
        except SandboxError as exc:  # a model that cannot hold the scenario (an item it has no use for)
            raise SetupError(str(exc)) from None
        _say(f"{scenario} under every damage model, seed {seed} (the same attack and location draws in each)")
        _echo_account([comparison_table(runs, plain)], plain)
        return
    world: World
    lasting: Sandbox | None = None  # a world carried on past its fight (the aftermath: _check_engine allowed it)
    try:
        if aftermath is not None:
            world = lasting = Sandbox.from_scenario(ref, seed=seed, model=model)
        else:
            world = open_world(ref, engine, seed=seed, model=model, trace=trace or ([] if quiet else TRACE_ALL))
        spec = world.scenario
        assert spec is not None
        outcome = world.run(ticks)  # a limit past what the engine runs is refused before the first tick
    except SandboxError as exc:
        raise SetupError(str(exc)) from None
    names = world.names
    printed: list[str] = []
    if not quiet:
        on = f", engine {engine}" if engine != DEFAULT_ENGINE else ""
        echo(f"{spec.name}: {spec.description} (model {world.model}{on}, seed {seed})", wrap=True)
        for line in blow_lines(world.log, names, plain):
            echo(line)
            printed.append(line)
        echo("")
    echo(outcome_line(outcome), wrap=True)
    printed.append(closing_table(world, plain, every=every_creature))
    echo(printed[-1])
    if aftermath is not None and lasting is not None:
        from sandbox.account import aftermath_table

        start = lasting.time
        lasting.advance(days=aftermath)
        echo(f"\nAftermath: {aftermath:g} days of first aid, treatment and healing", wrap=True)
        printed.append(aftermath_table(lasting, start, plain))
        echo(printed[-1])
    if not plain and (key := account_key(printed)):
        echo("\n" + key, wrap=True, indent=len("Key: "))
    if log is not None:
        try:
            with atomic_text(log) as fh:
                count = write_jsonl(world.events, names, fh)
        except BrokenPipeError:
            raise  # the log's reader stopped reading (sandbox run --log - | head): nothing failed
        except OSError as exc:
            raise SetupError(f"cannot write the log {log}: {exc.strerror or exc}") from None
        world.close()  # before the last line: a signal after it finds no finalizer left to interrupt
        typer.echo(f"{count} events written to {log}", err=to_stdout)


ENGINE_HELP = ("The engine that runs the fight: esper (every model, every feature) or array (numpy; the anatomy model; "
               "battles of 100,000).")
"""The ``--engine`` option's help, the same on ``run`` and ``view``."""


def _check_engine(engine: str, models: Iterable[str | None], esper_only: Iterable[tuple[bool, str]]) -> None:
    """Refuse, before any work, what ``engine`` cannot run.

    An unknown engine, and on the array engine a damage model it does not run (``None``: the scenario's, checked when
    the world is built) and each option given that runs on the esper engine only (``(given, what it is)`` pairs).

    Raises:
        SetupError: The first of those (the message says which).
    """
    from sandbox.engines import engine_named
    from sandbox.world import SandboxError

    try:
        engine_named(engine).refuse(models, esper_only)
    except SandboxError as exc:
        raise SetupError(str(exc)) from None


def _say(text: str, indent: int = 0, err: bool = False) -> None:
    """Print a line of prose wrapped at the output's width (leading blank lines kept), to stderr when ``err``."""
    from sandbox.report import wrapped

    body = text.lstrip("\n")
    typer.echo("\n" * (len(text) - len(body)) + wrapped(body, indent), err=err)


def _echo_account(parts: list[str], plain: bool) -> None:
    """Print ``parts`` of an account, then (unless ``plain``) the key to the codes they used."""
    from sandbox.account import account_key

    for part in parts:
        typer.echo(part)
    if not plain and (key := account_key(parts)):
        _say("\n" + key, indent=len("Key: "))


def _check_writable(path: Path, what: str = "the log") -> Target:
    """Fail early, as a setup error, when ``path`` cannot be written; else return what it names.

    Unwritable paths include a folder, one in a missing or read-only folder, and a device this user may not write. What
    it names is a ``sandbox.files.target``.
    """
    from sandbox.files import check_writable

    try:
        return check_writable(path)
    except OSError as exc:
        raise SetupError(f"cannot write {what} {path}: {exc.strerror or exc}") from None


@app.command()
def lab(
    scenario: Annotated[str, typer.Argument(help=SCENARIO_HELP)],
    runs: Annotated[int, typer.Option("--runs", help="Runs per model and variant (with --solve: the most runs per "
                                                     "probe).", min=1, max=MAX_RUNS)],
    models: Annotated[str | None, typer.Option(
        "--models", help="'all' or a comma-separated list of damage models (default: all; with variants, --scale "
                         "or --solve: the scenario's model).")] = None,
    seed: Annotated[int, typer.Option(help="Root seed; run i is (seed, i) under every model and variant.", min=0)] = 0,
    jobs: Annotated[int | None, typer.Option(
        help="Worker processes (default: one per CPU, at most 4 per CPU); 1 runs in this process.", min=1)] = None,
    out: Annotated[Path, typer.Option(help="A new or empty folder for the lab's files.")] = Path("lab"),
    resume: Annotated[bool, typer.Option("--resume", help="Continue the interrupted lab in --out (the same "
                                                          "options): finished runs kept, the rest run.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace the lab in --out; the earlier results stay whole "
                                                        "until the new ones are complete.")] = False,
    variants: Annotated[Path | None, typer.Option("--variants", help="A TOML file of [variants.NAME] tables of "
                                                                    "patches (key = value).")] = None,
    vary: Annotated[list[str] | None, typer.Option("--vary", help="KEY=V1,V2,...: a variant per value "
                                                                  "(repeatable).")] = None,
    scale: Annotated[str | None, typer.Option("--scale", help="KEY[:STEP][,KEY...]: scale factors, the change "
                                                              "per unit of each parameter.")] = None,
    solve: Annotated[str | None, typer.Option("--solve", help="KEY: find its value that gives --target, within "
                                                              "--between.")] = None,
    between: Annotated[tuple[float, float] | None, typer.Option("--between", help="LO HI: the range of --solve.")]
    = None,
    target: Annotated[str | None, typer.Option("--target", help="TEAM=RATE (Red=0.5) or TEAM=TEAM (Red=Blue) "
                                                                "for --solve.")] = None,
    target_error: Annotated[float | None, typer.Option(
        help="Stop once every win rate's 95% half-width is below this; with --solve, once the solved value's 95% "
             "half-width (in its units) is (default: a fiftieth of the range).", min=0.0)] = None,
    chunk: Annotated[int | None, typer.Option(
        help="Runs per chunk of work shipped to a worker (default: 25 on the esper engine; on the array "
             "engine, one array world per chunk, as many as make 40,000 creatures: 20,000 for a duel, 200 for "
             "the battle; its memory grows with the chunk times the creatures of a fight).", min=1, max=MAX_CHUNK,
        show_default=False)] = None,
    scheduler: Annotated[str | None, typer.Option(
        help="A Dask scheduler (tcp://HOST:PORT) to run the chunks on instead of local processes.")] = None,
    worker_timeout: Annotated[float, typer.Option(
        help="With --scheduler: stop (runs kept, --resume continues) after this many seconds with no live "
             "worker.", min=1.0, max=86_400.0)] = 60.0,
    odds_blows: Annotated[int, typer.Option(
        help="Blows per odds card (one card per distinct strike, body, armour and aim, vectorised); 0: no cards.",
        min=0, max=1_000_000)] = 100_000,
    content: ContentOption = None,
    engine: Annotated[str, typer.Option(
        help="The engine that runs the fights: esper (every model and feature) or array (the anatomy model; each "
             "chunk of runs one numpy world of independent fights).")]
    = "esper",
) -> None:
    """Run many seeded skirmishes per damage model and variant.

    Win rates with 95% intervals, paired differences between variants (common random numbers), scale factors, a solve
    for a target; tidy records (runs.csv, combatants.csv, blows.csv), summary.json, plots and one self-contained
    report.html.
    """
    from sandbox.interrupts import sigterm_as_interrupt

    _import_before_interrupts(engine)
    with _friendly(), sigterm_as_interrupt():
        _lab(_scenario(scenario, content), runs, models, seed, jobs, out, resume, force, variants, vary or [], scale,
             solve, between, target, target_error, chunk, scheduler, worker_timeout, odds_blows, engine)


def _lab(scenario: ScenarioRef, runs: int, models: str | None, seed: int, jobs: int | None, out: Path, resume: bool,
         force: bool, variants: Path | None, vary: list[str], scale: str | None, solve: str | None,
         between: tuple[float, float] | None, target: str | None, target_error: float | None, chunk: int | None,
         scheduler: str | None, worker_timeout: float, odds_blows: int, engine: str = "esper") -> None:
    """The body of ``sandbox lab``.

    Every part of it (the checks, the plan, the workers of the pool or the Dask cluster) is handed ``scenario``, which
    carries the content trees.
    """
    import signal

    from sandbox.config.loader import default_catalog
    from sandbox.lab.errors import LabError
    from sandbox.lab.executors import check_jobs, check_scheduler, dask_executor, make_executor
    from sandbox.lab.folder import LabFolder
    from sandbox.lab.plan import (
        LabPlan,
        check_engine,
        default_chunk,
        default_models,
        read_variants,
        scale_keys,
        solve_spec,
        vary_variants,
    )
    from sandbox.lab.runner import cast_of, parse_models
    from sandbox.lab.session import run_session
    from sandbox.lab.summary import differences_table, scale_table, solve_lines, summary_table
    from sandbox.lab.variants import BASELINE, Variant, check_patches

    try:
        if scheduler is not None:
            check_scheduler(scheduler)
        workers = jobs or os.cpu_count() or 1
        check_jobs(workers)
        if variants is not None and vary:
            raise LabError("--variants and --vary: give one of them")
        chosen = read_variants(variants) if variants is not None else vary_variants(vary) if vary else (
            Variant(BASELINE),)
        if solve is None and (between is not None or target is not None):
            raise LabError("--between and --target go with --solve KEY")
        if solve is not None and (between is None or target is None):
            raise LabError("--solve KEY needs --between LO HI and --target TEAM=RATE (or TEAM=TEAM)")
        for variant in chosen:
            check_patches(variant, scenario)
        cast = cast_of(scenario)
        asks = len(chosen) > 1 or scale is not None or solve is not None
        if models is None:
            models = default_models(engine, scenario, asks)
        keys = scale_keys(scale, scenario, chosen[0]) if scale is not None else ()
        spec = (solve_spec(solve, between, target, cast.team_order, target_error, scenario, chosen[0])
                if solve is not None and between is not None and target is not None else None)
        plan = LabPlan(scenario, parse_models(models), runs, seed,
                       chunk or default_chunk(engine, len(cast.names)), None if spec else target_error, chosen, keys,
                       spec, engine)
        check_engine(plan)
        folder = LabFolder(out, resume=resume, force=force)
        folder.check(plan.as_json())
    except LabError as exc:
        raise SetupError(str(exc)) from None
    bodies = dict(default_catalog(scenario.content).bodies)
    progress = None
    bar = None
    if sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import Progress

        total = runs * len(plan.points) * len(plan.models)
        bar = Progress(console=Console(stderr=True), transient=True)
        bar.start()
        task = bar.add_task(f"{scenario.name}: {len(plan.points)} variant(s) x {len(plan.models)} model(s)",
                            total=None if spec else total)

        def progress(done: int) -> None:
            bar.advance(task, done)

    def opened() -> None:
        typer.echo(f"writing to {folder.work}", err=True)

    handlers = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        try:
            if scheduler is not None:
                with dask_executor(scheduler, worker_timeout=worker_timeout) as cluster:
                    workers = cluster.threads
                    session = run_session(plan, cast.team_order, cluster.executor, folder, jobs=workers,
                                          window=2 * workers, odds_blows=odds_blows, bodies=bodies,
                                          progress=progress, health=cluster.health, on_open=opened, settle=True)
            else:
                with make_executor(workers) as pool:
                    session = run_session(plan, cast.team_order, pool, folder, jobs=workers, window=2 * workers,
                                          odds_blows=odds_blows, bodies=bodies, progress=progress, on_open=opened,
                                          settle=True)
        except LabError as exc:
            raise SetupError(str(exc)) from None
        finally:
            if bar is not None:
                bar.stop()
        # From here on a signal is ignored: summary.json already says how the lab ended.
        lab_run = session.lab
        data = session.summary(final=lab_run.complete)
        _say(f"{scenario.name}: {lab_run.runs_done} runs ({len(plan.points)} variant(s) x "
             f"{', '.join(plan.models)}), seed {seed}, {workers} worker(s), {lab_run.elapsed:.1f} s"
             + (" - target error met, stopped early" if lab_run.stopped_early else ""))
        if data["by_variant"]:
            typer.echo(summary_table(data))
        if data["differences"]:
            _say("\nPaired differences to the baseline (common random numbers):")
            typer.echo(differences_table(data))
        if data["scale_factors"]:
            _say("\nScale factors (change per unit, ranked):")
            typer.echo(scale_table(data))
        for line in solve_lines(data):
            _say(line)
        for note in lab_run.notes:
            typer.echo(f"note: {note}", err=True)
        where = folder.work
        if lab_run.complete:
            _say(f"written to {where}: runs.csv, combatants.csv, blows.csv, summary.json"
                 + "".join(f", {f}" for f in lab_run.files))
            unreached = [r for r in (data.get("solve") or {}).get("results", []) if r["value"] is None]
            if unreached:  # found out of reach by a later stage's narrower intervals: the runs are kept
                typer.echo(f"error: --target {unreached[0]['target']} is {unreached[0]['stopped']}", err=True)
                raise typer.Exit(2)
            return
        kept = f"{lab_run.runs_done} finished runs kept in {where / 'runs.csv'}"
        again = "--force --resume" if force else "--resume"
        earlier = f"; the earlier lab in {out} is untouched" if force else ""
        if lab_run.stopped is not None:
            typer.echo(f"error: {lab_run.stopped}: {kept}{earlier}; {again} continues the lab", err=True)
            raise typer.Exit(2)
        typer.echo(f"interrupted: {kept}{earlier}; {again} continues the lab", err=True)
        raise typer.Exit(130)
    finally:
        for sig, handler in handlers.items():
            if handler is not None:
                signal.signal(sig, handler)


@app.command()
def view(
    scenario: Annotated[str | None, typer.Argument(
        help=SCENARIO_HELP + " With --replay: the scenario the log was run from (default: the content's scenario "
                             "whose creatures the log names).", show_default=False)] = None,
    model: Annotated[str | None, typer.Option(
        help="Damage model (default: the scenario's); several, comma-separated (anatomy,severity), or 'all': the same "
             "fight side by side, one pane each, at most five.")] = None,
    seed: Annotated[int | None, typer.Option(help="Root seed (default 0).", min=0, show_default=False)] = None,
    load: Annotated[Path | None, typer.Option(help="Watch a saved world (a save of Sandbox.save) from its tick on "
                                                   "(with the --content it was made from).")] = None,
    replay: Annotated[Path | None, typer.Option(help="Replay a `sandbox run --log` file (no simulation).")] = None,
    frames: Annotated[int | None, typer.Option(help="Render this many frames headless, with no window.", min=1,
                                               max=MAX_FRAMES)] = None,
    screenshot: Annotated[Path | None, typer.Option(help="With --frames: save the last frame here (PNG).")]
    = None,
    speed: Annotated[float, typer.Option(help="Ticks per second of wall time (0.5 to 32).")] = 2.0,
    select: Annotated[str | None, typer.Option(help="Select this creature for the body panel.")] = None,
    attacker: Annotated[str | None, typer.Option(help="The attacker whose exact odds the location card shows.")]
    = None,
    size: Annotated[str | None, typer.Option(help="The window's (or the frames') size, WIDTHxHEIGHT (default "
                                                  "1280x800; 1600x900 side by side).", show_default=False)] = None,
    echo: Annotated[bool, typer.Option("--echo", help="Print a line for each thing the viewer does (ready, tick, "
                                                      "select, hover, seek, zoom, resize, quit), for scripts that "
                                                      "drive the window.")] = False,
    content: ContentOption = None,
    engine: Annotated[str, typer.Option(help=ENGINE_HELP)] = "esper",
) -> None:
    """Watch a fight in a window: a scenario, a saved world or a replayed log (or render it headless with --frames)."""
    from sandbox.persistence import SaveError
    from sandbox.world import SandboxError

    with _friendly():
        if screenshot is not None and frames is None:
            raise SetupError("--screenshot goes with --frames (in a window, press S)")
        if (scenario is None or replay is not None) and load is None and replay is None:
            raise SetupError("give a SCENARIO to watch, --load SAVE or --replay LOG")
        if load is not None and (scenario is not None or replay is not None):
            raise SetupError("--load watches a saved world: give no SCENARIO and no --replay with it")
        if (load is not None or replay is not None) and (model is not None or seed is not None):
            raise SetupError(f"{'--load' if load is not None else '--replay'} keeps the model and seed its fight "
                             "had: give no --model and no --seed with it")
        models = _view_models(model)
        _check_engine(engine, models if models and model != "all" else [], [
            (model == "all", "--model all (every model side by side)"),
            (load is not None, "--load (it watches a saved esper world: the array engine has no save format)"),
            (replay is not None, "--replay (it replays the log of an esper world)")])
        window = _view_size(size)
        if not 0.5 <= speed <= 32:  # the viewer's own bounds (SPEEDS), said in the option's words
            raise SetupError(f"--speed: expected 0.5 to 32 ticks per second, found {speed:g}")
        if screenshot is not None:
            _check_writable(screenshot, "the screenshot")
        try:
            from sandbox.viewer import ReplayError, Viewer, run_headless, run_window

            say = _echo_line if echo else None
            options = {"size": window, "threaded": frames is None, "speed": speed, "echo": say}
            if load is not None:
                viewer = Viewer.saved(load, _trees(content), **options)
            elif replay is not None:
                viewer = Viewer.replay(replay, None if scenario is None else _scenario(scenario, content),
                                       _trees(content) if scenario is None else (), **options)
            else:
                assert scenario is not None
                viewer = Viewer(_scenario(scenario, content), seed=seed or 0, models=models, engine=engine,
                                **options)  # type: ignore[arg-type]
            try:
                if select is not None:
                    viewer.select(select)
                if attacker is not None:
                    viewer.choose_attacker(attacker)
            except ValueError:
                viewer.close()
                raise
            if frames is not None:
                run_headless(viewer, frames=frames, screenshot=screenshot)
                typer.echo(f"rendered {frames} frames, tick {viewer.tick}" + (f", saved {screenshot}" if screenshot
                                                                                else ""))
                viewer.close()
            else:
                run_window(viewer)
        except (SandboxError, SaveError, ReplayError, ValueError) as exc:
            raise SetupError(str(exc)) from None


MAX_FRAMES = 1_000_000
"""The most frames one headless ``sandbox view --frames`` renders (about 4.6 hours of a 60 frames/s window)."""


def _echo_line(line: str) -> None:
    """Print one ``--echo`` line at once (a script reading the pipe waits for it)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _view_size(size: str | None) -> tuple[int, int] | None:
    """``--size WIDTHxHEIGHT`` as pixels.

    Raises:
        SetupError: Not two whole numbers, or out of 720x480 to 7680x4320.
    """
    if size is None:
        return None
    parts = size.lower().split("x")
    if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
        raise SetupError(f"--size: expected WIDTHxHEIGHT (1280x800), found {size!r}")
    width, height = (int(part) for part in parts)
    if not (720 <= width <= 7680 and 480 <= height <= 4320):
        raise SetupError(f"--size: expected 720x480 to 7680x4320, found {width}x{height}")
    return width, height


def _view_models(model: str | None) -> list[str | None] | None:
    """``--model M`` or ``--model A,B`` or ``--model all`` as the models side by side.

    Raises:
        SetupError: An unknown model, one given twice, or more than five.
    """
    from sandbox.models import available_models

    if model is None:
        return None
    known = list(available_models())
    names = known if model == "all" else [name.strip() for name in model.split(",")]
    unknown = [name for name in names if name not in known]
    if unknown or not names:
        raise SetupError(f"--model: unknown damage model {', '.join(map(repr, unknown)) or repr(model)}; known: "
                         f"{', '.join(known)}, or all")
    if len(set(names)) != len(names):
        raise SetupError(f"--model: each model once, not {model!r}")
    if len(names) > 5:
        raise SetupError(f"--model: at most five side by side, not {len(names)}")
    return list(names)


@app.command()
def validate(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="Content trees, files or config folders (default: the shipped content and the active trees).")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="List, per damage model, the entries it derived from "
                                                           "the anatomy data and their values.")] = False,
    content: ContentOption = None,
) -> None:
    """Check content: every problem is listed; exit code 2 if there is any."""
    from sandbox.config.cache import cached_report, fingerprint, keep_report

    with _friendly():
        root, extra, near = _validation_targets(paths or [])
        trees = _trees(content, near)
        key = fingerprint(["validate", str(explain)], root, trees, extra)
        report = cached_report(key)
        if report is None:
            report = _validation_report(root, trees, extra, explain)
            keep_report(key, report)
        typer.echo(report, nl=False)


def _validation_targets(paths: list[Path]) -> tuple[Path, list[Path], list[Path]]:
    """What ``validate PATHS`` checks: ``(base folder, named files, paths whose content trees come along)``.

    A content tree (a folder whose manifest names what it extends) comes along; a whole config folder of one's own
    (``skills.toml`` or ``models/``) replaces the shipped content as the base; any other folder's TOML files are
    named files, as is a file (and a file inside a content tree brings its tree).

    Raises:
        ConfigError: A folder with nothing to check.
    """
    from sandbox.config.content import is_tree, shipped_root

    root = shipped_root()
    extra: list[Path] = []
    near: list[Path] = []
    for path in paths:
        if path.is_dir() and is_tree(path):
            near.append(path)
        elif path.is_dir() and ((path / "skills.toml").exists() or (path / "models").is_dir()):
            root = path
        elif path.is_dir():
            found = sorted(path.rglob("*.toml"))
            if not found:
                raise ConfigError([Problem(str(path), "", None, "a config file or a folder of them",
                                           "a folder with no .toml files")])
            extra.extend(found)
        else:
            extra.append(path)
            near.append(path)
    return root, extra, near


def _cached_bare_validate() -> bool:
    """Answer a bare ``sandbox validate`` from the validated-content cache, before typer parses anything.

    A bare ``sandbox validate`` checks the shipped content and the trees of ``content_default``. It returns ``False``
    when the cache has no answer.

    typer 0.29 coerces every parameter through a pydantic ``TypeAdapter``, which imports pydantic: a tenth of a
    second, a third of the start-up budget, spent before the command runs. The bare command takes no parameters, so
    its cached answer needs none; anything else (and a cache miss) goes through typer and the full check, which
    computes the same key (``validate``).
    """
    from sandbox.config.cache import cached_report, fingerprint
    from sandbox.config.content import resolve_content, shipped_root

    try:
        report = cached_report(fingerprint(["validate", str(False)], shipped_root(), resolve_content(content_default()),
                                           []))
    except (OSError, SetupError):
        return False
    if report is None:
        return False
    sys.stdout.write(report)
    return True


def _validation_report(root: Path, trees: tuple[Path, ...], extra: list[Path], explain: bool) -> str:
    """Load and check everything (the catalog and every damage model's tables); the report of a clean content.

    Every problem of every file shows at once, whatever order the files come in: named files that share a kind and
    id (``x/bodies/human.toml y/bodies/human.toml``) are checked one after the other against the same content, and
    when some definitions are broken the damage models' tables are still checked, against the rest.

    Raises:
        ConfigError: Every problem found.
    """
    import shutil

    from sandbox.config.layout import MANIFEST, SINGLE_FILES, model_files
    from sandbox.config.loader import display

    problems: list[Problem] = []
    first = None
    for named in _validation_passes(extra):
        found, loaded, trouble = _checked_content(root, trees, named)
        problems.extend(p for p in trouble if p not in problems)
        first = first or (found, loaded)
    if problems or first is None or first[0] is None:
        raise ConfigError(problems)
    catalog, loaded = first
    from sandbox.models import loaders

    counted = len(catalog.files) + len(SINGLE_FILES) + len(loaders())
    counted += sum((t / MANIFEST).is_file() + len(model_files(t)) + sum((t / r).is_file() for r in
                   SINGLE_FILES.values()) for t in trees)
    line = f"OK: {counted} config files valid under {root}"
    if trees:
        line += f", with content tree{'s' if len(trees) > 1 else ''} " + ", ".join(display(t) for t in trees)
    if extra:
        line += f" (+{len(extra)} named)"
    lines = [line, *catalog.notes]
    if explain:
        from sandbox.models.explain import derived_report

        width = shutil.get_terminal_size((120, 24)).columns if sys.stdout.isatty() else 120
        lines.append(derived_report(loaded, width).rstrip("\n"))
    return "\n".join(lines) + "\n"


def _validation_passes(extra: list[Path]) -> list[list[Path]]:
    """The named files in passes where no two share a kind and an id.

    The n-th file of each kind and id goes in the n-th pass, so one cannot silently replace the other. There is always
    at least one pass.
    """
    from sandbox.config.loader import kind_of

    passes: list[list[Path]] = [[]]
    seen: dict[tuple[str, str], int] = {}
    for path in extra:
        key = (kind_of(path) or "", path.stem)
        n = seen.get(key, 0)
        seen[key] = n + 1
        while len(passes) <= n:
            passes.append([])
        passes[n].append(path)
    return passes


def _checked_content(root: Path, trees: tuple[Path, ...], extra: list[Path]) -> tuple[Any, dict[str, Any],
                                                                                       list[Problem]]:
    """``(catalog or None, the models loaded, every problem)`` of one set of content.

    When the definitions are broken, each model's tables are still checked: against the content without the
    broken files (left out until what remains loads), their problems about entries of the left-out files dropped
    (those entries are unknown only because their files are broken); else, when even that fails (a broken rule
    file), on their own (``structural_problems``).
    """
    from sandbox.config.loader import load_catalog
    from sandbox.models import available_models, load_model, structural_problems

    try:
        catalog = load_catalog(root, extra, content=trees)
    except ConfigError as exc:
        problems = list(exc.problems)
        left_out = {p.file for p in problems}
        partial = None
        for _ in range(8):  # each round leaves out the files whose problems come from the files left out before
            try:
                partial = load_catalog(root, extra, content=trees, exclude=left_out)
                break
            except ConfigError as again:
                more = {p.file for p in again.problems} - left_out
                if not more:
                    break
                left_out |= more
        problems.extend(p for p in structural_problems(trees, root) if p not in problems)
        if partial is None:
            return None, {}, problems
        ids = _ids_of(left_out)
        for name in available_models():
            try:
                load_model(name, partial)
            except ConfigError as model_exc:
                problems.extend(p for p in model_exc.problems if p not in problems and not _unknown_left_out(p, ids))
        return None, {}, problems
    problems = []
    loaded = {}
    for name in available_models():  # each model's tables, checked against this content
        try:
            loaded[name] = load_model(name, catalog)
        except ConfigError as model_exc:
            problems.extend(model_exc.problems)
    return catalog, loaded, problems


def _ids_of(labels: Iterable[str]) -> set[str]:
    """The ids the files of these labels define.

    A file's id is its name: ``weapons/spear.toml`` defines ``spear`` and its modes ``spear.*``.
    """
    return {Path(label).stem for label in labels}


def _unknown_left_out(problem: Problem, ids: set[str]) -> bool:
    """Whether a problem's entry is unknown only because the file defining it was left out.

    The problem says a tables entry (``[weapons."spear.thrust"]``, ``[creatures.kobold]``) names nothing the content
    defines, and the entry names a definition of a left-out file: it is unknown only because that file is broken.
    """
    from sandbox.config.errors import dotted
    from sandbox.config.reading import KEYED_TABLES

    entry = problem.entry
    if not entry or not (entry in ids or entry.split(".", 1)[0] in ids):
        return False
    return any(problem.key == dotted(table, entry) for table in KEYED_TABLES)


@app.command()
def schema(
    out: Annotated[Path | None, typer.Option(help="Folder to write into (default: the current folder; with "
                                                  "--content DIR: DIR/schemas).")] = None,
    content: Annotated[Path | None, typer.Option("--content", help="Refresh this content tree's schemas/ folder.",
                                                 show_default=False)] = None,
) -> None:
    """Write a JSON Schema for every config file kind (editors use them through each file's #:schema line)."""
    from sandbox.config.layout import SCHEMAS_DIR
    from sandbox.schemas import write_schemas

    folder = out or (content / SCHEMAS_DIR if content is not None else Path("."))
    with _friendly():
        if content is not None and not content.is_dir():
            raise SetupError(f"cannot write the schemas into {content}: no such content folder")
        if folder.exists() and not folder.is_dir():
            raise SetupError(f"cannot write the schemas to {folder}: it is not a folder")
        try:
            written = write_schemas(folder)
        except OSError as exc:
            raise SetupError(f"cannot write the schemas to {folder}: {exc.strerror or exc}") from None
    for path in written:
        typer.echo(str(path))


@app.command()
def init(
    folder: Annotated[Path, typer.Argument(help="A new (or empty) folder for the content tree.")],
    name: Annotated[str | None, typer.Option(help="The content's name in content.toml (default: from the "
                                                  "folder's name).")] = None,
) -> None:
    """Write a starter content tree.

    A manifest, a body, a weapon, an armour piece and a creature that use each other, a scenario, JSON Schemas and a
    README; it validates and runs under every model as written.
    """
    from sandbox.init_tree import write_starter

    with _friendly():
        try:
            written = write_starter(folder, name)
        except OSError as exc:
            raise SetupError(f"cannot write a content tree to {folder}: {exc.strerror or exc}") from None
    typer.echo(f"wrote a content tree of {len(written)} files to {folder}:")
    for path in written:
        if path.parent.name != "schemas":
            typer.echo(f"  {path}")
    typer.echo(f"  {folder / 'schemas'}/ (the JSON Schemas the #:schema lines point at)")
    scenario = next((p for p in written if p.parent.name == "scenarios"), None)
    typer.echo(f"next: sandbox validate {folder} && sandbox run {scenario} --model all")


EXIT_CODES = {0: "done", 2: "bad input: a config, a save, an option or an output path (the message says which)",
              130: "interrupted by Ctrl-C or SIGTERM"}
"""Every exit code a command ends with, and what it means."""


def main() -> None:
    """Console entry point: every command ends with one of ``EXIT_CODES``, never a traceback.

    Click's own messages (a bad option value) show the value cut to a readable length; an interrupt anywhere
    (while an option is parsed, a command starts or ends) is exit 130; a reader that stops reading standard output
    (``sandbox blows --format jsonl | head``) ends the command quietly, as the reader asked.
    """
    if sys.argv[1:] == ["validate"] and _cached_bare_validate():
        return
    try:
        code = app(standalone_mode=False) or 0  # a command that returns: 0; one that exits: its code
    except typer.TyperException as exc:  # click's usage errors (typer carries its own click)
        if hasattr(exc, "message"):
            exc.message = readable(exc.message)
        exc.show() if hasattr(exc, "show") else typer.echo(readable(str(exc)), err=True)
        code = 2
    except (typer.Abort, KeyboardInterrupt):
        typer.echo("interrupted", err=True)
        code = 130
    except BrokenPipeError:
        code = 0
    except SystemExit as exc:  # typer ends a write to a closed pipe with exit 1: the reader stopped, nothing failed
        code = 0 if exc.code == 1 and type(sys.stdout).__name__ == "PacifyFlushWrapper" else exc.code
    except OSError as exc:  # a path the system refuses (a name too long), or standard output failed (/dev/full)
        what = f"{exc.filename}: " if exc.filename else "cannot write the output: "
        typer.echo(readable(f"error: {what}{exc.strerror or exc}"), err=True)
        code = 2
    if code == 0 and (type(sys.stdout).__name__ == "PacifyFlushWrapper" or _stdout_closed()):
        _quiet_stdout()
    sys.exit(code if code in EXIT_CODES else 2)


def _stdout_closed() -> bool:
    """Whether standard output can no longer be written (its reader has gone)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        return True
    except (OSError, ValueError):
        return False
    return False


def _quiet_stdout() -> None:
    """Point standard output at the null device.

    Then the interpreter's last flush of what the reader no longer reads raises nothing.
    """
    import os

    with suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


