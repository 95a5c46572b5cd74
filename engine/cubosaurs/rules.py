"""Cubosaurs' rules: round setup, turns (draw or receive, keep or pass), DNA tiles and tokens,
round ends and the final ranking.

The flow is a small state machine: ``state.stage`` is "begin" (the current player's turn
starts: they take the hand passed to them, or draw), "act" (they keep, pass or buy a tile)
or "over". :func:`step` checks an action, applies it, then :func:`advance` runs every
automatic step (token debts with one possible creditor, draws, round ends, the next round's
setup) until some player must decide again.
"""

from __future__ import annotations

from engine.base import EventLog, check_seats, check_turn, observe
from engine.core import IllegalAction, OneOf, Seat, below, check_shape, rank_rows, require, shuffle
from engine.cubosaurs.data import CARDS, TILES, card, rules_data, tile, tiles_in_play
from engine.cubosaurs.scoring import breakdown
from engine.cubosaurs.state import CuboState

D = rules_data()
MIN_PLAYERS = D["players"]["min"]
MAX_PLAYERS = D["players"]["max"]
CARDS_PER_PLAYER = D["setup"]["cards_per_player"]
START_CARDS = D["setup"]["start_cards"]
DIRECTIONS = tuple(D["setup"]["directions"])
TOKENS = D["dna"]["tokens"]
OFFER_EXTRA = D["dna"]["offer_extra"]
POINTS_PER_TOKENS = D["dna"]["points_per_tokens"]

TYPE = {cid: card(cid).type for cid in CARDS}
DNA = frozenset(cid for cid in CARDS if card(cid).dna)
COST = {t: tile(t).cost for t in TILES}
END_TILES = frozenset(t for t in TILES if tile(t).timing == "end")

# the parameters of a buy, per tile (besides "type" and "tile"): a card of a collection, an
# opponent, and (swap) the opponent's card taken
TILE_PARAMS = {
    "type_bonus": {}, "egg_bonus": {}, "draw": {}, "free_pass": {},
    "forbidden": {"card": str}, "destroy_own": {"card": str},
    "destroy_other": {"target": int, "card": str}, "steal": {"target": int, "card": str},
    "give": {"card": str, "target": int}, "swap": {"target": int, "card": str, "take": str},
}
assert set(TILE_PARAMS) == set(TILES), "cubosaurs.toml and the rules disagree on the tiles"
# the exact shape of every action (engine.core.check_shape)
ACTION_SHAPES = {
    "keep": {},
    "pass": {"card": str},
    "take_token": {"from": int},
    "buy": OneOf("tile", TILE_PARAMS, unknown="unknown_tile"),
}


def rounds_for(n: int) -> int:
    return D["setup"]["rounds_two_players"] if n == 2 else D["setup"]["rounds"]


def offer_size(n: int) -> int:
    return n + OFFER_EXTRA


# --- small helpers -----------------------------------------------------------------------

def advanced(state: CuboState) -> bool:
    return state.options["advanced"]


def next_player(state: CuboState, p: int) -> int:
    return (p + state.direction) % state.n


def hand_types(state: CuboState) -> set[str]:
    return {TYPE[c] for c in state.hand}


# --- setup ----------------------------------------------------------------------------------

def new_game(seats: list[Seat], seed: int, options: dict | None = None,
             observer=None) -> tuple[CuboState, list]:
    options = dict(options or {})
    unknown = set(options) - {"advanced", "interactive"}
    if unknown:
        raise IllegalAction("unknown_option", option=sorted(unknown)[0])
    n = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS)
    s = CuboState()
    s.seats = [seat.to_json() for seat in seats]
    s.options = {"advanced": bool(options.get("advanced", False)),
                 "interactive": bool(options.get("interactive", True))}
    s.seed = int(seed)
    s.rng = int(seed)
    s.round = 1
    s.rounds = rounds_for(n)
    s.collections = [[] for _ in range(n)]
    s.tokens = [0] * n
    s.reserve = TOKENS
    s.tiles = [[] for _ in range(n)]
    s.pile = list(tiles_in_play(s.options["interactive"])) if s.options["advanced"] else []
    s.first = below(s, n)
    events = EventLog()
    events.observer = observer
    setup_round(s, events)
    advance(s, events)
    return s, events


