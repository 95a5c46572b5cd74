"""The shared base of the game packages' rules objects (the :class:`engine.core.GameRules`
contract).

A game package's ``rules.py`` is a module of plain functions over its state::

    new_game(seats, seed, options, observer=None) -> (state, events)
    to_act(state) -> [player, ...]
    legal_actions(state, player) -> [action, ...]
    check_action(action) -> None            (raises IllegalAction: see core.check_shape)
    step(state, player, action, observer=None) -> events     (changes ``state`` in place)
    ranking(state) -> [row, ...]            (the standings before the end)

and its ``view.py`` gives ``view(state, viewer)`` and ``determinize(view, seed)``. The rules
object is then a subclass of :class:`GameRulesBase` that names them and keeps only what is
its own (its options, ``undoable``, ``owed_choice``, a phase's name...)::

    class CubosaursGame(GameRulesBase):
        kind = "cubosaurs"
        min_players, max_players = rules.MIN_PLAYERS, rules.MAX_PLAYERS
        options = {...}
        rules = rules                          # the module above
        views = engine.cubosaurs.view          # view and determinize
        State = CuboState                      # a core.SavedState
        invariants = staticmethod(check_invariants)   # optional load checks

The AI is ``engine.<kind>.ai.choose_action`` (see :mod:`engine.ai`), imported on first use
(the AI module imports the rules, not the other way round).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, ClassVar

from engine.core import CorruptState, IllegalAction, Seat

# What a damaged save raises while it is read (a field of the right JSON type with the wrong
# contents, e.g. an index out of range): turned into CorruptState.
LOAD_FAULTS = (TypeError, ValueError, KeyError, IndexError, AttributeError)


# --- helpers for a game's rules module ------------------------------------------------------------

class EventLog(list):
    """The events of one action; ``observer(state, moment)``, when set, is called at the
    moments the game names (its phase ends: see the game's ``apply_action``)."""

    observer = None


def observe(state, events: list, moment: str) -> None:
    """Tell ``events``' observer (if any: ``events`` may be a plain list) about ``moment``."""
    observer = getattr(events, "observer", None)
    if observer is not None:
        observer(state, moment)


def check_seats(seats: list[Seat], low: int, high: int) -> int:
    """The number of ``seats`` of a new game: refuses (``player_count`` count, min, max) a
    count out of ``low..high`` and (``duplicate_seat``) a seat taken twice."""
    n = len(seats)
    if not low <= n <= high:
        raise IllegalAction("player_count", count=n, min=low, max=high)
    if len({seat.id for seat in seats}) != n:
        raise IllegalAction("duplicate_seat")
    return n


def check_turn(state, player, waiting: list[int]) -> None:
    """Refuse (``not_your_turn`` player, waiting) a ``player`` who is not in ``waiting``."""
    if type(player) is not int or player not in waiting:
        # ``player`` only names a seat of this game: any other value (a bool, a string, an
        # int too long for str()) would be echoed in the refusal's message
        raise IllegalAction("not_your_turn", player=player if type(player) is int
                            and 0 <= player < state.n else None, waiting=waiting)


def check_loaded_seats(seats, low: int, high: int) -> None:
    """Load checks of a saved state's seats (raise :class:`CorruptState`): ``low..high`` of
    them, each ``{"id": str, "name": str}``, no id twice."""
    n = len(seats)
    if not low <= n <= high:
        raise CorruptState("wrong number of players")
    for seat in seats:
        if type(seat) is not dict or set(seat) != {"id", "name"} or not all(
                type(v) is str for v in seat.values()):
            raise CorruptState("bad seat")
    if len({seat["id"] for seat in seats}) != n:
        raise CorruptState("a seat is taken twice")


# --- the rules object ---------------------------------------------------------------------------

class GameRulesBase:
    """The wrappers every game's rules object shares; see the module text."""

    kind: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[dict[str, str]] = {}

    rules: ClassVar[ModuleType]  # the game's rules module
    views: ClassVar[ModuleType]  # the module with view(state, viewer) and determinize(v, seed)
    State: ClassVar[type]  # the game's core.SavedState subclass
    PHASE_NAMES: ClassVar[dict[Any, str]] = {}  # state.phase -> the name phase_name gives
    ai_module: ClassVar[str | None] = None  # default: the package's ``ai`` module

    _ai: Any = None  # the game's AI module, once imported

    # The hot read-only calls go straight to the rules module (no wrapper frame: simulations
    # and the AI call them for every action), unless the subclass defines its own.
    _DIRECT = ("to_act", "legal_actions")

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        module = cls.__dict__.get("rules")
        if module is None:
            return
        for name in cls._DIRECT:
            if getattr(cls, name) is getattr(GameRulesBase, name):
                setattr(cls, name, staticmethod(getattr(module, name)))

    # --- setup and turns ----------------------------------------------------------------------

    def new_game(self, seats: list[Seat], seed: int, options: dict | None = None) -> Any:
        state, _ = self.rules.new_game(seats, seed, options)
        return state

    def new_game_with_events(self, seats: list[Seat], seed: int, options: dict | None = None,
                             observer=None) -> tuple[Any, list[dict]]:
        """Like new_game, with the opening events; ``observer(state, phase)`` is called as in
        ``apply_action``."""
        state, events = self.rules.new_game(seats, seed, options, observer)
        return state, list(events)

    def to_act(self, state) -> list[int]:
        return self.rules.to_act(state)

    def card_window(self, state, player: int) -> bool:
        """False: the game has no card windows (every decision is a player's own)."""
        return False

    def legal_actions(self, state, player: int) -> list[dict]:
        return self.rules.legal_actions(state, player)

    def check_action(self, action) -> None:
        """Raise :class:`IllegalAction` unless ``action`` has the exact shape of one of the
        game's actions (``rules.ACTION_SHAPES``): needs no state; ``apply_action`` checks it
        first."""
        self.rules.check_action(action)

    # --- applying an action ---------------------------------------------------------------------

    def apply_action(self, state, player: int, action: dict,
                     observer=None) -> tuple[Any, list[dict]]:
        """A new state and the events; ``state`` itself is never changed. ``observer(state,
        phase)``, if given, is called at each phase end this action reaches, with the state
        as it stands then (do not keep or change it: copy or render it at once)."""
        new = state.clone()
        events = self.rules.step(new, player, action, observer)
        return new, list(events)

    def apply_in_place(self, state, player: int, action: dict) -> list[dict]:
        """The fast path for simulations: changes ``state``. Checks come before any change,
        so an :class:`IllegalAction` still leaves ``state`` as it was."""
        return list(self.rules.step(state, player, action))

    # --- what a seat sees ---------------------------------------------------------------------

    def view(self, state, viewer: int | None) -> dict:
        return self.views.view(state, viewer)

    def determinize(self, v: dict, seed: int) -> Any:
        return self.views.determinize(v, seed)

    # --- the end --------------------------------------------------------------------------------

    def is_over(self, state) -> bool:
        return state.phase == "over"

    def standings(self, state) -> list[dict]:
        """The standings while the game goes on (``returns`` before the end)."""
        return self.rules.ranking(state)

    def returns(self, state) -> list[dict]:
        """Final standings (rank 1 = winner; ties share a rank), or the current ones."""
        rows = state.result if state.result is not None else self.standings(state)
        seats = state.seats
        return [dict(r, seat=seats[r["player"]]["id"], name=seats[r["player"]]["name"])
                for r in rows]

    def phase_name(self, state) -> str:
        return self.PHASE_NAMES[state.phase]

    # --- saves ----------------------------------------------------------------------------------

    def to_json(self, state) -> dict:
        return state.to_json()

    def invariants(self, state) -> None:
        """The game's checks of a loaded state beyond ``State.check_loaded`` (raise
        :class:`CorruptState`); none by default."""

    def from_json(self, data: dict) -> Any:
        try:
            state = self.State.from_json(data)
            self.invariants(state)
        except LOAD_FAULTS as exc:
            raise CorruptState(f"malformed {self.State.LABEL} state: {exc!r}") from exc
        return state

    # --- AI seats ---------------------------------------------------------------------------------

    def ai_action(self, state, player: int, level: str) -> dict:
        ai = self._ai
        if ai is None:
            ai = self._ai = importlib.import_module(self.ai_module
                                                    or f"{type(self).__module__}.ai")
        return ai.choose_action(self, state, player, level)


class SecretSteps:
    """``step_key`` and ``decision_key`` (the optional contract methods of a game with secret
    simultaneous steps) for a state that keeps them: ``state.step``, a public number moved on
    every public change, and ``state.keys[player]``, moved on every public change and on that
    player's own secret moves."""

    def step_key(self, state) -> int:
        """The public step: changes on every public change, not on a secret move."""
        return state.step

    def decision_key(self, state, player: int) -> int:
        """Changes when what ``player`` may decide changes: every public change and their own
        secret moves, never another player's secret move."""
        return state.keys[player]
