"""The Pygame viewer: a skirmish on the field, the selected creature's body and wounds, and the combat trace.

The simulation runs on a fixed timestep (``speed`` ticks of game time per wall second), decoupled from the frame
rate: each frame adds its wall time to an accumulator and runs whole ticks from it. Everything is drawn onto one
surface, which a window shows (``run_window``) or a headless run saves (``run_headless``).
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import pygame

from components.events import DamageDealt, Injured
from components.impairment import Impairment
from components.log import AttackEntry, LogEntry
from components.readout import Readout
from sandbox.bodymap import body_layout
from sandbox.files import atomic_path
from sandbox.models import available_models
from sandbox.world import Sandbox
from systems.creatures import Creature

SPEEDS: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Ticks of game time per wall second, by speed step."""

TEAM_COLOURS = [(220, 72, 60), (70, 130, 235), (90, 190, 90), (235, 180, 60), (185, 95, 225), (60, 200, 200),
                (235, 120, 180), (170, 170, 170)]
BACKGROUND = (24, 26, 30)
PANEL = (34, 37, 43)
TEXT = (225, 228, 232)
DIM = (140, 145, 150)
DEAD = (95, 95, 100)
SHOCK_RING = {"stunned": (250, 220, 80), "incapacitated": (250, 140, 40), "unconscious": (170, 90, 230),
              "dying": (170, 90, 230)}
"""Ring colour by the readout's shock word."""

WHOLE = (88, 168, 96)
MINOR = (214, 200, 72)
SERIOUS = (232, 138, 48)
GRIEVOUS = (200, 92, 40)
UNUSABLE = (200, 48, 48)
SEVERED = (70, 22, 92)
IMPAIRMENT_LEGEND = (("whole", WHOLE), ("-5", MINOR), ("-10", SERIOUS), ("worse", GRIEVOUS),
                     ("unusable", UNUSABLE), ("severed", SEVERED))

KEYS = ("Space pause   Right arrow: one tick   +/- speed   Tab: next creature   click: select   "
        "Up/Down: explain a blow   R restart (new seed)   M model   S screenshot   Esc quit")


def part_colour(imp: Impairment, severed: bool) -> tuple[int, int, int]:
    """The colour of a part in the body panel by its state."""
    if severed:
        return SEVERED
    if imp.unusable:
        return UNUSABLE
    if imp.penalty >= 0:
        return WHOLE
    if imp.penalty >= -5:
        return MINOR
    if imp.penalty >= -10:
        return SERIOUS
    return GRIEVOUS


def blow_label(entry: LogEntry) -> tuple[str, tuple[int, int, int]] | None:
    """The floating label of an attack that reached the body (level and location, or damage), from its events."""
    for event in entry.events():
        if isinstance(event, Injured):
            if event.glancing:
                return "glances", TEXT
            if event.level <= 0:
                return "no wound", TEXT
            colour = (255, 90, 80) if event.level >= 4 else (255, 200, 90) if event.level >= 2 else TEXT
            return f"{event.level_code} {event.location}", colour
        if isinstance(event, DamageDealt) and event.dealt > 0:
            return f"{event.dealt} damage", (255, 200, 90)
    return None


@dataclass(slots=True)
class Label:
    """A floating label over a creature (a landed blow): it rises and fades."""

    entity: int
    text: str
    colour: tuple[int, int, int]
    age: float = 0.0