def setup_round(s: CuboState, events: list) -> None:
    """Shuffle the 55 cards, build the round's deck, deal the start cards, refill the offer."""
    n = s.n
    cards = list(CARDS)
    shuffle(s, cards)
    size = CARDS_PER_PLAYER * n
    s.deck = cards[:size]
    s.aside = cards[size:]
    s.hand = []
    s.hand_from = None
    s.turn = 0
    s.bought = False
    s.debts = []
    s.collections = [[] for _ in range(n)]
    s.direction = DIRECTIONS[s.round - 1]
    s.current = s.first
    if advanced(s):
        # unsold tiles stay on offer; the pile and every bought tile are reshuffled
        for p in range(n):
            s.pile.extend(s.tiles[p])
        s.tiles = [[] for _ in range(n)]
        shuffle(s, s.pile)
        while len(s.offer) < offer_size(n) and s.pile:
            s.offer.append(s.pile.pop())
    events.append({"type": "round_start", "round": s.round, "rounds": s.rounds,
                   "first": s.first, "direction": s.direction, "deck": len(s.deck),
                   "offer": list(s.offer)})
    p = s.first
    for _ in range(n):
        got = [s.deck.pop() for _ in range(START_CARDS)]
        s.collections[p].extend(got)
        events.append({"type": "start_cards", "player": p, "cards": list(got)})
        gain_tokens(s, p, got, events)
        p = next_player(s, p)
    s.stage = "begin"
    observe(s, events, "deal")


def gain_tokens(s: CuboState, p: int, cards: list[str], events: list) -> None:
    """``p`` added ``cards`` to their collection: a token per DNA card (advanced rules)."""
    if not advanced(s):
        return
    count = sum(1 for c in cards if c in DNA)
    if not count:
        return
    take = min(count, s.reserve)
    if take:
        s.reserve -= take
        s.tokens[p] += take
        events.append({"type": "token", "player": p, "count": take, "from": None})
    if count > take:
        if s.debts and s.debts[-1][0] == p:
            s.debts[-1][1] += count - take
        else:
            s.debts.append([p, count - take])


# --- who acts, and what they may do -------------------------------------------------------

def to_act(s: CuboState) -> list[int]:
    if s.stage == "over":
        return []
    if s.debts:
        return [s.debts[0][0]]
    if s.stage == "act":
        return [s.current]
    return []


def creditors(s: CuboState, debtor: int) -> list[int]:
    """The opponents a debtor may take a token from."""
    return [q for q in range(s.n) if q != debtor and s.tokens[q] > 0]


def pass_cards(s: CuboState, p: int) -> list[str]:
    """The cards of ``p``'s collection that may be added to the hand to pass it."""
    types = hand_types(s)
    return [c for c in s.collections[p] if TYPE[c] not in types]


def legal_actions(s: CuboState, p: int) -> list[dict]:
    if p not in to_act(s):
        return []
    if s.debts:
        return [{"type": "take_token", "from": q} for q in creditors(s, p)]
    acts: list[dict] = [{"type": "keep"}]
    types = hand_types(s)
    mine = s.collections[p]
    acts.extend({"type": "pass", "card": c} for c in mine if TYPE[c] not in types)
    if advanced(s) and not s.bought:
        acts.extend(buy_actions(s, p, types))
    return acts


def buy_actions(s: CuboState, p: int, types: set[str] | None = None) -> list[dict]:
    """Every legal buy of ``p`` now (ignoring whose turn it is)."""
    if types is None:
        types = hand_types(s)
    n = s.n
    mine = s.collections[p]
    money = s.tokens[p]
    opponents = [q for q in range(n) if q != p]
    acts: list[dict] = []
    for t in s.offer:
        if COST[t] > money:
            continue
        if t in END_TILES or t == "free_pass":
            acts.append({"type": "buy", "tile": t})
        elif t == "draw":
            if s.deck:
                acts.append({"type": "buy", "tile": t})
        elif t == "forbidden":
            acts.extend({"type": "buy", "tile": t, "card": c} for c in mine if TYPE[c] in types)
        elif t == "destroy_own":
            acts.extend({"type": "buy", "tile": t, "card": c} for c in mine)
        elif t in ("destroy_other", "steal"):
            for q in opponents:
                acts.extend({"type": "buy", "tile": t, "card": c, "target": q}
                            for c in s.collections[q])
        elif t == "give":
            for q in opponents:
                acts.extend({"type": "buy", "tile": t, "card": c, "target": q} for c in mine)
        elif t == "swap":
            for q in opponents:
                theirs = s.collections[q]
                for c in mine:
                    acts.extend({"type": "buy", "tile": t, "card": c, "target": q, "take": x}
                                for x in theirs)
    return acts


