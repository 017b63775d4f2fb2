"""The viewer: one fight or several side by side, a timeline to go back and forth, and the controls.

``Viewer`` takes what to watch (a world you built on any engine, a function of seed and model that builds one, a
scenario on either engine, a save or a replayed log), keeps the time (a fixed timestep: ``speed``
ticks of game time per wall second, apart from the frame rate) and turns input into what it does. The worlds are
ticked by a ``Worker`` (in a thread of its own in a window); frames draw what the feeds publish. ``run_window``
opens a window, ``run_headless`` renders frames with no window (the dummy video driver).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TypeAlias, cast

import pygame

from sandbox.config.content import ScenarioRef, scenario_ref
from sandbox.engines import DEFAULT_ENGINE, engine_named
from sandbox.viewer.budget import Budget
from sandbox.viewer.camera import Camera
from sandbox.viewer.entries import Attack
from sandbox.viewer.feeds import Feed, LiveFeed, WorldFactory, scenario_factory
from sandbox.viewer.field_view import LABEL_LIFE
from sandbox.viewer.files import save_png
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.pane import Pane
from sandbox.viewer.replay import ReplayFeed, find_cast, log_model, log_names
from sandbox.viewer.scene import team_order
from sandbox.viewer.theme import BACKGROUND, DIM, TEAM_COLOURS, TEXT, Colour
from sandbox.viewer.timeline_view import Span, Timeline
from sandbox.viewer.worker import Worker
from sandbox.world import Sandbox
from sandbox.world_protocol import World

__all__ = ["DEFAULT_SIZE", "HEADER", "KEYS", "KEYS_ROW", "MAX_PANES", "MAX_SPEED", "MAX_TICKS_A_FRAME", "MIN_SIZE",
           "MIN_SPEED", "SPEEDS", "SPLIT_SIZE", "Source", "Viewer", "run_headless", "run_window"]

SPEEDS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""The speed steps (ticks of game time per wall second) that + and - go through."""
MIN_SPEED, MAX_SPEED = SPEEDS[0], SPEEDS[-1]
MAX_PANES = 5
"""The most models side by side."""
DEFAULT_SIZE = (1280, 800)
"""The window of one fight."""
SPLIT_SIZE = (1600, 900)
"""The window of fights side by side."""
MIN_SIZE = (720, 480)
"""The smallest the layout goes."""
HEADER = 30
KEYS_ROW = 18
MAX_TICKS_A_FRAME = 8
"""Ticks one frame may ask for: a slow world falls behind rather than spiralling."""

KEYS = ("Space pause  ←/→ tick  Home/End  drag the timeline  wheel zoom/scroll  drag pan  C fit  F follow  "
        "N names  Tab creature  A or right-click: attacker  +/- speed  R restart  M model  S shot  Esc quit")

Source: TypeAlias = World | WorldFactory | str | Path | ScenarioRef | Feed
"""What a viewer watches: a world, a function that builds one, a scenario (to build one from) or a feed."""


def _is_feed(source: object) -> bool:
    return isinstance(source, LiveFeed | ReplayFeed)