class Viewer:
    """A skirmish and how it is shown.

    Args:
        scenario: Shipped scenario id or path.
        seed: Root seed.
        model: Damage model (default: the scenario's).
        size: Surface size in pixels.
    """

    LABEL_LIFE = 1.6

    def __init__(self, scenario: str, seed: int = 0, model: str | None = None,
                 size: tuple[int, int] = (1280, 800)) -> None:
        pygame.font.init()
        self.scenario = scenario
        self.seed = seed
        self.model = model
        self.size = size
        self.surface = pygame.Surface(size)
        self.font = pygame.font.Font(None, 18)
        self.small = pygame.font.Font(None, 15)
        self.big = pygame.font.Font(None, 24)
        self.speed_index = 2
        self.paused = False
        self.quit = False
        self.accumulator = 0.0
        self.status = ""
        self.part_rects: dict[int, pygame.Rect] = {}
        self.creature_pos: dict[int, tuple[int, int]] = {}
        self.trace_rows: list[tuple[pygame.Rect, int]] = []
        self.world = self._build()

    # ------------------------------------------------------------------ the simulation

    def _build(self) -> Sandbox:
        world = Sandbox.from_scenario(self.scenario, seed=self.seed, model=self.model)
        self.model = world.model
        self.labels: list[Label] = []
        self.records: list[AttackEntry] = []
        self.recent: list[AttackEntry] = []
        self._readouts: dict[int, Readout] = {}
        self._readouts_at = -1
        self.trace_index: int | None = None
        self.seen = 0
        creatures = world.creatures()
        self.selected: int | None = next(iter(creatures), None)
        self.teams = {t: TEAM_COLOURS[i % len(TEAM_COLOURS)] for i, t in enumerate(
            dict.fromkeys(c.team for c in creatures.values()))}
        self.finished = False
        return world

    def restart(self, seed: int | None = None) -> None:
        """Start the scenario again (a new seed by default)."""
        self.world.close()
        self.seed = self.seed + 1 if seed is None else seed
        self.world = self._build()
        self.status = f"restarted with seed {self.seed}"

    def cycle_model(self) -> None:
        """The next damage model on the same scenario and seed."""
        models = list(available_models())
        current = models.index(self.model) if self.model in models else -1
        self.model = models[(current + 1) % len(models)]
        self.world.close()
        self.world = self._build()
        self.status = f"model {self.model} ({models.index(self.model) + 1} of {len(models)})"

    def tick(self) -> None:
        """Run one tick of the simulation and pick up what it did."""
        if len(self.world.able_teams()) <= 1:
            self.finished = True
            return
        self.world.step()
        log = self.world.log
        self.recent = []
        for entry in log[self.seen:]:
            if not isinstance(entry, AttackEntry) or not entry.headline:
                continue
            self.records.append(entry)
            self.recent.append(entry)
            label = blow_label(entry)
            if label is not None:
                self.labels.append(Label(entry.target, label[0], label[1]))
        self.seen = len(log)

    def readout(self, entity: int) -> Readout:
        """A creature's readout as of this tick (read once a tick, not once a frame)."""
        if self._readouts_at != self.world.tick:
            self._readouts = {}
            self._readouts_at = self.world.tick
        found = self._readouts.get(entity)
        if found is None:
            found = self._readouts[entity] = self.world.readout(entity)
        return found

    def update(self, dt: float) -> None:
        """Advance wall time by ``dt`` seconds: labels age; whole ticks run at the current speed."""
        for label in self.labels:
            label.age += dt
        self.labels = [label for label in self.labels if label.age < self.LABEL_LIFE]
        if self.paused:
            return
        self.accumulator += dt
        step = 1.0 / SPEEDS[self.speed_index]
        ran = 0
        while self.accumulator >= step and ran < 8:  # never more than 8 ticks a frame: no spiral of death
            self.accumulator -= step
            self.tick()
            ran += 1
        if ran == 8:
            self.accumulator = 0.0

    # ------------------------------------------------------------------ input

    def handle(self, event: pygame.event.Event) -> None:
        """React to a key press or a click."""
        if event.type == pygame.QUIT:
            self.quit = True
        elif event.type == pygame.KEYDOWN:
            self._key(event.key)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._click(event.pos)

    def _key(self, key: int) -> None:
        if key == pygame.K_ESCAPE:
            self.quit = True
        elif key == pygame.K_SPACE:
            self.paused = not self.paused
        elif key == pygame.K_RIGHT:
            self.paused = True
            self.tick()
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.speed_index = min(self.speed_index + 1, len(SPEEDS) - 1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.speed_index = max(self.speed_index - 1, 0)
        elif key == pygame.K_TAB:
            entities = list(self.world.creatures())
            if entities:
                at = entities.index(self.selected) if self.selected in entities else -1
                self.selected = entities[(at + 1) % len(entities)]
        elif key == pygame.K_r:
            self.restart()
        elif key == pygame.K_m:
            self.cycle_model()
        elif key == pygame.K_s:
            path = Path(f"screenshot-{self.scenario_name()}-{self.world.tick:04d}.png")
            self.save(path)
            self.status = f"saved {path}"
        elif key == pygame.K_UP and self.records:
            self.trace_index = len(self.records) - 1 if self.trace_index is None else max(self.trace_index - 1, 0)
        elif key == pygame.K_DOWN and self.records and self.trace_index is not None:
            self.trace_index = min(self.trace_index + 1, len(self.records) - 1)

    def _click(self, pos: tuple[int, int]) -> None:
        for rect, index in self.trace_rows:
            if rect.collidepoint(pos):
                self.trace_index = index
                return
        if not self.layout()[0].collidepoint(pos):
            return  # a click on a panel never selects a creature drawn (clipped) behind it
        best, best_d = None, 14.0
        for entity, (x, y) in self.creature_pos.items():
            d = math.hypot(x - pos[0], y - pos[1])
            if d <= best_d:
                best, best_d = entity, d
        if best is not None:
            self.selected = best

    def scenario_name(self) -> str:
        """The scenario's file-friendly name."""
        return Path(self.scenario).stem

    def save(self, path: Path) -> None:
        """Save what is on screen as a PNG."""
        self.draw()
        save_png(self.surface, path)

    # ------------------------------------------------------------------ drawing

    def layout(self) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect]:
        """Field, body panel and trace panel rectangles."""
        w, h = self.size
        side = max(360, w * 36 // 100)
        field = pygame.Rect(0, 28, w - side, h - 28 - 22)
        panel = pygame.Rect(w - side, 28, side, (h - 50) * 58 // 100)
        trace = pygame.Rect(w - side, panel.bottom, side, h - 22 - panel.bottom)
        return field, panel, trace

    def draw(self) -> pygame.Surface:
        """Draw everything onto ``self.surface`` and return it."""
        s = self.surface
        s.fill(BACKGROUND)
        field, panel, trace = self.layout()
        creatures = self.world.creatures()
        self._draw_header(creatures)
        self._draw_field(field, creatures)
        self._draw_panel(panel, creatures)
        self._draw_trace(trace)
        self._text(KEYS, (8, self.size[1] - 18), DIM, self.small)
        return s

    def _text(self, text: str, pos: tuple[int, int], colour: tuple[int, int, int] = TEXT,
              font: pygame.font.Font | None = None) -> pygame.Rect:
        surface = (font or self.font).render(text, True, colour)
        return self.surface.blit(surface, pos)

    def _draw_header(self, creatures: dict[int, Creature]) -> None:
        spec = self.world.scenario
        name = spec.name if spec else self.scenario
        state = "PAUSED" if self.paused else f"{SPEEDS[self.speed_index]:g} ticks/s"
        if self.finished:
            teams = self.world.able_teams()
            state = f"over: {teams[0] + ' wins' if len(teams) == 1 else 'no winner'}"
        self._text(f"{name}   model {self.model}   seed {self.seed}   tick {self.world.tick} "
                   f"({self.world.ctx.clock.time:g} s)   {state}   {self.status}", (8, 7), TEXT, self.big)

    def _field_transform(self, field: pygame.Rect, creatures: dict[int, Creature]) -> tuple[float, float, float]:
        """Scale and origin that fit every living creature with a body (with a margin, at least 16 m across) in the
        field rectangle: the camera follows the fight, so a melee in one corner of a large field is readable."""
        shown = [c.position for c in creatures.values() if c.anatomy.body.locations and not c.condition.dead] or [
            c.position for c in creatures.values()]
        xs = [pos.x for pos in shown] or [0.0]
        ys = [pos.y for pos in shown] or [0.0]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 16.0) + 6.0
        cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
        scale = min(field.width - 40, field.height - 40) / span
        ox = field.centerx - cx * scale
        oy = field.centery - cy * scale
        return scale, ox, oy

    def _draw_field(self, field: pygame.Rect, creatures: dict[int, Creature]) -> None:
        s = self.surface
        s.set_clip(field)
        try:
            self._draw_field_clipped(field, creatures)
        finally:
            s.set_clip(None)

    def _draw_field_clipped(self, field: pygame.Rect, creatures: dict[int, Creature]) -> None:
        s = self.surface
        scale, ox, oy = self._field_transform(field, creatures)
        spec = self.world.scenario
        width, height = spec.field if spec else (40.0, 30.0)
        pygame.draw.rect(s, (40, 44, 40), pygame.Rect(ox, oy, width * scale, height * scale), 1)
        self._text("1 m", (field.x + 10, field.bottom - 16), DIM, self.small)
        pygame.draw.line(s, DIM, (field.x + 34, field.bottom - 10), (field.x + 34 + int(scale), field.bottom - 10), 2)
        self.creature_pos = {}
        radius = max(4, min(10, int(0.45 * scale)))
        modes = self.world.catalog.modes
        for entity, c in creatures.items():
            pos = c.position
            self.creature_pos[entity] = (int(ox + pos.x * scale), int(oy + pos.y * scale))
        for record in self.recent:  # this tick's attacks
            a, b = self.creature_pos.get(record.attacker), self.creature_pos.get(record.target)
            if a and b:
                hit = record.struck
                pygame.draw.line(s, (255, 230, 120) if hit else (90, 90, 100), a, b, 2 if hit else 1)
        for entity, c in creatures.items():
            ident, cond, comb, pos, equip = c.identity, c.condition, c.combatant, c.position, c.equipment
            reading = self.readout(entity)
            x, y = self.creature_pos[entity]
            colour = DEAD if cond.dead else self.teams.get(comb.team, TEXT)
            target = creatures.get(comb.target)
            mode = modes.get(comb.mode)
            if not cond.dead and target is not None:
                dx, dy = target.position.x - pos.x, target.position.y - pos.y
                d = math.hypot(dx, dy) or 1.0
                tip = (x + int(dx / d * (radius + 6)), y + int(dy / d * (radius + 6)))
                pygame.draw.line(s, colour, (x, y), tip, 2)  # facing
                if mode is not None and mode.kind == "melee" and entity == self.selected:
                    pygame.draw.circle(s, (70, 75, 85), (x, y), max(radius + 2, int(mode.reach * scale)), 1)
            if cond.prone and not cond.dead:
                pygame.draw.ellipse(s, colour, pygame.Rect(x - radius - 3, y - radius // 2, 2 * radius + 6, radius))
            else:
                pygame.draw.circle(s, colour, (x, y), radius)
            ring = SHOCK_RING.get(reading.shock)
            if ring and not cond.dead:
                pygame.draw.circle(s, ring, (x, y), radius + 3, 2)
            if any(w.bleeding for w in reading.wounds) and not cond.dead:
                pygame.draw.circle(s, (210, 20, 30), (x + radius, y - radius), 3)
            for k, _item in enumerate(equip.dropped):
                cx, cy = x - radius - 6 - 6 * k, y + radius + 2
                pygame.draw.line(s, (200, 200, 200), (cx - 3, cy - 3), (cx + 3, cy + 3), 2)
                pygame.draw.line(s, (200, 200, 200), (cx - 3, cy + 3), (cx + 3, cy - 3), 2)
            if cond.dead:
                pygame.draw.line(s, (30, 30, 30), (x - radius, y - radius), (x + radius, y + radius), 2)
            if entity == self.selected:
                pygame.draw.circle(s, (255, 255, 255), (x, y), radius + 6, 1)
            if len(creatures) <= 40:
                self._text(ident.name, (x - 20, y + radius + 4), DIM if cond.dead else TEXT, self.small)
        # Past a dozen, only the newest labels and those of the selected creature show: a crowd of labels is
        # unreadable, and the trace panel lists every blow anyway.
        shown = [lb for lb in self.labels if lb.entity == self.selected] + [
            lb for lb in self.labels[-12:] if lb.entity != self.selected]
        for label in shown:
            at = self.creature_pos.get(label.entity)
            if at:
                fade = max(0.0, 1.0 - label.age / self.LABEL_LIFE)
                red, green, blue = (int(c * fade + BACKGROUND[i] * (1 - fade)) for i, c in enumerate(label.colour))
                self._text(label.text, (at[0] + 8, at[1] - 18 - int(label.age * 14)), (red, green, blue),
                           self.small)

    def _draw_panel(self, rect: pygame.Rect, creatures: dict[int, Creature]) -> None:
        s = self.surface
        pygame.draw.rect(s, PANEL, rect)
        self.part_rects = {}
        if self.selected is None or self.selected not in creatures:
            self._text("Click a creature (or Tab) to see its body and wounds.", (rect.x + 10, rect.y + 10), DIM)
            return
        c = creatures[self.selected]
        ident, anat, armor, comb, equip = c.identity, c.anatomy, c.armor, c.combatant, c.equipment
        r = self.readout(self.selected)
        x, y = rect.x + 10, rect.y + 8
        self._text(f"{ident.name}  ({anat.kind.name}, team {comb.team})", (x, y), TEXT, self.big)
        y += 22
        self._text(f"{r.label}: health {r.health}{r.health_unit} ({r.band})   shock: {r.shock}", (x, y))
        y += 17
        held = sorted(set(equip.holding.values())) or ["nothing"]
        self._text(f"Holds: {', '.join(held)}   worn: {', '.join(p.name for p in armor.pieces) or 'nothing'}",
                   (x, y), DIM, self.small)
        y += 14
        for piece in self._wrap("Conditions: " + (", ".join(r.conditions) or "none"), rect.width - 20):
            self._text(piece, (x, y), DIM, self.small)
            y += 14
        y += 2
        body = anat.body
        drawing = pygame.Rect(x, y, min(190, rect.width // 2 - 20), rect.bottom - y - 32)
        for pi, (ux, uy, uw, uh) in body_layout(body).items():
            part_rect = pygame.Rect(drawing.x + ux * drawing.width, drawing.y + uy * drawing.height,
                                    max(6, uw * drawing.width), max(6, uh * drawing.height))
            self.part_rects[pi] = part_rect
            reading = r.parts[pi] if pi < len(r.parts) else None
            imp = Impairment(reading.penalty, reading.unusable) if reading else Impairment()
            pygame.draw.rect(s, part_colour(imp, bool(reading and reading.severed)), part_rect, border_radius=4)
            name = body.parts[pi].name
            for candidate in (name, name.replace("Right ", "R ").replace("Left ", "L "),
                              "".join(w[0] for w in name.split())):
                label = self.small.render(candidate, True, (15, 15, 15))
                if label.get_width() <= part_rect.width - 4:
                    break
            s.blit(label, (part_rect.x + 3, part_rect.y + 3))
        if not body.parts:
            self._text("no body: incorporeal", (drawing.x, drawing.y), DIM, self.small)
        lx = drawing.x
        for label_text, colour in IMPAIRMENT_LEGEND:
            pygame.draw.rect(s, colour, pygame.Rect(lx, rect.bottom - 20, 10, 10))
            lx += self._text(label_text, (lx + 13, rect.bottom - 21), DIM, self.small).width + 22
        wx, wy = drawing.right + 14, drawing.y
        self._text("Wounds (level, aspect, HR)", (wx, wy), TEXT, self.small)
        wy += 15
        rows = self.wound_lines(self.selected)
        for line in rows[: max(1, (rect.bottom - wy - 30) // 14)]:
            self._text(line, (wx, wy), TEXT, self.small)
            wy += 14
        if not rows:
            self._text("none", (wx, wy), DIM, self.small)

    def wound_lines(self, entity: int) -> list[str]:
        """The selected creature's wounds, a line each (what the body panel lists), from its readout."""
        r = self.world.readout(entity)
        lines = []
        for w in r.wounds:
            extra = [w.aspect] if w.aspect else []
            if w.bleeding:
                extra.append("bleeding")
            if w.location:
                extra.append(f"HR {w.healing_rate}" if w.healing_rate is not None else "untreated")
            if w.infection is not None:
                extra.append(f"infected {w.infection}")
            where = f"{w.location}: " if w.location else ""
            lines.append(f"{where}{w.level} {', '.join(extra)}".rstrip())
        lines += [f"{location}: SEVERED" for location in r.severed]
        return lines

    def _wrap(self, line: str, width: int) -> list[str]:
        """Split ``line`` into pieces no wider than ``width`` pixels in the small font."""
        pieces: list[str] = []
        current = ""
        for word in line.split(" "):
            trial = f"{current} {word}".strip()
            if current and self.small.size(trial)[0] > width:
                pieces.append(current)
                current = "  " + word
            else:
                current = trial if not current.startswith("  ") else f"{current} {word}"
        pieces.append(current)
        return pieces

    def _draw_trace(self, rect: pygame.Rect) -> None:
        s = self.surface
        pygame.draw.rect(s, (28, 30, 35), rect)
        x, y = rect.x + 10, rect.y + 6
        names = self.world.names
        self.trace_rows = []
        if self.trace_index is not None and self.records:
            record = self.records[self.trace_index]
            self._text("Blow explained (Up/Down to move, or click a line below)", (x, y), TEXT, self.small)
            y += 15
            for line in record.explain(names):
                for piece in self._wrap(line, rect.width - 24):
                    self._text(piece, (x, y), (250, 230, 170), self.small)
                    y += 14
            y += 4
        self._text("Combat log", (x, y), TEXT, self.small)
        y += 15
        room = max(1, (rect.bottom - y - 4) // 14)
        start = max(0, len(self.records) - room)
        for index in range(start, len(self.records)):
            record = self.records[index]
            line = f"{record.tick:>3} {trace_line(record, names)}"
            colour = (255, 255, 255) if index == self.trace_index else (TEXT if record.struck else DIM)
            self._text(line[:70], (x, y), colour, self.small)
            self.trace_rows.append((pygame.Rect(rect.x, y, rect.width, 14), index))
            y += 14


def trace_line(record: AttackEntry, names: dict[int, str]) -> str:
    """An attack in the combat log: who struck whom and what came of it."""
    who = f"{names.get(record.attacker, '?')} -> {names.get(record.target, '?')}"
    if not record.struck:
        return f"{who}: misses"
    label = blow_label(record)
    return f"{who}: {label[0] if label else 'no effect'}"


def run_window(scenario: str, seed: int = 0, model: str | None = None, size: tuple[int, int] = (1280, 800)) -> None:
    """Open a window and run the viewer until Esc or the window closes."""
    pygame.display.init()
    screen = pygame.display.set_mode(size)
    pygame.display.set_caption("Combat sandbox")
    viewer = Viewer(scenario, seed, model, size)
    clock = pygame.time.Clock()
    while not viewer.quit:
        for event in pygame.event.get():
            viewer.handle(event)
        viewer.update(clock.tick(60) / 1000.0)
        screen.blit(viewer.draw(), (0, 0))
        pygame.display.flip()
    viewer.world.close()
    pygame.quit()


def run_headless(scenario: str, seed: int = 0, model: str | None = None, frames: int = 120,
                 screenshot: Path | None = None, size: tuple[int, int] = (1280, 800), speed: float | None = None,
                 select: str | None = None, events: list[pygame.event.Event] | None = None) -> Viewer:
    """Render ``frames`` frames at a fixed 1/60 s each, with no window (the dummy video driver), and save the last.

    Args:
        scenario: Scenario id or path.
        seed: Root seed.
        model: Damage model.
        frames: Frames to render.
        screenshot: Where to save the last frame (PNG), if anywhere.
        size: Surface size.
        speed: Ticks per wall second (one of ``SPEEDS``; default 2).
        select: Name of the creature to select.
        events: Input events to feed before the first frame.
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    pygame.display.init()
    pygame.display.set_mode((1, 1))
    viewer = Viewer(scenario, seed, model, size)
    if speed is not None:
        viewer.speed_index = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - speed))
    if select is not None:
        viewer.selected = viewer.world.entity(select)
    for event in events or ():
        viewer.handle(event)
    for _ in range(frames):
        viewer.update(1 / 60)
        viewer.draw()
    if screenshot is not None:
        save_png(viewer.surface, screenshot)
    return viewer


def save_png(surface: pygame.Surface, path: Path) -> None:
    """Save a PNG whole or not at all: to a temporary file beside ``path`` (same suffix: pygame picks the format
    by it), renamed over it."""
    with atomic_path(path, suffix=f".tmp{path.suffix}") as tmp:
        pygame.image.save(surface, str(tmp))
