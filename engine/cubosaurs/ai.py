"""AI players for Cubosaurs: ``random``, ``fast`` (rules of thumb) and ``strong`` (rollouts).

Every policy follows the EVO contract::

    policy.choose(view, legal, seed) -> one of ``legal``

``view`` is ``CUBOSAURS.view(state, me)``: the AI sees only what its own seat may see (here
everything but the deck order, the set-aside cards and the tile pile). ``seed`` is derived
from the view alone by :func:`view_seed` / :func:`decision_seed` (same position, same
choice). :func:`choose_action` does all of that for a host; :func:`policy_for` maps a level
name to a policy.

* :class:`RandomPolicy`: a uniformly random legal action.
* :class:`FastPolicy` (about 0.15 ms a decision): every option is valued
  in points by the change it makes to a *position value*: the round score of the collection
  (an exact re-implementation of ``scoring.breakdown`` on card counts) plus its *potential*
  (for each species, the chance of being offered one or two more copies before the deck runs
  out, times what they would add: penta and bronto sets, raptor pairs, egg majorities; it
  fades with the deck). On top of that:

  - keep: the hand's value to us (plus the DNA tokens it brings);
  - pass: the value of the card removed from our collection, minus what the passed hand is
    worth to the next player beyond an ordinary draw ("don't feed them"), for the
    ``pass_width`` cards best removed;
  - both: the change made to the opponents' egg majorities (the leader weighing most);
  - buys (advanced): each tile's gain in points against its cost in tokens (a token is worth
    half a point at the end, a little more while it can still buy tiles): end tiles by the
    types / eggs in the collection, draw by the expected better hand, free pass and forbidden
    as other ways to pass, destroy / steal / give / swap by the change to us and to the
    target (the leader weighing most; the targets looked at: the leader and the next player);
  - take_token: from the opponent with the best score (then the most tokens).
* :class:`StrongPolicy` (a few ms a decision): the fast values' best few options are each
  applied and the hand followed until someone keeps it (the others' answers are the fast
  rules' on the public position: exactly predicted, whatever the deck holds); the position
  reached is valued for every player by measured tables (:mod:`engine.cubosaurs.ai_values`,
  built by :mod:`engine.cubosaurs.ai_measure`: what such collections finally scored, group
  by group, with that many cards still to draw), scored by our chance of finishing first;
  from 3 players the best few are valued again averaged over the card drawn next (who
  draws it, and what its hand then does; at 3 players our own answer to it is the best of
  our few best options, not the fast one); the best wins, ties to the fast choice. With the
  advanced rules at 3 players each player's value also loses what the interactive tiles on
  offer may cost them before the round ends (the fast rules aim those at their leader).

Everything here is pure: no I/O, no clock, all randomness from the given seed.
"""

from __future__ import annotations

import math
from bisect import insort

from engine.ai import Levels, Policy, RandomPolicy, seed_of
from engine.core import IllegalAction
from engine.cubosaurs import rules as R
from engine.cubosaurs.data import CARDS, EGG_SPECIES, SPECIES, TILES, TYPES, card, rules_data, tile
from engine.cubosaurs.scoring import raptor_points
from engine.cubosaurs.view import determinize, view
from engine.search import SearchPolicy, action_key, relative

__all__ = [
    "LEVELS",
    "STRATEGIC",
    "FastPolicy",
    "Params",
    "Policy",
    "RandomPolicy",
    "StrongPolicy",
    "choose_action",
    "decision_seed",
    "fast_decide",
    "policy_for",
    "strategic_kinds",
]

KEEP = {"type": "keep"}


# --- strategic action kinds (engine/ai.py: every level but random uses each where good) ------
#
# Keeping the hand, passing it on (adding a card), and every DNA tile of the advanced rules
# bought (the interactive ones included: destroying, stealing, giving, swapping a card). Not
# listed: which creditor a token is taken from (owed, not chosen: only from whom), and which
# card is added to a passed hand (every pass adds one).
STRATEGIC = {
    "keep": "keep the hand in play (its cards join the collection)",
    "pass": "pass the hand on, adding a card of the collection",
    **{f"buy:{t}": f"advanced: buy the DNA tile {t.replace('_', ' ')}" for t in TILES},
}


def strategic_kinds(view: dict, a: dict) -> tuple[str, ...]:
    """The strategic kinds of action ``a`` (see :data:`STRATEGIC`)."""
    kind = a["type"]
    if kind == "buy":
        return (f"buy:{a['tile']}",)
    if kind in ("keep", "pass"):
        return (kind,)
    return ()

# --- the card and tile numbers, as small tables -----------------------------------------------

_D = rules_data()
NT = len(TYPES)                      # 8 types: 5 table species, grey, black, egg
EGG_T = TYPES.index("egg")
GREY_T = TYPES.index("grey")
BLACK_T = TYPES.index("black")
assert tuple(TYPES[: len(SPECIES)]) == SPECIES, "the table species come first in TYPES"
assert tuple(EGG_SPECIES[: len(SPECIES)]) == SPECIES and EGG_SPECIES[-1] == "raptor"
NS = len(SPECIES)                    # 5
RAPTOR_SP = len(EGG_SPECIES) - 1     # the raptor egg's species index (grey + black)
MAXC = len(CARDS) + 2

# TAB[t][k]: points of k copies of table species t (k = 0..MAXC)
TAB = []
for _s in SPECIES:
    _row = _D["species"][_s]
    TAB.append([0] + [_row[min(k, len(_row)) - 1] for k in range(1, MAXC + 1)])

TI = {}      # card -> type index
RV = {}      # card -> raptor value (0 for the others)
DNA = {}     # card -> 1 if it carries the DNA symbol
ESP = {}     # egg card -> species index (0..5)
GROUP = {}   # card -> the potential group it changes (0..4 species, 5 raptors)
KEY = {}     # card -> what makes two cards equivalent for the AI
KEY_STD = {}  # ... when DNA symbols do not matter
SPC_OF = {}  # card -> the egg species it counts for (-1: an egg card, counting for none)
TOTAL_T = [0] * NT
for _c in CARDS:
    _k = card(_c)
    TI[_c] = TYPES.index(_k.type)
    RV[_c] = _k.value
    DNA[_c] = 1 if _k.dna else 0
    TOTAL_T[TI[_c]] += 1
    if _k.type == "egg":
        ESP[_c] = EGG_SPECIES.index(_k.species)
        GROUP[_c] = ESP[_c]
    else:
        GROUP[_c] = min(TI[_c], RAPTOR_SP)
    KEY[_c] = _c if _k.type == "egg" else (TI[_c], RV[_c], DNA[_c])
    KEY_STD[_c] = _c if _k.type == "egg" else (TI[_c], RV[_c])
    SPC_OF[_c] = -1 if _k.type == "egg" else min(TI[_c], RAPTOR_SP)
CARDS_OF = [tuple(c for c in CARDS if TI[c] == t) for t in range(NT)]
PLUS = [int(_D["eggs"][s]["plus"]) for s in EGG_SPECIES]
MINUS = [int(_D["eggs"][s]["minus"]) for s in EGG_SPECIES]
RAPTOR_SUM = {GREY_T: sum(_D["raptors"]["grey"]), BLACK_T: sum(_D["raptors"]["black"])}
TB_POINTS = tile("type_bonus").points
EB_POINTS = tile("egg_bonus").points
COST = {t: tile(t).cost for t in TILES}


# --- tunable numbers --------------------------------------------------------------------------