class Viewer:
    """A fight, or the same fight under several models side by side, as it is shown.

    Args:
        source: What to watch: a world you built on any engine (a ``Sandbox``, an ``ArrayWorld``: watched and
            ticked as it is), a function of ``(seed, model)`` that builds one (then R restarts with a new seed and
            M changes the model), a scenario (an id or path, loaded over ``content``; or a ``ScenarioRef`` resolved
            already), or a feed (``Viewer.saved``, ``Viewer.replay``).
        seed: The root seed a function or a scenario builds with.
        models: The damage models side by side (one pane each, at most five; a function or a scenario only).
            Default: one pane, the world's own model.
        size: The surface's size in pixels (default: 1280x800, 1600x900 for panes side by side).
        title: What to call the fight (default: its scenario's name).
        threaded: Tick the worlds in a thread of their own (a window does; tests and headless frames do not,
            so the same frames give the same ticks).
        speed: Ticks of game time per wall second (0.5 to 32).
        echo: Called with a line for each thing the viewer does (ready, tick, select, hover, seek, zoom,
            resize, quit ...), for scripts that drive it (``sandbox view --echo``).
        engine: The engine a scenario is built on (``sandbox.engines``; default ``"esper"``: every model, every
            feature): ``"array"`` builds the array engine's ``ArrayWorld``, every creature traced, so the log
            explains each landed blow; R builds one again with the next seed, M goes through the models the
            engine runs. A world, function or feed handed in brings its own engine (none may be given with it).
        content: The content trees a scenario id or path is loaded over (default: the shipped content alone; a
            scenario file inside a tree brings its tree). A world, function or feed brings its own content.

    Raises:
        ValueError: Too many models, models for a world handed in, an engine for anything but a scenario, or a
            speed out of range.
        SandboxError: An unknown engine, or what the array engine cannot run (a model, a feature, a tick limit).
    """

    def __init__(self, source: Source, *, seed: int = 0, models: Sequence[str | None] | None = None,
                 size: tuple[int, int] | None = None, title: str | None = None, threaded: bool = False,
                 speed: float = 2.0, echo: Callable[[str], None] | None = None, engine: str | None = None,
                 content: Sequence[str | Path] = ()) -> None:
        if not MIN_SPEED <= speed <= MAX_SPEED:
            raise ValueError(f"speed must be {MIN_SPEED:g} to {MAX_SPEED:g} ticks per second, not {speed:g}")
        if content and not isinstance(source, str | Path):
            raise ValueError("content= goes with a scenario id or path; a world, function, feed or resolved scenario "
                             "brings its own content")
        if isinstance(source, str | Path):
            source = scenario_ref(source, content)  # resolved once: every restart and model builds from it
        if engine is not None and not isinstance(source, ScenarioRef):
            raise ValueError(f"engine={engine!r} builds a scenario; a world, function or feed handed in brings its "
                             "own engine")
        self.engine = engine_named(engine or DEFAULT_ENGINE).name
        """The engine of the first pane's world (the scenario's, or the world's handed in or built)."""
        chosen: list[str | None] = list(models) if models else [None]
        if len(chosen) > MAX_PANES:
            raise ValueError(f"at most {MAX_PANES} models side by side, not {len(chosen)}")
        self.worker = Worker(threaded)
        self.echo = echo
        self.seed = seed
        self.factory: WorldFactory | None = None
        feeds = self._feeds(source, seed, chosen, title)
        self.panes = [Pane(feed) for feed in feeds]
        self.size = size or (SPLIT_SIZE if len(self.panes) > 1 else DEFAULT_SIZE)
        self.surface = pygame.Surface(self.size)
        self.type_ = Typeset()
        self.timeline = Timeline()
        self.camera = Camera()
        self.camera_moved = False
        self._fitted = False
        self.speed = speed
        self.paused = False
        self.quit = False
        self.accumulator = 0.0
        self.status = ""
        self.all_names = False
        first = self.panes[0].shown.scene.figures
        self.selected_name: str | None = next((f.name for f in first.values()), None)
        self.attacker_name: str | None = None
        self.hover: tuple[int, int | None, int | None] | None = None  # pane, creature, location
        self.pinned: tuple[int, int] | None = None  # pane, location
        self.mouse = (0, 0)
        self._drag: str | None = None  # "field" or "timeline"
        self._span: Span | None = None
        self._echo_layout = True
        self._last_tick = self.tick
        self.teams: dict[str, Colour] = {}
        self._colour_teams()
        self._layout()

    # ------------------------------------------------------------------ sources

    def _feeds(self, source: Source, seed: int, models: list[str | None], title: str | None) -> list[Feed]:
        if _is_feed(source):
            if models != [None]:
                raise ValueError("a saved world or a replay keeps its own model: no models side by side")
            return [source]  # type: ignore[list-item]
        if isinstance(source, ScenarioRef):
            factory: WorldFactory = scenario_factory(source, self.engine)
        elif callable(source):
            factory = source
        else:  # a world handed in
            if models != [None]:
                raise ValueError("a world handed in keeps its own model; hand in a function of (seed, model) to "
                                 "see models side by side")
            world = cast(World, source)  # neither a feed, a scenario nor a function
            self.engine = world.engine_name
            return [LiveFeed(world, title=title, quiet=self.worker.quiet)]
        self.factory = factory
        feeds: list[Feed] = []
        try:
            for model in models:
                built = factory(seed, model)
                feeds.append(LiveFeed(built, factory, title=title, owned=True, quiet=self.worker.quiet))
        except BaseException:
            for feed in feeds:
                feed.close()
            raise
        self.engine = built.engine_name
        return feeds

    @classmethod
    def saved(cls, path: str | Path, content: Sequence[str | Path] = (), **options: object) -> Viewer:
        """Watch a saved world from its tick on, with the ``Viewer`` options.

        The world is loaded by ``Sandbox.load``, over the shipped content extended by ``content`` (the trees it was made
        with).

        Raises:
            SaveError: The file is not a save this sandbox reads.
        """
        world = Sandbox.load(path, content=content)
        title = options.pop("title", None) or (world.scenario.name if world.scenario else Path(path).stem)
        feed = LiveFeed(world, title=f"{title} (from {Path(path).name})", owned=True)
        return cls(feed, **options)  # type: ignore[arg-type]

    @classmethod
    def replay(cls, path: str | Path, scenario: str | Path | ScenarioRef | None = None,
               content: Sequence[str | Path] = (), **options: object) -> Viewer:
        """Replay a ``sandbox run --log`` file (no simulation), with the ``Viewer`` options.

        The creatures' bodies, teams and places come from ``scenario``, else from the scenario of the content (the
        shipped content extended by ``content``) that has the log's creatures.

        Raises:
            ReplayError: The file is not a log, or its creatures are not the scenario's.
            ConfigError: The scenario cannot be loaded.
        """
        from sandbox.config import default_catalog
        from sandbox.eventlog import read_jsonl

        log = Path(path)
        cast: Sandbox | None = None
        ref = scenario_ref(scenario, content) if scenario is not None else None
        if ref is None:
            try:
                spec = find_cast(default_catalog(content), log_names(log).values())
            except (OSError, ValueError):
                spec = None  # ReplayFeed says what is wrong with the file
            ref = scenario_ref(spec.id, content) if spec is not None else None
        if ref is not None:
            try:
                model = log_model(read_jsonl(log))
            except (OSError, ValueError):
                model = None
            cast = Sandbox.from_scenario(ref, model=model)
        try:
            feed = ReplayFeed(log, cast)
        finally:
            if cast is not None:
                cast.close()
        return cls(feed, **options)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ what is shown

    @property
    def world(self) -> World | None:
        """The world the first pane shows, on any engine (``None`` for a replay)."""
        feed = self.panes[0].feed
        return feed.world if isinstance(feed, LiveFeed) else None

    @property
    def tick(self) -> int:
        """The tick the first pane shows."""
        return self.panes[0].shown.scene.tick

    @property
    def records(self) -> list[Attack]:
        """The first pane's attacks up to the tick shown."""
        return list(self.panes[0].shown.attacks)

    @property
    def selected(self) -> int | None:
        """The selected creature's entity in the first pane."""
        return self.panes[0].entity(self.selected_name)

    @property
    def finished(self) -> bool:
        """Every pane's fight is over and shown to its end."""
        return all(p.shown.scene.finished and p.shown.scene.tick >= p.shown.played for p in self.panes)

    def select(self, name: str | None) -> None:
        """Select the creature called ``name`` (its body panel), in every pane.

        Raises:
            ValueError: No creature of that name.
        """
        if name is not None and self.panes[0].entity(name) is None:
            raise ValueError(f"no creature called {name!r}; known: {', '.join(self.panes[0].feed.names.values())}")
        if name != self.selected_name:
            self.selected_name = name
            for pane in self.panes:
                pane.wound_scroll = 0
            self.pinned = None
            self._say(f"select {name}")
            self._echo_layout = True

    def choose_attacker(self, name: str | None) -> None:
        """Choose the attacker whose odds the location card shows (``None``: none).

        Raises:
            ValueError: No creature of that name.
        """
        if name is not None and self.panes[0].entity(name) is None:
            raise ValueError(f"no creature called {name!r}; known: {', '.join(self.panes[0].feed.names.values())}")
        self.attacker_name = name
        self._say(f"attacker {name}")
        self._want_card_odds()

    def _want_card_odds(self) -> None:
        """Ask for the odds of the card on screen (pinned, else hovered), if an attacker is chosen."""
        if self.pinned is not None:
            self._want_odds(*self.pinned)
        elif self.hover is not None and self.hover[2] is not None:
            self._want_odds(self.hover[0], self.hover[2])

    def _colour_teams(self) -> None:
        teams = team_order(self.panes[0].shown.scene.figures)
        self.teams = {team: TEAM_COLOURS[k % len(TEAM_COLOURS)] for k, team in enumerate(teams)}

    def _say(self, line: str) -> None:
        if self.echo is not None:
            self.echo(line)

    # ------------------------------------------------------------------ time

    def update(self, dt: float) -> None:
        """Advance wall time by ``dt`` seconds: labels age; whole ticks are asked for at the current speed."""
        self.worker.check()
        for pane in self.panes:
            pane.age(dt, LABEL_LIFE)
        if self.paused:
            return
        self.accumulator += dt
        step = 1.0 / self.speed
        due = 0
        while self.accumulator >= step - 1e-9 and due < MAX_TICKS_A_FRAME:  # 30 frames of 1/60 s are 0.5 s
            self.accumulator -= step
            due += 1
        if due == MAX_TICKS_A_FRAME:
            self.accumulator = 0.0
        for _ in range(due):
            self._request_step()
        self._sync()

    def _request_step(self) -> None:
        if all(p.feed.shown.scene.finished and p.feed.shown.scene.tick >= p.feed.shown.played for p in self.panes):
            return
        if self.worker.threaded and self.worker.pending("step") >= 2:
            return  # the worlds are behind: this tick is dropped, not queued
        self.worker.submit(self._step_all, "step")

    def _step_all(self) -> None:
        for pane in self.panes:
            pane.feed.step()

    def step(self, ticks: int = 1) -> None:
        """Pause and go ``ticks`` ticks on (back, when negative)."""
        self.paused = True
        if ticks > 0:
            for _ in range(ticks):
                self.worker.submit(self._step_all, "step")
        else:
            self.seek(self.tick + ticks)
        self._sync()

    def seek(self, tick: int) -> None:
        """Show ``tick`` in every pane (clamped to the ticks played)."""
        self._say(f"seek {tick}")

        def job() -> None:
            for pane in self.panes:
                pane.feed.seek(tick)

        self.worker.submit(job, "seek", replace=True)
        self._sync()

    def tick_once(self) -> None:
        """Run one tick now, whatever the speed (tests and scripts)."""
        self.worker.submit(self._step_all, "step")
        self.worker.drain()
        self._sync()

    def _sync(self) -> None:
        """Take what the feeds publish: new labels, the tick echoed, the camera following."""
        moved = False
        for pane in self.panes:
            shown = pane.feed.shown
            if shown is not pane.seen:
                pane.take(shown)
                moved = True
        if moved:
            self._want_card_odds()  # a card up at the new tick needs that tick's odds
        if self.tick != self._last_tick:
            self._last_tick = self.tick
            self._say(f"tick {self.tick}")
        if self.camera.follow:
            figure = self.panes[0].shown.scene.figures.get(self.selected or -1)
            if figure is not None:
                self.camera.centre_on(figure.x, figure.y)

    def refresh(self) -> None:
        """Show the worlds as they are now, after you changed them by hand (``inflict``, ``strike``, a component).

        The ticks played after the one on screen are forgotten, since the worlds no longer lead there.
        """

        def job() -> None:
            for pane in self.panes:
                if isinstance(pane.feed, LiveFeed):
                    pane.feed.refresh()

        self.worker.submit(job, "refresh")
        self.worker.drain()
        self._sync()

    def set_speed(self, speed: float) -> None:
        """Ticks per wall second.

        Raises:
            ValueError: Out of range.
        """
        if not MIN_SPEED <= speed <= MAX_SPEED:
            raise ValueError(f"speed must be {MIN_SPEED:g} to {MAX_SPEED:g} ticks per second, not {speed:g}")
        self.speed = speed
        self._say(f"speed {speed:g}")

    def restart(self) -> None:
        """Start again with the next seed (a world handed in goes back to its first tick instead)."""
        if self.factory is None:
            self.seek(min(p.shown.start for p in self.panes))
            self.status = "back to the start (a world handed in has no seed to change)"
            return
        self.seed += 1
        self._rebuild([p.feed.model for p in self.panes])
        self.status = f"restarted with seed {self.seed}"

    def cycle_model(self) -> None:
        """The next damage model on the same fight and seed, among those its engine runs.

        Only for one pane of a world that can be built again.
        """
        if self.factory is None or len(self.panes) > 1:
            self.status = ("the panes already show models side by side" if len(self.panes) > 1 else
                           "a world handed in keeps its model")
            return
        models = list(engine_named(self.engine).models())
        if models == [self.panes[0].feed.model]:
            self.status = f"the {self.engine} engine runs only the {models[0]} model"
            return
        current = self.panes[0].feed.model
        at = models.index(current) if current in models else -1
        model = models[(at + 1) % len(models)]
        self._rebuild([model])
        self.status = f"model {model} ({models.index(model) + 1} of {len(models)})"

    def _rebuild(self, models: list[str]) -> None:
        seed = self.seed

        def job() -> None:
            for pane, model in zip(self.panes, models, strict=True):
                pane.feed.rebuild(seed, model)  # type: ignore[attr-defined]

        self.worker.submit(job, "rebuild")
        self.worker.drain()
        for pane in self.panes:
            pane.seen, pane.labels, pane.chosen, pane.log_first = None, [], None, None
        self.pinned = None
        self._colour_teams()
        if self.panes[0].entity(self.selected_name) is None:
            self.selected_name = next((f.name for f in self.panes[0].shown.scene.figures.values()), None)
        self._sync()

    # ------------------------------------------------------------------ input

    def handle(self, event: pygame.event.Event) -> None:
        """React to one input event."""
        kind = event.type
        if kind == pygame.QUIT:
            self._quit()
        elif kind == pygame.VIDEORESIZE:
            self.resize((event.w, event.h))
        elif kind == pygame.KEYDOWN:
            self._key(event.key, event.mod if hasattr(event, "mod") else 0)
        elif kind == pygame.MOUSEMOTION:
            self._motion(event.pos, getattr(event, "rel", (0, 0)), getattr(event, "buttons", (0, 0, 0)))
        elif kind == pygame.MOUSEBUTTONDOWN:
            self.mouse = event.pos
            if event.button == 1:
                self._press(event.pos)
            elif event.button == 3:
                self._right_click(event.pos)
        elif kind == pygame.MOUSEBUTTONUP and event.button == 1:
            self._drag = None
        elif kind == pygame.MOUSEWHEEL:
            self._wheel(int(event.y))

    def _quit(self) -> None:
        self.quit = True
        self._say("quit")

    def _key(self, key: int, mod: int) -> None:
        shift = bool(mod & pygame.KMOD_SHIFT)
        if key == pygame.K_ESCAPE:
            self._quit()
        elif key == pygame.K_SPACE:
            self.paused = not self.paused
            self._say("paused" if self.paused else "playing")
        elif key == pygame.K_RIGHT:
            self.step(10 if shift else 1)
        elif key == pygame.K_LEFT:
            self.step(-10 if shift else -1)
        elif key == pygame.K_HOME:
            self.paused = True
            self.seek(min(p.shown.start for p in self.panes))
        elif key == pygame.K_END:
            self.seek(max(p.shown.played for p in self.panes))
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.set_speed(next((s for s in SPEEDS if s > self.speed), MAX_SPEED))
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.set_speed(next((s for s in reversed(SPEEDS) if s < self.speed), MIN_SPEED))
        elif key == pygame.K_TAB:
            self._cycle_selection(-1 if shift else 1)
        elif key == pygame.K_a:
            self._cycle_attacker()
        elif key == pygame.K_n:
            self.all_names = not self.all_names
        elif key == pygame.K_f:
            self.camera.follow = not self.camera.follow
            self.status = "following the selected creature" if self.camera.follow else "camera free"
            self._sync()
        elif key == pygame.K_c:
            self.fit()
        elif key in (pygame.K_UP, pygame.K_DOWN):
            self._walk_log(-1 if key == pygame.K_UP else 1)
        elif key == pygame.K_r:
            self.restart()
        elif key == pygame.K_m:
            self.cycle_model()
        elif key == pygame.K_s:
            path = Path(f"screenshot-{self.slug()}-{self.tick:04d}.png")
            self.save(path)
            self.status = f"saved {path}"

    def _pane_at(self, pos: tuple[int, int]) -> int | None:
        return next((k for k, p in enumerate(self.panes) if p.rects.whole.collidepoint(pos)), None)

    def _motion(self, pos: tuple[int, int], rel: tuple[int, int], buttons: Sequence[int]) -> None:
        self.mouse = pos
        if self._drag == "field" and buttons and buttons[0]:
            self.camera.pan(*rel)
            self.camera_moved = True
            if self.camera.follow:
                self.camera.follow = False
            return
        if self._drag == "timeline" and buttons and buttons[0]:
            self._seek_at(pos)
            return
        k = self._pane_at(pos)
        if k is None:
            self.hover = None
            return
        pane = self.panes[k]
        creature = pane.creature_at(pos)
        location = pane.location_at(pos)
        before = self.hover
        self.hover = (k, creature, location)
        if location is not None and (before is None or before[2] != location):
            name = self._location_name(k, location)
            self._say(f"hover {self.selected_name} {name}")
            self._want_odds(k, location)

    def _location_name(self, k: int, location: int) -> str:
        figure = self.panes[k].shown.scene.figures.get(self.panes[k].entity(self.selected_name) or -1)
        if figure is None or figure.body is None:
            return str(location)
        return figure.body.locations[location].name

    def _want_odds(self, k: int, location: int) -> None:
        pane = self.panes[k]
        attacker, defender = pane.entity(self.attacker_name), pane.entity(self.selected_name)
        if attacker is None or defender is None or attacker == defender:
            return
        key = (attacker, defender, location, pane.shown.scene.tick)
        if key not in pane.feed.odds:
            self.worker.submit(lambda: pane.feed.compute_odds(attacker, defender, location), "odds")

    def _press(self, pos: tuple[int, int]) -> None:
        if self._span is not None and self._timeline_rect().collidepoint(pos):
            self._drag = "timeline"
            self.paused = True
            self._seek_at(pos)
            return
        k = self._pane_at(pos)
        if k is None:
            return
        pane = self.panes[k]
        location = pane.location_at(pos)
        if location is not None:
            if self.pinned == (k, location):
                self.pinned = None
            else:
                self.pinned = (k, location)
                self._say(f"pin {self.selected_name} {self._location_name(k, location)}")
                self._want_odds(k, location)
            return
        row = pane.log_row_at(pos)
        if row is not None:
            pane.chosen = row
            return
        if pane.rects.field.collidepoint(pos):
            self._drag = "field"
            creature = pane.creature_at(pos)
            if creature is not None:
                self.select(pane.feed.names[creature])
            return
        if not pane.rects.body.collidepoint(pos):
            self.pinned = None

    def _right_click(self, pos: tuple[int, int]) -> None:
        k = self._pane_at(pos)
        if k is None:
            return
        creature = self.panes[k].creature_at(pos)
        if creature is not None:
            name = self.panes[k].feed.names[creature]
            self.choose_attacker(None if name == self.attacker_name else name)

    def _wheel(self, clicks: int) -> None:
        if not clicks:
            return
        pos = self.mouse
        k = self._pane_at(pos)
        if k is None:
            return
        pane = self.panes[k]
        if pane.rects.field.collidepoint(pos):
            field = pane.rects.field
            self.camera.zoom(1.2 ** clicks, pos, (field.x, field.y, field.width, field.height))
            self.camera_moved = True
            self._echo_layout = True
            self._say(f"zoom {self.camera.scale:.2f}")
        elif pane.drawn_body is not None and pane.drawn_body.wounds.collidepoint(pos):
            pane.wound_scroll = max(0, pane.wound_scroll - 3 * clicks)
        elif pane.rects.lower.collidepoint(pos) and pane.drawn_log is not None:
            first = pane.drawn_log.first - 3 * clicks
            newest = max(0, len(pane.shown.attacks) - pane.drawn_log.room)
            pane.log_first = None if first >= newest else max(first, 0)

    def _seek_at(self, pos: tuple[int, int]) -> None:
        if self._span is not None:
            self.seek(self._span.tick(pos[0]))

    def _cycle_selection(self, direction: int) -> None:
        names = list(self.panes[0].feed.names.values())
        if not names:
            return
        at = names.index(self.selected_name) if self.selected_name in names else -1
        self.select(names[(at + direction) % len(names)])

    def _cycle_attacker(self) -> None:
        """The next attacker: those fighting the selected creature first, then every other creature."""
        scene = self.panes[0].shown.scene
        me = self.selected
        foes = [f.name for f in scene.figures.values() if f.target == me and f.entity != me]
        others = [f.name for f in scene.figures.values() if f.name not in foes and f.entity != me]
        order = foes + others
        if not order:
            return
        at = order.index(self.attacker_name) if self.attacker_name in order else -1
        self.choose_attacker(order[(at + 1) % len(order)])

    def _walk_log(self, direction: int) -> None:
        k = self._pane_at(self.mouse)
        pane = self.panes[k if k is not None else 0]
        count = len(pane.shown.attacks)
        if not count:
            return
        if pane.chosen is None:
            if direction < 0:
                pane.chosen = count - 1
            return
        pane.chosen = min(max(pane.chosen + direction, 0), count - 1)

    # ------------------------------------------------------------------ the camera and the layout

    def fit(self) -> None:
        """Fit the camera to the fight: every living creature with a body (else every creature)."""
        pane = self.panes[0]
        figures = pane.shown.scene.figures.values()
        points = [(f.x, f.y) for f in figures if f.has_body and not f.dead] or [(f.x, f.y) for f in figures]
        field = pane.rects.field
        self.camera.fit(points, (field.x, field.y, field.width, field.height))
        self.camera_moved = False
        self._echo_layout = True

    def resize(self, size: tuple[int, int]) -> None:
        """The window's new size: the layout follows it (and the camera's fit, until it was moved by hand)."""
        size = (max(size[0], MIN_SIZE[0]), max(size[1], MIN_SIZE[1]))
        if size == self.size:
            return
        self.size = size
        self.surface = pygame.Surface(size)
        self._layout()
        if not self.camera_moved:
            self.fit()
        self._echo_layout = True
        self._say(f"resize {size[0]}x{size[1]}")

    def _timeline_rect(self) -> pygame.Rect:
        w, h = self.size
        height = 26 + 18 * len(self.panes)
        return pygame.Rect(0, h - KEYS_ROW - height, w, height)

    def _layout(self) -> None:
        w, _ = self.size
        timeline = self._timeline_rect()
        main = pygame.Rect(0, HEADER, w, timeline.top - HEADER)
        n = len(self.panes)
        for k, pane in enumerate(self.panes):
            x0, x1 = main.x + main.width * k // n, main.x + main.width * (k + 1) // n
            pane.layout(pygame.Rect(x0, main.y, x1 - x0, main.height), stacked=n > 1)

    def slug(self) -> str:
        """The fight's file-friendly name (for screenshots)."""
        text = "".join(ch if ch.isalnum() else "-" for ch in self.panes[0].feed.title.lower())
        return "-".join(part for part in text.split("-") if part)[:40] or "fight"

    # ------------------------------------------------------------------ drawing

    def draw(self) -> pygame.Surface:
        """Draw everything onto ``self.surface`` and return it."""
        self._sync()
        if not self._fitted:
            self.fit()
            self._fitted = True
        s = self.surface
        s.fill(BACKGROUND, pygame.Rect(0, 0, self.size[0], HEADER))  # the panes, the timeline fill their own
        s.fill(BACKGROUND, pygame.Rect(0, self.size[1] - KEYS_ROW, self.size[0], KEYS_ROW))
        self._header()
        hover_pane, hover_creature, hover_location = self.hover if self.hover else (None, None, None)
        pinned_pane, pinned_location = self.pinned if self.pinned else (None, None)
        budget = Budget(1 if self.worker.threaded else None)  # a window spreads its redraws over frames
        for k, pane in enumerate(self.panes):
            scene = pane.shown.scene
            verdict = f"   over: {scene.verdict}" if scene.finished else ""
            pane.draw(s, self.type_, self.camera, self.teams, selected=self.selected_name,
                      hovered=hover_creature if hover_pane == k else None, attacker=self.attacker_name,
                      all_names=self.all_names, location=hover_location if hover_pane == k else None,
                      pinned=pinned_location if pinned_pane == k else None,
                      title=f"{pane.feed.model}   tick {scene.tick}{verdict}", budget=budget)
        labels = [p.feed.model for p in self.panes]
        self._span = self.timeline.draw(s, self._timeline_rect(), [p.shown for p in self.panes], labels,
                                        self.type_, self.paused, budget)
        keys = self.type_.clip(KEYS, "small", self.size[0] - 16)
        s.blit(self.type_.render(keys, "small", DIM), (8, self.size[1] - KEYS_ROW + 2))
        if self._echo_layout:
            self._echo_layout = False
            self._say_layout()
        return s

    def _header(self) -> None:
        scene = self.panes[0].shown.scene
        feed = self.panes[0].feed
        if self.finished:
            state = "over: " + ", ".join(dict.fromkeys(p.shown.scene.verdict for p in self.panes))
        elif self.paused:
            state = "PAUSED"
        else:
            state = f"{self.speed:g} ticks/s"
        models = " | ".join(p.feed.model for p in self.panes)
        seed = f"   seed {feed.seed}" if feed.seed is not None else ""
        engine = f"   engine {self.engine}" if self.engine != DEFAULT_ENGINE else ""
        text = (f"{feed.title}   model {models}{engine}{seed}   tick {scene.tick} ({scene.time:g} s)   {state}"
                f"   {self.status}")
        self.surface.blit(self.type_.render(self.type_.clip(text, "title", self.size[0] - 16), "title", TEXT),
                          (8, 7))

    def _say_layout(self) -> None:
        if self.echo is None:
            return
        pane = self.panes[0]
        for what, rect in (("field", pane.rects.field), ("body", pane.rects.body),
                           ("timeline", self._timeline_rect())):
            self._say(f"layout {what} {rect.x} {rect.y} {rect.width} {rect.height}")
        if self._span is not None:
            self._say(f"span {self._span.first} {self._span.last} {self._span.left} {self._span.right}")
        self._say(f"camera {self.camera.x:.3f} {self.camera.y:.3f} {self.camera.scale:.4f}")
        if pane.drawn_field is not None:
            for entity, (x, y) in pane.drawn_field.positions.items():
                self._say(f"at {pane.feed.names[entity]} {x} {y}")
        if pane.drawn_body is not None:
            figure = pane.shown.scene.figures.get(pane.entity(self.selected_name) or -1)
            if figure is not None and figure.body is not None:
                for li, rect in pane.drawn_body.locations.items():
                    self._say(f"location {figure.body.locations[li].name} {rect.x} {rect.y} {rect.width} "
                              f"{rect.height}")
        self._say("drawn")

    def invalidate(self) -> None:
        """Forget every panel as last drawn: the next frame draws them all afresh."""
        for pane in self.panes:
            pane.invalidate()
        self.timeline.invalidate()

    def save(self, path: str | Path) -> None:
        """Save what is on screen as a PNG."""
        self.draw()
        save_png(self.surface, path)

    def close(self) -> None:
        """Stop the worker and release the worlds the viewer built."""
        self.worker.close()
        for pane in self.panes:
            pane.feed.close()

    def run(self, fps: int = 60) -> None:
        """Open a window on the fight and run until Esc or the window closes (see ``run_window``)."""
        run_window(self, fps=fps)


