"""EVO (Philippe Keyaerts): the reference game of the engine.

Use the ``EVO`` object (also ``engine.get_game("evo")``)::

    from engine import Seat
    from engine.evo import EVO

    state, events = EVO.new_game([Seat("1", "Ann"), Seat("2", "Bob"), Seat("3", "Cy")], seed=7)
    p = EVO.to_act(state)[0]
    action = EVO.legal_actions(state, p)[0]
    state, events = EVO.apply_action(state, p, action)

Actions are dicts: ``{"type": "move", "from": "C4", "to": "D4"}``, ``{"type": "end"}``,
``{"type": "hatch", "region": "C5"}``, ``{"type": "lose", "regions": ["B2"]}``,
``{"type": "bid", "gene": 0, "amount": 3}`` (gene = slot on the auction table),
``{"type": "pass"}`` (in a card window, or out of the auction),
``{"type": "play", "card": "accident", "target": 1, "region": "E5"}``, and
``{"type": "first", "go": true}`` / ``{"type": "first", "go": false}``: the player of MOI
D'ABORD, asked at the start of each phase of the turn (from the one where the card was played,
after its card window), plays first in that phase or keeps their place. Each type has exactly
these keys, with these kinds of values (``rules.ACTION_SHAPES``: ``go`` a JSON boolean, ``gene``
and ``amount`` whole numbers, never booleans...); any other action is refused by
``check_action`` before the rules look at it.

``card_window(state, player)`` tells whether ``player`` is asked in a card window (an event-card
pause where ``{"type": "pass"}`` is always legal); windows are listed in :mod:`engine.evo.cards`.
A window asks every card holder at once; each answers secretly (a pass or a card play: the
event ``window_answer`` names who answered, never what) and the answers are settled when the
last one comes in. ``step_key`` (the public step) does not move on a secret answer, and
``decision_key(state, p)`` moves only on ``p``'s own: one player's answer leaves the others'
buttons valid.
"""

from __future__ import annotations

from engine.base import GameRulesBase, SecretSteps
from engine.core import IllegalAction, Seat, register
from engine.evo import rules
from engine.evo import view as views
from engine.evo.checks import check_invariants
from engine.evo.data import GENE_KINDS, board_for, rules_data
from engine.evo.state import PHASE_NAMES, EvoState

__all__ = ["EVO", "EvoGame", "EvoState", "IllegalAction", "check_invariants", "scenario"]


class EvoGame(SecretSteps, GameRulesBase):
    """EVO's rules object: the shared wrappers (:class:`engine.base.GameRulesBase`) around
    :mod:`engine.evo.rules`, :mod:`engine.evo.view` and :class:`EvoState`, and what is EVO's
    own: its card windows, undo and positions built for tests (``scenario``).

    ``apply_action``'s ``observer(state, finished_phase)`` is called at each phase end that
    the action reaches. ``step_key`` (``SecretSteps``) moves on with every action except a
    secret answer in a card window (the turn timer and the auto-pass run per step);
    ``decision_key(state, p)`` moves on with every action except another player's move
    inside a simultaneous step (a secret answer in a card window, a loss choice in survival):
    one's choice leaves the others' menus valid."""

    kind = "evo"
    min_players = 3
    max_players = 5
    options = {"variant": "Variant auction: one gene fewer than players; outbid players may drop out."}
    rules = rules
    views = views
    State = EvoState
    PHASE_NAMES = PHASE_NAMES
    invariants = staticmethod(check_invariants)

    def card_window(self, state: EvoState, player: int) -> bool:
        """True when a card window is open and ``player`` is the one asked in it."""
        return rules.card_window(state, player)

    def undoable(self, before: EvoState, player: int, action: dict, after: EvoState,
                 events: list[dict]) -> bool:
        """May ``player`` take ``action`` back (the host's Undo)? Only when it revealed
        nothing. In EVO information comes out of the generator (every die: the climate roll,
        fights, MÉTÉORITE...; the initiative's random tie-break; the genes drawn from the bag
        for the auction; a reshuffled deck), out of the event deck (a card drawn into a hand)
        and out of the hands (a card played is shown to everyone). So a move is undoable when
        the generator, the deck, the bag, every hand and the taken-back cards are as they
        were, it is not a card play, and the game goes on: a move, the end of a movement, a
        hatching, a loss choice, a bid or a pass in the auction, a pass in a card window,
        MOI D'ABORD's choice — as long as no die or draw came after it in the same step
        (e.g. the last move of a phase whose next phase opens with the climate roll). In a
        card window an answer (a pass or a card) stays secret until the round's last answer:
        it may be taken back until then (the public step did not move); the last answer,
        which settles the round, may not."""
        if after.phase == rules.OVER:
            return False
        if before.window is not None and not rules.choosing_first(before):
            return after.step == before.step  # a secret answer, the round still open
        if action.get("type") == "play":
            return False
        return (before.rng == after.rng and before.deck == after.deck
                and before.bag == after.bag and before.hands == after.hands
                and before.locked == after.locked and before.discard == after.discard)

    def is_over(self, state: EvoState) -> bool:
        return state.phase == rules.OVER

    def scenario(self, players: int = 3, seed: int = 0, **kw) -> EvoState:
        return scenario(players, seed, **kw)