class Params:
    """The numbers behind the fast rules."""

    alpha = 1.2         # weight of a collection's potential (more copies still to come)
    share = 1.6         # offers a player sees of the deck's cards: share / players
    w_feed = 0.8        # weight of what a passed hand is worth to the next player
    draw_gain = 0.8     # ... beyond what an ordinary draw would give them
    lead = 0.5          # opponents' changes: this share on the leader, the rest on the average
    tv_end = 0.5        # a DNA token at the end of the game (1 point per 2)
    tv_more = 0.3       # ... more while it can still buy tiles (fades with the game)
    buy_margin = 0.4    # smallest net gain (in points) worth buying a tile
    att = 0.8           # weight of a target's loss with the interactive tiles (times its weight)
    pass_width = 4      # passes valued in full (the cards best removed from the collection)


DEFAULT = Params()


# --- a collection as counts -------------------------------------------------------------------

class Col:
    """A collection as card counts per type, the raptor values (sorted) and the eggs'
    species."""

    __slots__ = ("c", "g", "b", "e")

    def __init__(self, cards=()) -> None:
        c = [0] * NT
        g: list[int] = []
        b: list[int] = []
        e: list[int] = []
        for cid in cards:
            t = TI[cid]
            c[t] += 1
            if t == GREY_T:
                g.append(RV[cid])
            elif t == BLACK_T:
                b.append(RV[cid])
            elif t == EGG_T:
                e.append(ESP[cid])
        g.sort()
        b.sort()
        self.c, self.g, self.b, self.e = c, g, b, e

    def copy(self) -> Col:
        o = Col.__new__(Col)
        o.c, o.g, o.b, o.e = list(self.c), list(self.g), list(self.b), list(self.e)
        return o

    def add(self, cid: str) -> None:
        t = TI[cid]
        self.c[t] += 1
        if t == GREY_T:
            insort(self.g, RV[cid])
        elif t == BLACK_T:
            insort(self.b, RV[cid])
        elif t == EGG_T:
            self.e.append(ESP[cid])

    def remove(self, cid: str) -> None:
        t = TI[cid]
        self.c[t] -= 1
        if t == GREY_T:
            self.g.remove(RV[cid])
        elif t == BLACK_T:
            self.b.remove(RV[cid])
        elif t == EGG_T:
            self.e.remove(ESP[cid])

    def sp(self, e: int) -> int:
        """Cards counting for the egg of species ``e``."""
        return self.c[e] if e < RAPTOR_SP else self.c[GREY_T] + self.c[BLACK_T]


def egg_points(col: Col, ob: list[int]) -> int:
    pts = 0
    for e in col.e:
        have = col.sp(e)
        pts += PLUS[e] if have and have >= ob[e] else MINUS[e]
    return pts


def score(col: Col, ob: list[int], tb: int = 0, eb: int = 0) -> int:
    """The round score of ``col`` (as ``scoring.breakdown``'s total); ``ob[e]``: the largest
    count of egg species ``e`` among the opponents; ``tb``/``eb``: type / egg bonus tiles."""
    c = col.c
    t = TAB[0][c[0]] + TAB[1][c[1]] + TAB[2][c[2]] + TAB[3][c[3]] + TAB[4][c[4]]
    if col.g or col.b:
        t += raptor_points(col.g, col.b)
    if col.e:
        t += egg_points(col, ob)
    if tb:
        t += tb * TB_POINTS * sum(1 for x in c if x)
    if eb:
        t += eb * EB_POINTS * c[EGG_T]
    return t


def _egg(e: int, have: int, ob_e: int) -> int:
    return PLUS[e] if have and have >= ob_e else MINUS[e]


def card_delta(col: Col, c: str, sign: int, ob: list[int], tb: int = 0, eb: int = 0) -> int:
    """``score`` after adding (``sign`` 1) or removing (-1) card ``c``, minus before."""
    t = TI[c]
    cnt = col.c
    k = cnt[t]
    k2 = k + sign
    d = 0
    if tb and (k == 0 or k2 == 0):
        d += tb * TB_POINTS * sign
    if t < NS:
        d += TAB[t][k2] - TAB[t][k]
        if t in col.e:
            ob_t = ob[t]
            flip = _egg(t, k2, ob_t) - _egg(t, k, ob_t)
            if flip:
                d += flip * col.e.count(t)
        return d
    if t == EGG_T:
        e = ESP[c]
        have = col.sp(e)
        return d + sign * (_egg(e, have, ob[e]) + eb * EB_POINTS)
    v = RV[c]
    if t == GREY_T:
        new = sorted([*col.g, v]) if sign > 0 else _without(col.g, v)
        d += raptor_points(new, col.b) - raptor_points(col.g, col.b)
    else:
        new = sorted([*col.b, v]) if sign > 0 else _without(col.b, v)
        d += raptor_points(col.g, new) - raptor_points(col.g, col.b)
    if RAPTOR_SP in col.e:
        have = cnt[GREY_T] + cnt[BLACK_T]
        ob_r = ob[RAPTOR_SP]
        flip = _egg(RAPTOR_SP, have + sign, ob_r) - _egg(RAPTOR_SP, have, ob_r)
        if flip:
            d += flip * col.e.count(RAPTOR_SP)
    return d


def _without(values: list[int], v: int) -> list[int]:
    out = list(values)
    out.remove(v)
    return out


# --- a position, from a view or from a state --------------------------------------------------

class Pos:
    """What the fast rules need: every collection as counts, the hand, the deck size, the
    unseen cards per type, tokens and tiles, who leads. Built from a view (the AI's own
    decisions) or from a full state (rollouts: the same public facts)."""

    __slots__ = ("n", "cards", "cols", "hand", "hand_from", "current", "direction", "deck",
                 "tokens", "reserve", "offer", "bought", "debts", "round", "rounds",
                 "advanced", "totals", "tb", "eb", "spc", "unseen", "unseen_total",
                 "raptor_avg", "prm", "_leaders", "egg_holders")

    def __init__(self, collections, hand, hand_from, current, direction, deck, tokens,
                 reserve, offer, tiles, bought, debts, rnd, rounds, advanced, totals,
                 prm: Params) -> None:
        n = len(collections)
        self.n = n
        self.prm = prm
        self.cards = collections
        self.cols = [Col(c) for c in collections]
        self.hand = hand
        self.hand_from = hand_from
        self.current = current
        self.direction = direction
        self.deck = deck
        self.tokens = tokens
        self.reserve = reserve
        self.offer = offer
        self.bought = bought
        self.debts = debts
        self.round = rnd
        self.rounds = rounds
        self.advanced = advanced
        self.tb = [t.count("type_bonus") for t in tiles]
        self.eb = [t.count("egg_bonus") for t in tiles]
        self.spc = [[col.sp(e) for e in range(RAPTOR_SP + 1)] for col in self.cols]
        pub = [0] * NT
        rsum = {GREY_T: 0, BLACK_T: 0}
        for col in self.cols:
            for t in range(NT):
                pub[t] += col.c[t]
            rsum[GREY_T] += sum(col.g)
            rsum[BLACK_T] += sum(col.b)
        for cid in hand:
            t = TI[cid]
            pub[t] += 1
            if t in rsum:
                rsum[t] += RV[cid]
        self.unseen = [TOTAL_T[t] - pub[t] for t in range(NT)]
        self.unseen_total = sum(self.unseen)
        self.raptor_avg = {t: ((RAPTOR_SUM[t] - rsum[t]) / self.unseen[t] if self.unseen[t]
                               else 2.0) for t in (GREY_T, BLACK_T)}
        self.totals = totals
        self._leaders: list[int] | None = None
        self.egg_holders = [[q for q in range(n) if e in self.cols[q].e]
                            for e in range(RAPTOR_SP + 1)]

    @property
    def leader_of(self) -> list[int]:
        """Each player's leading opponent (points so far + live score + tokens / 2)."""
        if self._leaders is None:
            n = self.n
            tokens = self.tokens
            strength = [self.totals[q] + score(self.cols[q], self.ob(q), self.tb[q], self.eb[q])
                        + (0.5 * tokens[q] if self.advanced else 0.0) for q in range(n)]
            self._leaders = leaders(strength, tokens)
        return self._leaders

    def ob(self, p: int, spc=None) -> list[int]:
        """The largest count of each egg species among ``p``'s opponents."""
        spc = spc or self.spc
        rows = [spc[q] for q in range(self.n) if q != p]
        return [max(col) for col in zip(*rows, strict=True)]

    def nxt(self, p: int) -> int:
        return (p + self.direction) % self.n

    def weight(self, p: int, q: int) -> float:
        """How much an opponent's points count for ``p`` (the leader most)."""
        lead = self.prm.lead
        w = (1.0 - lead) / (self.n - 1)
        return w + lead if q == self.leader_of[p] else w

    def token_value(self) -> float:
        prm = self.prm
        left = (self.rounds - self.round) * 6 * self.n + self.deck  # draws still to come
        return prm.tv_end + prm.tv_more * min(1.0, left / (6.0 * self.n))