# --- applying actions ------------------------------------------------------------------------

def check_action(action, partial: bool = False) -> None:
    """Refuse (:class:`IllegalAction`) an action that is not exactly one of the shapes of
    ``ACTION_SHAPES``; the rules below rely on it. ``partial``: a card's or tile's own
    parameters may be missing (the rules give their reason first, see ``check_shape``)."""
    check_shape(action, ACTION_SHAPES, partial=partial)


def step(s: CuboState, p, action, observer=None) -> list[dict]:
    """Apply ``action`` by player ``p`` to ``s`` in place; return the events.

    Every check happens before the first change, so an :class:`IllegalAction` leaves the
    state as it was. ``apply_action`` in ``engine.cubosaurs`` wraps this on a copy.
    """
    check_action(action, partial=True)
    if s.stage == "over":
        raise IllegalAction("game_over")
    kind = action["type"]
    waiting = to_act(s)
    check_turn(s, p, waiting)
    events = EventLog()
    events.observer = observer
    if s.debts:
        if kind != "take_token":
            raise IllegalAction("take_token_first", count=s.debts[0][1])
        _act_take_token(s, p, action, events)
        # a debtor still choosing is not announced again
        advance(s, events, quiet=p)
        return events
    elif kind == "take_token":
        raise IllegalAction("no_debt")
    elif kind == "keep":
        _keep(s, p, events)
    elif kind == "pass":
        _act_pass(s, p, action, events)
    else:
        _act_buy(s, p, action, events)
    advance(s, events)
    return events


def _card_param(action: dict, key: str) -> str:
    """A card named by an action (its shape is checked: a string)."""
    value = require(action, key)
    if value not in TYPE:
        raise IllegalAction("unknown_card", card=value)
    return value


def _player_param(s: CuboState, action: dict, key: str, exclude: int) -> int:
    """An opponent named by an action (its shape is checked: an int)."""
    value = require(action, key)
    if not 0 <= value < s.n or value == exclude:
        raise IllegalAction("bad_target", target=value)
    return value


def _in_collection(s: CuboState, q: int, c: str) -> None:
    if c not in s.collections[q]:
        raise IllegalAction("not_in_collection", card=c, player=q)


def _act_take_token(s: CuboState, p: int, action: dict, events: list) -> None:
    q = _player_param(s, action, "from", exclude=p)
    if s.tokens[q] <= 0:
        raise IllegalAction("no_tokens_there", player=q)
    s.tokens[q] -= 1
    s.tokens[p] += 1
    debt = s.debts[0]
    debt[1] -= 1
    if debt[1] <= 0:
        s.debts.pop(0)
    events.append({"type": "token", "player": p, "count": 1, "from": q})


def _keep(s: CuboState, p: int, events: list) -> None:
    cards = s.hand
    s.collections[p].extend(cards)
    s.hand = []
    s.hand_from = None
    events.append({"type": "keep", "player": p, "cards": list(cards)})
    gain_tokens(s, p, cards, events)
    s.current = next_player(s, p)
    s.stage = "begin"


def _act_pass(s: CuboState, p: int, action: dict, events: list) -> None:
    c = _card_param(action, "card")
    if not pass_cards(s, p):
        raise IllegalAction("must_keep")
    _in_collection(s, p, c)
    if TYPE[c] in hand_types(s):
        raise IllegalAction("type_in_hand", card=c, type=TYPE[c])
    _pass(s, p, c, None, events)


def _pass(s: CuboState, p: int, c: str | None, tile_id: str | None, events: list) -> None:
    if c is not None:
        s.collections[p].remove(c)
        s.hand.append(c)
    to = next_player(s, p)
    events.append({"type": "pass", "player": p, "card": c, "to": to, "cards": list(s.hand),
                   "tile": tile_id})
    s.hand_from = p
    s.current = to
    s.stage = "begin"


