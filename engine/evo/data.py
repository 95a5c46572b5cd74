"""EVO's numbers and islands, read once from ``evo.toml`` (the single data file of the game)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

TERRAIN_BY_CHAR = {"Y": "beach", "S": "beach", "G": "prairie", "B": "hill", "M": "mountain"}
GENE_KINDS = ("tail", "fur", "legs", "parasol", "horns", "mutant", "egg")  # on a portrait
BAG_KINDS = ("card",) + GENE_KINDS


@cache
def rules_data() -> dict:
    """The parsed ``evo.toml`` (read once per process)."""
    text = resources.files("engine.evo").joinpath("evo.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


@dataclass(frozen=True)
class Board:
    """One island: regions, their terrain, hex position, neighbours and coast."""

    players: int
    names: tuple[str, ...]
    terrain: tuple[int, ...]  # index into climate terrains: 0 beach (hottest) .. 3 mountain
    cells: tuple[tuple[int, int], ...]  # (row, col) in the odd-r offset grid
    neighbours: tuple[tuple[int, ...], ...]
    coastal: tuple[bool, ...]
    starts: tuple[int, ...]
    rows: int
    cols: int
    index: dict[str, int] = field(repr=False)
    near: tuple[frozenset[int], ...] = field(repr=False)  # within 2..3 steps (PONDEUSE)

    def __len__(self) -> int:
        return len(self.names)

    def distances(self, src: int) -> dict[int, int]:
        """Steps from region ``src`` to every region of the island."""
        return hex_distances(self.neighbours, src)

    def region(self, name: str) -> int | None:
        """The region index for a typed name ("c4", " C4 ") or None."""
        return self.index.get(str(name).strip().upper())


def _hex_neighbours(r: int, c: int) -> list[tuple[int, int]]:
    if r % 2 == 0:
        return [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]
    return [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]


def hex_distances(neighbours, src: int, limit: int | None = None) -> dict[int, int]:
    """Steps from ``src`` to every region (breadth-first over ``neighbours``), up to ``limit``."""
    dist = {src: 0}
    frontier = [src]
    while frontier and (limit is None or dist[frontier[0]] < limit):
        nxt = []
        for x in frontier:
            for y in neighbours[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    nxt.append(y)
        frontier = nxt
    return dist


def column_label(c: int) -> str:
    return chr(ord("A") + c)


@cache
def board_for(players: int) -> Board:
    """The island used with ``players`` players."""
    data = rules_data()
    terrains = data["climate"]["terrains"]
    rows = [line for line in data["maps"][str(players)]["rows"].strip("\n").split("\n")]
    cells: list[tuple[int, int]] = []
    kinds: list[int] = []
    starts: list[int] = []
    names: list[str] = []
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch == ".":
                continue
            if ch not in TERRAIN_BY_CHAR:
                raise ValueError(f"map {players}: unknown cell {ch!r} at row {r + 1}")
            if ch == "S":
                starts.append(len(cells))
            cells.append((r, c))
            kinds.append(terrains.index(TERRAIN_BY_CHAR[ch]))
            names.append(f"{column_label(c)}{r + 1}")
    at = {cell: i for i, cell in enumerate(cells)}
    neighbours: list[tuple[int, ...]] = []
    coastal: list[bool] = []
    for r, c in cells:
        around = _hex_neighbours(r, c)
        neighbours.append(tuple(sorted(at[p] for p in around if p in at)))
        coastal.append(any(p not in at for p in around))
    near = tuple(frozenset(j for j, d in hex_distances(neighbours, i, 3).items() if d >= 2)
                 for i in range(len(cells)))
    return Board(
        players=players,
        names=tuple(names),
        terrain=tuple(kinds),
        cells=tuple(cells),
        neighbours=tuple(neighbours),
        coastal=tuple(coastal),
        starts=tuple(starts),
        rows=len(rows),
        cols=max(len(line) for line in rows),
        index={n: i for i, n in enumerate(names)},
        near=near,
    )