def leaders(strength: list[float], tokens: list[int]) -> list[int]:
    """Each player's leading opponent: the best ``strength``, then the most tokens (the
    first such seat). The fast rules weigh that opponent most and aim the interactive tiles
    at them (:attr:`Pos.leader_of`)."""
    n = len(strength)
    out = []
    for p in range(n):
        best = -1
        for q in range(n):
            if q != p and (best < 0 or (strength[q], tokens[q]) > (strength[best], tokens[best])):
                best = q
        out.append(best)
    return out


def pos_from_view(v: dict, prm: Params) -> Pos:
    players = v["players"]
    finished = [sum(r[q]["total"] for r in v["round_scores"]) for q in range(len(players))]
    return Pos([row["collection"] for row in players], v["hand"], v["hand_from"], v["current"],
               v["direction"], v["deck"], [row["tokens"] for row in players], v["reserve"],
               v["offer"], [row["tiles"] for row in players], v["bought"], v["debts"],
               v["round"], v["rounds"], v["advanced"], finished, prm)


def pos_from_state(s, prm: Params) -> Pos:
    finished = [sum(r[q]["total"] for r in s.scores) for q in range(s.n)]
    return Pos(s.collections, s.hand, s.hand_from, s.current, s.direction, len(s.deck),
               s.tokens, s.reserve, s.offer, s.tiles, s.bought, s.debts, s.round, s.rounds,
               s.options["advanced"], finished, prm)


# --- the position value: score + potential -----------------------------------------------------

def _poisson_at_least(m: float) -> tuple[float, float]:
    """P(at least 1), P(at least 2) for a Poisson count of mean ``m``."""
    if m <= 0:
        return 0.0, 0.0
    e = math.exp(-m)
    return 1.0 - e, 1.0 - e * (1.0 + m)


def species_potential(pos: Pos, g: int, k: int, eggs: int, ob_g: int, tb: int) -> float:
    """What more copies of table species ``g`` may still add to a collection holding ``k``
    of them (and ``eggs`` eggs of that species) before the round ends: the best of one or two
    more copies, times the chance of being offered them (0 once the deck is empty); times
    ``alpha``. Cached: a pure function of its arguments and the deck."""
    key = (g, k, eggs, ob_g if eggs else 0, tb if not k else 0, pos.unseen[g], pos.deck,
           pos.unseen_total, pos.n, pos.prm.alpha, pos.prm.share)
    v = _POT_CACHE.get(key)
    if v is not None:
        return v
    v = 0.0
    u = pos.unseen[g]
    if u and pos.deck > 0:
        tab = TAB[g]
        d1 = tab[k + 1] - tab[k]
        d2 = tab[k + 2] - tab[k]
        if tb and k == 0:
            d1 += tb * TB_POINTS
            d2 += tb * TB_POINTS
        if eggs:
            before = _egg(g, k, ob_g)
            d1 += eggs * (_egg(g, k + 1, ob_g) - before)
            d2 += eggs * (_egg(g, k + 2, ob_g) - before)
        if d1 > 0 or d2 > 0:
            p1, p2 = _poisson_at_least(u * pos.deck / pos.unseen_total * pos.prm.share / pos.n)
            if u < 2:
                p2 = 0.0
            v = pos.prm.alpha * max(p1 * d1, p2 * d2, 0.0)
    if len(_POT_CACHE) > 50_000:
        _POT_CACHE.clear()
    _POT_CACHE[key] = v
    return v


def raptor_potential(pos: Pos, greys: list[int], blacks: list[int], eggs: int, ob_r: int,
                     tb: int) -> float:
    """As :func:`species_potential` for the raptors: one more grey or one more black (of the
    unseen cards' average value), each with the chance of being offered one."""
    key = (RAPTOR_SP, tuple(greys), tuple(blacks), eggs, ob_r if eggs else 0, tb,
           pos.unseen[GREY_T], pos.unseen[BLACK_T], pos.raptor_avg[GREY_T],
           pos.raptor_avg[BLACK_T], pos.deck, pos.unseen_total, pos.n, pos.prm.alpha,
           pos.prm.share)
    v = _POT_CACHE.get(key)
    if v is not None:
        return v
    v = 0.0
    if pos.deck > 0:
        base = raptor_points(greys, blacks)
        have = len(greys) + len(blacks)
        scale = pos.deck / pos.unseen_total * pos.prm.share / pos.n
        for t, lst, other in ((GREY_T, greys, blacks), (BLACK_T, blacks, greys)):
            u = pos.unseen[t]
            if not u:
                continue
            more = sorted([*lst, pos.raptor_avg[t]])
            d = (raptor_points(more, other) if t == GREY_T else raptor_points(other, more)) - base
            if tb and not lst:
                d += tb * TB_POINTS
            if eggs:
                d += eggs * (_egg(RAPTOR_SP, have + 1, ob_r) - _egg(RAPTOR_SP, have, ob_r))
            if d > 0:
                v += _poisson_at_least(u * scale)[0] * d
        v *= pos.prm.alpha
    if len(_POT_CACHE) > 50_000:
        _POT_CACHE.clear()
    _POT_CACHE[key] = v
    return v


def group_potential(pos: Pos, col: Col, ob: list[int], tb: int, g: int) -> float:
    """The potential of group ``g`` (a table species, or the raptors) of ``col``."""
    if g < RAPTOR_SP:
        return species_potential(pos, g, col.c[g], col.e.count(g), ob[g], tb)
    return raptor_potential(pos, col.g, col.b, col.e.count(g), ob[g], tb)


def potential(pos: Pos, col: Col, ob: list[int], tb: int, groups=None) -> float:
    """The potential of ``col``: the sum over its groups (``groups``: only those)."""
    if pos.prm.alpha <= 0 or pos.deck <= 0:
        return 0.0
    return sum(group_potential(pos, col, ob, tb, g)
               for g in (range(RAPTOR_SP + 1) if groups is None else groups))


_POT_CACHE: dict = {}  # group potentials (a pure function of the key; bounded)