def run_window(viewer: Viewer, fps: int = 60) -> None:
    """Open a resizable window on ``viewer`` and run it until Esc or the window closes.

    The viewer's worlds tick in a thread of their own meanwhile (``Viewer(..., threaded=True)``).
    """
    pygame.display.init()
    screen = pygame.display.set_mode(viewer.size, pygame.RESIZABLE)
    pygame.display.set_caption(f"Combat sandbox: {viewer.panes[0].feed.title}")
    clock = pygame.time.Clock()
    viewer._say(f"ready {viewer.size[0]}x{viewer.size[1]} speed {viewer.speed:g} selected {viewer.selected_name}")
    try:
        while not viewer.quit:
            viewer.worker.frame_started()
            for event in pygame.event.get():
                if event.type == pygame.WINDOWSIZECHANGED:
                    viewer.resize((event.x, event.y))
                else:
                    viewer.handle(event)
            viewer.update(clock.get_time() / 1000.0)
            screen = pygame.display.get_surface() or screen
            screen.blit(viewer.draw(), (0, 0))
            pygame.display.flip()
            viewer.worker.frame_done()
            clock.tick(fps)
    finally:
        viewer.close()
        pygame.display.quit()


def run_headless(source: Source | Viewer, seed: int = 0, model: str | Sequence[str | None] | None = None,
                 frames: int = 120, screenshot: str | Path | None = None, size: tuple[int, int] | None = None,
                 speed: float | None = None, select: str | None = None,
                 events: Iterable[pygame.event.Event] | None = None, attacker: str | None = None,
                 engine: str | None = None, content: Sequence[str | Path] = ()) -> Viewer:
    """Render ``frames`` frames at a fixed 1/60 s each, with no window (the dummy video driver), and save the last.

    Args:
        source: What to watch (see ``Viewer``), or a viewer already built.
        seed: Root seed.
        model: A damage model, or several side by side.
        frames: Frames to render.
        screenshot: Where to save the last frame (PNG), if anywhere.
        size: Surface size.
        speed: Ticks per wall second (default 2).
        select: Name of the creature to select.
        events: Input events to feed before the first frame (after one frame is drawn, so clicks find what is
            on screen).
        attacker: Name of the attacker whose odds the location card shows.
        engine: The engine a scenario is built on (see ``Viewer``).
        content: The content trees a scenario is loaded over (see ``Viewer``).

    Raises:
        ValueError: An unknown creature, a speed out of range, too many models.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    if pygame.display.get_surface() is None:
        pygame.display.set_mode((1, 1))
    if isinstance(source, Viewer):
        viewer = source
    else:
        models = [model] if isinstance(model, str) or model is None else list(model)
        viewer = Viewer(source, seed=seed, models=models if models != [None] else None, size=size,
                        speed=speed if speed is not None else 2.0, engine=engine, content=content)
    try:
        if select is not None:
            viewer.select(select)
        if attacker is not None:
            viewer.choose_attacker(attacker)
        viewer.draw()
        for event in events or ():
            viewer.handle(event)
        for _ in range(frames):
            viewer.update(1 / 60)
            viewer.draw()
        if screenshot is not None:
            save_png(viewer.surface, screenshot)
    except BaseException:
        viewer.close()
        raise
    return viewer
