"""How the strong level's tables (:mod:`engine.cubosaurs.ai_values`) are measured.

Seeded games of AI seats are played; at every draw from the deck (the moment a new hand
starts) each measured player's collection is noted with the number of cards still to draw
in the round (the one just drawn included), and at the round's end every note gets what
that player's collection then scored, group by group:

* ``("sp", g, k)``: the final points of table species ``g`` with ``k`` copies (5: 5 or more)
  at the note; ``("spe", g, k, h)``: the same, ``h`` 1 when the collection held the egg of
  ``g`` (an egg's holder keeps its species' cards);
* ``("rap", greys, blacks)``: the final raptor points minus those at the note (3: 3 or more);
  ``("rapu", greys, blacks, u)``: the same, ``u`` the values of the raptors left alone at the
  note (6: 6 or more; a lone 4 waits for its partner);
* ``("egg", e, d, m)``: for each egg of species ``e`` held at the note, with ``m`` cards of
  its species (3: 3 or more) and ``d`` = ``m`` minus the most any opponent had (-3..3), what
  that egg finally scored (0 when it left the collection).

``OPP`` comes from games of fast seats only (every seat measured: how a fast player's
collection grows); ``SELF`` from games of one strong seat (using ``OPP`` only) among fast
seats, the strong seat alone measured (how the strong player's own collection grows; not
used: measured no better). Each cell is the mean of its notes shrunk toward a fallback by
``SHRINK`` notes (the points now; a ``spe`` / ``rapu`` cell toward its ``sp`` / ``rap``
cell; for ``SELF`` the ``OPP`` value), kept per number of cards still to draw (1..6n).

Run ``python -m engine.cubosaurs.ai_measure`` to rebuild ``ai_values.py``'s text (minutes).

The threat table (:mod:`engine.cubosaurs.ai_threats`, ``python -m
engine.cubosaurs.ai_measure threats``, 2 minutes): from games of fast seats with the
advanced rules, at every draw, for each interactive tile on offer and each player: the
player's *exposure* (the most one card's loss would cost them now) and *status* (whether
they lead for an opponent who can pay the tile, see :func:`engine.cubosaurs.ai.exposure`),
and what that tile finally cost them in the round; a cell is its total loss per point of
exposure. (The fast rules aim the interactive tiles at their leader: at 3 players a
destroy on offer is bought against such a player before the round ends 55-75% of the
time, against nobody's leader 5-20%.)
Pure: no I/O but that ``__main__`` printing the module's text.
"""

from __future__ import annotations

from collections import defaultdict

from engine.core import Seat
from engine.cubosaurs import CUBOSAURS
from engine.cubosaurs import ai as A
from engine.cubosaurs import rules as R
from engine.cubosaurs.scoring import breakdown

SHRINK = 10.0       # notes' weight of a cell's fallback
OPP_GAMES = 2500    # games of fast seats per player count (seeds 50000 + 1000 n ..)
SELF_GAMES = 0      # games of one strong seat per player count (seeds 70000 + 1000 n ..;
                    # 1000 were measured no better than none: SELF is left empty)


def draws(n: int) -> int:
    """The cards drawn from the deck in a round of ``n`` players."""
    return (R.CARDS_PER_PLAYER - R.START_CARDS) * n


def _egg_fallback(e: int, d: int, m: int) -> float:
    return float(A.PLUS[e] if m >= 1 and d >= 0 else A.MINUS[e])


def _final_eggs(cols: list) -> list[list[int]]:
    """Per player and egg species: what its egg scores (0 without one)."""
    n = len(cols)
    out = []
    for q in range(n):
        row = []
        for e in range(A.RAPTOR_SP + 1):
            if e not in cols[q].e:
                row.append(0)
                continue
            ob = max(cols[x].sp(e) for x in range(n) if x != q)
            row.append(A._egg(e, cols[q].sp(e), ob))
        out.append(row)
    return out


def move(state, p: int, policy) -> dict:
    """Player ``p``'s move in a measured game: the only legal one, or ``policy``'s choice on
    p's own view."""
    legal = CUBOSAURS.legal_actions(state, p)
    if len(legal) == 1:
        return legal[0]
    v = CUBOSAURS.view(state, p)
    return policy.choose(v, legal, A.view_seed(v))


def notes(n: int, games: int, seed: int, hero=None) -> dict:
    """Raw sums: ``{(kind, *key, draws_left): [sum, count]}`` over ``games`` seeded games
    (advanced rules every other game). ``hero``: a policy for one seat (moving every two
    games), the only seat measured; else every seat is fast and measured."""
    original, hooked = _round_end_hook()
    R.end_round = hooked
    try:
        return _notes(n, games, seed, hero)
    finally:
        R.end_round = original
        _ROUND_END.clear()