class _Eval:
    """Values of changes to collections, seen by player ``me``."""

    def __init__(self, pos: Pos, me: int) -> None:
        self.pos = pos
        self.me = me
        self.ob = [pos.ob(q) for q in range(pos.n)]
        self.base = [score(pos.cols[q], self.ob[q], pos.tb[q], pos.eb[q]) for q in range(pos.n)]
        self.use_pot = pos.deck > 0 and pos.prm.alpha > 0
        self._old: dict = {}  # (player, group) -> potential of the group now
        self._memo: dict = {}

    def old_pot(self, q: int, g: int) -> float:
        v = self._old.get((q, g))
        if v is None:
            pos = self.pos
            v = self._old[(q, g)] = group_potential(pos, pos.cols[q], self.ob[q], pos.tb[q], g)
        return v

    def delta(self, q: int, add=(), remove=()) -> float:
        """The change of q's value (score + potential of the groups touched) when ``add`` and
        ``remove`` change q's collection (the opponents' counts as they are now)."""
        key = (q, tuple(add), tuple(remove))
        d = self._memo.get(key)
        if d is not None:
            return d
        pos = self.pos
        old = pos.cols[q]
        ob = self.ob[q]
        tb = pos.tb[q]
        if len(add) + len(remove) == 1:
            # one card: the quick way, without copying the collection
            c = add[0] if add else remove[0]
            sign = 1 if add else -1
            d = card_delta(old, c, sign, ob, tb, pos.eb[q])
            if self.use_pot:
                g = GROUP[c]
                t = TI[c]
                if t == EGG_T:
                    if g < RAPTOR_SP:
                        new = species_potential(pos, g, old.c[g], old.e.count(g) + sign, ob[g], tb)
                    else:
                        new = raptor_potential(pos, old.g, old.b, old.e.count(g) + sign, ob[g],
                                               tb)
                elif g < RAPTOR_SP:
                    new = species_potential(pos, g, old.c[g] + sign, old.e.count(g), ob[g], tb)
                else:
                    v = RV[c]
                    greys, blacks = old.g, old.b
                    if t == GREY_T:
                        greys = sorted([*greys, v]) if sign > 0 else _without(greys, v)
                    else:
                        blacks = sorted([*blacks, v]) if sign > 0 else _without(blacks, v)
                    new = raptor_potential(pos, greys, blacks, old.e.count(g), ob[g], tb)
                d += new - self.old_pot(q, g)
            self._memo[key] = d
            return d
        col = old.copy()
        for c in remove:
            col.remove(c)
        for c in add:
            col.add(c)
        d = score(col, ob, tb, pos.eb[q]) - self.base[q]
        if self.use_pot:
            groups = {GROUP[c] for c in add}
            groups.update(GROUP[c] for c in remove)
            for g in groups:
                d += group_potential(pos, col, ob, tb, g) - self.old_pot(q, g)
        self._memo[key] = d
        return d

    def egg_effect(self, q: int, add=(), remove=(), skip=()) -> float:
        """The weighted change (for ``me``) of the other players' egg points when q's species
        counts change by ``add``/``remove``; ``skip``: players whose change is counted
        elsewhere."""
        pos = self.pos
        dsp: dict[int, int] = {}
        for c in add:
            e = SPC_OF[c]
            if e >= 0:
                dsp[e] = dsp.get(e, 0) + 1
        for c in remove:
            e = SPC_OF[c]
            if e >= 0:
                dsp[e] = dsp.get(e, 0) - 1
        me = self.me
        total = 0.0
        spc = pos.spc
        for e, dv in dsp.items():
            if not dv:
                continue
            for r in pos.egg_holders[e]:
                if r == q or r in skip:
                    continue
                new_ob = 0
                for x in range(pos.n):
                    if x != r:
                        v = spc[x][e] + (dv if x == q else 0)
                        if v > new_ob:
                            new_ob = v
                have = spc[r][e]
                d = (_egg(e, have, new_ob) - _egg(e, have, self.ob[r][e])) * pos.cols[r].e.count(e)
                if d:
                    total += d if r == me else -pos.weight(me, r) * d
        return total


# --- the fast rules ---------------------------------------------------------------------------

def _distinct(cards, dna: bool = True) -> list[str]:
    """One card per equivalence key, in the given order (``dna``: the DNA symbol matters)."""
    keys = KEY if dna else KEY_STD
    seen = set()
    out = []
    for c in cards:
        k = keys[c]
        if k not in seen:
            seen.add(k)
            out.append(c)
    return out


def _interacts(c: str, hand) -> bool:
    """Whether card ``c`` scores differently beside ``hand`` (raptor pairs, eggs and their
    species) — a card of a type already in the hand is never added."""
    e = SPC_OF[c]
    if e < 0:  # an egg: with its species
        sp = ESP[c]
        return any(SPC_OF[h] == sp for h in hand)
    return any(SPC_OF[h] == e or (TI[h] == EGG_T and ESP[h] == e) for h in hand)


def take_token_choice(pos: Pos, me: int) -> dict:
    """Take the token from the strongest opponent who has some (then the richest)."""
    best = None
    for q in range(pos.n):
        if q == me or pos.tokens[q] <= 0:
            continue
        key = (q == pos.leader_of[me], pos.totals[q], pos.tokens[q], -q)
        if best is None or key > best[0]:
            best = (key, q)
    if best is None:
        return {"type": "take_token", "from": (me + 1) % pos.n}
    return {"type": "take_token", "from": best[1]}


def _tokens_gain(pos: Pos, cards) -> float:
    if not pos.advanced:
        return 0.0
    k = sum(DNA[c] for c in cards)
    return k * pos.token_value() if k else 0.0


def options(pos: Pos, me: int) -> list[tuple[float, dict]]:
    """Every option the fast rules consider for ``me`` (the current player, no debt), with
    its value in points; better options first (ties: keep, then passes, then buys)."""
    prm = pos.prm
    ev = _Eval(pos, me)
    hand = pos.hand
    htypes = {TI[c] for c in hand}
    mine = pos.cards[me]
    nxt = pos.nxt(me)
    out: list[tuple[float, int, dict]] = []
    order = 0

    hand_feed = None

    def feed(cards) -> float:
        """What the next player would gain from keeping ``cards`` (the hand + ``cards[-1]``),
        beyond an ordinary draw, weighted."""
        nonlocal hand_feed
        c = cards[-1] if len(cards) == len(hand) + 1 else None
        if c is not None and not _interacts(c, hand):
            # c's type is not in the hand: its value simply adds (the common case)
            if hand_feed is None:
                hand_feed = ev.delta(nxt, add=hand)
            d = hand_feed + ev.delta(nxt, add=(c,))
        else:
            d = ev.delta(nxt, add=cards)
        d += _tokens_gain(pos, cards)
        return prm.w_feed * max(0.0, d - prm.draw_gain)

    keep_v = ev.delta(me, add=hand) + ev.egg_effect(me, add=hand) + _tokens_gain(pos, hand)
    out.append((keep_v, order, KEEP))
    order += 1
    remove_v: dict[str, float] = {}
    pass_v: dict[str, float] = {}
    for c in _distinct(mine, pos.advanced):
        remove_v[c] = ev.delta(me, remove=(c,)) + ev.egg_effect(me, remove=(c,))
    # the passes of the cards best removed (what the next player gets is checked for those)
    passable = sorted((c for c in remove_v if TI[c] not in htypes), key=lambda c: -remove_v[c])
    for c in passable[: prm.pass_width]:
        pv = remove_v[c] - feed([*hand, c])
        pass_v[c] = pv
        out.append((pv, order, {"type": "pass", "card": c}))
        order += 1
    if pos.advanced and not pos.bought and pos.offer:
        best_now = max(v for v, _, _ in out)
        for v, a in _buy_options(pos, me, ev, keep_v, pass_v, remove_v, best_now, htypes, feed):
            out.append((v, order, a))
            order += 1
    out.sort(key=lambda x: (-x[0], x[1]))
    return [(v, a) for v, _, a in out]