def _act_buy(s: CuboState, p: int, action: dict, events: list) -> None:
    if not advanced(s):
        raise IllegalAction("not_advanced")
    t = action["tile"]  # a known tile, with exactly its parameters (check_action)
    if s.bought:
        raise IllegalAction("already_bought")
    if t not in s.offer:
        raise IllegalAction("tile_not_offered", tile=t)
    if s.tokens[p] < COST[t]:
        raise IllegalAction("not_enough_tokens", tile=t, cost=COST[t], tokens=s.tokens[p])
    mine = s.collections[p]
    params: dict = {}
    if t == "draw":
        if not s.deck:
            raise IllegalAction("deck_empty", tile=t)
    elif t == "forbidden":
        types = hand_types(s)
        if not any(TYPE[c] in types for c in mine):
            raise IllegalAction("tile_useless", tile=t)
        c = _card_param(action, "card")
        _in_collection(s, p, c)
        if TYPE[c] not in types:
            raise IllegalAction("not_in_hand_types", card=c, type=TYPE[c])
        params = {"card": c}
    elif t == "destroy_own":
        if not mine:
            raise IllegalAction("tile_useless", tile=t)
        c = _card_param(action, "card")
        _in_collection(s, p, c)
        params = {"card": c}
    elif t in ("destroy_other", "steal"):
        if not any(s.collections[q] for q in range(s.n) if q != p):
            raise IllegalAction("tile_useless", tile=t)
        q = _player_param(s, action, "target", exclude=p)
        c = _card_param(action, "card")
        _in_collection(s, q, c)
        params = {"card": c, "target": q}
    elif t == "give":
        if not mine:
            raise IllegalAction("tile_useless", tile=t)
        c = _card_param(action, "card")
        q = _player_param(s, action, "target", exclude=p)
        _in_collection(s, p, c)
        params = {"card": c, "target": q}
    elif t == "swap":
        if not mine or not any(s.collections[q] for q in range(s.n) if q != p):
            raise IllegalAction("tile_useless", tile=t)
        q = _player_param(s, action, "target", exclude=p)
        c = _card_param(action, "card")
        x = _card_param(action, "take")
        _in_collection(s, p, c)
        _in_collection(s, q, x)
        params = {"card": c, "target": q, "take": x}
    # every check is done: pay and use the tile
    s.tokens[p] -= COST[t]
    s.reserve += COST[t]
    s.offer.remove(t)
    s.tiles[p].append(t)
    s.bought = True
    events.append({"type": "buy", "player": p, "tile": t, "cost": COST[t], **params})
    if t in END_TILES:
        return
    if t == "free_pass":
        _pass(s, p, None, t, events)
    elif t == "forbidden":
        _pass(s, p, params["card"], t, events)
    elif t == "draw":
        c = s.deck.pop()
        s.hand.append(c)
        events.append({"type": "tile", "player": p, "tile": t, "card": c})
    elif t == "destroy_own":
        mine.remove(params["card"])
        s.aside.append(params["card"])
        events.append({"type": "tile", "player": p, "tile": t, "card": params["card"]})
    elif t == "destroy_other":
        s.collections[params["target"]].remove(params["card"])
        s.aside.append(params["card"])
        events.append({"type": "tile", "player": p, "tile": t, **params})
    elif t == "steal":
        s.collections[params["target"]].remove(params["card"])
        mine.append(params["card"])
        events.append({"type": "tile", "player": p, "tile": t, **params})
        gain_tokens(s, p, [params["card"]], events)
    elif t == "give":
        mine.remove(params["card"])
        s.collections[params["target"]].append(params["card"])
        events.append({"type": "tile", "player": p, "tile": t, **params})
        gain_tokens(s, params["target"], [params["card"]], events)
    elif t == "swap":
        q = params["target"]
        mine.remove(params["card"])
        s.collections[q].remove(params["take"])
        mine.append(params["take"])
        s.collections[q].append(params["card"])
        events.append({"type": "tile", "player": p, "tile": t, **params})
        gain_tokens(s, p, [params["take"]], events)
        gain_tokens(s, q, [params["card"]], events)


# --- the automatic flow ---------------------------------------------------------------------

def advance(s: CuboState, events: list, quiet: int | None = None) -> None:
    """Run automatic steps until a player must act or the game is over. ``quiet``: a debtor
    who has just taken a token is not announced again as choosing."""
    while s.stage != "over":
        if s.debts:
            if not _settle_debts(s, events, quiet):
                return
        elif s.stage == "begin":
            _begin_turn(s, events)
        else:
            return