def _notes(n: int, games: int, seed: int, hero) -> dict:
    fast = A.FastPolicy()
    stats: dict = defaultdict(lambda: [0.0, 0])
    G = CUBOSAURS
    for gi in range(games):
        state = G.new_game([Seat(f"ai:{i}", f"AI {i}") for i in range(n)], seed + gi,
                           {"advanced": gi % 2 == 0})
        seat = (gi // 2) % n
        measured = [seat] if hero is not None else list(range(n))
        snaps: list = []
        rnd = state.round
        while not G.is_over(state):
            if state.stage == "act" and state.hand_from is None and not state.debts:
                snaps.append((len(state.deck) + 1, [A.Col(c) for c in state.collections]))
            p = G.to_act(state)[0]
            a = move(state, p, hero if hero is not None and p == seat else fast)
            G.apply_in_place(state, p, a)
            if state.round == rnd and not G.is_over(state):
                continue
            # the round is over: its scores, and the collections it ended with (noted by
            # the wrapped rules.end_round)
            scores = state.scores[rnd - 1]
            eggs = _final_eggs(_ROUND_END.pop())
            for dl, cols in snaps:
                for q in measured:
                    col = cols[q]
                    for g in range(A.NS):
                        k = min(col.c[g], 5)
                        for key in (("sp", g, k, dl), ("spe", g, k, int(g in col.e), dl)):
                            cell = stats[key]
                            cell[0] += scores[q][A.SPECIES[g]]
                            cell[1] += 1
                    rp = A.raptor_points(col.g, col.b)
                    ng, nb = min(len(col.g), 3), min(len(col.b), 3)
                    u = min((sum(col.g) + sum(col.b) - rp) // 2, 6)
                    for key in (("rap", ng, nb, dl), ("rapu", ng, nb, u, dl)):
                        cell = stats[key]
                        cell[0] += scores[q]["raptors"] - rp
                        cell[1] += 1
                    for e in col.e:
                        m = col.sp(e)
                        d = max(-3, min(3, m - max(cols[x].sp(e) for x in range(n) if x != q)))
                        cell = stats[("egg", e, d, min(m, 3), dl)]
                        cell[0] += eggs[q][e]
                        cell[1] += 1
            snaps = []
            rnd = state.round
    return dict(stats)


_ROUND_END: list = []


def _round_end_hook():
    """Wrap ``rules.end_round`` to note the collections a round ends with."""
    original = R.end_round

    def end_round(s, events):
        _ROUND_END.append([A.Col(c) for c in s.collections])
        original(s, events)

    return original, end_round


PARENT = {"spe": "sp", "rapu": "rap"}  # a finer cell's coarser one (its fallback)


def table(stats: dict, n: int, fallback) -> dict:
    """The cells of one player count: ``{key: (value at 1 card left, .., at 6n)}``;
    ``fallback(key, dl)``: the value of a cell without notes, and what notes are shrunk to
    (a finer cell's: its coarser cell's value)."""
    keys = sorted({k[:-1] for k in stats}, key=lambda k: (k[0] in PARENT, k))
    out: dict = {}
    for key in keys:
        if key[0] in PARENT:
            parent = (PARENT[key[0]], *key[1:3])
            if parent in out:
                out[key] = _cells(stats, n, key, lambda _k, dl, p=out[parent]: p[dl - 1])
                continue
        out[key] = _cells(stats, n, key, fallback)
    return out


def _cells(stats: dict, n: int, key: tuple, fallback) -> tuple:
    row = []
    for dl in range(1, draws(n) + 1):
        fb = fallback(key, dl)
        s, c = stats.get((*key, dl), (0.0, 0))
        row.append(round((s + SHRINK * fb) / (c + SHRINK), 2))
    return tuple(row)


def points_now(key: tuple, _dl: int) -> float:
    kind = key[0]
    if kind in ("sp", "spe"):
        return float(A.TAB[key[1]][key[2]])
    if kind in ("rap", "rapu"):
        return 0.0
    return _egg_fallback(key[1], key[2], key[3])


def measure(ns=(2, 3, 4, 5), opp_games: int = OPP_GAMES, self_games: int = SELF_GAMES):
    """``(OPP, SELF)``: ``{n: table}`` each (see the module's text)."""
    opp = {n: table(notes(n, opp_games, 50000 + 1000 * n), n, points_now) for n in ns}
    strong = A.StrongPolicy(tables=(opp, {}))
    own: dict = {}
    for n in ns if self_games else ():
        o = opp[n]

        def fb(key, dl, o=o):
            row = o.get(key)
            return row[dl - 1] if row is not None else points_now(key, dl)

        own[n] = table(notes(n, self_games, 70000 + 1000 * n, strong), n, fb)
    return opp, own


def module_text(opp: dict, own: dict) -> str:
    lines = ['"""The strong level\'s tables, measured by :mod:`engine.cubosaurs.ai_measure`',
             "(generated: do not edit by hand). ``OPP[n][key]`` / ``SELF[n][key]``: a tuple",
             'of values, one per number of cards still to draw (1..6n)."""', "",
             "# ruff: noqa: E501", ""]
    for name, tables in (("OPP", opp), ("SELF", own)):
        lines.append(f"{name} = {{")
        for n, cells in sorted(tables.items()):
            lines.append(f"    {n}: {{")
            for key, row in cells.items():
                vals = ", ".join(f"{v:g}" for v in row)
                lines.append(f"        {key!r}: ({vals},),")
            lines.append("    },")
        lines.append("}")
        lines.append("")
    return "\n".join(lines)


# --- the interactive tiles' threat (ai_threats.THREAT) ---------------------------------------

THREAT_GAMES = 1000  # fast games with the advanced rules per player count (seeds 77000 + 1000 n ..)
THREAT_COUNTS = (3,)  # the player counts the strong level uses it at (StrongPolicy.threat_counts)
THREAT_SHRINK = 10.0  # points of exposure added to every cell's (toward no loss)


def threat_notes(n: int, games: int, seed: int) -> dict:
    """Raw sums ``{(tile, status, bucket): [loss, exposure, notes]}`` over ``games`` seeded
    games of fast seats with the advanced rules: at every draw from the deck, for each
    interactive tile on offer and each player, the player's status for that tile and
    exposure (:func:`engine.cubosaurs.ai.exposure`, :func:`~engine.cubosaurs.ai.threat_status`)
    and, at the round's end, what that tile cost them once bought against them later in the
    round (their score just before its use minus just after; 0 if it was not). ``bucket``:
    the cards still to draw in sixes (1: 1-6, 2: 7-12, ..)."""
    fast = A.FastPolicy()
    stats: dict = defaultdict(lambda: [0.0, 0.0, 0])
    G = CUBOSAURS
    for gi in range(games):
        state = G.new_game([Seat(f"ai:{i}", f"AI {i}") for i in range(n)], seed + gi,
                           {"advanced": True})
        rnd = state.round
        snaps: list = []
        used: dict = {}  # tile -> (target, deck size when used, the target's loss)
        while not G.is_over(state):
            if (state.stage == "act" and state.hand_from is None and len(state.hand) == 1
                    and not state.bought and not state.debts):
                atk = [t for t in state.offer if t in A.ATTACKS]
                if atk:
                    finished = R.round_totals(state)
                    cols = [A.Col(c) for c in state.collections]
                    snaps.append((len(state.deck) + 1, atk,
                                  A.exposure(state.collections, cols, state.tiles, finished,
                                             state.tokens)))
            p = G.to_act(state)[0]
            a = move(state, p, fast)
            if a["type"] == "buy" and a["tile"] in A.ATTACKS:
                q = a["target"]
                before = breakdown(state.collections, q, state.tiles[q])["total"]
                deck = len(state.deck)
                G.apply_in_place(state, p, a)
                used[a["tile"]] = (q, deck, before - breakdown(state.collections, q,
                                                               state.tiles[q])["total"])
            else:
                G.apply_in_place(state, p, a)
            if state.round == rnd and not G.is_over(state):
                continue
            for left, atk, expo in snaps:
                for t in atk:
                    u = used.get(t)
                    for q, (most, rich) in enumerate(expo):
                        cell = stats[(t, A.threat_status(rich, A.COST[t]), (left + 5) // 6)]
                        cell[0] += u[2] if u and u[0] == q and u[1] < left else 0
                        cell[1] += most
                        cell[2] += 1
            snaps, used = [], {}
            rnd = state.round
    return dict(stats)


def threat_table(stats: dict, n: int) -> dict:
    """``{tile: (per status: (per bucket: loss per point of exposure))}``, each cell's loss
    over its exposure plus ``THREAT_SHRINK``."""
    out = {}
    for t in A.ATTACKS:
        out[t] = tuple(
            tuple(round(stats.get((t, st, b), (0.0, 0.0, 0))[0]
                        / (stats.get((t, st, b), (0.0, 0.0, 0))[1] + THREAT_SHRINK), 3)
                  for b in range(1, n + 1))
            for st in range(3))
    return out


def measure_threat(ns=THREAT_COUNTS, games: int = THREAT_GAMES) -> dict:
    """``THREAT``: ``{n: threat_table}``."""
    return {n: threat_table(threat_notes(n, games, 77000 + 1000 * n), n) for n in ns}


def threat_module_text(threat: dict) -> str:
    lines = ['"""The strong level\'s threat table, measured by',
             ":func:`engine.cubosaurs.ai_measure.measure_threat` (generated: do not edit by hand).",
             "",
             "``THREAT[n][tile][status][b]``: a player's expected loss to that interactive tile",
             "on offer before the round ends, per point of their exposure (the most one card's",
             "loss would cost them now), with 6b-5..6b cards still to draw; status 0: they lead",
             "for an opponent who can pay the tile, 1: only for opponents who cannot, 2: for",
             'nobody (see :func:`engine.cubosaurs.ai.threats`)."""', "",
             "THREAT = {"]
    for n, tiles in sorted(threat.items()):
        lines.append(f"    {n}: {{")
        for t, rows in tiles.items():
            lines.append(f"        {t!r}: (")
            for row in rows:
                lines.append("            (" + ", ".join(f"{v:g}" for v in row) + ",),")
            lines.append("        ),")
        lines.append("    },")
    lines.append("}")
    lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["threats"]:
        print(threat_module_text(measure_threat()), end="")
    else:
        print(module_text(*measure()))
