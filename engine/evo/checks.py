"""What a saved EVO state must satisfy to be loaded: every field the rules index by.

:func:`check_invariants` runs when a save is loaded (``EVO.from_json``), after every action in
the property tests, and on every ``scenario``. It refuses a damaged save with
:class:`CorruptState` instead of letting it load and then fail on every action: the shape and
range of each field (players, regions, squares, counters), the conservation of the dinos,
genes and cards, the flow (phase, stage, whose turn, the card window, the auction, MOI
D'ABORD) and, last, that someone can act in an unfinished game.
"""

from __future__ import annotations

from collections import Counter

from engine.core import CorruptState
from engine.evo import cards, rules
from engine.evo.data import BAG_KINDS, GENE_KINDS, board_for, rules_data
from engine.evo.state import EVOLUTION, OVER, PHASE_NAMES, EvoState

D = rules_data()
DINOS = D["setup"]["dinos_per_species"]
PORTRAIT = [D["setup"]["portrait"][k] for k in GENE_KINDS]
CARD_IDS = frozenset(D["cards"]["deck"])
DECK = Counter(D["cards"]["deck"])
GENE_SET = frozenset(BAG_KINDS)
MAX_POINTS = 999  # far more mutation points than a game can give (bids are listed up to them)
MAX_TURNS = 99
MAX_STEPS = 99
MAX_KEY = 2**53  # the position keys count actions: far more than any game makes
# effects of the cards in force this turn, by kind of value
FLAGS = frozenset({"climate_card", "climate_set", "no_combat", "no_births", "rate", "calm"})
PLAYER_LISTS = frozenset({"motivation", "maousse", "grand_frere", "pthermolactyl",
                          "peau_adaptable", "jeunesse", "pondeuse", "separee"})
COUNTERS = frozenset({"on_crame", "ca_caille"})
EFFECTS = FLAGS | PLAYER_LISTS | COUNTERS | {"peace", "sursaut", "first", "first_go"}
AUCTION_KEYS = frozenset({"genes", "bids", "queue", "pending", "out", "can_pass"})


# --- small helpers -----------------------------------------------------------------------

def _fail(why: str) -> None:
    raise CorruptState(why)


def _is_int(x, low: int, high: int) -> bool:
    """``x`` is an int (not a bool) in ``low..high``."""
    return type(x) is int and low <= x <= high


def _in_range(x, n: int) -> bool:
    """``x`` is an int in ``range(n)`` (a player, or a position in a list)."""
    return type(x) is int and 0 <= x < n


def _ints(xs, count: int, low: int, high: int) -> bool:
    """``xs`` is a list of ``count`` ints in ``low..high``."""
    return type(xs) is list and len(xs) == count and all(
        type(x) is int and low <= x <= high for x in xs)


def _distinct(xs, n: int) -> bool:
    """``xs`` is a list of distinct ints in ``range(n)`` (players, regions)."""
    return type(xs) is list and all(_in_range(q, n) for q in xs) and len(set(xs)) == len(xs)


def _strings(xs, allowed) -> bool:
    """``xs`` is a list of strings, each one of ``allowed``."""
    return type(xs) is list and all(type(x) is str and x in allowed for x in xs)


def _portrait(genes) -> bool:
    """``genes`` counts each kind of gene on a portrait: at least what is printed there."""
    return _ints(genes, len(GENE_KINDS), 0, 99) and all(
        x >= low for x, low in zip(genes, PORTRAIT, strict=True))


def _keys(d, keys) -> bool:
    """``d`` is an object with exactly these keys."""
    return type(d) is dict and set(d) == set(keys)


# --- the checks --------------------------------------------------------------------------------

def check_invariants(state: EvoState) -> None:
    """Raise :class:`CorruptState` if the state breaks a rule that must always hold."""
    _check_table(state)
    _check_flow(state)
    _check_species(state)
    _check_cards(state)
    _check_genes(state)
    _check_effects(state)
    _check_window(state)
    _check_auction(state)
    _check_someone_acts(state)


def _check_table(state: EvoState) -> None:
    """The players, the options, the generator."""
    n = state.n
    if not D["players"]["min"] <= n <= D["players"]["max"]:
        _fail("wrong number of players")
    for seat in state.seats:
        if not _keys(seat, ("id", "name")) or not all(type(v) is str for v in seat.values()):
            _fail("bad seat")
    if len({seat["id"] for seat in state.seats}) != n:
        _fail("a seat is taken twice")
    if not _keys(state.options, ("variant",)) or type(state.options["variant"]) is not bool:
        _fail("bad options")
    if type(state.seed) is not int or not _is_int(state.rng, 0, 2**64 - 1):
        _fail("bad seed or generator")
    if not _is_int(state.step, 0, MAX_KEY) or not _ints(state.keys, n, 0, MAX_KEY):
        _fail("bad position keys")


