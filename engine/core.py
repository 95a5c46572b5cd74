"""The engine contract shared by every game.

A game is a module (a package under ``engine/``) that exposes one object implementing
:class:`GameRules`. Everything here is pure Python: no I/O, no clock, no asyncio.

The contract, in the spirit of OpenSpiel's Python games:

* ``new_game(seats, seed, options)`` -> state; ``new_game_with_events`` also gives the
  opening events
* ``to_act(state)`` -> the players whose input is awaited now (possibly several at once)
* ``card_window(state, player)`` -> True when ``player`` is awaited in a card window: a pause
  only for event cards, where ``{"type": "pass"}`` is always legal (the host may pass for a
  human who asked it to); False in every other decision, and always False in a game without
  such windows
* ``legal_actions(state, player)`` -> every legal action of that player, as plain dicts,
  in a new list; the dicts are read-only (a game may hand out the same dict again, e.g.
  Climate): copy one before changing it
* ``check_action(action)`` -> None, or :class:`IllegalAction` when ``action`` does not have
  the exact shape of one of the game's action types (see :func:`check_shape`); needs no state
* ``apply_action(state, player, action, observer=None)`` -> ``(new_state, events)``; the old
  state is never modified; an illegal action (a malformed one first of all) raises
  :class:`IllegalAction` and nothing changes; ``observer(state, phase)`` is called at every
  phase end the action reaches (the host turns those into board images)
* ``view(state, viewer)`` -> what that seat (or a spectator, ``viewer=None``) may see
* ``is_over(state)`` / ``returns(state)`` -> final scores and ranking
* ``to_json(state)`` / ``from_json(data)`` -> save/load with a schema version
* ``ai_action(state, player, level)`` -> the action an AI seat of that level takes now
* optional: ``step_key``/``decision_key`` (games with secret simultaneous steps) and
  ``undoable(before, player, action, after, events)`` (may a player take that move back?),
  reached through the helpers :func:`step_key`, :func:`decision_key` and :func:`undoable`
  that give the default for a game without them

A game is added by writing its package and naming it in :data:`GAME_PACKAGES`; the host,
the store and the lobby need nothing else. :class:`engine.base.GameRulesBase` gives a rules
object every wrapper above from the package's ``rules``/``view`` modules and its state
class, and :mod:`engine.ai` the shared AI pieces (``RandomPolicy``, ``Levels``).

Actions and events are JSON-serialisable dicts. Events carry a ``type`` and parameters that
the message catalogue turns into sentences.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action that the rules refuse.

    ``code`` is a stable reason code (for example ``"not_your_turn"``), ``params`` the values
    a message catalogue needs to explain it. The state the action was applied to is unchanged.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(_refusal_text(code, params))
        self.code = code
        self.params = params


def _refusal_text(code: str, params: dict) -> str:
    """An IllegalAction's message. Never fails: a value that cannot be shown (an int too long
    for str(), a list nested too deep for repr()) leaves only the parameters' names."""
    if not params:
        return code
    try:
        return f"{code} {params}"
    except (ValueError, RecursionError):
        return f"{code} {sorted(params)}"


class CorruptState(Exception):
    """A saved state that cannot be loaded (bad JSON shape, unknown schema version)."""


@dataclass(frozen=True)
class Seat:
    """One player at the table: a stable id (a Discord user id, ``ai:1``...) and a name."""

    id: str
    name: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name}


class Rng:
    """A small deterministic generator (splitmix64) whose whole state is one integer.

    It is kept inside game states, so replaying a seed and an action log rebuilds the same
    game on every platform and Python version, and saving it costs one number.
    """

    __slots__ = ("state",)
    _MASK = (1 << 64) - 1

    def __init__(self, state: int) -> None:
        self.state = state & self._MASK

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & self._MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & self._MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & self._MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        # next64, inlined (the hot path of every draw)
        m = self._MASK
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & m
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
        return ((z ^ (z >> 31)) * n) >> 64

    def die(self) -> int:
        """A six-sided die roll, 1..6."""
        return self.below(6) + 1

    def shuffle(self, items: list) -> None:
        # the same draws as ``below(i + 1)`` for each i, inlined: determinize shuffles every
        # unseen card for each world a searcher samples
        m = self._MASK
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            z = s = (s + 0x9E3779B97F4A7C15) & m
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s