def _settle_debts(s: CuboState, events: list, quiet: int | None = None) -> bool:
    """Settle the debts that need no choice; False when a debtor must choose a creditor."""
    while s.debts:
        p, count = s.debts[0]
        if s.reserve > 0:  # cannot happen (nothing is paid while a debt waits), but be safe
            take = min(count, s.reserve)
            s.reserve -= take
            s.tokens[p] += take
            events.append({"type": "token", "player": p, "count": take, "from": None})
            count -= take
        else:
            who = creditors(s, p)
            if len(who) > 1:
                s.debts[0][1] = count
                if p != quiet:
                    events.append({"type": "token_choice", "player": p, "count": count,
                                   "from": who})
                return False
            if not who:
                events.append({"type": "token_lost", "player": p, "count": count})
                count = 0
            else:
                q = who[0]
                take = min(count, s.tokens[q])
                s.tokens[q] -= take
                s.tokens[p] += take
                events.append({"type": "token", "player": p, "count": take, "from": q})
                count -= take
        if count > 0:
            s.debts[0][1] = count
        else:
            s.debts.pop(0)
    return True


def _begin_turn(s: CuboState, events: list) -> None:
    p = s.current
    s.bought = False
    if s.hand_from is not None:
        s.turn += 1
        events.append({"type": "receive", "player": p, "from": s.hand_from,
                       "cards": list(s.hand)})
        s.stage = "act"
        return
    if not s.deck:
        end_round(s, events)
        return
    s.turn += 1
    c = s.deck.pop()
    s.hand = [c]
    events.append({"type": "draw", "player": p, "card": c})
    s.stage = "act"


def end_round(s: CuboState, events: list) -> None:
    """Score the round; then set up the next one, or end the game."""
    scores = [breakdown(s.collections, p, s.tiles[p]) for p in range(s.n)]
    s.scores.append(scores)
    events.append({"type": "round_end", "round": s.round,
                   "scores": [dict(b) for b in scores]})
    if s.round >= s.rounds:
        s.stage = "over"
        s.result = ranking(s)
        events.append({"type": "game_over", "ranking": [dict(r) for r in s.result]})
        observe(s, events, "round_end")
        return
    observe(s, events, "round_end")
    s.round += 1
    s.first = next_first(s)
    setup_round(s, events)


def next_first(s: CuboState) -> int:
    """Who starts the next round: the lowest scorer of the round just played; ties go to the
    lowest total so far, then are drawn at random."""
    last = [b["total"] for b in s.scores[-1]]
    low = min(last)
    tied = [p for p in range(s.n) if last[p] == low]
    if len(tied) > 1:
        totals = round_totals(s)
        lowest = min(totals[p] for p in tied)
        tied = [p for p in tied if totals[p] == lowest]
    if len(tied) > 1:
        return tied[below(s, len(tied))]
    return tied[0]


def round_totals(s: CuboState) -> list[int]:
    """Each player's points in the finished rounds."""
    return [sum(r[p]["total"] for r in s.scores) for p in range(s.n)]


def token_points(s: CuboState, p: int) -> int:
    return s.tokens[p] // POINTS_PER_TOKENS if advanced(s) else 0


def _rank(rows: list[dict]) -> list[dict]:
    rank_rows(rows, lambda r: (r["score"], r["last"]))
    return [{"player": r["player"], "rank": r["rank"], "score": r["score"], "last": r["last"]}
            for r in rows]


def ranking(s: CuboState) -> list[dict]:
    """The standings: ``score`` = points of all rounds (+ 1 per 2 unspent tokens once the
    game is over), ``last`` = the last round's points. While a round is being played, it
    counts as if it ended now. Highest score first, then best last round; ties share a rank."""
    totals = round_totals(s)
    if s.stage == "over":
        rows = [{"player": p, "score": totals[p] + token_points(s, p),
                 "last": s.scores[-1][p]["total"]} for p in range(s.n)]
    else:
        live = [breakdown(s.collections, p, s.tiles[p])["total"] for p in range(s.n)]
        rows = [{"player": p, "score": totals[p] + live[p], "last": live[p]}
                for p in range(s.n)]
    return _rank(rows)
