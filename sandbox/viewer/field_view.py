"""Drawing the field.

The ground and its scale, every creature in its team's colour with its state, this tick's attacks, and the labels (names
and landed blows) placed so they never overlap nor leave the field.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import pygame

from sandbox.viewer.budget import Budget
from sandbox.viewer.camera import Camera
from sandbox.viewer.fonts import Typeset
from sandbox.viewer.labels import Box, Request, place
from sandbox.viewer.scene import Figure, Scene
from sandbox.viewer.theme import (
    BLEEDING,
    DEAD,
    DIM,
    FIELD,
    GRID,
    HIGHLIGHT,
    LANDED,
    MISSED,
    SHOCK_RING,
    TEXT,
    Colour,
    fade,
)

__all__ = [
    "ATTACKER",
    "BODY_RADIUS",
    "LABEL_LIFE",
    "MAX_BLOW_LABELS",
    "PLATE_ALPHA",
    "PLATE_SIZE",
    "BlowLabel",
    "FieldCache",
    "FieldDrawn",
    "LabelCache",
    "draw_field",
    "radius_at",
]

LABEL_LIFE = 2.0
"""Seconds a blow's label stays on the field (it fades out over the last half)."""
BODY_RADIUS = 0.4
"""A creature's drawn radius in metres."""
ATTACKER = (255, 120, 60)
"""The marker of the attacker chosen for the location card's odds."""
MAX_BLOW_LABELS = 30
"""Blow labels on the field at once, the selected creature's aside (the newest; the log lists every blow)."""
PLATE_ALPHA = 190
"""How opaque the plate under a label is (0 to 255)."""
PLATE_SIZE = (600, 40)
"""The label plate's surface: wider and taller than any label."""


@dataclass(slots=True)
class BlowLabel:
    """A landed blow's label over its target.

    Attributes:
        entity: The creature struck.
        text: Level and location (or damage).
        colour: By how bad it is.
        age: Seconds since the blow.
    """

    entity: int
    text: str
    colour: Colour
    age: float = 0.0


@dataclass(frozen=True, slots=True)
class FieldDrawn:
    """What a drawn field leaves for hit tests and checks.

    Attributes:
        positions: Entity -> its centre in pixels (every creature, drawn or off the view).
        radius: The creatures' drawn radius in pixels.
        labels: Every label drawn: (what it is, its box); a name's key is ``("name", entity)``, a blow's
            ``("blow", its BlowLabel)``.
    """

    positions: dict[int, tuple[int, int]]
    radius: int
    labels: list[tuple[object, Box]]


def radius_at(scale: float) -> int:
    """A creature's drawn radius at ``scale`` pixels per metre."""
    return max(3, min(18, int(BODY_RADIUS * scale)))


class FieldCache:
    """The field as last drawn, and the labels' places.

    The field is redrawn only when the scene, the camera, the view or the selection changes: a frame between ticks only
    blits it and fades the labels over it.

    Attributes:
        layer: The ground, the attacks and the creatures, drawn at the field's size.
        key: What it was drawn from.
        positions: Entity -> its centre on the layer.
        labels: The labels' places.
    """

    def __init__(self) -> None:
        self.layer: pygame.Surface | None = None
        self.key: tuple[object, ...] = ()
        self.scene: Scene | None = None
        self.positions: dict[int, tuple[int, int]] = {}
        self.screen: dict[int, tuple[int, int]] = {}
        self.labels = LabelCache()