def _buy_options(pos: Pos, me: int, ev: _Eval, keep_v: float, pass_v: dict, remove_v: dict,
                 best_now: float, htypes: set, feed) -> list[tuple[float, dict]]:
    prm = pos.prm
    money = pos.tokens[me]
    tv = pos.token_value()
    mine = pos.cards[me]
    col = pos.cols[me]
    hand = pos.hand
    share = prm.share / pos.n
    out = []
    for t in pos.offer:
        cost = COST[t]
        if cost > money:
            continue
        price = cost * tv + prm.buy_margin
        if t == "type_bonus":
            types_now = sum(1 for x in col.c if x)
            more = sum(1 for x in range(NT) if not col.c[x] and pos.unseen[x]) * 0.15 * min(
                1.0, pos.deck * share / 3.0)
            out.append((best_now + types_now + more - price, {"type": "buy", "tile": t}))
        elif t == "egg_bonus":
            eggs = col.c[EGG_T]
            if eggs:
                gain = EB_POINTS * (eggs + 0.5 * min(1.0, pos.deck * share * pos.unseen[EGG_T]
                                                      / max(1, pos.unseen_total)))
                out.append((best_now + gain - price, {"type": "buy", "tile": t}))
        elif t == "draw":
            if pos.deck > 0 and pos.unseen_total > 0:
                out.append((_draw_value(pos, me, ev, pass_v) - price,
                            {"type": "buy", "tile": t}))
        elif t == "free_pass":
            out.append((-feed(list(hand)) - price, {"type": "buy", "tile": t}))
        elif t == "forbidden":
            for c in _distinct(mine):
                if TI[c] in htypes:
                    v = remove_v[c] - feed([*hand, c]) - price
                    out.append((v, {"type": "buy", "tile": t, "card": c}))
        elif t == "destroy_own":
            ranked = sorted(remove_v.items(), key=lambda kv: -kv[1])[:2]
            for c, rv in ranked:
                if rv <= 0:
                    continue
                k_after = (ev.delta(me, add=hand, remove=(c,)) - ev.delta(me, remove=(c,))
                           + _tokens_gain(pos, hand))
                others = [v for x, v in pass_v.items() if x != c]
                after = max([k_after, *[v - rv for v in others]]) if others else k_after
                out.append((rv + after - price, {"type": "buy", "tile": t, "card": c}))
        elif t in ("destroy_other", "steal", "give", "swap"):
            out.extend(_interactive_options(pos, me, ev, t, best_now, price))
    return out


def _draw_value(pos: Pos, me: int, ev: _Eval, pass_v: dict) -> float:
    """The expected best of keep / pass once one more unseen card is in the hand."""
    hand = pos.hand
    total = 0.0
    weight = 0
    reps: list[tuple[str, int]] = []
    seen_public = set(hand)
    for cs in pos.cards:
        seen_public.update(cs)
    for t in range(NT):
        u = pos.unseen[t]
        if not u:
            continue
        if t == EGG_T:
            for cid in ESP:
                if cid not in seen_public:
                    reps.append((cid, 1))
        else:
            rep = None
            for cid in CARDS_OF[t]:
                if cid in seen_public:
                    continue
                if rep is None or (t in (GREY_T, BLACK_T) and abs(RV[cid] - pos.raptor_avg[t])
                                   < abs(RV[rep] - pos.raptor_avg[t])):
                    rep = cid
            if rep is not None:
                reps.append((rep, u))
    for cid, u in reps:
        t = TI[cid]
        new = [*hand, cid]
        k = ev.delta(me, add=new) + ev.egg_effect(me, add=new) + _tokens_gain(pos, new)
        best = k
        for c, v in pass_v.items():
            if TI[c] != t and v > best:
                best = v
        total += u * best
        weight += u
    return total / weight if weight else -99.0


def _interactive_options(pos: Pos, me: int, ev: _Eval, t: str, best_now: float, price: float
                         ) -> list[tuple[float, dict]]:
    prm = pos.prm
    tv = pos.token_value() if pos.advanced else 0.0
    mine = _distinct(pos.cards[me])
    out = []
    # the targets worth a look: the leader and the next player (who gets our hands)
    targets = sorted({pos.leader_of[me], pos.nxt(me)})
    for q in targets:
        if not pos.cards[q]:
            continue
        wq = prm.att * pos.weight(me, q) * (pos.n - 1) ** 0.5
        theirs = _distinct(pos.cards[q])
        if t == "destroy_other":
            for x in theirs:
                v = -wq * ev.delta(q, remove=(x,)) + ev.egg_effect(q, remove=(x,))
                out.append((best_now + v - price,
                            {"type": "buy", "tile": t, "card": x, "target": q}))
        elif t == "steal":
            for x in theirs:
                v = (ev.delta(me, add=(x,)) + ev.egg_effect(me, add=(x,), skip=(q,))
                     + DNA[x] * tv - wq * ev.delta(q, remove=(x,)))
                out.append((best_now + v - price,
                            {"type": "buy", "tile": t, "card": x, "target": q}))
        elif t == "give":
            for c in mine:
                v = (ev.delta(me, remove=(c,)) + ev.egg_effect(me, remove=(c,), skip=(q,))
                     - wq * (ev.delta(q, add=(c,)) + DNA[c] * tv))
                out.append((best_now + v - price,
                            {"type": "buy", "tile": t, "card": c, "target": q}))
        elif t == "swap":
            give = sorted(mine, key=lambda c: -(ev.delta(me, remove=(c,))
                                                 - wq * ev.delta(q, add=(c,))))[:3]
            take = sorted(theirs, key=lambda x: -(ev.delta(me, add=(x,))
                                                  - wq * ev.delta(q, remove=(x,))))[:3]
            for c in give:
                for x in take:
                    if KEY[c] == KEY[x]:
                        continue
                    v = (ev.delta(me, add=(x,), remove=(c,))
                         - wq * ev.delta(q, add=(c,), remove=(x,))
                         + (DNA[x] - wq * DNA[c]) * tv)
                    out.append((best_now + v - price, {"type": "buy", "tile": t, "card": c,
                                                       "target": q, "take": x}))
    return out


def fast_decide(pos: Pos, me: int) -> dict:
    """The fast rules' action for ``me`` (a legal action of the position)."""
    if pos.debts:
        return take_token_choice(pos, me)
    return options(pos, me)[0][1]


# --- policies ---------------------------------------------------------------------------------

def _pick(act: dict, legal: list[dict]) -> dict:
    for a in legal:
        if a == act:
            return a
    for a in legal:
        if a["type"] in ("keep", "take_token"):
            return a
    return legal[0]


class FastPolicy(Policy):
    name = "fast"

    def __init__(self, params: Params | None = None) -> None:
        self.params = params or DEFAULT

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        pos = pos_from_view(view, self.params)
        return _pick(fast_decide(pos, view["viewer"]), legal)

    # the expert's shortlist ranks the moves by this (engine/search.py SearchPolicy.shortlist)
    _ranked: tuple | None = None  # (the view, {action key: value}) of the last view scored

    def score(self, view: dict, a: dict) -> float:
        """The fast rules' value of ``a`` in points (the values :func:`options` computes for
        its choice); an option the rules do not weigh (a pass of a card they keep for sure,
        a buy not worth a look) scores far below every weighed one. The values of one view
        are computed once (the shortlist asks for every legal action of the same view)."""
        got = self._ranked  # one read: another thread may replace it meanwhile
        if got is None or got[0] is not view:
            pos = pos_from_view(view, self.params)
            me = view["viewer"]
            if pos.debts:
                values = {action_key(take_token_choice(pos, me)): 1.0}
            else:
                values = {}
                for v, act in options(pos, me):
                    values.setdefault(action_key(act), v)
            got = self._ranked = (view, values)
        return got[1].get(action_key(a), -1e6)


def _step(s, p: int, act: dict) -> list:
    """Apply an imagined action (keep / a legal fallback if the rules refuse it)."""
    try:
        return R.step(s, p, act)
    except IllegalAction:
        legal = R.legal_actions(s, p)
        return R.step(s, p, _pick(KEEP, legal))