def roll(state: Any) -> int:
    """A die roll from the generator kept in ``state.rng`` (which moves on)."""
    r = Rng(state.rng)
    value = r.die()
    state.rng = r.state
    return value


def below(state: Any, n: int) -> int:
    """A uniform integer in ``[0, n)`` from the generator kept in ``state.rng``."""
    r = Rng(state.rng)
    value = r.below(n)
    state.rng = r.state
    return value


def shuffle(state: Any, items: list) -> None:
    """Shuffle ``items`` in place with the generator kept in ``state.rng``."""
    r = Rng(state.rng)
    r.shuffle(items)
    state.rng = r.state


# --- action shapes ---------------------------------------------------------------------------
#
# Every action type of a game has an exact shape: its keys, and the kind of each value. A game
# lists them in a table ``{type: {key: kind}}`` where a kind is ``str``, ``int`` (never a bool),
# ``bool`` or ``list[str]`` (the only container kind); a type whose keys depend on one of its values (EVO's card plays, a
# Cubosaurs tile purchase) is a :class:`OneOf`. :func:`check_shape` refuses anything else
# before the rules look at the action, so a malformed action never reaches a game state or
# the action log.

MAX_TEXT = 64  # the longest string in an action (ids, region names, typed card names)
MAX_ITEMS = 64  # the longest list in an action
MAX_INT = 2**31 - 1  # the largest number in an action (either sign)
MAX_KEYS = 8  # more keys than any action of any game


@dataclass(frozen=True)
class OneOf:
    """An action type whose other keys depend on the value of ``key``: ``shapes`` maps each
    allowed value to the extra keys it takes. An unknown value is refused with the code
    ``unknown`` and the parameter ``{key: value}`` (e.g. ``unknown_card``)."""

    key: str
    shapes: Mapping[str, Mapping[str, Any]]
    unknown: str


def _bad(reason: str, field: str | None = None, **params: Any) -> IllegalAction:
    """The refusal of a malformed action: code ``bad_action``, ``reason`` one of ``not_object``,
    ``too_many_keys``, ``bad_key``, ``missing``, ``extra``, ``wrong_type`` (with ``expected``:
    ``str``, ``int``, ``bool`` or ``list``), ``not_finite``, ``too_long`` or ``too_big``;
    ``field``: the key at fault (None for the first three)."""
    return IllegalAction("bad_action", reason=reason, field=field, **params)