def scenario(players: int = 3, seed: int = 0, *, phase: str = "movement", turn: int = 3,
             climate: int | None = None, dinos: dict | None = None, genes: dict | None = None,
             mp: list[int] | dict | None = None, hands: dict | None = None,
             order: list[int] | None = None, meteor: int | None = None,
             variant: bool = False, effects: dict | None = None) -> EvoState:
    """A position built directly, without playing to it (for tests and rules examples).

    ``dinos``: {player: ["C4", ...]} (replaces the start dinos of every player listed, other
    players keep theirs unless given an empty list); ``genes``: {player: {"horns": 2, ...}}
    (the totals on the portrait; the bag gives them up); ``hands``: {player: ["encore"]};
    ``phase``: the phase to start (its opening card window and automatic steps run).
    """
    seats = [Seat(f"p{i}", f"Player {i + 1}") for i in range(players)]
    s, _ = rules.new_game(seats, seed, {"variant": variant})
    b = board_for(players)
    s.turn = turn
    if climate is not None:
        s.climate = climate
    if meteor is not None:
        s.meteor = meteor
    if dinos:
        for p in dinos:
            s.occ = [-1 if o == p else o for o in s.occ]
        for p, regions in dinos.items():
            for name in regions:
                r = b.region(name)
                if r is None or s.occ[r] != -1:
                    raise ValueError(f"cannot place player {p} on {name}")
                s.occ[r] = p
    if genes:
        data = rules_data()
        for p, g in genes.items():
            for k, v in g.items():
                i = GENE_KINDS.index(k)
                s.genes[p][i] = v
                need = v - data["setup"]["portrait"][k]
                for _ in range(max(0, need)):
                    s.bag.remove(k)
    if mp is not None:
        s.mp = list(mp) if isinstance(mp, list) else [mp.get(p, s.mp[p]) for p in range(players)]
    if hands is not None:
        for p in range(players):
            s.deck.extend(s.hands[p])
            s.hands[p] = []
        for p, cards_ in hands.items():
            for c in cards_:
                s.deck.remove(c)
                s.hands[p].append(c)
        rules.shuffle(s, s.deck)
    s.window = None
    s.effects = dict(effects or {})
    s.history = {"cards": []}
    s.order = list(order) if order is not None else list(range(players))
    s.lost = [0] * players
    s.pending = [None] * players
    code = {v: k for k, v in PHASE_NAMES.items()}[phase]
    s.phase = code
    s.stage = "start"
    events: list = []
    rules.advance(s, events)  # the phase's opening window and automatic steps
    check_invariants(s)
    return s


EVO = register(
    EvoGame(), title="EVO", options={"variant": (bool, False)},
    ai_levels=("random", "fast", "strong", "expert"), renderer="images.evo:render_evo",
    messages="messages.evo", cog="cogs.evo",
    bench={"header": lambda _mode, o: f"{'variant' if o.get('variant') else 'standard'} auction",
           "tiebreak": lambda r: r["dinos"], "ai_figure": "ai", "apply_games": 30,
           "save_load": True, "replay": True, "watch": "bench.ai_matchup:EvoSilly",
           "ai_games": 15})
