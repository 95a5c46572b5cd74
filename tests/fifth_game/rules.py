"""The fifth game's rules (a test's own game, issue 23): every player is dealt a hidden hand
of ``HAND`` cards numbered 1..12; each round everyone puts one card face down at the same
time (a secret simultaneous step); once all are down they are revealed: the highest card
takes the sum of the cards played (double in the last round with the option
``double_last``). After ``HAND`` rounds the most points win.

Actions: ``{"type": "play", "card": "n7"}``. Events: ``deal`` (counts), ``chosen`` player (a
card went face down: which one is secret), ``reveal`` cards (per player), winner, points
(the observer's moment ``"round"`` follows), ``round_start`` round, ``game_over`` ranking.
Refusals: ``bad_action``, ``unknown_action``, ``game_over``, ``not_your_turn``,
``not_in_hand`` card, ``unknown_option`` option, ``bad_option`` option, ``player_count``,
``duplicate_seat``."""

from __future__ import annotations

from engine.base import EventLog, check_seats, check_turn, observe
from engine.core import IllegalAction, Rng, check_shape, rank_rows

MIN_PLAYERS, MAX_PLAYERS = 2, 4
HAND = 3
CARDS = [f"n{v}" for v in range(1, 13)]
ACTION_SHAPES = {"play": {"card": str}}
OPTIONS = {"double_last": False}


def value(card: str) -> int:
    return int(card[1:])


def new_game(seats, seed: int, options: dict | None = None, observer=None):
    from tests.fifth_game.state import FifthState

    options = dict(options or {})
    for key, val in options.items():
        if key not in OPTIONS:
            raise IllegalAction("unknown_option", option=key)
        if type(val) is not bool:
            raise IllegalAction("bad_option", option=key)
    n = check_seats(seats, MIN_PLAYERS, MAX_PLAYERS)
    s = FifthState()
    s.seats = [{"id": seat.id, "name": seat.name} for seat in seats]
    s.options = {**OPTIONS, **options}
    s.seed = seed
    rng = Rng(seed)
    deck = list(CARDS)
    rng.shuffle(deck)
    s.rng = rng.state
    s.hands = [sorted(deck[p * HAND:(p + 1) * HAND], key=value) for p in range(n)]
    s.played = [None] * n
    s.scores = [0] * n
    s.keys = [0] * n
    events = EventLog([{"type": "deal", "counts": [HAND] * n},
                       {"type": "round_start", "round": 1}])
    events.observer = observer
    return s, events


def to_act(s) -> list[int]:
    if s.phase != "play":
        return []
    return [p for p in range(s.n) if s.played[p] is None]


def legal_actions(s, p) -> list[dict]:
    if p not in to_act(s):
        return []
    return [{"type": "play", "card": c} for c in s.hands[p]]


def check_action(action, partial: bool = False) -> None:
    check_shape(action, ACTION_SHAPES)


def step(s, p, action, observer=None) -> list[dict]:
    """Apply ``action`` of ``p`` to ``s`` in place (every check before any change)."""
    check_action(action)
    if s.phase == "over":
        raise IllegalAction("game_over")
    check_turn(s, p, to_act(s))
    card = action["card"]
    if card not in s.hands[p]:
        raise IllegalAction("not_in_hand", card=card)
    events = EventLog()
    events.observer = observer
    s.hands[p].remove(card)
    s.played[p] = card
    s.keys[p] += 1
    events.append({"type": "chosen", "player": p})
    if not to_act(s):
        _reveal(s, events)
    return events


def _reveal(s, events) -> None:
    cards = list(s.played)
    winner = max(range(s.n), key=lambda q: value(cards[q]))
    points = sum(value(c) for c in cards)
    if s.round == HAND and s.options["double_last"]:
        points *= 2
    s.scores[winner] += points
    s.last = cards
    s.played = [None] * s.n
    s.step += 1
    s.keys = [k + 1 for k in s.keys]
    events.append({"type": "reveal", "cards": cards, "winner": winner, "points": points})
    if s.round == HAND:
        s.phase = "over"
        s.result = ranking(s)
    observe(s, events, "round")
    if s.phase == "over":
        events.append({"type": "game_over", "ranking": [
            {"player": r["player"], "rank": r["rank"], "score": r["score"]} for r in s.result]})
    else:
        s.round += 1
        events.append({"type": "round_start", "round": s.round})


def ranking(s) -> list[dict]:
    return rank_rows([{"player": p, "score": s.scores[p]} for p in range(s.n)],
                     lambda r: (r["score"],))