def _value_fault(value: Any, kind: Any) -> tuple[str, dict] | None:
    """Why ``value`` is not of ``kind`` (a reason and its parameters), or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return "not_finite", {}
    if kind is str or kind is int or kind is bool:
        if type(value) is not kind:
            return "wrong_type", {"expected": kind.__name__}
        if kind is str and len(value) > MAX_TEXT:
            return "too_long", {}
        if kind is int and abs(value) > MAX_INT:
            return "too_big", {}
        return None
    # list[str], the only container kind
    if type(value) is not list or not all(type(item) is str for item in value):
        return "wrong_type", {"expected": "list"}
    if len(value) > MAX_ITEMS or any(len(item) > MAX_TEXT for item in value):
        return "too_long", {}
    return None


def check_shape(action: Any, shapes: Mapping[str, Any], *, partial: bool = False) -> None:
    """Raise :class:`IllegalAction` unless ``action`` has exactly the shape its ``type`` has in
    ``shapes`` (a game's table, see above): a dict of at most ``MAX_KEYS`` string keys, a known
    ``type``, every key of the shape and no other, each value of its kind, no float (so no NaN
    or Infinity), strings and lists of sane lengths, numbers of sane size.

    Codes: ``bad_action`` (see :func:`_bad` for its ``reason``), ``unknown_action`` (an unknown
    type; parameter ``action``) and the ``unknown`` code of a :class:`OneOf`.

    ``partial``: the keys that only one choice of a :class:`OneOf` has (a card's target, a
    tile's card) may be missing: the rules then refuse with their own reason (the card is not
    in hand, the tile is not for this game) before asking for them (``require``)."""
    # The fast path (simulations apply thousands of actions): a well-formed action of a plain
    # shape, or of a OneOf with its choice's keys all there, is accepted after one look at
    # each key; anything else is left to the full checks below, which name the fault.
    if type(action) is dict and len(action) <= MAX_KEYS:
        name = action.get("type")
        if type(name) is str and len(name) <= MAX_TEXT:
            shape = shapes.get(name)
            keys = 1  # "type", and the OneOf's key
            if type(shape) is OneOf:
                key = shape.key
                choice = action.get(key)
                shape = (shape.shapes.get(choice) if type(choice) is str and key != "type"
                         and len(choice) <= MAX_TEXT and len(key) <= MAX_TEXT else None)
                if type(shape) is dict and key not in shape:
                    keys = 2
                else:
                    shape = None
            if type(shape) is dict and len(action) == len(shape) + keys and "type" not in shape:
                for key, kind in shape.items():
                    value = action.get(key, _ABSENT)
                    if type(value) is not kind or len(key) > MAX_TEXT:
                        break
                    if kind is str:
                        if len(value) > MAX_TEXT:
                            break
                    elif kind is int:
                        if not -MAX_INT <= value <= MAX_INT:
                            break
                    elif kind is not bool:
                        break
                else:
                    return
    if not isinstance(action, dict):
        raise _bad("not_object")
    if len(action) > MAX_KEYS:
        raise _bad("too_many_keys")
    for key, value in action.items():
        if type(key) is not str or len(key) > MAX_TEXT:
            raise _bad("bad_key")
        if isinstance(value, float) and not math.isfinite(value):
            raise _bad("not_finite", key)
    _check_value(action, "type", str)
    shape = shapes.get(action["type"])
    if shape is None:
        raise IllegalAction("unknown_action", action=action["type"])
    if isinstance(shape, OneOf):
        _check_value(action, shape.key, str)
        choice = action[shape.key]
        if choice not in shape.shapes:
            raise IllegalAction(shape.unknown, **{shape.key: choice})
        optional = set(shape.shapes[choice]) if partial else set()
        shape = {shape.key: str, **shape.shapes[choice]}
    else:
        optional = set()
    for key in action:
        if key != "type" and key not in shape:
            raise _bad("extra", key)
    for key, kind in shape.items():
        if key in optional and key not in action:
            continue
        _check_value(action, key, kind)


_ABSENT = object()  # check_shape's fast path: a key the action lacks


def plain_shapes(shapes: Mapping[str, Any]) -> dict[str, tuple[int, tuple]]:
    """A game's shapes made of strings, numbers and booleans only, ready for :func:`fits`:
    per type, the action's size and its (key, kind) pairs."""
    return {name: (len(shape) + 1, tuple(shape.items())) for name, shape in shapes.items()
            if type(shape) is dict and "type" not in shape
            and all(kind in (str, int, bool) for kind in shape.values())}


def fits(action: Any, plain: Mapping[str, tuple[int, tuple]]) -> bool:
    """True for a well-formed action of one of the ``plain`` shapes (:func:`plain_shapes`):
    the games' check_action accepts it at once (simulations check thousands a second). It
    accepts only what :func:`check_shape` accepts; False leaves the action to it, which names
    the fault."""
    if type(action) is not dict:
        return False
    name = action.get("type")
    if type(name) is not str:
        return False
    spec = plain.get(name)
    if spec is None or len(action) != spec[0]:
        return False
    for key, kind in spec[1]:
        value = action.get(key)
        if type(value) is not kind:
            return False
        if kind is str:
            if len(value) > MAX_TEXT:
                return False
        elif kind is int and not -MAX_INT <= value <= MAX_INT:
            return False
    return True


def require(action: dict, key: str) -> Any:
    """A parameter the rules need now, from an action checked with ``partial=True``."""
    if key not in action:
        raise _bad("missing", key)
    return action[key]


def _check_value(action: dict, key: str, kind: Any) -> None:
    if key not in action:
        raise _bad("missing", key)
    fault = _value_fault(action[key], kind)
    if fault is not None:
        raise _bad(fault[0], key, **fault[1])


def rank_rows(rows: list[dict], key: Callable[[dict], tuple]) -> list[dict]:
    """Sort standings best first by ``key(row)`` (larger is better; then by ``row["player"]``)
    and give each row its ``rank``: rows with equal keys share one."""
    rows.sort(key=lambda r: (tuple(-k for k in key(r)), r["player"]))
    rank, prev = 0, None
    for i, row in enumerate(rows):
        k = key(row)
        if k != prev:
            rank, prev = i + 1, k
        row["rank"] = rank
    return rows


def json_copy(value: Any) -> Any:
    """A deep copy of JSON-shaped data (much faster than ``copy.deepcopy``)."""
    if isinstance(value, list):
        return [json_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: json_copy(v) for k, v in value.items()}
    return value


class SavedState:
    """Base of a game state kept in ``__slots__`` of JSON-shaped values.

    A subclass sets ``KIND`` (``"evo"``), ``LABEL`` (for messages) and ``VERSION`` (its schema
    version), declares its ``__slots__`` and gives every slot a default in ``__init__``.
    ``from_json`` refuses a save of another game or version, a missing field, a field of the
    wrong JSON type, or null where the default is not; ``check_loaded`` adds the game's own
    checks.
    """

    __slots__ = ()
    KIND = ""
    LABEL = ""
    VERSION = 1

    def to_json(self) -> dict:
        data = {name: json_copy(getattr(self, name)) for name in self.__slots__}
        data["kind"] = self.KIND
        data["version"] = self.VERSION
        return data

    @classmethod
    def from_json(cls, data: Any):
        label = cls.LABEL
        if not isinstance(data, dict):
            raise CorruptState("state is not an object")
        if data.get("kind") != cls.KIND:
            raise CorruptState(f"not a{'n' if label[:1] in 'AEIOU' else ''} {label} state "
                               f"(kind={data.get('kind')!r})")
        if data.get("version") != cls.VERSION:
            raise CorruptState(f"unknown {label} state version {data.get('version')!r}")
        s = cls()
        for name in cls.__slots__:
            if name not in data:
                raise CorruptState(f"{label} state lacks {name!r}")
            default = getattr(s, name)
            value = data[name]
            if default is not None and value is None:
                raise CorruptState(f"{label} state field {name!r} is missing")
            if (default is not None and value is not None
                    and type(default) is not type(value)
                    and not (isinstance(default, int) and isinstance(value, int))):
                raise CorruptState(f"{label} state field {name!r} has the wrong type")
            setattr(s, name, json_copy(value))
        s.check_loaded()
        return s

    def check_loaded(self) -> None:
        """The game's own checks on a freshly loaded state (raise CorruptState)."""

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    __hash__ = None  # type: ignore[assignment]


class GameRules(Protocol):
    """What every game package provides (see ``engine.evo.EVO`` for the reference one)."""

    kind: str
    min_players: int
    max_players: int

    options: dict[str, str]  # option name -> description (the lobby shows them)

    def new_game(self, seats: list[Seat], seed: int, options: dict | None = None) -> Any: ...

    def new_game_with_events(self, seats: list[Seat], seed: int, options: dict | None = None,
                             observer: Any = None) -> tuple[Any, list[Event]]: ...

    def to_act(self, state: Any) -> list[int]: ...

    def card_window(self, state: Any, player: int) -> bool: ...

    def legal_actions(self, state: Any, player: int) -> list[Action]: ...

    def check_action(self, action: Any) -> None: ...

    def apply_action(self, state: Any, player: int, action: Action,
                     observer: Any = None) -> tuple[Any, list[Event]]: ...

    def apply_in_place(self, state: Any, player: int, action: Action) -> list[Event]: ...

    def view(self, state: Any, viewer: int | None) -> dict: ...

    def is_over(self, state: Any) -> bool: ...

    def returns(self, state: Any) -> list[dict]: ...

    def to_json(self, state: Any) -> dict: ...

    def from_json(self, data: dict) -> Any: ...

    def phase_name(self, state: Any) -> str: ...

    def ai_action(self, state: Any, player: int, level: str) -> Action: ...

    # Optional, for games with secret simultaneous steps (several players choose at once,
    # each unseen by the others). Without them the host uses its action count for both.
    #
    # def step_key(self, state) -> int
    #     A public number that changes whenever the public position changes, but not when
    #     one player makes a secret move inside a simultaneous step: the turn timer runs
    #     per step.
    # def decision_key(self, state, player) -> int
    #     Changes whenever what ``player`` may decide changes (any public change, their own
    #     secret move), never on another player's secret move, nor on another player's move
    #     inside a simultaneous step that leaves ``player``'s choice as it was (EVO's loss
    #     choices: public, but one player's dinos change nobody else's choice): a button
    #     drawn for ``player`` carries it, so one player's choice leaves the others' menus
    #     valid.
    #
    # Optional, for the host's Undo (a player takes back their own last move):
    #
    # def undoable(self, before, player, action, after, events) -> bool
    #     True only when ``player``'s ``action``, which turned ``before`` into ``after`` with
    #     ``events``, revealed nothing: no random draw (the state's ``rng`` unchanged), no card
    #     or tile drawn or turned from a deck, a bag or a hand, no die rolled, and in a secret
    #     simultaneous step not the move that completes it (its reveal). The host asks only
    #     for a person's own move (never an AI's, a timer's or an auto-pass), and checks
    #     itself that nobody acted after it; restoring ``before`` must then be fair to every
    #     other player. Without the method nothing can be taken back (:func:`undoable`).


def step_key(rules: GameRules, state: Any, seq: int) -> int:
    """The public step of ``state`` (``seq`` when the game has no simultaneous steps)."""
    fn = getattr(rules, "step_key", None)
    return seq if fn is None else fn(state)


def decision_key(rules: GameRules, state: Any, player: int, seq: int) -> int:
    """What a button drawn for ``player`` is bound to (``seq`` without simultaneous steps)."""
    fn = getattr(rules, "decision_key", None)
    return seq if fn is None else fn(state, player)


def undoable(rules: GameRules, before: Any, player: int, action: Action, after: Any,
             events: list[Event]) -> bool:
    """May ``player`` take back ``action`` (``before`` -> ``after``, ``events``)? The game's
    ``undoable`` says (see :class:`GameRules`); False for a game without it."""
    fn = getattr(rules, "undoable", None)
    return False if fn is None else bool(fn(before, player, action, after, events))


# --- the games: one description each -----------------------------------------------------------
#
# Everything the bot, the demo and the benchmarks need to know about a game, in one place (in
# the spirit of OpenSpiel's GameType): its kind, its rules object (which gives the player
# counts), its lobby options with their types and defaults, its AI levels and AI module, and
# where the outer layers find its renderer, its message module, its cog and (optionally) a
# catalogue folder of its own. The outer layers are named by module path, never imported here
# (the engine imports no Pillow, no discord): ``images.render`` imports the renderer on first
# use, ``cogs.bot`` loads the cog as an extension, ``messages`` the message module.


@dataclass(frozen=True)
class Option:
    """A lobby option: the type of its value (``bool``, ``int`` or ``str``), its default and
    one line saying what it does (default: the rules object's ``options[name]``)."""

    type: type
    default: Any
    text: str = ""


@dataclass(frozen=True)
class Bench:
    """How the benchmarks play a game (``bench/ai_matchup.py``, ``bench/run.py``); every field
    has a default, so a new game is benchmarked without one.

    ``mixed``: the option that ``ai_matchup --advanced mixed|on|off`` turns on in half of the
    games, in all or in none (``mixed_columns`` heads the win share with it off / on);
    ``options``: the other options of every benchmark game; ``header(mode, options)``: what the
    matchup's first line says about the options; ``tiebreak(row)``: the value that breaks a
    tie on score in a final row (a shared first place counts as a fractional win);
    ``turns``: the state's counter of turns or rounds; ``watch``: ``"module:Class"`` counting a
    game's silly plays under ``--coverage`` (``Class(levels)`` is called like ai_matchup's
    ``watch``); ``call_times``: print the wall and CPU time of each policy call.
    ``bench/run.py``: ``option`` (a ``random_<option>_ms`` figure with it on), ``ai_options``
    (the options of the AI and apply figures), ``ai_figure`` (the fast AI game's figure name),
    ``strong_runs`` (games of strong seats timed; 0: none), ``apply_games``, ``save_load`` (the
    save/load figures), ``render_at`` (``render_at()`` -> ``(players, options, level,
    until)``: the position of the render figures; None: ``images.<renderer>.bench_render``
    draws its own), ``replay`` (the replay figures: a 4-player game of fast seats to its GIF),
    ``ai_games`` (games per matchup of ``bench/run.py ai``; 0: not in it)."""

    mixed: str | None = None
    mixed_columns: str = "off/on"
    options: Mapping[str, Any] = field(default_factory=dict)
    header: Callable[[str, dict], str] | None = None
    tiebreak: Callable[[dict], Any] | None = None
    turns: str = "turn"
    watch: str | None = None
    call_times: bool = False
    option: str | None = None
    ai_options: Mapping[str, Any] = field(default_factory=dict)
    ai_figure: str = "ai_fast"
    strong_runs: int = 0
    apply_games: int = 20
    save_load: bool = False
    render_at: Callable[[], tuple] | None = None
    replay: bool = False
    ai_games: int = 0


@dataclass(frozen=True)
class GameDescription:
    """One game, as every layer reads it (see the section's text). ``renderer`` and
    ``hand_renderer`` are ``"module:function"`` (``function(view, lang) -> PNG bytes``; the
    hand image is a player's private one); ``messages`` and ``cog`` are module paths (the
    cog is loaded as a discord.py extension); ``catalogue`` is a folder with one sub-folder
    of TOML files per language, merged into the catalogue, for a game whose words do not live
    in ``messages/<lang>/``. ``ai_levels`` are the levels of ``ai_module`` (whose
    ``choose_action``, ``policy_for``, ``AI`` and optional ``STRATEGIC`` the rules object, the
    benchmarks and ``engine.ai.strategic`` use)."""

    kind: str
    rules: Any  # GameRules
    title: str = ""
    options: Mapping[str, Option] = field(default_factory=dict)
    ai_levels: tuple[str, ...] = ("random", "fast", "strong")
    ai_module: str = ""
    renderer: str | None = None
    hand_renderer: str | None = None
    messages: str | None = None
    cog: str | None = None
    catalogue: str | None = None
    bench: Bench = field(default_factory=Bench)

    @property
    def min_players(self) -> int:
        return self.rules.min_players

    @property
    def max_players(self) -> int:
        return self.rules.max_players

    def defaults(self) -> dict[str, Any]:
        """Every option at its default."""
        return {name: opt.default for name, opt in self.options.items()}


GAME_PACKAGES = ("engine.evo", "engine.cubosaurs", "engine.mutations", "engine.climate")

_REGISTRY: dict[str, GameDescription] = {}
_CATALOGUES: tuple[str, ...] = ()  # the registered games' own catalogue folders
_loaded = False


def register(game: Any, **fields: Any) -> Any:
    """Register a game: a :class:`GameDescription`, or a rules object and the description's
    other fields (``title``, ``options``, ``ai_levels``, ``renderer``...; an option may be
    given as ``(type, default)``, the benchmarks' :class:`Bench` as a dict, so a game's
    package needs nothing but ``register`` from here). Returns the rules
    object (``EVO = register(EvoGame(), ...)``). An option's empty text is the rules
    object's ``options[name]``; ``ai_module`` defaults to the rules object's ``ai_module``, else
    the ``ai`` module beside the rules class's module (as ``GameRulesBase.ai_action``)."""
    if not isinstance(game, GameDescription):
        rules = game
        texts = getattr(rules, "options", {}) or {}
        options = {}
        for name, opt in fields.pop("options", {}).items():
            if not isinstance(opt, Option):  # (type, default) or (type, default, text)
                opt = Option(*opt)
            options[name] = opt if opt.text else Option(opt.type, opt.default,
                                                        texts.get(name, ""))
        if isinstance(fields.get("bench"), Mapping):
            fields["bench"] = Bench(**fields["bench"])
        fields.setdefault("ai_module", getattr(rules, "ai_module", None)
                          or f"{type(rules).__module__}.ai")
        fields.setdefault("title", rules.kind)
        game = GameDescription(kind=rules.kind, rules=rules, options=options, **fields)
    for name, opt in game.options.items():
        if opt.type not in (bool, int, str) or type(opt.default) is not opt.type:
            raise ValueError(f"{game.kind}: option {name!r} has a bad type or default")
    _REGISTRY[game.kind] = game
    _index()
    return game.rules


def unregister(kind: str) -> None:
    """Forget a game registered by :func:`register` (a test's own game, afterwards)."""
    _REGISTRY.pop(kind, None)
    _index()


@contextmanager
def registered(game: Any, **fields: Any):
    """``with registered(rules, ...) as description:`` the game is known inside the block
    only (tests)."""
    register(game, **fields)
    kind = game.kind
    try:
        yield _REGISTRY[kind]
    finally:
        unregister(kind)


def _index() -> None:
    global _CATALOGUES
    _CATALOGUES = tuple(d.catalogue for d in _REGISTRY.values() if d.catalogue)


def get_game(kind: str) -> GameRules:
    """The rules object for a game kind (``"evo"``...)."""
    return description(kind).rules


def description(kind: str) -> GameDescription:
    """The description of a game kind (KeyError naming the known kinds when unknown)."""
    _load_games()
    try:
        return _REGISTRY[kind]
    except KeyError:
        raise KeyError(f"unknown game kind {kind!r}; known: {sorted(_REGISTRY)}") from None


def descriptions() -> list[GameDescription]:
    """Every registered game's description: the built-in games in the order of
    :data:`GAME_PACKAGES` (whichever a program imported first), then the others in the order
    they were registered."""
    _load_games()
    builtin = [p.rsplit(".", 1)[1] for p in GAME_PACKAGES]
    rank = {kind: i for i, kind in enumerate(builtin)}
    return sorted(_REGISTRY.values(), key=lambda d: rank.get(d.kind, len(rank)))


def game_kinds() -> list[str]:
    _load_games()
    return sorted(_REGISTRY)


def catalogue_folders() -> tuple[str, ...]:
    """The catalogue folders of the registered games that have their own (cheap: the
    message catalogue asks on every lookup)."""
    _load_games()
    return _CATALOGUES


def _load_games() -> None:
    """Import every game package once (each registers itself)."""
    global _loaded
    if _loaded:
        return
    import importlib
    import sys

    for package in GAME_PACKAGES:
        if package not in sys.modules:
            importlib.import_module(package)
    _loaded = True