def _check_flow(state: EvoState) -> None:
    """The turn, the phase and its stage, the order of play, the climate and the meteorite,
    the player acting and what they have left, the result."""
    n = state.n
    if not _is_int(state.turn, 1, MAX_TURNS):
        _fail("bad turn")
    if state.phase not in PHASE_NAMES or type(state.phase) is not int:
        _fail(f"unknown phase {state.phase!r}")
    if state.phase == OVER:
        if state.stage != "over":
            _fail("a finished game in a stage")
    elif (state.phase, state.stage) not in rules._STAGES:
        _fail(f"unknown stage {state.stage!r} in phase {state.phase!r}")
    if not _distinct(state.order, n) or len(state.order) != n:
        _fail("bad order of play")
    if not _in_range(state.climate, len(rules.TRACK)):
        _fail("bad climate square")
    if not _is_int(state.meteor, 0, rules.METEOR_LAST):
        _fail("bad meteorite square")
    if not _is_int(state.cur, 0, n):
        _fail("bad current player")
    if not _is_int(state.steps, 0, MAX_STEPS) or not _is_int(state.births, 0, DINOS):
        _fail("bad steps or births left")
    if (state.result is None) != (state.phase != OVER):
        _fail("result and phase disagree")
    if state.result is not None:
        rows = state.result
        if type(rows) is not list or not all(
                _keys(r, ("player", "score", "dinos", "rank"))
                and all(type(v) is int for v in r.values()) for r in rows):
            _fail("bad result")
        if sorted(r["player"] for r in rows) != list(range(n)):
            _fail("bad result")


def _check_species(state: EvoState) -> None:
    """The island, the points, the genes on the portraits, the survival bookkeeping."""
    n = state.n
    b = board_for(n)
    if not _ints(state.occ, len(b), -1, n - 1):
        _fail("bad board")
    for p in range(n):
        if state.occ.count(p) > DINOS:
            _fail(f"player {p} has too many dinos")
    if not _ints(state.mp, n, 0, MAX_POINTS):
        _fail("bad mutation points")
    if len(state.genes) != n or not all(_portrait(g) for g in state.genes):
        _fail("bad genes")
    if not _distinct(state.newborn, len(b)) or any(state.occ[r] == -1 for r in state.newborn):
        _fail("bad newborns")
    if state.lost != [] and not _ints(state.lost, n, 0, DINOS):
        _fail("bad losses")
    # survival choices: [cold, hot] dinos to lose, no more than are at risk
    if state.pending != [] and (type(state.pending) is not list or len(state.pending) != n):
        _fail("bad survival choices")
    for p, need in enumerate(state.pending):
        if need is None:
            continue
        if not _ints(need, 2, 0, DINOS) or need == [0, 0] or state.stage != "choose" \
                or need[0] > len(rules.dinos_in_zone(state, p, "cold")) \
                or need[1] > len(rules.dinos_in_zone(state, p, "hot")):
            _fail("bad survival choice")
    if state.stage == "choose" and len(state.pending) != n:
        _fail("bad survival choices")


def _check_cards(state: EvoState) -> None:
    """Hands, the deck and the discard (every card once), the cards taken back (still in
    hand), the card ENCORE may take back (discarded), the public history of the turn."""
    n = state.n
    piles = [state.deck, state.discard, *state.hands]
    if len(state.hands) != n or not all(_strings(pile, CARD_IDS) for pile in piles):
        _fail("bad event cards")
    every = Counter()
    for pile in piles:
        every.update(pile)
    if every != DECK:
        _fail("event cards are not conserved")
    if len(state.locked) != n or not all(
            _strings(lk, CARD_IDS) and (not lk or not Counter(lk) - Counter(h))
            for lk, h in zip(state.locked, state.hands, strict=True)):
        _fail("bad cards taken back")
    r = state.retrievable
    if r is not None and (not _keys(r, ("card", "player")) or r["card"] not in state.discard
                          or not _in_range(r["player"], n)):
        _fail("bad card to take back")
    h = state.history
    if not set(h) <= {"cards", "climate"}:
        _fail("bad history")
    if "cards" in h and (type(h["cards"]) is not list or not all(
            _keys(c, ("player", "card")) and _in_range(c["player"], n) and c["card"] in CARD_IDS
            for c in h["cards"])):
        _fail("bad history")
    c = h.get("climate")
    if "climate" in h and (not _keys(c, ("die", "from", "to"))
                           or not (c["die"] is None or _is_int(c["die"], 1, 6))
                           or not _in_range(c["from"], len(rules.TRACK))
                           or not _in_range(c["to"], len(rules.TRACK))):
        _fail("bad history")