def draw_field(surface: pygame.Surface, rect: pygame.Rect, scene: Scene, camera: Camera, type_: Typeset,
               teams: Mapping[str, Colour], *, selected: int | None, hovered: int | None, attacker: int | None,
               blow_labels: Sequence[BlowLabel], all_names: bool, bounds: tuple[float, float] | None,
               cache: FieldCache | None = None, budget: Budget | None = None) -> FieldDrawn:
    """Draw ``scene`` in ``rect`` through ``camera``; returns what was drawn where.

    A new scene is drawn when ``budget`` allows (a change of view or selection at once); the labels are placed again
    likewise.
    """
    cache = cache if cache is not None else FieldCache()
    budget = budget if budget is not None else Budget()
    radius = radius_at(camera.scale)
    key = (camera.x, camera.y, camera.scale, rect.size, selected, attacker, tuple(teams.items()), bounds)
    if cache.layer is None or cache.key != key or (cache.scene is not scene and budget.spend()):
        if cache.layer is None or cache.layer.get_size() != rect.size:
            cache.layer = pygame.Surface(rect.size)
        cache.scene, cache.key = scene, key
        cache.positions = _draw_layer(cache.layer, scene, camera, type_, teams, selected, attacker, bounds, radius)
        cache.screen = {e: (x + rect.x, y + rect.y) for e, (x, y) in cache.positions.items()}
    surface.blit(cache.layer, rect.topleft)
    clip = surface.get_clip()
    surface.set_clip(rect)
    try:
        assert cache.scene is not None
        labels = _labels(surface, rect, cache.scene.figures, cache.screen, radius, type_, selected, hovered,
                         attacker, blow_labels, all_names, cache.labels, budget)
    finally:
        surface.set_clip(clip)
    return FieldDrawn(cache.screen, radius, labels)