class StrongPolicy(Policy):
    """The fast values' shortlist, each option followed to its hand's end and valued by
    measured tables.

    At a keep / pass / buy decision, the fast rules value every option (weighing the passes
    of ``pass_width`` cards, more than they do themselves); the best ``width`` within ``gap``
    points of the best one are candidates. Each candidate is applied to an imagined state
    (``determinize``: only the deck's order is unknown, and the hand's journey does not
    depend on it) and the hand is followed until someone keeps it: every seat, ``me``
    included when the hand comes back, answers as the fast rules do (they see only the
    public position, so a fast neighbour's answer is exactly predicted: which card it adds,
    whether it keeps the hand). The position then reached is valued for every player by the
    finished rounds, the DNA tokens' worth and the collection's *expected* round score from
    the measured tables (:mod:`engine.cubosaurs.ai_values`: what such a collection finally
    scored, group by group, with that many cards still to draw: a species' copies, the
    raptors, each egg against the best opponent's count; the fast players' collections,
    ``OPP``: a table of the strong level's own, ``SELF``, measured no better and is left
    empty); a candidate scores ``me``'s chance of finishing first from there
    (:meth:`value`) plus ``prior`` times its fast value. From ``draw_from`` players, the
    ``draw_top`` best are scored again by :meth:`after_draw`: averaged over the card drawn
    once the hand is kept and that card's journey (drawing next is worth something: the
    keeper just before us hands us the next card); at ``own_counts`` players, where that
    journey reaches us, we answer with the best by value of our ``own_width`` best options
    (:meth:`own_answer`) instead of the fast answer. The best wins, ties to the fast choice.
    With the advanced rules at ``threat_counts`` players, every player's expected total in
    :meth:`value` also loses ``threat_weight`` times what the interactive tiles on offer are
    expected to cost them before the round ends (:func:`threats`): the fast rules aim them at
    their leader, so that is a player's measured loss per point of *exposure* (the most one
    card's loss would cost them now) by whether they lead for an opponent who can pay the
    tile (:mod:`engine.cubosaurs.ai_threats`, from fast games); it makes leading exposed
    dearer and buying such a tile away worth something. (Advanced 3-player games, paired on
    the same seeds against fast, seeds 90000.. to 170000.. and the benchmark's 25: 0.555
    against 0.517 without, +65 -46 of 475 games, +0.038 +- 0.022; the standard rules are
    untouched; weighed half 0.546 against 0.532 (250 games), twice 0.465 against 0.605 (100
    games); the attacker's measured gain added too (about the target's loss for a steal, a
    swap or a give) 0.553 against 0.557, +48 -49 of 450 games: no better.)
    (3 players, paired on the same seeds against fast: the next draw averaged with our own
    answers 0.566 against 0.532 without averaging (860 games, seeds 20000.. to 110000..,
    +148 -118 games changed; without the advanced rules 0.600 / 0.555, with them 0.531 /
    0.509); averaged with the fast answers 0.562 against 0.565 (240 games); 6 own options,
    the 5 best candidates averaged, or each egg its own branch of the next draw no better.
    Our own answers at 4 players: 0.433 against 0.467 (120 games); the next draw averaged
    with them at 2 players: 0.756 against 0.812 (160 games): off there. Median decision
    about 35 ms at 3 players on the loaded machine, 5 before; p99 130-380 ms, 25-80 before.
    Also measured no better at 3 players: the measured tables refined by the unseen copies
    of each species, a margin added to the chance of finishing first, our own noise shared
    by the opponents' comparisons, and our best answer where the hand itself comes back.
    Nor, paired on seeds 90000.. and 100000.. (200 games; this version 0.552 there): the
    3-player tables from 10,000 games instead of 2,500 (0.552, +10 -10: their noise does
    not matter), or split by the advanced rules (5,000 games each: 0.532); each player's
    spread from the measured variance of its groups (0.560, 300 games 0.563 against
    0.558); a token worth 0.5 in the value however early (300 games 0.568 against 0.558,
    +11 -8); worth 0.5 + 0.8 instead of 0.5 + 0.3 while tiles can still be bought (300
    advanced games, seeds 90000.. to 130000..: 0.583 against 0.553, +37 -27, but 0.610
    against 0.640 on the last 100, +11 -14; 0.5 + 1.2 worse there: 0.595); the spread
    doubled in the last round (0.555); the next draw averaged once more
    where it is ours, in the last round's last 6 cards (0.535, p99 ~520 ms); each tile's
    best buy always a candidate (no change). Strong's outcomes barely move: such changes
    alter the scores of ~40% of the games but the winner of ~5%. Diagnostics: strong wins
    0.63 without the advanced rules and 0.48 with them (300 games); never buying a tile
    0.34 against 0.495 (100 advanced games); fast seats that ignore the leader change
    nothing (0.55). Its margin over the average fast seat is +3.0 / +2.2 points in round 1
    (standard / advanced) but +0.8 in round 2 when round 1 ended within 3 points.)
    (The next draw averaged, 150 games each against fast, seeds 1400.. / 2400.. / 3400..:
    4 players 0.520 / 0.420 / 0.527 against 0.453 / 0.383 / 0.427 without; 5 players 0.407
    / 0.390 against 0.393 / 0.340 (seeds 1500.. / 2500..); 3 players 0.600 / 0.530 against
    0.577 / 0.553 (no gain with the fast answers: see above); 2 players 0.720 against 0.833 (a loss);
    averaging the 5 best instead of 3 at 4 players: 0.500 / 0.420, no better. Decisions 5-10
    times slower where it is on: median 22-26 ms at 4-5 players on a loaded machine.)
    (Against fast players, 150 games: 3 / 4 / 5 players win 0.59 / 0.43 / 0.41, fair 0.33 /
    0.25 / 0.20; with rollouts to the round's end instead 0.46 / 0.35 / 0.29, with the margin
    over the others instead of the chance of a first place 0.57 / 0.45 / 0.33; see
    ``ai_measure`` for the tables.)
    """

    name = "strong"

    def __init__(self, params: Params | None = None, width: int = 14, gap: float = 10.0,
                 pass_width: int = 9, spread: float = 6.0, prior: float = 0.1,
                 tables=None, draw_top: int = 3, draw_from: int = 3, own_width: int = 4,
                 own_counts: tuple[int, ...] = (3,), threat=None,
                 threat_counts: tuple[int, ...] = (3,), threat_weight: float = 1.0) -> None:
        self.params = params or DEFAULT
        self.width = width
        self.gap = gap
        self.draw_top = draw_top
        self.draw_from = draw_from
        self.own_width = own_width
        self.own_counts = own_counts
        # the shortlist's own fast values: more passes weighed than the fast rules weigh
        self.short_params = Params()
        for k, v in vars(self.params).items():
            setattr(self.short_params, k, v)
        self.short_params.pass_width = pass_width
        self.spread = spread
        self.prior = prior
        if tables is None:
            from engine.cubosaurs.ai_values import OPP, SELF
            tables = (OPP, SELF)
        self.opp, self.own = tables
        if threat is None:
            from engine.cubosaurs.ai_threats import THREAT as threat
        self.threat = threat
        self.threat_counts = threat_counts
        self.threat_weight = threat_weight

    def candidates(self, pos: Pos, me: int) -> list[tuple[float, dict]]:
        """The fast values' best options (value, action), at most ``width`` within ``gap``."""
        opts = options(pos, me)
        best = opts[0][0]
        return [(v, a) for v, a in opts[: self.width] if v >= best - self.gap]

    def choose(self, view: dict, legal: list[dict], seed: int) -> dict:
        if len(legal) == 1:
            return legal[0]
        me = view["viewer"]
        pos = pos_from_view(view, self.params)
        if pos.debts:
            return _pick(take_token_choice(pos, me), legal)
        wide = pos_from_view(view, self.short_params)
        shortlist = [(v, a) for v, a in self.candidates(wide, me) if a in legal]
        if not shortlist:
            return _pick(fast_decide(pos, me), legal)
        if len(shortlist) == 1:
            return shortlist[0][1]
        base = determinize(view, seed)
        rnd = view["round"]
        sims = []
        scores = []
        for v, a in shortlist:
            sim = base.clone()
            self.follow(sim, me, a)
            sims.append(sim)
            scores.append(self.value(sim, me, rnd) + self.prior * v)
        # the best few again, averaged over the card drawn next and its journey
        top = range(len(shortlist))
        if self.draw_top > 0 and pos.n >= self.draw_from:
            top = sorted(top, key=lambda i: -scores[i])[: self.draw_top]
            for i in top:
                scores[i] = self.after_draw(sims[i], me, rnd) + self.prior * shortlist[i][0]
        best = max(top, key=lambda i: (scores[i] + (1e-9 if i == 0 else 0.0), -i))
        return shortlist[best][1]

    def after_draw(self, sim, me: int, rnd: int) -> float:
        """:meth:`value` averaged over the card drawn once the hand is kept: for each card
        type still unseen (weighted by its unseen copies; one of its cards stands for it),
        that card drawn and its hand followed until kept in turn (the fast rules for every
        seat). Who draws next matters: the new card is first theirs to keep or pass."""
        if not (sim.stage == "act" and sim.round == rnd and sim.hand_from is None
                and len(sim.hand) == 1 and not sim.bought and not sim.debts):
            return self.value(sim, me, rnd)
        drawn = sim.hand[0]
        pool = [drawn, *sim.deck, *sim.aside]
        types: dict[int, list] = {}
        for c in pool:
            got = types.get(TI[c])
            if got is None:
                types[TI[c]] = [c, 1]
            else:
                got[1] += 1
        prm = self.params
        own = self.own_width > 0 and sim.n in self.own_counts
        total = 0.0
        for c, w in types.values():
            s = sim.clone()
            if c != drawn:  # c drawn instead (drawn takes its place among the unseen)
                if c in s.deck:
                    s.deck[s.deck.index(c)] = drawn
                else:
                    s.aside[s.aside.index(c)] = drawn
                s.hand = [c]
            steps = 0
            while s.stage == "act" and s.round == rnd and steps < 60 and (
                    steps == 0 or s.hand_from is not None or s.debts or s.bought):
                p = R.to_act(s)[0]
                if own and p == me and not s.debts and not s.bought:
                    s = self.own_answer(s, me, rnd)
                    break
                _step(s, p, fast_decide(pos_from_state(s, prm), p))
                steps += 1
            total += w * self.value(s, me, rnd)
        return total / len(pool)

    def own_answer(self, s, me: int, rnd: int):
        """``me``'s answer to a hand reached in :meth:`after_draw` (drawn by ``me`` or passed
        to ``me``): the best by :meth:`value` of ``me``'s ``own_width`` best options by the
        fast values (each followed until the hand is kept), not the fast answer; returns the
        state reached (``s`` itself is left as it was)."""
        legal = R.legal_actions(s, me)
        opts = [(v, a) for v, a in options(pos_from_state(s, self.short_params), me)
                [: self.own_width] if a in legal]
        if not opts:  # cannot happen (keep is always weighed), but be safe
            s = s.clone()
            _step(s, me, fast_decide(pos_from_state(s, self.params), me))
            return s
        best = None
        for i, (v, a) in enumerate(opts):
            s2 = s.clone()
            self.follow(s2, me, a)
            val = self.value(s2, me, rnd) + self.prior * v + (1e-9 if i == 0 else 0.0)
            if best is None or val > best[0]:
                best = (val, s2)
        return best[1]

    def follow(self, sim, me: int, first: dict) -> None:
        """Play ``first``, then the fast rules for every seat until the hand is kept (the
        next hand is drawn) or the round ends; a player who bought a tile goes on with the
        same hand (``bought``), a tile's draw is the imagined deck's."""
        prm = self.params
        rnd = sim.round
        _step(sim, me, first)
        steps = 0
        while sim.stage == "act" and sim.round == rnd and steps < 60 and (
                sim.hand_from is not None or sim.debts or sim.bought):
            p = R.to_act(sim)[0]
            _step(sim, p, fast_decide(pos_from_state(sim, prm), p))
            steps += 1

    def value(self, sim, me: int, rnd: int) -> float:
        """``me``'s chance of finishing first from ``sim`` (reached from round ``rnd``),
        times 30 (about points): every player's expected final total (finished rounds, the
        round's expected score, the tokens' worth) with a normal spread that shrinks as the
        cards still to draw and the rounds still to play run out (``spread`` points over a
        whole round), the opponents taken one by one as independent."""
        n = sim.n
        finished = [sum(r[q]["total"] for r in sim.scores) for q in range(n)]
        if sim.stage == "over":
            vals = [0.0] * n
            for row in sim.result:
                vals[row["player"]] = float(row["score"])
            left = 0
        elif sim.round != rnd:  # the round is over (the next one's start cards are luck)
            vals = [finished[q] + self.params.tv_end * sim.tokens[q] for q in range(n)]
            left = 6 * n
        else:
            # the cards still to draw (the hand just drawn, if any, included)
            left = len(sim.deck) + (1 if sim.hand_from is None and sim.stage == "act" else 0)
            tv = 0.0
            if sim.options["advanced"]:
                prm = self.params
                more = (sim.rounds - sim.round) * 6 * n + left
                tv = prm.tv_end + prm.tv_more * min(1.0, more / (6.0 * n))
            cols = [Col(c) for c in sim.collections]
            opp = self.opp.get(n, {})
            own = self.own.get(n, {})
            vals = [finished[q] + expected_score(cols, q, left, sim.tiles[q],
                                                 own if q == me else {}, opp)
                    + tv * sim.tokens[q] for q in range(n)]
            rates = (self.threat.get(n) if sim.options["advanced"] and n in self.threat_counts
                     else None)
            if rates and left > 0 and any(t in rates for t in sim.offer):
                expo = exposure(sim.collections, cols, sim.tiles, finished, sim.tokens)
                th = threats(sim.offer, expo, left, rates)
                w = self.threat_weight
                vals = [v - w * t for v, t in zip(vals, th, strict=True)]
        after = sim.rounds - sim.round if sim.stage != "over" else 0
        sd = 0.5 + self.spread * math.sqrt(left / (6.0 * n))
        scale = math.sqrt(2.0 * (sd * sd + after * self.spread ** 2))
        win = 1.0
        for q in range(n):
            if q != me:
                win *= 0.5 * (1.0 + math.erf((vals[me] - vals[q]) / scale))
        return 30.0 * win