def _check_genes(state: EvoState) -> None:
    """The gene tiles: in the bag, discarded (cards bought), on the auction table or bought
    (on a portrait, above what is printed there), each kind conserved."""
    if not (_strings(state.bag, GENE_SET) and _strings(state.gene_discard, GENE_SET)):
        _fail("bad gene bag")
    genes = Counter(state.bag)
    genes.update(state.gene_discard)
    for g in state.genes:
        for k, x, low in zip(GENE_KINDS, g, PORTRAIT, strict=True):
            genes[k] += x - low
    if type(state.auction) is dict and _strings(state.auction.get("genes"), GENE_SET):
        genes.update(state.auction["genes"])
    if any(genes[k] != D["genes"][k] for k in BAG_KINDS):
        _fail("genes are not conserved")


def _check_effects(state: EvoState) -> None:
    """The cards in force this turn."""
    n = state.n
    e = state.effects
    if type(e) is not dict or not set(e) <= EFFECTS:
        _fail("unknown effect")
    for key, value in e.items():
        if key in FLAGS:
            ok = value is True
        elif key in PLAYER_LISTS:
            ok = _distinct(value, n)
        elif key in COUNTERS:
            ok = _is_int(value, 1, 99)
        elif key == "peace":
            ok = type(value) is list and all(
                type(pair) is list and len(pair) == 2 and _distinct(pair, n) and pair == sorted(pair)
                for pair in value)
        elif key == "sursaut":
            ok = type(value) is dict and all(
                k in {str(p) for p in range(n)} and _is_int(v, 1, 99) for k, v in value.items())
        elif key == "first":
            ok = _in_range(value, n)
        else:  # first_go: MOI D'ABORD's choice, None until made
            ok = "first" in e and (value is None or type(value) is bool)
        if not ok:
            _fail(f"bad effect {key!r}")


def _check_window(state: EvoState) -> None:
    """A card window names a timing point and asks the card holders, each once; those who
    answered in this round are some of them (not all: the last answer resolves the round),
    and exactly they have an answer: a pass, or a card of their hand playable here."""
    w = state.window
    answers = state.answers
    if type(answers) is not list or len(answers) != state.n:
        _fail("bad card window answers")
    if w is None:
        if any(a is not None for a in answers):
            _fail("an answer without a card window")
        return
    if not _keys(w, ("at", "asked", "answered", "round")) or state.phase == OVER:
        _fail("bad card window")
    asked, answered = w["asked"], w["answered"]
    if (w["at"] not in cards.WINDOWS or not _distinct(asked, state.n) or not asked
            or not all(state.hands[q] for q in asked) or not _distinct(answered, state.n)
            or not set(answered) < set(asked) or not _is_int(w["round"], 1, MAX_KEY)):
        _fail("bad card window")
    for q, a in enumerate(answers):
        if (a is not None) != (q in answered) or (a is not None and not _answer_ok(state, q, a)):
            _fail("bad card window answer")


def _answer_ok(state: EvoState, q: int, a) -> bool:
    """``a`` is a pass, or one of the plays ``q`` may make in the window now."""
    if a == {"type": "pass"}:
        return True
    return type(a) is dict and a in cards.plays(state, q, state.window["at"])


def _check_auction(state: EvoState) -> None:
    """The auction table exists exactly while the auction is bid and paid. Every player is
    in the queue, holds one bid, is out, or was just outbid; a bid can be paid."""
    n = state.n
    a = state.auction
    if (a is not None) != (state.phase == EVOLUTION and state.stage in ("bid", "pay")):
        _fail("auction and stage disagree")
    if a is None:
        return
    if not _keys(a, AUCTION_KEYS) or not _strings(a["genes"], GENE_SET) \
            or len(a["genes"]) > n or type(a["can_pass"]) is not bool:
        _fail("bad auction")
    bids = a["bids"]
    if type(bids) is not list or len(bids) != len(a["genes"]) or not all(
            held is None or (type(held) is list and len(held) == 2 and _in_range(held[0], n)
                             and _is_int(held[1], 0, 2 * MAX_POINTS)) for held in bids):
        _fail("bad bids")
    holders = [held[0] for held in bids if held is not None]
    pending = [] if a["pending"] is None else [a["pending"]]
    everyone = a["queue"] + a["out"] + holders + pending if (
        _distinct(a["queue"], n) and _distinct(a["out"], n) and _distinct(pending, n)) else None
    if everyone is None or sorted(everyone) != list(range(n)):
        _fail("bad auction players")
    for held in bids:
        if held is not None and rules.bid_price(state, held[0]) > state.mp[held[0]]:
            _fail("a bid its player cannot pay")
    if state.stage == "bid" and rules.bidder(state) is None:
        _fail("an auction with no bidder")


def _check_someone_acts(state: EvoState) -> None:
    """An unfinished game waits for someone, and each player awaited has something to do."""
    if state.phase == OVER:
        return
    waiting = rules.to_act(state)
    if not waiting or not all(rules.legal_actions(state, p) for p in waiting):
        _fail(f"nobody can act in {PHASE_NAMES[state.phase]} ({state.stage})")
