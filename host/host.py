"""Live games, one per channel (a thread is a channel), and everything that happens to them.

Every change goes through one path, :meth:`GameHost._commit`: take the game's lock, apply the
action with the engine, write the action and the new state to the store in one transaction,
and only then make the new state current and tell the listener (the Discord layer), which
posts the table message and the phase images. AI seats and expired turn timers use the same
path, so a crash never loses an acknowledged action and two interactions are never applied
at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine import CorruptState, IllegalAction, Seat, get_game
from engine.ai import level_of
from engine.core import decision_key, step_key
from engine.core import undoable as engine_undoable
from host.ai_pool import AiPool
from host.checks import CorruptLobby, check_lobby
from host.errors import HostError
from host.ratings import match_of
from host.replay import Replay, ReplayCache, ReplayError, replay_state, seat_actions
from host.settings import ServerSettings, check_setting
from host.shards import Shards, owned
from store import ChannelBusy, CorruptRow, RematchTaken, StaleWrite, StoreError

log = logging.getLogger("darwin.host")

RECENT_EVENTS = 40
RETRY_FIRST_DELAY = 1.0  # seconds before a step the store refused is tried again, doubling
RETRY_MAX_DELAY = 60.0
AI_FAILURES_TOLD = 3  # AI moves that raised in a row before the table is told (once)
SWEEP_EVERY = 30.0  # seconds between loads of the games due soon (AI seats, timers)
SWEEP_BATCH = 500  # due games read at once (times the shard count when sharded)
IDLE_AFTER = 1800.0  # a game nobody used for this long, with nothing armed, leaves memory
UNDO_ACTION = {"type": "undo"}  # an undo's entry in the action log (never seen by the engine)

# Who made a committed action (the lobby's "undo" record keeps it, see GameHost.can_undo):
# the seat's person, an AI seat, the turn timer (the AI playing a late person's step), or the
# bot passing for a person in a card window; "undo" marks an undo entry.
BY_PERSON, BY_AI, BY_TIMER, BY_AUTOPASS, BY_UNDO = "player", "ai", "timer", "autopass", "undo"
UNDO_REASONS = ("nothing", "not_yours", "acted_since", "automatic", "revealed", "stale",
                "mismatch", "limit")
# How many moves one player may take back in a row (until another seat's move): enough to
# mend a misclick or two, not enough to fill the table's log or its channel's writes.
UNDO_LIMIT = 3

# When the bot passes for a human in a card window (after the host's window_delay):
# "always" (the default) = every time, unless they play a card first: the table then looks the
# same whatever they hold; "playable" = only when nothing in their hand is playable there
# (quicker, but the wait shows that they could play); "off" = never, they are always awaited.
AUTOPASS_MODES = ("always", "playable", "off")


class Clock(Protocol):
    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], Any]) -> Any: ...


class RealClock:
    """Wall time for records, the event loop for timers (SimCord's virtual time in tests)."""

    def now(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], Any]) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(delay, callback)


def _passes_for(rules, state, seats: list[dict], seat: int) -> bool:
    """The bot passes for this human in the card window now open (their auto-pass setting)."""
    card_window = getattr(rules, "card_window", None)
    if card_window is None or not card_window(state, seat):
        return False
    mode = seats[seat].get("autopass", AUTOPASS_MODES[0])
    if mode not in AUTOPASS_MODES or mode == "always":
        return True
    legal = rules.legal_actions(state, seat)
    return mode == "playable" and all(a["type"] == "pass" for a in legal)


def _check_json(action: Any) -> None:
    """An action is a JSON object the store can write as it is: no NaN or Infinity."""
    if not isinstance(action, dict):
        raise IllegalAction("bad_action")
    try:
        json.dumps(action, allow_nan=False)
    except (TypeError, ValueError, RecursionError):  # RecursionError: nested too deep
        raise IllegalAction("bad_action") from None


def _usable(guild_id: str, stored: dict) -> ServerSettings:
    """A server's stored settings, each checked again: one a newer or older Darwin (or a hand
    in the database) left unusable is ignored, and the default applies."""
    kept = {}
    for name, value in stored.items():
        try:
            kept[name] = check_setting(name, value)
        except HostError:
            log.warning("server %s: the stored setting %s=%r is ignored", guild_id, name, value)
    return ServerSettings(**kept)


def _undo_entry(lobby: dict, seats: int) -> dict | None:
    """The lobby's record of the last action (``GameHost._undo_record``), or None when it is
    missing or malformed (a lobby written before undo existed, or by hand)."""
    record = lobby.get("undo")
    if not (isinstance(record, dict) and type(record.get("seq")) is int
            and type(record.get("seat")) is int and 0 <= record["seat"] < seats
            and isinstance(record.get("by"), str) and type(record.get("ok")) is bool
            and isinstance(record.get("acted"), list) and len(record["acted"]) == seats
            and all(type(x) is int for x in record["acted"])):
        return None
    return record


def _undo_counts(lobby: dict, seats: int) -> list[int]:
    """Per seat, the undos that brought its decision key back (``LiveGame.key_for``)."""
    undos = lobby.get("undos")
    if isinstance(undos, list) and len(undos) == seats and all(
            type(u) is int and u >= 0 for u in undos):
        return list(undos)
    return [0] * seats


def _undo_streak(lobby: dict, seat: int) -> int:
    """How many moves ``seat`` has taken back since another seat last moved
    (``lobby["undo_streak"]``: [seat, count]; see UNDO_LIMIT)."""
    streak = lobby.get("undo_streak")
    if (isinstance(streak, list) and len(streak) == 2 and streak[0] == seat
            and type(streak[1]) is int):
        return streak[1]
    return 0


def _ai_level_of(seat: dict, lobby: dict, default: str) -> str | None:
    """The AI level that played a seat to the end (None: its player did), for the results
    and the ratings (host/ratings.py: an AI seat is rated as its level, a player who left
    is rated last)."""
    if not seat.get("ai"):
        return None
    return seat.get("level") or lobby.get("ai_level") or default


def _next_ai_number(lobby: dict) -> int:
    """The number of the next AI seat of a lobby (its id ``ai:N``, its name ``AI N``): above
    every AI seat seated now and every one made before, so an id is never reused."""
    made = [int(s["id"][3:]) for s in lobby["seats"]
            if s["id"].startswith("ai:") and s["id"][3:].isdigit()]
    last = lobby.get("ai_made")
    return max(made + [last if isinstance(last, int) else 0]) + 1


def _edited(lobby: dict) -> dict:
    """A copy of a lobby to edit (its seats copied too), stored before it replaces the old."""
    copy = dict(lobby)
    copy["seats"] = [dict(seat) for seat in lobby["seats"]]
    return copy