def expected_score(cols: list[Col], q: int, left: int, tiles, own: dict, opp: dict) -> float:
    """The round score ``q``'s collection may expect with ``left`` cards still to draw, by
    the measured tables (``own`` first, then ``opp``; a species by its copies and whether
    its egg is held, the raptors by their counts and the values left alone, each egg by its
    species' count against the best opponent's; a group without a measure scores its points
    now); the score itself once nothing is left to draw."""
    col = cols[q]
    n = len(cols)
    ob = [max(cols[x].sp(e) for x in range(n) if x != q) for e in range(RAPTOR_SP + 1)]
    tb = tiles.count("type_bonus") if tiles else 0
    eb = tiles.count("egg_bonus") if tiles else 0
    if left <= 0:
        return score(col, ob, tb, eb)

    def cell(key, now):
        row = own.get(key) or opp.get(key)
        if row is None:
            return now
        return row[min(left, len(row)) - 1]

    c = col.c
    v = 0.0
    for g in range(NS):
        k = min(c[g], 5)
        v += cell(("spe", g, k, 1 if g in col.e else 0), cell(("sp", g, k), TAB[g][c[g]]))
    rp = raptor_points(col.g, col.b) if col.g or col.b else 0
    ng, nb = min(len(col.g), 3), min(len(col.b), 3)
    alone = min((sum(col.g) + sum(col.b) - rp) // 2, 6)
    v += rp + cell(("rapu", ng, nb, alone), cell(("rap", ng, nb), 0.0))
    for e in col.e:
        m = col.sp(e)
        d = max(-3, min(3, m - ob[e]))
        v += cell(("egg", e, d, min(m, 3)), _egg(e, m, ob[e]))
    if tb:
        v += tb * TB_POINTS * sum(1 for x in c if x)
    if eb:
        v += eb * EB_POINTS * c[EGG_T]
    return v


# --- the interactive tiles' threat (advanced rules) ---------------------------------------------

ATTACKS = ("destroy_other", "steal", "swap", "give")


def exposure(collections, cols: list[Col], tiles, finished, tokens) -> list[tuple[int, int]]:
    """Per player: the most that losing one card of their collection would cost them now
    (what a destroy, a steal or a swap takes; the score, the eggs' majorities as they are),
    and the most tokens held by an opponent whose leader they are (:func:`leaders`, the
    fast rules' target of the interactive tiles; -1: nobody's leader)."""
    n = len(cols)
    obs = [[max(cols[x].sp(e) for x in range(n) if x != q) for e in range(RAPTOR_SP + 1)]
           for q in range(n)]
    tbs = [t.count("type_bonus") for t in tiles]
    ebs = [t.count("egg_bonus") for t in tiles]
    strength = [finished[q] + score(cols[q], obs[q], tbs[q], ebs[q]) + 0.5 * tokens[q]
                for q in range(n)]
    lead = leaders(strength, tokens)
    out = []
    for q in range(n):
        col = cols[q]
        most = 0
        seen = set()
        for cid in collections[q]:
            k = KEY_STD[cid]
            if k not in seen:
                seen.add(k)
                most = max(most, -card_delta(col, cid, -1, obs[q], tbs[q], ebs[q]))
        rich = max((tokens[r] for r in range(n) if r != q and lead[r] == q), default=-1)
        out.append((most, rich))
    return out


def threat_status(rich: int, cost: int) -> int:
    """0: the player leads for an opponent who can pay the tile, 1: only for opponents who
    cannot, 2: for nobody (``rich`` as :func:`exposure` gives it)."""
    if rich < 0:
        return 2
    return 0 if rich >= cost else 1


def threats(offer, expo: list[tuple[int, int]], left: int, rates: dict) -> list[float] | None:
    """Each player's expected loss to the interactive tiles on ``offer`` before the round
    ends, with ``left`` cards still to draw: per tile, the measured loss per point of
    exposure (``rates[tile][status]``, one value per 6 cards still to draw) times the
    player's exposure; None when no such tile is on offer."""
    atk = [t for t in offer if t in rates]
    if not atk or left <= 0:
        return None
    out = []
    for most, rich in expo:
        th = 0.0
        if most > 0:
            for t in atk:
                row = rates[t][threat_status(rich, COST[t])]
                th += row[min(len(row), (left + 5) // 6) - 1] * most
        out.append(th)
    return out


# --- entry points ---------------------------------------------------------------------------------

# --- expert: information-set MCTS (engine/search.py) ------------------------------------------

def evaluate(state) -> list[float]:
    """Each player's worth of a position (the searcher's cut rollouts) against the best other
    player's, squashed to 0..1 (:func:`engine.search.relative`): the standings' points (the
    rounds played, the round being played as if it ended now; the tokens' points at the end)
    and, before the end, half a point per DNA token. At the searcher's cut (a round has just
    begun) the finished rounds only: the new round's start cards are the world's luck, not
    the move's."""
    over = state.stage == "over"
    if not over and state.turn <= 1 and len(state.scores) == state.round - 1 > 0:
        totals = R.round_totals(state)
        return relative([totals[p] + 0.5 * state.tokens[p] for p in range(state.n)], 6.0)
    rows = R.ranking(state)
    vals = [0.0] * state.n
    for r in rows:
        p = r["player"]
        vals[p] = r["score"] + (0.0 if over else 0.5 * state.tokens[p])
    return relative(vals, 4.0 if over else 6.0)


def evaluate_mid(state, prm: Params = DEFAULT) -> list[float]:
    """As :func:`evaluate` in the middle of a round: each player's finished rounds plus the
    round's expected score (the collection's score now plus its potential: the sets and
    majorities more copies may still complete, as the fast rules weigh them) and the tokens'
    worth (:meth:`Pos.token_value`)."""
    pos = pos_from_state(state, prm)
    tv = pos.token_value() if pos.advanced else 0.0
    vals = []
    for q in range(pos.n):
        col = pos.cols[q]
        ob = pos.ob(q)
        vals.append(pos.totals[q] + score(col, ob, pos.tb[q], pos.eb[q])
                    + potential(pos, col, ob, pos.tb[q]) + tv * pos.tokens[q])
    return relative(vals, 6.0)


def round_over(start, state) -> bool:
    """The searcher's horizon: the round the search began in is over (or the game)."""
    return state.round != start.round or state.stage == "over"


class ExpertPolicy(SearchPolicy):
    """IS-MCTS from the seat's own view (engine/search.py): worlds from ``determinize``, the
    strong choice and the fast ranking (:meth:`FastPolicy.score`) as the root's shortlist and
    prior, rollouts played by the fast rules (on the state, as the strong level's rollouts)
    for ``cut_draws`` draws from the deck, scored by :func:`evaluate_mid` (or to the end of
    the round when the deck runs out first: :func:`evaluate`). ``iterations``
    (deterministic) or ``seconds`` (wall clock, 1 s by default) bound each decision."""

    kind = "cubosaurs"
    prior_policy = StrongPolicy
    rollout_policy = FastPolicy
    params = DEFAULT

    # cut the rollouts after this many cards drawn from the deck (None: at the round's end)
    # and score the cut by :func:`evaluate_mid` (the round's expected score): the deals
    # after a few draws are noise for one keep or pass (a candidate's difference to strong's
    # choice over the same world varied by 6-12 points at the round's end). 40 games (seeds
    # 5000.., 60 iterations), the expert's margin over the best other against strong in its
    # seat: +3.8 +- 1.5 points a game with 3 draws, +2.3 +- 1.2 to the round's end; its
    # iterations 2-3 times as fast
    cut_draws: int | None = 3

    def evaluate(self, state) -> list[float]:
        if self.cut_draws is not None and state.stage != "over" and state.turn > 1:
            return evaluate_mid(state, self.params)
        return evaluate(state)

    def horizon(self, start, state) -> bool:
        if round_over(start, state):
            return True
        k = self.cut_draws
        return k is not None and len(start.deck) - len(state.deck) >= k

    def rollout_step(self, rules):
        prm = self.params

        def step(state, p, legal, seed):
            return _pick(fast_decide(pos_from_state(state, prm), p), legal)

        return step


# expert: the searching level (engine/search.py); the host runs it in an AI worker process
POLICIES = {"random": RandomPolicy, "fast": FastPolicy, "strong": StrongPolicy,
            "expert": ExpertPolicy}
AI = Levels(POLICIES, lambda _s, _p, v: view_seed(v))
LEVELS, policy_for, choose_action = AI.names, AI.policy_for, AI.choose_action

_SEED_KEYS = ("round", "turn", "direction", "current", "deck", "aside", "hand", "hand_from",
              "advanced", "interactive", "reserve", "offer", "pile", "bought", "debts",
              "round_scores", "viewer")


def view_seed(view: dict) -> int:
    """A seed for one decision, from the public position only (never the names)."""
    key = {k: view.get(k) for k in _SEED_KEYS}
    key["players"] = [(row["collection"], row["tokens"], row["tiles"]) for row in view["players"]]
    return seed_of(key)


def decision_seed(state, player: int) -> int:
    """The seed of ``player``'s decision now: derived from their view alone, so two states
    that differ only in hidden cards give the same seed (and the same choice)."""
    return view_seed(view(state, player))
