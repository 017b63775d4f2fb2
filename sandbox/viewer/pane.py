"""One watched fight on screen: its field, its body panel, and below them its log or the location card.

A lone pane puts the field on the left and the panels on the right; panes side by side (the split view) or a
narrow window stack the field over the body panel over the log. The pane keeps what it drew where, for the
viewer's hit tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import pygame

from sandbox.viewer.body_view import BodyDrawn, draw_body
from sandbox.viewer.budget import Budget
from sandbox.viewer.camera import Camera
from sandbox.viewer.card import card_lines, draw_card, protection_rows
from sandbox.viewer.feeds import Feed, Shown
from sandbox.viewer.field_view import BlowLabel, FieldCache, FieldDrawn, draw_field
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.log_view import LogDrawn, draw_log
from sandbox.viewer.theme import DIM, PANEL, RULE, TEXT, Colour

__all__ = ["FIELD_MIN", "SIDE_MAX", "SIDE_MIN", "STRIP", "Pane", "PaneRects", "PanelCache", "pane_rects"]

SIDE_MIN, SIDE_MAX = 460, 660
"""The panel column's width in a lone pane, in pixels."""
FIELD_MIN = 380
"""The narrowest field beside the panel column; narrower, the pane stacks."""
STRIP = 20
"""The height of a stacked pane's title strip."""


@dataclass(frozen=True, slots=True)
class PaneRects:
    """Where a pane draws what.

    Attributes:
        whole: The pane.
        title: Its title strip (zero height in a lone pane).
        field: The field.
        body: The body panel.
        lower: The log, or the location card.
    """

    whole: pygame.Rect
    title: pygame.Rect
    field: pygame.Rect
    body: pygame.Rect
    lower: pygame.Rect


def pane_rects(rect: pygame.Rect, stacked: bool) -> PaneRects:
    """The pane's areas in ``rect``: side by side, or ``stacked`` (also when ``rect`` is too narrow)."""
    x, y, w, h = rect
    side = min(max(int(w * 0.42), SIDE_MIN), SIDE_MAX)
    if not stacked and w - side >= FIELD_MIN:
        body_h = int(h * 0.6)
        return PaneRects(rect, pygame.Rect(x, y, w, 0), pygame.Rect(x, y, w - side, h),
                         pygame.Rect(x + w - side, y, side, body_h),
                         pygame.Rect(x + w - side, y + body_h, side, h - body_h))
    title = pygame.Rect(x, y, w, STRIP)
    rest = h - STRIP
    field_h, body_h = int(rest * 0.27), int(rest * 0.52)  # the body drawing needs the room to name locations
    return PaneRects(rect, title, pygame.Rect(x, y + STRIP, w, field_h),
                     pygame.Rect(x, y + STRIP + field_h, w, body_h),
                     pygame.Rect(x, y + STRIP + field_h + body_h, w, rest - field_h - body_h))


class PanelCache:
    """A panel as last drawn, and what it was drawn from.

    Objects (compared by identity, a scene's are new each tick) and values (compared by equality).

    Attributes:
        surface: The panel, at its size.
        result: What drawing it returned (for hit tests).
    """

    def __init__(self) -> None:
        self.surface = pygame.Surface((1, 1))
        self.result: object = None
        self._refs: tuple[object, ...] = ()
        self._values: tuple[object, ...] = ()
        self._fresh = False

    def stale(self, size: tuple[int, int], refs: tuple[object, ...], values: tuple[object, ...],
              budget: Budget) -> bool:
        """Whether to draw the panel now.

        It never was at this size, what the user changed (``values``) differs, or what the fight shows (``refs``)
        changed and ``budget`` has a redraw left. When it says yes, the surface is ready to draw on.
        """
        fresh = self._fresh and self.surface.get_size() == size and values == self._values
        changed = len(refs) != len(self._refs) or any(a is not b for a, b in zip(refs, self._refs, strict=True))
        if fresh and (not changed or not budget.spend()):
            return False
        if self.surface.get_size() != size:
            self.surface = pygame.Surface(size)
        self._refs, self._values, self._fresh = refs, values, True
        return True