def _draw_layer(layer: pygame.Surface, scene: Scene, camera: Camera, type_: Typeset, teams: Mapping[str, Colour],
                selected: int | None, attacker: int | None, bounds: tuple[float, float] | None,
                radius: int) -> dict[int, tuple[int, int]]:
    """The ground, this tick's attacks and every creature on ``layer``; returns the creatures' centres on it."""
    w, h = layer.get_size()
    local = pygame.Rect(0, 0, w, h)
    layer.fill(FIELD)
    _ground(layer, local, camera, type_, bounds)
    figures = scene.figures
    view = (0, 0, w, h)
    positions = {e: camera.to_screen(f.x, f.y, view) for e, f in figures.items()}
    _attacks(layer, scene, positions)
    inside = local.inflate(4 * radius, 4 * radius)
    circle, line, hypot = pygame.draw.circle, pygame.draw.line, math.hypot
    reach = radius + 6
    ring_r = radius + 3
    dot = max(2, radius // 3)
    special = (selected, attacker)
    facing = radius >= 5  # at a crowd's zoom a facing tick is clutter, not information
    for entity, f in figures.items():
        at = positions[entity]
        if not inside.collidepoint(at):
            continue
        if f.dead or f.prone or f.dropped or entity in special or f.body is None or not f.body.locations:
            _creature(layer, f, at, radius, camera.scale, teams, figures, entity == selected, entity == attacker)
            continue
        # the common case, drawn inline: a thousand of these a frame after each tick
        colour = teams.get(f.team, TEXT)
        target = figures.get(f.target) if facing else None
        if target is not None:
            dx, dy = target.x - f.x, target.y - f.y
            d = hypot(dx, dy)
            if d:
                line(layer, colour, at, (at[0] + int(dx / d * reach), at[1] + int(dy / d * reach)), 2)
        circle(layer, colour, at, radius)
        ring = SHOCK_RING.get(f.shock)
        if ring:
            circle(layer, ring, at, ring_r, 2)
        if f.bleeding:
            circle(layer, BLEEDING, (at[0] + radius, at[1] - radius), dot)
    return positions


def _ground(surface: pygame.Surface, rect: pygame.Rect, camera: Camera, type_: Typeset,
            bounds: tuple[float, float] | None) -> None:
    view = (rect.x, rect.y, rect.width, rect.height)
    step = next(s for s in (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0) if s * camera.scale >= 28)
    x0, y0 = camera.to_field(rect.left, rect.top, view)
    x1, y1 = camera.to_field(rect.right, rect.bottom, view)
    gx = math.floor(x0 / step) * step
    while gx <= x1:
        px = camera.to_screen(gx, 0, view)[0]
        pygame.draw.line(surface, GRID, (px, rect.top), (px, rect.bottom))
        gx += step
    gy = math.floor(y0 / step) * step
    while gy <= y1:
        py = camera.to_screen(0, gy, view)[1]
        pygame.draw.line(surface, GRID, (rect.left, py), (rect.right, py))
        gy += step
    if bounds is not None:
        (ax, ay), (bx, by) = camera.to_screen(0, 0, view), camera.to_screen(bounds[0], bounds[1], view)
        pygame.draw.rect(surface, (60, 70, 62), pygame.Rect(ax, ay, bx - ax, by - ay), 1)
    length = int(step * camera.scale)
    x, y = rect.x + 12, rect.bottom - 12
    pygame.draw.line(surface, DIM, (x, y), (x + length, y), 2)
    pygame.draw.line(surface, DIM, (x, y - 4), (x, y + 2))
    pygame.draw.line(surface, DIM, (x + length, y - 4), (x + length, y + 2))
    surface.blit(type_.render(f"{step:g} m", "small", DIM), (x + length + 6, y - 8))


def _attacks(surface: pygame.Surface, scene: Scene, positions: Mapping[int, tuple[int, int]]) -> None:
    """This tick's attacks as lines, the landed ones bright.

    The landed ones are thick too, unless a crowd of them would hide the fight.
    """
    thick = 2 if len(scene.attacks) <= 40 else 1
    line = pygame.draw.line
    for attack in scene.attacks:
        a, b = positions.get(attack.attacker), positions.get(attack.target)
        if a is not None and b is not None:
            if attack.struck:
                line(surface, LANDED, a, b, thick)
            else:
                line(surface, MISSED, a, b, 1)


def _creature(surface: pygame.Surface, f: Figure, at: tuple[int, int], radius: int, scale: float,
              teams: Mapping[str, Colour], figures: Mapping[int, Figure], selected: bool, attacker: bool) -> None:
    x, y = at
    colour = DEAD if f.dead else teams.get(f.team, TEXT)
    target = figures.get(f.target)
    if not f.dead and target is not None and (target.x, target.y) != (f.x, f.y):
        dx, dy = target.x - f.x, target.y - f.y
        d = math.hypot(dx, dy)
        tip = (x + int(dx / d * (radius + 6)), y + int(dy / d * (radius + 6)))
        pygame.draw.line(surface, colour, at, tip, 2)  # facing
    if selected and f.reach > 0 and not f.dead:
        pygame.draw.circle(surface, (80, 86, 96), at, max(radius + 2, int(f.reach * scale)), 1)  # its reach
    if f.prone and not f.dead:
        pygame.draw.ellipse(surface, colour, pygame.Rect(x - radius - 3, y - radius // 2, 2 * radius + 6, radius))
    else:
        pygame.draw.circle(surface, colour, at, radius)
    if not f.has_body:
        pygame.draw.circle(surface, FIELD, at, max(1, radius - 2))  # hollow: nothing to strike
    ring = SHOCK_RING.get(f.shock)
    if ring and not f.dead:
        pygame.draw.circle(surface, ring, at, radius + 3, 2)
    if f.bleeding and not f.dead:
        pygame.draw.circle(surface, BLEEDING, (x + radius, y - radius), max(2, radius // 3))
    for k in range(f.dropped):
        cx, cy = x - radius - 6 - 6 * k, y + radius + 2
        pygame.draw.line(surface, (200, 200, 200), (cx - 3, cy - 3), (cx + 3, cy + 3), 2)
        pygame.draw.line(surface, (200, 200, 200), (cx - 3, cy + 3), (cx + 3, cy - 3), 2)
    if f.dead:
        pygame.draw.line(surface, (30, 30, 30), (x - radius, y - radius), (x + radius, y + radius), 2)
        pygame.draw.line(surface, (30, 30, 30), (x - radius, y + radius), (x + radius, y - radius), 2)
    if selected:
        pygame.draw.circle(surface, HIGHLIGHT, at, radius + 6, 2)
    if attacker:
        r = radius + 6
        pygame.draw.circle(surface, ATTACKER, at, r, 2)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            pygame.draw.line(surface, ATTACKER, (x + dx * r, y + dy * r), (x + dx * (r + 5), y + dy * (r + 5)), 2)


class LabelCache:
    """The labels' places, worked out again only when what they depend on changes.

    They depend on a tick, the camera, the view, the selection and the labels themselves. They are not worked out every
    frame: a frame only redraws them as they fade.
    """

    def __init__(self) -> None:
        self.view: tuple[object, ...] = ()
        self.shown: tuple[object, tuple[int, ...]] = (None, ())
        self.placed: list[tuple[Request, Box]] = []


def _labels(surface: pygame.Surface, rect: pygame.Rect, figures: Mapping[int, Figure],
            positions: Mapping[int, tuple[int, int]], radius: int, type_: Typeset, selected: int | None,
            hovered: int | None, attacker: int | None, blow_labels: Sequence[BlowLabel], all_names: bool,
            cache: LabelCache, budget: Budget) -> list[tuple[object, Box]]:
    """Names (the selected and hovered creature's, every one's with ``all_names``) and blow labels, placed.

    The selected creature's blows and the newest ``MAX_BLOW_LABELS`` of the others.
    """
    gap = radius + 4
    newest = sorted(range(len(blow_labels)), key=lambda i: blow_labels[i].age)
    mine = [i for i in newest if blow_labels[i].entity == selected]
    others = [i for i in newest if blow_labels[i].entity != selected][:MAX_BLOW_LABELS]
    chosen = [i for i in mine + others if blow_labels[i].entity in positions]
    view = (tuple(rect), radius, selected, hovered, attacker, all_names)
    shown = (positions, tuple(id(blow_labels[i]) for i in chosen))
    moved = shown[0] is not cache.shown[0] or shown[1] != cache.shown[1]
    if view != cache.view or (moved and budget.spend()):
        cache.view, cache.shown = view, shown
        # a label never covers the creature it is about, nor another labelled one, nor the selection ring, nor
        # the attacker's marker
        anchors = {blow_labels[i].entity for i in chosen} | {e for e in (selected, hovered) if e is not None}
        taken = [_disc(positions[e], radius + (7 if e == selected else 2)) for e in anchors if e in positions]
        if attacker is not None and attacker in positions:
            taken.append(_disc(positions[attacker], radius + 12))
        cache.placed = place(_requests(rect, figures, positions, gap, type_, selected, hovered, blow_labels, chosen,
                                       all_names), (rect.x + 2, rect.y + 2, rect.width - 4, rect.height - 4), taken)
    plate = _plate()
    for request, box in cache.placed:
        what = request.key[1]  # type: ignore[index]
        alpha = 1.0
        if isinstance(what, BlowLabel):
            label = what
            alpha = 1.0 if label.age < LABEL_LIFE / 2 else 2.0 * (1.0 - label.age / LABEL_LIFE)
            text = type_.render(label.text, "small", fade(label.colour, alpha, FIELD))
        else:
            f = figures[what]
            text = type_.render(f.name, "heading" if what in (selected, hovered) else "small",
                                DIM if f.dead else TEXT)
        # a plate of the field's colour under the text, so a label over a crowd reads (the crowd shows through)
        plate.set_alpha(round(PLATE_ALPHA * max(0.0, alpha)))
        surface.blit(plate, box[:2], pygame.Rect(0, 0, text.get_width(), text.get_height()))
        surface.blit(text, box[:2])
    return [(request.key, box) for request, box in cache.placed]


_PLATES: list[pygame.Surface] = []


def _plate() -> pygame.Surface:
    """The label plate (one surface, blitted in part under each label)."""
    if not _PLATES:
        plate = pygame.Surface(PLATE_SIZE)
        plate.fill(FIELD)
        _PLATES.append(plate)
    return _PLATES[0]


def _disc(at: tuple[int, int], radius: int) -> Box:
    """The box around a drawn creature."""
    return (at[0] - radius, at[1] - radius, 2 * radius + 1, 2 * radius + 1)


def _requests(rect: pygame.Rect, figures: Mapping[int, Figure], positions: Mapping[int, tuple[int, int]], gap: int,
              type_: Typeset, selected: int | None, hovered: int | None, blow_labels: Sequence[BlowLabel],
              chosen: Sequence[int], all_names: bool) -> list[Request]:
    requests: list[Request] = []

    def name(entity: int, bold: bool) -> None:
        size = type_.fonts["heading" if bold else "small"].size(figures[entity].name)
        requests.append(Request(("name", entity), positions[entity], size, gap))

    for entity in dict.fromkeys(e for e in (selected, hovered) if e is not None and e in figures):
        name(entity, True)
    if all_names:  # asked for: the names come before the blows (the log lists every blow anyway)
        shown = {selected, hovered}
        living = [e for e, f in figures.items() if e not in shown and not f.dead]
        for entity in living + [e for e, f in figures.items() if e not in shown and f.dead]:
            if rect.collidepoint(positions[entity]):
                name(entity, False)
    for index in chosen:
        label = blow_labels[index]
        wide = 4 if label.entity == selected else 0  # clear of the selection ring
        requests.append(Request(("blow", label), positions[label.entity], type_.fonts["small"].size(label.text),
                                gap + wide))
    return requests