@dataclass
class LiveGame:
    id: int
    guild_id: str | None
    channel_id: str
    kind: str
    status: str  # "lobby" or "active" ("finished"/"cancelled" once gone)
    options: dict
    lobby: dict  # creator, seats [{id, name, ai, level}], timer, messages, log
    state: Any = None
    seq: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    timers: list = field(default_factory=list, repr=False)
    save_failures: int = 0  # commits refused by the store in a row (AI steps retry)
    ai_failures: int = 0  # AI moves that raised in a row (retried with a back-off)
    used_at: float = 0.0  # last time a person used the game (games idle long are let go)
    dropped: bool = False  # another process wrote the game: this copy is stale (GameHost._drop)
    # in a card window's round: when the bot answers for each seat still to answer (an AI
    # seat's move, a human's auto-pass), set once per public step (GameHost._round_due)
    due: dict = field(default_factory=dict, repr=False)

    @property
    def rules(self):
        return get_game(self.kind)

    @property
    def seats(self) -> list[dict]:
        return self.lobby["seats"]

    def seat_of(self, user_id: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat["id"] == str(user_id):
                return i
        return None

    def names(self) -> list[str]:
        return [s["name"] for s in self.seats]

    def awaiting(self) -> list[int]:
        if self.status != "active":
            return []
        return self.rules.to_act(self.state)

    @property
    def step(self) -> int:
        """The public step: the action count, except that in a game with secret simultaneous
        steps one player's secret move does not change it (the turn timer runs per step)."""
        return step_key(self.rules, self.state, self.seq)

    def key_for(self, seat: int) -> int:
        """What a button drawn for ``seat`` is bound to: the action count, except that in a
        game with secret simultaneous steps another player's secret move does not change
        it (their choice leaves this seat's menu valid). An undo brings the game's own keys
        back to what they were before the move, so the undos that touched this seat's key
        are counted in too (above 2**32): a menu drawn after a move that was taken back
        never becomes valid again, and another player's secret move taken back leaves this
        seat's menus as they were."""
        key = decision_key(self.rules, self.state, seat, self.seq)
        if getattr(self.rules, "decision_key", None) is not None:
            key += _undo_counts(self.lobby, len(self.seats))[seat] << 32
        return key

    @property
    def deadline(self) -> float | None:
        """When the turn timer of the current step runs out (epoch seconds), if armed."""
        d = self.lobby.get("deadline")
        if self.status == "active" and isinstance(d, dict) and d.get("seq") == self.step:
            return float(d["at"])
        return None

    def autopass(self, seat: int) -> str:
        """A seat's auto-pass setting for card windows (see :data:`AUTOPASS_MODES`)."""
        mode = self.seats[seat].get("autopass", AUTOPASS_MODES[0])
        return mode if mode in AUTOPASS_MODES else AUTOPASS_MODES[0]


@dataclass
class Outcome:
    """What one committed action did, for the Discord layer to show."""

    game: LiveGame
    seat: int
    action: dict
    events: list[dict]
    snapshots: list[tuple[str, dict]]  # (finished phase, public view at that moment)
    by_ai: bool = False
    timed_out: bool = False
    seq: int | None = None  # the game's position right after it (an Undo button's number)
    undoable: bool = False  # a person's move the engine lets them take back (GameHost.undo)

    @property
    def over(self) -> bool:
        return self.game.status == "finished"


class Listener(Protocol):
    async def on_outcome(self, outcome: Outcome) -> None: ...

    async def on_game_broken(self, game_id: int, channel_id: str, error: str) -> None: ...

    async def on_saving_failed(self, game: LiveGame) -> None: ...

    async def on_ai_failing(self, game: LiveGame, seat: int) -> None: ...


class _NullListener:
    async def on_outcome(self, outcome: Outcome) -> None:
        return None

    async def on_game_broken(self, game_id: int, channel_id: str, error: str) -> None:
        return None

    async def on_saving_failed(self, game: LiveGame) -> None:
        return None

    async def on_ai_failing(self, game: LiveGame, seat: int) -> None:
        return None


class GameHost:
    def __init__(self, store, *, clock: Clock | None = None, ai_delay: float = 1.5,
                 default_timer: float = 0, ai_level: str = "fast",
                 listener: Listener | None = None, window_delay: float = 2.0,
                 shards: Shards | None = None, ai_pool: AiPool | None = None) -> None:
        """``shards``: the shards this process runs (host/shards.py); only the games of the
        servers on them are loaded, at start and on use. None: every game (one process).
        ``ai_pool``: where AI seats think (host/ai_pool.py); None: threads only, a searching
        level plays the quick one. The host closes it."""
        self.store = store
        self.ai = ai_pool if ai_pool is not None else AiPool(workers=0)
        self.shards = shards
        self.replays = ReplayCache()  # finished games' GIFs, drawn once per language
        self.clock = clock or RealClock()
        self.ai_delay = ai_delay
        self.window_delay = window_delay
        self.default_timer = default_timer
        self.ai_level = ai_level
        self.listener: Listener = listener or _NullListener()
        # called with a game's id after each of its commits and lobby changes (the web
        # page's live updates: web.WebServer.notify); must not raise nor wait
        self.on_change: list[Callable[[int], Any]] = []
        self.games: dict[str, LiveGame] = {}
        self.broken: list[tuple[int, str]] = []
        self._tasks: set[asyncio.Task] = set()
        self.ai_step_failures: dict[str, int] = {}  # game kind -> AI moves that raised (metrics)
        self._closed = False
        self._loading = asyncio.Lock()  # one load at a time: a game is never loaded twice
        self._sweeper = None
        self._settings: dict[str, ServerSettings] = {}  # guild id -> its settings, once read
        self._settings_lock = asyncio.Lock()  # one settings change at a time

    # --- start and stop -------------------------------------------------------------------

    async def start(self) -> None:
        """Load the games that need the bot soon by themselves (an AI seat, an auto-pass, a
        turn timer) and keep doing so every SWEEP_EVERY seconds; every other game is loaded
        when its channel is next used (``ensure_loaded``), so start-up time and memory do not
        grow with the number of live games. Games idle in memory are let go again."""
        await self._sweep()

    async def _sweep(self) -> None:
        if self._closed:
            return
        try:
            horizon = self.clock.now() + SWEEP_EVERY
            limit = SWEEP_BATCH * (1 if self.shards is None else self.shards.count)
            while True:
                due = await self.store.due_games(horizon, limit=limit)
                rows = [r for r in owned(due, self.shards)  # other shards' are not ours
                        if str(r.channel_id) not in self.games]
                for row in rows:
                    await self._load_row(row)
                if len(due) < limit or not rows:
                    break
            self._evict_idle()
        except StoreError as exc:
            log.error("could not load the games that are due: %s", exc)
        finally:
            if not self._closed:
                self._sweeper = self.clock.call_later(
                    SWEEP_EVERY, lambda: self._spawn(self._sweep()))

    def _evict_idle(self) -> None:
        """Let go of games nobody used for IDLE_AFTER seconds and that have nothing armed
        (their state is in the store; the next use of the channel loads them again)."""
        now = self.clock.now()
        for channel_id, game in list(self.games.items()):
            if now - game.used_at >= IDLE_AFTER and not game.timers and not game.lock.locked():
                del self.games[channel_id]

    async def ensure_loaded(self, channel_id) -> LiveGame | None:
        """The channel's live game, loaded from the store if it is not in memory yet (None
        if there is none, or if it could not be loaded and was set aside)."""
        channel_id = str(channel_id)
        game = self.games.get(channel_id)
        if game is None:
            async with self._loading:
                game = self.games.get(channel_id)
                if game is None:
                    try:
                        row = await self.store.game_in_channel(channel_id)
                    except StoreError as exc:
                        log.error("could not read channel %s's game: %s", channel_id, exc)
                        raise HostError("storage_failed") from exc
                    if row is not None and not owned([row], self.shards):
                        # another process's server (Discord sends it none of its
                        # interactions): that process drives it, this one never loads it
                        log.warning("game %s in channel %s is on another process's shard "
                                    "(%s here): not loaded", row.id, channel_id, self.shards)
                        row = None
                    game = None if row is None else await self._load_row(row)
        if game is not None:
            game.used_at = self.clock.now()
        return game

    async def _load_row(self, row) -> LiveGame | None:
        """One stored game into memory, armed; a row that fails any check is set aside."""
        try:
            head = await self.store.log_head(row.id)
            if head != row.seq:
                raise CorruptLobby(f"the game is at position {row.seq} but its action log "
                                   f"ends at {head}")
            game = self._load(row)
            game.used_at = self.clock.now()
            self.games[game.channel_id] = game
            if game.status == "active":
                self._schedule(game)
            return game
        except StoreError as exc:
            if not isinstance(exc, CorruptRow):  # the database failing, not this row
                log.error("could not load game %s: %s", row.id, exc)
                raise HostError("storage_failed") from exc
            await self._set_aside(row, str(exc))
            return None
        except Exception as exc:  # noqa: BLE001 - any failure sets this one game aside
            self.games.pop(str(row.channel_id), None)
            if not isinstance(exc, (CorruptState, CorruptLobby, KeyError, TypeError,
                                    ValueError, IndexError, AttributeError)):
                log.exception("game %s could not be loaded", row.id)
            await self._set_aside(row, f"{type(exc).__name__}: {exc}")
            return None

    def _load(self, row) -> LiveGame:
        options, lobby, state_json = row.decoded()
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise CorruptLobby("the options are not an object")
        game = LiveGame(row.id, row.guild_id, row.channel_id, row.kind, row.status, options,
                        lobby, None, row.seq)
        rules = game.rules  # an unknown kind raises here
        if row.status == "active":
            game.state = rules.from_json(state_json)
        check_lobby(lobby, row.status, game.state, rules)
        return game

    async def _set_aside(self, row, reason: str) -> None:
        log.error("game %s in channel %s set aside: %s", row.id, row.channel_id, reason)
        self.broken.append((row.id, reason))
        try:
            await self.store.set_aside(row.id, reason, self.clock.now())
        except StoreError as exc:  # it stays live in the file: tried again at the next start
            log.error("could not mark game %s as set aside: %s", row.id, exc)
        try:
            await self.listener.on_game_broken(row.id, row.channel_id, reason)
        except Exception:
            log.exception("could not report game %s as set aside", row.id)

    async def close(self, grace: float = 0.0) -> None:
        """Stop: no sweep, no timer, nothing armed any more; the steps already running (an AI
        seat's move being committed...) are given ``grace`` seconds to finish, then
        cancelled."""
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for game in self.games.values():
            self._cancel_timers(game)
        if grace > 0 and self._tasks:
            await asyncio.wait(list(self._tasks), timeout=grace)
        for task in list(self._tasks):
            task.cancel()
        self._tasks.clear()
        self.ai.close()

    # --- server settings ----------------------------------------------------------------------

    async def server_settings(self, guild_id) -> ServerSettings:
        """A server's settings: read from the store once, then kept in memory."""
        if guild_id is None:
            return ServerSettings()
        guild_id = str(guild_id)
        settings = self._settings.get(guild_id)
        if settings is None:
            try:
                stored = await self.store.guild_settings(guild_id)
            except StoreError as exc:
                log.error("could not read the settings of server %s: %s", guild_id, exc)
                raise HostError("storage_failed") from exc
            settings = self._settings.setdefault(guild_id, _usable(guild_id, stored))
        return settings

    def cached_settings(self, guild_id) -> ServerSettings:
        """A server's settings as last read (the defaults if they were never read)."""
        return self._settings.get(str(guild_id), ServerSettings())

    async def change_settings(self, guild_id, **changes) -> ServerSettings:
        """Check and store some of a server's settings (None: back to the default); they apply
        to the games created afterwards. HostError (one sentence's code) for a bad value."""
        checked = {name: check_setting(name, value) for name, value in changes.items()}
        async with self._settings_lock:
            settings = replace(await self.server_settings(guild_id), **checked)
            await self._stored(self.store.save_guild_settings(
                str(guild_id), settings.stored(), self.clock.now()))
            self._settings[str(guild_id)] = settings
        return settings

    # --- lobby ------------------------------------------------------------------------------

    def game_in(self, channel_id) -> LiveGame | None:
        return self.games.get(str(channel_id))

    def _game(self, channel_id) -> LiveGame:
        game = self.games.get(str(channel_id))
        if game is None:
            raise HostError("no_game")
        return game

    async def open_lobby(self, guild_id, channel_id, kind: str, creator_id, creator_name: str,
                         options: dict | None = None, timer: float | None = None,
                         lang: str = "en") -> LiveGame:
        rules = get_game(kind)
        channel_id = str(channel_id)
        if channel_id in self.games:
            raise HostError("channel_busy")
        settings = await self.server_settings(guild_id)
        if timer is None:
            timer = self.default_timer if settings.turn_timer is None else settings.turn_timer
        lobby = {
            "creator": str(creator_id),
            "seats": [{"id": str(creator_id), "name": creator_name, "ai": False}],
            "timer": float(timer),
            "lang": lang,
            "messages": {},
            "log": [],
            "min": rules.min_players,
            "max": rules.max_players,
        }
        # the server's own choices, kept by the game whatever the server changes later
        if settings.ai_delay is not None:
            lobby["ai_delay"] = settings.ai_delay
        if settings.ai_level is not None:
            lobby["ai_level"] = settings.ai_level
        options = dict(options or {})
        try:
            game_id = await self.store.create_game(
                None if guild_id is None else str(guild_id), channel_id, kind, options, lobby,
                self.clock.now())
        except ChannelBusy:
            raise HostError("channel_busy") from None
        except StoreError as exc:
            log.error("store write failed: %s", exc)
            raise HostError("storage_failed") from exc
        game = LiveGame(game_id, None if guild_id is None else str(guild_id), channel_id, kind,
                        "lobby", options, lobby)
        game.used_at = self.clock.now()  # just used: not let go at the next sweep
        self.games[channel_id] = game
        return game

    async def rematch(self, channel_id, game_id: int, user_id) -> LiveGame:
        """The Rematch button under a finished game: a lobby in its channel with the same
        seats in the same order (AI seats and their levels included; a player who left the
        game to an AI is not seated again), the same options, turn timer, AI delay and level
        and table language; the presser, one of its players, is the creator; the seed is
        new when it starts. Players who do not want to play leave the lobby as usual.
        Refused (HostError): ``rematch_taken`` once the game opened one (once per game),
        ``rematch_stale`` if another game was opened in the channel since, ``rematch_not_
        player``, ``channel_busy``."""
        channel_id = str(channel_id)
        try:
            row = await self.store.get_game(int(game_id))
            # the channel's newest game is read before the rematch: if another press opens
            # the rematch in between, this one sees it taken (or the store's unique rematch
            # refuses its insert), never a "newer game" that is that same rematch
            latest = await self.store.latest_game_id(channel_id)
            taken = await self.store.rematch_id(int(game_id))
        except StoreError as exc:
            log.error("could not read game %s for a rematch: %s", game_id, exc)
            raise HostError("storage_failed") from exc
        if taken is not None:
            raise HostError("rematch_taken")
        if row is None or row.channel_id != channel_id or row.status != "finished" \
                or latest != row.id:
            raise HostError("rematch_stale")
        try:
            options, old, _ = row.decoded()
            check_lobby(old, "lobby", None, get_game(row.kind))
        except (CorruptRow, CorruptLobby, KeyError) as exc:
            log.error("game %s cannot be rematched: %s", row.id, exc)
            raise HostError("rematch_stale") from exc
        seats = [{k: v for k, v in s.items() if k in ("id", "name", "ai", "level")}
                 for s in old["seats"] if not s.get("ai") or s["id"].startswith("ai:")]
        if not any(s["id"] == str(user_id) and not s.get("ai") for s in seats):
            raise HostError("rematch_not_player")
        rules = get_game(row.kind)
        lobby = {key: old[key] for key in ("timer", "lang", "ai_delay", "ai_level") if key in old}
        lobby.update(creator=str(user_id), seats=seats, messages={}, log=[],
                     min=rules.min_players, max=rules.max_players)
        options = dict(options or {})
        try:
            new_id = await self.store.create_game(row.guild_id, channel_id, row.kind, options,
                                                  lobby, self.clock.now(), rematch_of=row.id)
        except RematchTaken:
            raise HostError("rematch_taken") from None
        except ChannelBusy:
            raise HostError("channel_busy") from None
        except StoreError as exc:
            log.error("store write failed: %s", exc)
            raise HostError("storage_failed") from exc
        # the store said the channel was free (its check comes after the rematch's, so two
        # presses at once are told "already opened", not "busy")
        game = LiveGame(new_id, row.guild_id, channel_id, row.kind, "lobby", options, lobby)
        game.used_at = self.clock.now()
        self.games[channel_id] = game
        return game

    async def note_message(self, game: LiveGame, name: str, message_id) -> None:
        """Keep one of the game's Discord messages (``lobby["messages"][name]``: the lobby's
        own message, which later changes edit), stored with the lobby under the game's lock.
        If the store refuses, it is kept in memory only (logged): the message is posted
        already, and the lobby's next stored change carries it."""
        async with game.lock:
            lobby = _edited(game.lobby)
            lobby["messages"] = {**lobby.get("messages", {}), name: message_id}
            try:
                await self._write_lobby(game, lobby)
            except HostError as exc:
                log.warning("game %s: its %s message %s was not stored (%s)", game.id, name,
                            message_id, exc.code)
                game.lobby = lobby

    def _lobby(self, channel_id) -> LiveGame:
        game = self._game(channel_id)
        self._still_lobby(game)
        return game

    def _still_lobby(self, game: LiveGame) -> None:
        """Checked again once the game's lock is held: a Start, Cancel or Join pressed at the
        same moment may have changed the game while this one waited for the lock."""
        if game.status == "lobby" and self.games.get(game.channel_id) is game:
            return
        if game.status == "active":
            raise HostError("already_started")
        raise HostError("lobby_closed")

    async def join(self, channel_id, user_id, name: str) -> LiveGame:
        game = self._lobby(channel_id)
        async with game.lock:
            self._still_lobby(game)
            if game.seat_of(user_id) is not None:
                raise HostError("already_joined")
            if len(game.seats) >= game.lobby["max"]:
                raise HostError("lobby_full", max=game.lobby["max"])
            lobby = _edited(game.lobby)
            lobby["seats"].append({"id": str(user_id), "name": name, "ai": False})
            await self._write_lobby(game, lobby)
        return game

    async def add_ai(self, channel_id, by_user, level: str | None = None) -> LiveGame:
        game = self._lobby(channel_id)
        async with game.lock:
            self._still_lobby(game)
            if game.seat_of(by_user) is None:
                raise HostError("not_in_lobby")
            if len(game.seats) >= game.lobby["max"]:
                raise HostError("lobby_full", max=game.lobby["max"])
            n = _next_ai_number(game.lobby)
            lobby = _edited(game.lobby)
            lobby["ai_made"] = n  # an AI seat's id is never given again in this lobby
            # a known level (the setting's check), then the game's own (level_of: Cubosaurs
            # has no expert, its seat plays strong)
            level = level_of(game.rules,
                             check_setting("ai_level", level or self._ai_level(game.lobby)))
            lobby["seats"].append({"id": f"ai:{n}", "name": f"AI {n}", "ai": True,
                                   "level": level})
            await self._write_lobby(game, lobby)
        return game

    async def leave_lobby(self, channel_id, user_id) -> LiveGame:
        game = self._lobby(channel_id)
        async with game.lock:
            self._still_lobby(game)
            seat = game.seat_of(user_id)
            if seat is None:
                raise HostError("not_in_lobby")
            if str(user_id) == game.lobby["creator"]:
                raise HostError("creator_cannot_leave")
            lobby = _edited(game.lobby)
            del lobby["seats"][seat]
            await self._write_lobby(game, lobby)
        return game

    def _can_manage(self, game: LiveGame, user_id, can_manage: bool) -> None:
        if not (can_manage or str(user_id) == game.lobby["creator"]):
            raise HostError("not_creator")

    async def remove_seat(self, channel_id, by_user, seat_id: str, can_manage: bool) -> LiveGame:
        """Free the lobby seat of ``seat_id`` (a person's user id, or an AI seat's own id
        ``ai:N``, never given twice in a lobby): who sits there, not a place, so a seat
        named before someone left still names the same one. HostError ``no_such_seat`` when
        nobody with that id is seated (any more)."""
        game = self._lobby(channel_id)
        self._can_manage(game, by_user, can_manage)
        async with game.lock:
            self._still_lobby(game)
            seat = game.seat_of(seat_id)
            if seat is None:
                raise HostError("no_such_seat")
            if game.seats[seat]["id"] == game.lobby["creator"]:
                raise HostError("creator_cannot_leave")
            lobby = _edited(game.lobby)
            del lobby["seats"][seat]
            await self._write_lobby(game, lobby)
        return game

    async def cancel(self, channel_id, by_user, can_manage: bool) -> LiveGame:
        game = self._game(channel_id)
        self._can_manage(game, by_user, can_manage)
        async with game.lock:
            if game.status not in ("lobby", "active") or self.games.get(game.channel_id) is not game:
                raise HostError("lobby_closed")
            await self._stored(self.store.cancel_game(game.id, self.clock.now()))
            self._cancel_timers(game)
            game.status = "cancelled"
            self.games.pop(game.channel_id, None)
        return game

    async def start_game(self, channel_id, by_user, can_manage: bool,
                         seed: int | None = None) -> Outcome:
        game = self._lobby(channel_id)
        self._can_manage(game, by_user, can_manage)
        rules = game.rules
        async with game.lock:
            self._still_lobby(game)
            n = len(game.seats)
            if n < rules.min_players:
                raise HostError("not_enough_players", min=rules.min_players, count=n)
            if seed is None:
                seed = int.from_bytes(os.urandom(6), "big")
            seats = [Seat(s["id"], s["name"]) for s in game.seats]
            snapshots: list[tuple[str, dict]] = []

            def observer(state, phase):
                snapshots.append((phase, rules.view(state, None)))

            state, events = rules.new_game_with_events(seats, seed, game.options, observer)
            lobby = _edited(game.lobby)
            lobby["seed"] = seed
            lobby["log"] = (lobby.get("log", []) + list(events))[-RECENT_EVENTS:]
            self._set_deadline(lobby, lobby["seats"], rules, state, 0)
            await self._stored(self.store.start_game(
                game.id, rules.to_json(state), self.clock.now(), lobby=lobby,
                wake_at=self._wake_at(rules, state, lobby)))
            game.lobby = lobby
            game.state = state
            game.status = "active"
            game.seq = 0
        outcome = Outcome(game, -1, {"type": "start"}, events, snapshots)
        await self._after_commit(outcome)
        return outcome

    # --- play -------------------------------------------------------------------------------

    async def replay(self, game_id: int, lang: str = "en") -> Replay:
        """A game's replay as an animated GIF (``host.replay.replay_gif``, drawn off the event
        loop), a finished game's from the cache once drawn. Raises HostError as it does."""
        return await self.replays.get(self.store, game_id, lang)

    def _playing_seat(self, channel_id, user_id, game_id: int | None) -> tuple[LiveGame, int]:
        """The channel's running game (``game_id``'s, when given) and the person's seat in it;
        HostError ``no_game``, ``stale_game``, ``not_started``, ``not_a_player`` or
        ``seat_is_ai`` otherwise."""
        game = self._game(channel_id)
        if game_id is not None and game.id != game_id:
            raise HostError("stale_game")
        if game.status != "active":
            raise HostError("not_started")
        seat = game.seat_of(user_id)
        if seat is None:
            raise HostError("not_a_player")
        if game.seats[seat].get("ai"):
            raise HostError("seat_is_ai")
        return game, seat

    async def act(self, channel_id, user_id, action: dict, *, game_id: int | None = None,
                  expected_key: int | None = None, for_seat: int | None = None) -> Outcome:
        """Apply a player's action. Raises HostError or IllegalAction; nothing changes then.
        ``expected_key``: the position a button was drawn for (``LiveGame.key_for``);
        ``for_seat``: the seat a menu was drawn for (another player's press is refused
        ``not_your_turn``). Both are checked under the game's lock (:meth:`check_position`)."""
        game, seat = self._playing_seat(channel_id, user_id, game_id)
        return await self._commit(game, seat, action, expected_key=expected_key,
                                  for_seat=for_seat)

    @staticmethod
    def check_position(game: LiveGame, seat: int, expected_key: int | None,
                       for_seat: int | None = None) -> None:
        """The one check that a component drawn for a position (``expected_key``, what
        ``LiveGame.key_for`` gave then) and, for a menu, for a seat, may be used by ``seat``
        now: HostError ``stale_game`` for a position that is gone, IllegalAction
        ``not_your_turn`` for another seat's menu. A commit makes it under the game's lock;
        a press that only offers choices (the action comes from a later press) calls it
        directly."""
        if expected_key is not None and game.key_for(seat) != expected_key:
            raise HostError("stale_game")
        if for_seat is not None and for_seat != seat:
            raise IllegalAction("not_your_turn", player=seat, waiting=[for_seat])

    async def hint(self, channel_id, user_id, *, game_id: int | None = None
                   ) -> tuple[LiveGame, int, dict]:
        """A suggested move for the person's own seat while they are awaited (engine/hint.py:
        from their view only; the search in an AI worker, the strong level's choice when none
        is free). Counted in their seat (``hints``, stored with the lobby) and shown in the
        final table, so a rated game stays honest. HostError ``hint_not_awaited`` when they
        have nothing to decide now, ``stale_game`` when the game moved on meanwhile."""
        game, seat = self._playing_seat(channel_id, user_id, game_id)
        if seat not in game.awaiting():
            raise HostError("hint_not_awaited")
        seq = game.seq
        result = await self.ai.hint(game.rules, game.state, seat)
        async with game.lock:
            if game.seq != seq or game.status != "active" or seat not in game.awaiting():
                raise HostError("stale_game")
            lobby = _edited(game.lobby)
            lobby["seats"][seat]["hints"] = lobby["seats"][seat].get("hints", 0) + 1
            await self._write_lobby(game, lobby)
        return game, seat, result

    async def leave_game(self, channel_id, user_id) -> LiveGame:
        """A player leaves a running game: an AI takes over the seat."""
        game = self._game(channel_id)
        if game.status == "lobby":
            return await self.leave_lobby(channel_id, user_id)
        async with game.lock:
            seat = game.seat_of(user_id)
            if seat is None:
                raise HostError("not_a_player")
            lobby = _edited(game.lobby)
            lobby["seats"][seat]["ai"] = True
            lobby["seats"][seat].setdefault("level", self._ai_level(lobby))
            await self._write_lobby(game, lobby, wake=True)
        self._schedule(game)
        return game

    def view_for(self, game: LiveGame, user_id) -> dict:
        return game.rules.view(game.state, game.seat_of(user_id))

    async def _commit(self, game: LiveGame, seat: int, action: dict, *, by_ai: bool = False,
                      timed_out: bool = False, expected_seq: int | None = None,
                      expected_key: int | None = None, by_bot: bool = False,
                      for_seat: int | None = None) -> Outcome:
        """``expected_seq``: the bot's own steps act only on the exact position they were
        armed for; ``expected_key``: a person's button only on the position it was drawn
        for, as that person sees it (``LiveGame.key_for``), and ``for_seat``'s menu only
        for that seat (:meth:`check_position`)."""
        rules = game.rules
        async with game.lock:
            if game.dropped:
                raise HostError("changed_elsewhere")
            if game.status != "active":
                raise HostError("not_started")
            if expected_seq is not None and game.seq != expected_seq:
                raise HostError("stale_game")
            self.check_position(game, seat, expected_key, for_seat)
            snapshots: list[tuple[str, dict]] = []

            def observer(state, phase):
                snapshots.append((phase, rules.view(state, None)))

            _check_json(action)  # the engine checks the exact shape first thing (check_action)
            try:
                new_state, events = rules.apply_action(game.state, seat, action, observer)
            except IllegalAction:
                raise
            except Exception as exc:  # a fault in the rules: refuse, keep the state, log it
                log.exception("game %s: the rules failed on %r by seat %s", game.id, action, seat)
                raise HostError("rules_failed") from exc
            finished = rules.is_over(new_state)
            results = rating = None
            if finished:
                results = [{"user_id": game.seats[r["player"]]["id"], "seat": r["player"],
                            "name": r["name"], "rank": r["rank"], "score": r["score"],
                            "ai_level": _ai_level_of(game.seats[r["player"]], game.lobby,
                                                     self.ai_level)}
                           for r in rules.returns(new_state)]
                rating = match_of((r["user_id"], r["rank"], r["ai_level"])
                                  for r in sorted(results, key=lambda r: r["seat"]))
            lobby = dict(game.lobby)
            lobby["log"] = (game.lobby.get("log", []) + events)[-RECENT_EVENTS:]
            if not finished:
                self._set_deadline(lobby, game.seats, rules, new_state, game.seq + 1)
            by = (BY_TIMER if timed_out else BY_AI if by_ai else BY_AUTOPASS if by_bot
                  else BY_PERSON)
            lobby["undo"] = self._undo_record(game, seat, by, action, new_state, events,
                                              finished)
            if by != BY_PERSON or not _undo_streak(lobby, seat):
                lobby.pop("undo_streak", None)  # another seat (or the bot) moved: count anew
            actor = game.seats[seat]["id"]
            new_seq = await self._record(
                game, actor, action, rules.to_json(new_state),
                status="finished" if finished else "active",
                results=results, lobby=lobby, urgent=not (by_ai or timed_out or by_bot),
                wake_at=None if finished else self._wake_at(rules, new_state, lobby),
                rating=rating)
            # durable: make it current
            game.state = new_state
            game.seq = new_seq
            game.lobby = lobby
            if finished:
                game.status = "finished"
                self._cancel_timers(game)
                self.games.pop(game.channel_id, None)
        outcome = Outcome(game, seat, action, events, snapshots, by_ai, timed_out,
                          seq=new_seq, undoable=lobby["undo"]["ok"])
        await self._after_commit(outcome)
        return outcome

    async def _record(self, game: LiveGame, actor: str, action: dict, state_json: dict,
                      **kwargs) -> int:
        """Write one action and the state it led to (``Store.record_action``, at the game's
        position); the new position. Refusals as one sentence: ``changed_elsewhere`` (another
        process wrote the game first: this one lets go of its copy, see ``_drop``) or
        ``storage_failed``."""
        try:
            new_seq = await self.store.record_action(
                game.id, game.seq, actor, action, state_json, self.clock.now(), **kwargs)
        except StaleWrite as exc:
            self._drop(game, exc)
            raise HostError("changed_elsewhere") from None
        except StoreError as exc:
            log.error("game %s: action not saved: %s", game.id, exc)
            game.save_failures += 1
            if game.save_failures == 1:  # the table is told once per failing stretch
                self._spawn(self._tell_saving_failed(game))
            raise HostError("storage_failed") from exc
        game.save_failures = 0
        return new_seq

    # --- undo -------------------------------------------------------------------------------

    def _undo_record(self, game: LiveGame, seat: int, by: str, action: dict, new_state,
                     events: list[dict], finished: bool) -> dict:
        """What the lobby keeps of the action being committed (``lobby["undo"]``, written with
        it): its position ``seq``, ``seat``, who made it (``by``: BY_PERSON, BY_AI, BY_TIMER,
        BY_AUTOPASS), ``ok`` (a person's move that the engine says revealed nothing), the
        turn deadline before it (an undo restores it: taking a move back gives no extra
        time) and ``acted``: per seat, the position of their own last move (0: none)."""
        old = _undo_entry(game.lobby, len(game.seats))
        acted = list(old["acted"]) if old is not None else [0] * len(game.seats)
        ok = False
        if by == BY_PERSON:
            acted[seat] = game.seq + 1
            if not finished:
                try:
                    ok = engine_undoable(game.rules, game.state, seat, action, new_state, events)
                except Exception:  # a fault in the rules' check: the move stays
                    log.exception("game %s: undoable failed on %r by seat %s", game.id,
                                  action, seat)
        record = {"seq": game.seq + 1, "seat": seat, "by": by, "ok": ok, "acted": acted}
        if ok:
            record["deadline"] = game.lobby.get("deadline")
        return record

    def undo_refusal(self, game: LiveGame, seat: int) -> str | None:
        """Why ``seat`` may not take back the last move now (one of UNDO_REASONS, each a
        sentence ``bot.undo.refused.<reason>``), or None when they may: ``nothing`` (no
        move, the game not running, or the last entry is already an undo), ``not_yours``
        (the last move is another player's, and this seat has not moved yet),
        ``acted_since`` (another player moved after this seat's last move), ``automatic``
        (the last move was this seat's but made by the bot: AI, turn timer, auto-pass),
        ``revealed`` (the engine's ``undoable`` said no: a die, a draw, a reveal...),
        ``limit`` (this seat took back UNDO_LIMIT moves in a row already: play on).
        Synchronous and cheap: no store read."""
        if game.status != "active" or not 0 <= seat < len(game.seats):
            return "nothing"
        record = _undo_entry(game.lobby, len(game.seats))
        if record is None or record["seq"] != game.seq or record["by"] == BY_UNDO:
            return "nothing"
        if record["seat"] != seat:
            return "acted_since" if record["acted"][seat] else "not_yours"
        if record["by"] != BY_PERSON:
            return "automatic"
        if not record["ok"]:
            return "revealed"
        if _undo_streak(game.lobby, seat) >= UNDO_LIMIT:
            return "limit"
        return None

    def can_undo(self, game: LiveGame, seat: int | None) -> bool:
        """May the person at ``seat`` take back their last move now (``undo`` would not
        refuse, barring a store failure or a log that no longer replays)? True when the
        game is running, its last logged action is that seat's own, made by that person
        (not an AI seat, a turn timer or an auto-pass), nothing came after it, and the
        engine said it revealed nothing (``GameRules.undoable``). Synchronous and cheap:
        the cog may ask it after every action to offer a private Undo button."""
        return (seat is not None and 0 <= seat < len(game.seats)
                and not game.seats[seat].get("ai") and self.undo_refusal(game, seat) is None)

    async def undo(self, channel_id, user_id, *, game_id: int | None = None,
                   expected_seq: int | None = None) -> Outcome:
        """Take back ``user_id``'s last move in the channel's game and return the Outcome
        (``action`` ``{"type": "undo"}``, ``events`` ``[{"type": "undo", "player": seat}]``,
        no snapshots; the listener gets it like any move, so the table says "X took back
        their last move" and redraws the restored position's buttons). The event has
        ``"secret": True`` when the move was a secret one inside a simultaneous step (the
        public step did not change): the table then prints nothing, as for the move.

        The previous state is rebuilt by replaying the seed and the action log (earlier
        undos included) without that move; it must lead, with the move, to the current
        state exactly, and the engine must still call the move undoable. The undo is then
        committed like an action (``{"type": "undo"}`` by that player, with the restored
        state, in one transaction), so replays and restarts see it; the turn deadline is
        the one the move was made under. ``game_id``/``expected_seq``: the game and the
        position (``Outcome.seq`` of the move) an Undo button was drawn for.

        Raises HostError: ``no_game``, ``stale_game`` (another game), ``not_started``,
        ``not_a_player``, ``seat_is_ai``, ``cannot_undo`` with ``reason`` (one of
        UNDO_REASONS; see :meth:`undo_refusal`; ``stale``: the button was for an earlier
        move of theirs; ``mismatch``: the log does not replay to the current state, logged),
        ``changed_elsewhere``, ``storage_failed``. Nothing changes then. The reader's sentence for
        ``cannot_undo`` is ``bot.undo.refused.<reason>`` (``bot.error.cannot_undo`` is the
        generic one)."""
        game, seat = self._playing_seat(channel_id, user_id, game_id)
        rules = game.rules
        async with game.lock:
            if game.dropped:
                raise HostError("changed_elsewhere")
            if game.status != "active":
                raise HostError("not_started")
            reason = self.undo_refusal(game, seat)
            if reason is None and expected_seq is not None and expected_seq != game.seq:
                reason = "stale"
            if reason is not None:
                raise HostError("cannot_undo", reason=reason, limit=UNDO_LIMIT)
            record = game.lobby["undo"]
            before = await self._state_before_last(game, seat)
            public = step_key(rules, before, 0) != step_key(rules, game.state, 0)
            event = {"type": "undo", "player": seat}
            if getattr(rules, "step_key", None) is not None and not public:
                event["secret"] = True  # a secret move: the table says nothing of it
            lobby = dict(game.lobby)
            lobby["log"] = (game.lobby.get("log", []) + [event])[-RECENT_EVENTS:]
            undos = _undo_counts(lobby, len(game.seats))
            if public:
                undos = [u + 1 for u in undos]  # a public move: every seat's key went back
            else:
                undos[seat] += 1  # a secret move: only this seat's key went back
            lobby["undos"] = undos
            self._restore_deadline(lobby, rules, before, game.seq + 1, record.get("deadline"))
            lobby["undo"] = {"seq": game.seq + 1, "seat": seat, "by": BY_UNDO, "ok": False,
                             "acted": record["acted"]}
            lobby["undo_streak"] = [seat, _undo_streak(game.lobby, seat) + 1]
            new_seq = await self._record(game, game.seats[seat]["id"], dict(UNDO_ACTION),
                                         rules.to_json(before), status="active", lobby=lobby,
                                         urgent=True,
                                         wake_at=self._wake_at(rules, before, lobby))
            game.state = before
            game.seq = new_seq
            game.lobby = lobby
        outcome = Outcome(game, seat, dict(UNDO_ACTION), [event], [], seq=new_seq)
        await self._after_commit(outcome)
        return outcome

    async def _state_before_last(self, game: LiveGame, seat: int):
        """The state before the last logged action (``seat``'s), rebuilt from the seed and
        the log, checked: with that action it gives the current state exactly, and the
        engine calls the action undoable. HostError ``cannot_undo`` (``mismatch``, logged)
        otherwise, ``storage_failed`` when the log cannot be read."""
        try:
            rows = await self.store.actions(game.id)
        except StoreError as exc:
            log.error("game %s: the action log could not be read: %s", game.id, exc)
            raise HostError("storage_failed") from exc
        rules = game.rules
        seats = [Seat(s["id"], s["name"]) for s in game.seats]
        try:
            if [r.seq for r in rows] != list(range(1, game.seq + 1)):
                raise ReplayError(f"the log does not run from 1 to the game's position "
                                  f"{game.seq}")
            entries = seat_actions(rows, seats)
            last_seat, last = entries[-1]
            if last_seat != seat or last == UNDO_ACTION:
                raise ReplayError("the last entry is not that player's move")
            before = await asyncio.to_thread(replay_state, rules, seats, game.lobby["seed"],
                                             game.options, entries[:-1])
            after, events = rules.apply_action(before, seat, last)
            if rules.to_json(after) != rules.to_json(game.state):
                raise ReplayError("the replayed log does not lead to the game's state")
            if not engine_undoable(rules, before, seat, last, after, events):
                raise ReplayError("the engine does not call the move undoable")
        except (ReplayError, IllegalAction, KeyError, IndexError, TypeError, ValueError) as exc:
            log.error("game %s: seat %s's move cannot be taken back: %s", game.id, seat, exc)
            raise HostError("cannot_undo", reason="mismatch") from exc
        return before

    def _restore_deadline(self, lobby: dict, rules, state, seq: int, old) -> None:
        """After an undo: the turn deadline the move was made under (none if the timer is
        off or an AI is awaited); a fresh one only when none was kept."""
        lobby.pop("deadline", None)
        awaiting = rules.to_act(state)
        seats = lobby["seats"]
        if (float(lobby.get("timer") or 0) > 0 and isinstance(old, dict)
                and isinstance(old.get("at"), (int, float)) and awaiting
                and not any(seats[p].get("ai") for p in awaiting)):
            lobby["deadline"] = {"seq": step_key(rules, state, seq), "at": float(old["at"])}
        else:
            self._set_deadline(lobby, seats, rules, state, seq)

    def _drop(self, game: LiveGame, exc: StaleWrite) -> None:
        """The store refused a commit because the game is no longer at this copy's position:
        another process drove it (two processes given the same shard, or a game of another
        shard's server used here). Nothing was written and the stored game stays the truth.
        This process lets go of its copy and of its timers: it no longer drives the game
        by itself, and the next use of the channel (``ensure_loaded``) reads the stored
        game again. A commit already waiting on this copy's lock is refused the same way."""
        self._cancel_timers(game)
        if self.games.get(game.channel_id) is game:
            del self.games[game.channel_id]
        if not game.dropped:
            game.dropped = True
            log.warning("game %s in channel %s was changed by another process (this copy at "
                        "position %s; stored: %s at %s): the copy in memory is dropped and "
                        "its timers cancelled; the channel's next use reads it again",
                        game.id, game.channel_id, exc.expected_seq, exc.status, exc.seq)

    async def _stored(self, write):
        """Await a store write; a failure of the database reaches the player as one sentence
        (``storage_failed``) and its details go to the log. Nothing in memory changed yet."""
        try:
            return await write
        except (StaleWrite, ChannelBusy):
            raise
        except StoreError as exc:
            log.error("store write failed: %s", exc)
            raise HostError("storage_failed") from exc

    async def _write_lobby(self, game: LiveGame, lobby: dict, wake: bool = False) -> None:
        """Store an edited copy of the lobby, then make it the game's: a refused write leaves
        the lobby in memory equal to the stored one. ``wake``: seats changed during play,
        so when the game next needs the bot is stored again too."""
        kwargs = {}
        if wake:
            kwargs["wake_at"] = self._wake_at(game.rules, game.state, lobby)
        await self._stored(self.store.update_lobby(game.id, lobby, self.clock.now(), **kwargs))
        game.lobby = lobby
        self._changed(game.id)

    def _changed(self, game_id: int) -> None:
        for notify in self.on_change:
            try:
                notify(game_id)
            except Exception:
                log.exception("on_change failed for game %s", game_id)

    async def _after_commit(self, outcome: Outcome) -> None:
        self._changed(outcome.game.id)
        try:
            await self.listener.on_outcome(outcome)
        except Exception:  # the table message failing must not undo or block the game
            log.exception("listener failed for game %s", outcome.game.id)
        if outcome.game.status == "active":
            self._schedule(outcome.game)

    # --- AI seats and timers ----------------------------------------------------------------

    def _ai_delay(self, lobby: dict) -> float:
        """The seconds an AI seat of this game waits (its server's setting, else the bot's)."""
        return float(lobby.get("ai_delay", self.ai_delay))

    def _ai_level(self, lobby: dict) -> str:
        return lobby.get("ai_level", self.ai_level)

    def _cancel_timers(self, game: LiveGame) -> None:
        for handle in game.timers:
            handle.cancel()
        game.timers.clear()

    def _set_deadline(self, lobby: dict, seats: list[dict], rules, state, seq: int) -> None:
        """Store in ``lobby`` (written with the action) when the turn timer of the step of
        ``state`` (position ``seq``) runs out, so that a restart keeps the absolute deadline.
        A secret move inside a simultaneous step keeps the step's deadline."""
        timer = float(lobby.get("timer") or 0)
        awaiting = [] if rules.is_over(state) else rules.to_act(state)
        if timer > 0 and awaiting and not any(seats[p].get("ai") for p in awaiting):
            step = step_key(rules, state, seq)
            old = lobby.get("deadline")
            if not (isinstance(old, dict) and old.get("seq") == step):
                lobby["deadline"] = {"seq": step, "at": self.clock.now() + timer}
        else:
            lobby.pop("deadline", None)

    def _schedule(self, game: LiveGame) -> None:
        """Arm the AI move, the auto-passes and the turn timer for whoever is awaited now.

        Every delay here depends only on public facts (who is awaited, seat settings, the
        clock), never on anyone's hidden cards, except that the "playable" auto-pass acts only
        when the seat's own hand has nothing to play (the player's own choice)."""
        if self._closed or game.dropped:
            return
        self._cancel_timers(game)
        awaiting = game.awaiting()
        if not awaiting:
            return
        seq = game.seq
        ai_seats = [p for p in awaiting if game.seats[p].get("ai")]
        window = all(self._in_card_window(game, p) for p in awaiting)
        if ai_seats and not window:
            game.timers.append(self.clock.call_later(
                self._ai_delay(game.lobby),
                lambda: self._spawn(self._ai_step(game, ai_seats[0], seq, False))))
            return
        # a card window asks its players at once: the bot answers for each (AI seats, the
        # auto-passes) at one moment per round, set when the round opened, whatever anyone
        # holds and whoever answered meanwhile (a seat that takes its answer back gets the
        # delay afresh)
        now = self.clock.now()
        due = self._round_due(game, awaiting)
        for seat in awaiting:
            ai = bool(game.seats[seat].get("ai"))
            if not ai and not self._auto_passes(game, seat):
                continue
            at = due.setdefault(seat, now + (self._ai_delay(game.lobby) if ai
                                             else self.window_delay))
            game.timers.append(self.clock.call_later(
                max(0.0, at - now),
                lambda p=seat, ai=ai: self._spawn(self._ai_step(game, p, seq, False) if ai
                                                  else self._auto_pass(game, p, seq))))
        if ai_seats:
            return  # no turn timer while AI seats are awaited
        timer = float(game.lobby.get("timer") or 0)
        if timer > 0:
            at = game.deadline
            delay = timer if at is None else max(0.0, at - self.clock.now())
            game.timers.append(self.clock.call_later(
                delay, lambda: self._spawn(self._timeout(game, seq))))

    def _auto_passes(self, game: LiveGame, seat: int) -> bool:
        return _passes_for(game.rules, game.state, game.seats, seat)

    @staticmethod
    def _in_card_window(game: LiveGame, seat: int) -> bool:
        card_window = getattr(game.rules, "card_window", None)
        return card_window is not None and card_window(game.state, seat)

    @staticmethod
    def _round_due(game: LiveGame, awaiting: list[int]) -> dict[int, float]:
        """When the bot answers for each seat in this public step (``LiveGame.due``): kept
        while the step lasts (a secret answer does not move it), forgotten for a seat that
        is no longer awaited."""
        if game.due.get("step") != game.step:
            game.due = {"step": game.step, "at": {}}
        at = game.due["at"]
        for seat in [p for p in at if p not in awaiting]:
            del at[seat]
        return at

    def _wake_at(self, rules, state, lobby: dict) -> float | None:
        """When this position needs the bot by itself (stored with it, so that a restart loads
        the game in time): an AI seat's move, an auto-pass, or the turn timer; None when it
        waits for people only."""
        if rules.is_over(state):
            return None
        awaiting = rules.to_act(state)
        seats = lobby["seats"]
        now = self.clock.now()
        if any(seats[p].get("ai") for p in awaiting):
            return now + self._ai_delay(lobby)
        if any(_passes_for(rules, state, seats, p) for p in awaiting):
            return now + self.window_delay
        deadline = lobby.get("deadline")
        return float(deadline["at"]) if isinstance(deadline, dict) else None

    async def _auto_pass(self, game: LiveGame, seat: int, seq: int) -> None:
        """Pass for a human in a card window, as they asked; worded like their own pass."""
        if game.status != "active" or game.seq != seq or not self._auto_passes(game, seat):
            return
        try:
            await self._commit(game, seat, {"type": "pass"}, expected_seq=seq, by_bot=True)
        except HostError as exc:
            if exc.code == "storage_failed":
                self._retry_later(game)
        except IllegalAction:
            return  # they (or a timer) acted first: that action scheduled the new position

    def _retry_later(self, game: LiveGame) -> None:
        """A step the bot takes by itself (AI seat, auto-pass, expired timer) was not saved:
        arm everything again after a back-off (1 s, 2 s, 4 s... up to a minute)."""
        delay = min(RETRY_MAX_DELAY, RETRY_FIRST_DELAY * 2 ** (game.save_failures - 1))
        self._cancel_timers(game)
        game.timers.append(self.clock.call_later(delay, lambda: self._schedule(game)))

    async def _tell_saving_failed(self, game: LiveGame) -> None:
        notify = getattr(self.listener, "on_saving_failed", None)
        if notify is None:
            return
        try:
            await notify(game)
        except Exception:
            log.exception("could not tell game %s that saving fails", game.id)

    async def set_autopass(self, channel_id, user_id, mode: str) -> LiveGame:
        """A player's auto-pass setting for card windows in this game."""
        if mode not in AUTOPASS_MODES:
            raise HostError("bad_autopass", modes=", ".join(AUTOPASS_MODES))
        game = self._game(channel_id)
        async with game.lock:
            seat = game.seat_of(user_id)
            if seat is None:
                raise HostError("not_a_player")
            lobby = _edited(game.lobby)
            lobby["seats"][seat]["autopass"] = mode
            await self._write_lobby(game, lobby, wake=game.status == "active")
        if game.status == "active":
            self._schedule(game)
        return game

    def _spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _ai_step(self, game: LiveGame, seat: int, seq: int, timed_out: bool) -> None:
        if game.dropped or game.status != "active" or game.seq != seq or seat not in game.awaiting():
            return
        level = game.seats[seat].get("level", self._ai_level(game.lobby))
        state = game.state
        try:
            action = await self.ai.decide(game.rules, state, seat, level)
            await self._commit(game, seat, action, by_ai=not timed_out, timed_out=timed_out,
                               expected_seq=seq)
        except HostError as exc:
            if exc.code == "storage_failed":
                self._retry_later(game)
            elif exc.code == "rules_failed":  # the rules raised on the AI's move (logged)
                self._ai_failed(game, seat, seq, exc)
            return  # else someone acted first: the new state was scheduled by that action
        except Exception as exc:  # the AI raised, or chose an illegal move: never lost
            self._ai_failed(game, seat, seq, exc)
            return
        game.ai_failures = 0

    def _ai_failed(self, game: LiveGame, seat: int, seq: int, exc: Exception) -> None:
        """An AI seat's move raised: logged with the game and the traceback, tried again
        after a back-off (1 s, 2 s, 4 s... up to a minute, as a refused write), and the table
        told once when it keeps failing (AI_FAILURES_TOLD in a row)."""
        game.ai_failures += 1
        self.ai_step_failures[game.kind] = self.ai_step_failures.get(game.kind, 0) + 1
        delay = min(RETRY_MAX_DELAY, RETRY_FIRST_DELAY * 2 ** (game.ai_failures - 1))
        log.error("game %s (%s) in channel %s: the AI of seat %s failed at position %s "
                  "(%d in a row; trying again in %g s)", game.id, game.kind, game.channel_id,
                  seat, seq, game.ai_failures, delay, exc_info=exc)
        if game.ai_failures == AI_FAILURES_TOLD:
            self._spawn(self._tell_ai_failing(game, seat))
        if self._closed or game.dropped:
            return
        self._cancel_timers(game)
        game.timers.append(self.clock.call_later(delay, lambda: self._schedule(game)))

    async def _tell_ai_failing(self, game: LiveGame, seat: int) -> None:
        notify = getattr(self.listener, "on_ai_failing", None)
        if notify is None:
            return
        try:
            await notify(game, seat)
        except Exception:
            log.exception("could not tell game %s that its AI seat fails", game.id)

    async def _timeout(self, game: LiveGame, seq: int) -> None:
        if game.status != "active" or game.seq != seq:
            return
        for seat in game.awaiting():
            if game.seq != seq or game.dropped:
                return
            await self._ai_step(game, seat, seq, True)
            seq = game.seq