@dataclass(slots=True)
class Pane:
    """A feed on screen and what this pane alone remembers.

    Attributes:
        feed: The fight.
        rects: Where it draws (set by ``layout``).
        wound_scroll: The first wound row shown.
        log_first: The first log line shown (``None``: the newest).
        chosen: The attack explained (an index into the attacks shown), or ``None``.
        labels: The landed blows' labels floating on the field.
        seen: The ``Shown`` last drawn (a new one brings new labels).
        drawn_field: What the field drew where.
        drawn_body: What the body panel drew where (``None`` with nobody selected).
        drawn_log: What the log drew where (``None`` while the card is up).
    """

    feed: Feed
    rects: PaneRects = field(default_factory=lambda: pane_rects(pygame.Rect(0, 0, 800, 600), False))
    wound_scroll: int = 0
    log_first: int | None = None
    chosen: int | None = None
    labels: list[BlowLabel] = field(default_factory=list)
    seen: Shown | None = None
    drawn_field: FieldDrawn | None = None
    drawn_body: BodyDrawn | None = None
    drawn_log: LogDrawn | None = None
    field_cache: FieldCache = field(default_factory=FieldCache)
    body_cache: PanelCache = field(default_factory=lambda: PanelCache())
    lower_cache: PanelCache = field(default_factory=lambda: PanelCache())

    @property
    def shown(self) -> Shown:
        """What the feed shows now."""
        return self.feed.shown

    def entity(self, name: str | None) -> int | None:
        """The entity of the creature called ``name`` in this pane's fight."""
        if name is None:
            return None
        return next((e for e, n in self.feed.names.items() if n == name), None)

    def layout(self, rect: pygame.Rect, stacked: bool) -> None:
        """Place the pane in ``rect``."""
        self.rects = pane_rects(rect, stacked)

    def take(self, shown: Shown) -> None:
        """A new ``Shown``: its tick's landed blows become labels (a jump in time starts the labels afresh)."""
        before = self.seen
        self.seen = shown
        if before is not None and shown.scene.tick == before.scene.tick:
            return
        if before is None or shown.scene.tick != before.scene.tick + 1:
            self.labels = []
        for attack in shown.scene.attacks:
            if attack.label is not None:
                self.labels.append(BlowLabel(attack.target, attack.label[0], attack.label[1]))
        if self.chosen is not None and self.chosen >= len(shown.attacks):
            self.chosen = None

    def invalidate(self) -> None:
        """Forget the field and the panels as last drawn: the next frame draws them afresh."""
        self.field_cache = FieldCache()
        self.body_cache = PanelCache()
        self.lower_cache = PanelCache()

    def age(self, dt: float, life: float) -> None:
        """Labels grow older by ``dt`` seconds; those older than ``life`` go."""
        for label in self.labels:
            label.age += dt
        self.labels = [label for label in self.labels if label.age < life]

    def draw(self, surface: pygame.Surface, type_: Typeset, camera: Camera, teams: Mapping[str, Colour], *,
             selected: str | None, hovered: int | None, attacker: str | None, all_names: bool,
             location: int | None, pinned: int | None, title: str, budget: Budget | None = None) -> None:
        """Draw the whole pane.

        The field is drawn afresh whenever it changed; the body panel and the log (or the card) are redrawn only while
        ``budget`` lasts (one redraw spends one), else shown as last drawn: spread over frames, a tick never makes one
        frame draw every panel at once.
        """
        budget = budget if budget is not None else Budget()
        shown = self.shown
        scene = shown.scene
        r = self.rects
        if r.title.height:
            surface.fill(PANEL, r.title)
            surface.blit(type_.render(type_.clip(title, "heading", r.title.width - 12), "heading", TEXT),
                         (r.title.x + 6, r.title.y + 3))
        chosen_entity = self.entity(selected)
        attacker_entity = self.entity(attacker)
        self.drawn_field = draw_field(surface, r.field, scene, camera, type_, teams, selected=chosen_entity,
                                      hovered=hovered, attacker=attacker_entity, blow_labels=self.labels,
                                      all_names=all_names, bounds=self.feed.bounds, cache=self.field_cache,
                                      budget=budget)
        if self.feed.note:
            surface.blit(type_.render(type_.clip(self.feed.note, "small", r.field.width - 16), "small", DIM),
                         (r.field.x + 8, r.field.y + 6))
        figure = scene.figures.get(chosen_entity) if chosen_entity is not None else None
        readout = scene.readouts.get(chosen_entity) if chosen_entity is not None else None
        body = self.body_cache
        if body.stale(r.body.size, (figure, readout), (location, pinned, self.wound_scroll), budget):
            local = pygame.Rect(0, 0, r.body.width, r.body.height)
            if figure is None or readout is None:
                body.surface.fill(PANEL)
                body.surface.blit(type_.render("Click a creature (or press Tab) to see its body and wounds.", "text",
                                               DIM), (10, 10))
                body.result = None
            else:
                body.result = draw_body(body.surface, local, figure, readout, type_, model=self.feed.model,
                                        hovered=location, pinned=pinned, scroll=self.wound_scroll)
        surface.blit(body.surface, r.body.topleft)
        drawn = body.result
        self.drawn_body = drawn.moved(r.body.topleft) if isinstance(drawn, BodyDrawn) else None
        if self.drawn_body is not None:
            self.wound_scroll = self.drawn_body.window.offset
        card_at = pinned if pinned is not None else location
        lower = self.lower_cache
        if figure is not None and readout is not None and figure.body is not None and card_at is not None and \
                card_at < len(figure.body.locations):
            against = attacker_entity is not None and attacker_entity != figure.entity
            odds = self.feed.odds.get((attacker_entity, figure.entity, card_at, scene.tick)) \
                if attacker_entity is not None and against else None
            if lower.stale(r.lower.size, (figure, readout, odds), ("card", card_at, attacker), budget):
                lines = card_lines(figure.body, card_at, readout, figure.armor, odds, attacker if against else None)
                draw_card(lower.surface, pygame.Rect(0, 0, r.lower.width, r.lower.height), lines,
                          protection_rows(figure.body, card_at, figure.armor), type_)
                lower.result = None
        elif lower.stale(r.lower.size, (shown.attacks,), ("log", self.chosen, self.log_first), budget):
            lower.result = draw_log(lower.surface, pygame.Rect(0, 0, r.lower.width, r.lower.height), shown.attacks,
                                    self.feed.names, type_, chosen=self.chosen, first=self.log_first)
        surface.blit(lower.surface, r.lower.topleft)
        log = lower.result
        self.drawn_log = log.moved(r.lower.topleft) if isinstance(log, LogDrawn) else None
        pygame.draw.line(surface, RULE, r.body.topleft, r.body.bottomleft)
        pygame.draw.line(surface, RULE, r.lower.topleft, r.lower.topright)

    # ------------------------------------------------------------------ hit tests

    def creature_at(self, pos: tuple[int, int]) -> int | None:
        """The creature drawn nearest ``pos`` on the field (within its radius and a little), or ``None``."""
        drawn = self.drawn_field
        if drawn is None or not self.rects.field.collidepoint(pos):
            return None
        best, best_d = None, float(drawn.radius + 6) ** 2
        for entity, (x, y) in drawn.positions.items():
            d = (x - pos[0]) ** 2 + (y - pos[1]) ** 2
            if d <= best_d:
                best, best_d = entity, d
        return best

    def location_at(self, pos: tuple[int, int]) -> int | None:
        """The location of the body drawing under ``pos``, or ``None``."""
        if self.drawn_body is None:
            return None
        return next((li for li, rect in self.drawn_body.locations.items() if rect.collidepoint(pos)), None)

    def log_row_at(self, pos: tuple[int, int]) -> int | None:
        """The attack of the log line under ``pos``, or ``None``."""
        if self.drawn_log is None:
            return None
        return next((index for rect, index in self.drawn_log.rows if rect.collidepoint(pos)), None)
