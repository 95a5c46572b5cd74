"""Replays: a game rebuilt from its stored seed and action log by running the engine again.

Pure part (no discord, no store, no Pillow): :func:`replay_states` replays a log (undo
entries included) and gives the final state and the public view at every phase end;
:func:`replay_state` does the same without views (the host's Undo uses it). Async entry for
the Discord layer: :func:`replay_gif` reads one game's rows from the store and, in a worker
thread, replays it, checks that the replay reproduces the stored state exactly and draws the
animated GIF (``images/replay.py``); :func:`build_replay` is that worker's body (the
command line ``python bot.py replay`` and the bench call it directly).

The log is a list of ``(seat, action)`` in order, as the ``actions`` table keeps them (an
actor id per row: :func:`seat_actions` maps them to seats). An undo entry (``{"type":
"undo"}``, written by ``GameHost.undo``) is never seen by the engine: it drops the previous
effective action, which must be the same player's.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from engine import Seat, get_game
from host.errors import HostError

UNDO = {"type": "undo"}


class ReplayError(Exception):
    """A log that does not replay: an undo with nothing of its player's before it, an actor
    who is not seated, an action the rules refuse or fail on. ``index``: the log entry at
    fault (0-based; None when it is not one entry); ``state`` and ``snapshots``: how far the
    replay went (the state before that entry, and the phase-end views until then)."""

    def __init__(self, message: str, index: int | None = None, state: Any = None,
                 snapshots: Sequence[tuple[str, dict]] = ()) -> None:
        super().__init__(message)
        self.index = index
        self.state = state
        self.snapshots = list(snapshots)


def is_undo(action: Any) -> bool:
    """An undo entry of the log (never a game action: no game has an action type "undo")."""
    return isinstance(action, dict) and action == UNDO


def effective_actions(actions: Sequence[tuple[int, dict]]) -> list[tuple[int, dict]]:
    """The log with every undo entry applied: each drops the previous effective action (it
    must be the undoing player's). Raises :class:`ReplayError`."""
    return [(seat, action) for _, seat, action in _effective(actions)]


def _effective(actions: Sequence[tuple[int, dict]]) -> list[tuple[int, int, dict]]:
    kept: list[tuple[int, int, dict]] = []  # (log index, seat, action)
    for i, (seat, action) in enumerate(actions):
        if is_undo(action):
            if not kept:
                raise ReplayError(f"log entry {i + 1} undoes nothing", i)
            if kept[-1][1] != seat:
                raise ReplayError(f"log entry {i + 1} undoes another player's move", i)
            kept.pop()
        else:
            kept.append((i, seat, action))
    return kept


def seat_actions(rows: Iterable[Any], seats: Sequence[Seat]) -> list[tuple[int, dict]]:
    """Store rows (``ActionRow``: ``actor`` id and ``action``) as ``(seat, action)``; an actor
    who is not one of ``seats`` raises :class:`ReplayError`."""
    index = {seat.id: i for i, seat in enumerate(seats)}
    out = []
    for i, row in enumerate(rows):
        seat = index.get(row.actor)
        if seat is None:
            raise ReplayError(f"log entry {i + 1} was made by {row.actor!r}, who is not seated", i)
        out.append((seat, row.action))
    return out


def replay_state(rules, seats: Sequence[Seat], seed: int, options: dict | None,
                 actions: Sequence[tuple[int, dict]]) -> Any:
    """The state that ``seed``, ``options`` and the log ``actions`` (undo entries included)
    lead to, fast (in place, no views). Raises :class:`ReplayError`."""
    kept = _effective(actions)
    state = rules.new_game(list(seats), seed, dict(options or {}))
    for i, seat, action in kept:
        try:
            rules.apply_in_place(state, seat, action)
        except Exception as exc:  # noqa: BLE001 - a refused or failing entry ends the replay
            raise ReplayError(_refused(i, exc), i) from exc
    return state


def replay_states(rules, seats: Sequence[Seat], seed: int, options: dict | None,
                  actions: Sequence[tuple[int, dict]]) -> tuple[Any, list[tuple[str, dict]]]:
    """Replay a game: ``(final_state, snapshots)`` where ``snapshots`` holds ``(phase,
    public view)`` at every phase end, as the table's images show them (the engine's
    observer: the opening ones of ``new_game_with_events`` first). Undo entries are applied
    first, so an undone move leaves no snapshot. Raises :class:`ReplayError` (with the state
    and snapshots reached so far) when the log does not replay."""
    snapshots: list[tuple[str, dict]] = []

    def observer(state, phase: str) -> None:
        snapshots.append((phase, rules.view(state, None)))

    kept = _effective(actions)
    try:
        state, _ = rules.new_game_with_events(list(seats), seed, dict(options or {}), observer)
    except Exception as exc:  # noqa: BLE001 - seats or options the game refuses
        raise ReplayError(f"the game cannot be set up again ({type(exc).__name__}: {exc})") \
            from exc
    for i, seat, action in kept:
        try:
            state, _ = rules.apply_action(state, seat, action, observer)
        except Exception as exc:  # noqa: BLE001 - a refused or failing entry ends the replay
            raise ReplayError(_refused(i, exc), i, state, snapshots) from exc
    return state, snapshots


def _refused(index: int, exc: Exception) -> str:
    return f"log entry {index + 1} does not replay ({type(exc).__name__}: {exc})"


# --- the GIF --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A game's replay as an animated GIF (:func:`replay_gif`).

    ``gif``: the bytes (at most ``max_bytes``, 8 MB by default); ``size``: their length;
    ``frames``: frames in it (``phases`` phase images were made; fewer frames when some
    were dropped to stay under the bound); ``width``/``height``: pixels (smaller than the
    table's images when scaled down); ``exact``: the replay reproduced the stored state
    exactly; ``error``: why not (None when exact); ``kind``, ``game_id``, ``status`` (the
    game's: "active" for a live game, "finished"...), ``actions``: log entries replayed."""

    game_id: int
    kind: str
    gif: bytes
    frames: int
    phases: int
    exact: bool
    size: int
    width: int
    height: int
    status: str
    actions: int
    error: str | None = None


def build_replay(game_id: int, kind: str, seats: Sequence[Seat], seed: int,
                 options: dict | None, rows: Sequence[Any], stored_state: dict | None,
                 status: str = "finished", lang: str = "en",
                 max_bytes: int | None = None) -> Replay:
    """Replay a game and draw its GIF (CPU work: call it off the event loop). ``rows``: the
    store's action rows (``seq``, ``actor``, ``action``) up to the stored state's position;
    ``stored_state``: the stored state's JSON, which the replay must reproduce exactly (a
    difference, a gap in the log or an entry that does not replay makes ``exact`` False and
    says why in ``error``; the GIF then shows how far the replay went)."""
    from images.replay import MAX_GIF_BYTES, replay_gif_bytes

    rules = get_game(kind)
    errors = []
    rows = list(rows)
    if [r.seq for r in rows] != list(range(1, len(rows) + 1)):
        errors.append("the action log has gaps")
    try:
        actions = seat_actions(rows, seats)
    except ReplayError as exc:
        errors.append(str(exc))
        actions = seat_actions(rows[:exc.index], seats)
    state, snapshots = _replay_as_far_as_possible(rules, seats, seed, options, actions, errors)
    if state is None:  # not even the setup
        raise ReplayError(errors[-1])
    if not errors:
        if stored_state is None:
            errors.append("no stored state to compare with")
        elif _normal(rules.to_json(state)) != stored_state:
            errors.append("the replay's final state differs from the stored one")
    error = "; ".join(errors) or None
    frames = list(snapshots)
    last = rules.view(state, None)
    if not frames or frames[-1][1] != last:  # where the game stands now (a live game)
        frames.append(("over" if rules.is_over(state) else "now", last))
    drawn = replay_gif_bytes(kind, frames, lang,
                             MAX_GIF_BYTES if max_bytes is None else max_bytes)
    return Replay(game_id, kind, drawn.gif, drawn.frames, len(frames), error is None,
                  len(drawn.gif), drawn.width, drawn.height, status, len(rows), error)


def _replay_as_far_as_possible(rules, seats, seed, options, actions,
                               errors: list[str]) -> tuple[Any, list[tuple[str, dict]]]:
    """``replay_states``, or as far as the log replays (the reason added to ``errors``)."""
    try:
        return replay_states(rules, seats, seed, options, actions)
    except ReplayError as exc:
        errors.append(str(exc))
        if exc.state is None and exc.index is not None:  # a bad undo: replay what precedes it
            ignored: list[str] = []
            return _replay_as_far_as_possible(rules, seats, seed, options,
                                              actions[:exc.index], ignored)
        return exc.state, exc.snapshots


def _normal(data: dict) -> dict:
    """A state's JSON as the store gives it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(data))


async def replay_gif(store, game_id: int, lang: str = "en", *,
                     max_bytes: int | None = None) -> Replay:
    """The replay of game ``game_id`` as an animated GIF (see :class:`Replay`), for a
    finished or a live game: its rows are read from ``store``, the replay, the check against
    the stored state and the drawing run in a worker thread (``asyncio.to_thread``), so the
    event loop keeps serving the other tables. ``lang``: the captions' and images' language.

    Raises ``HostError``: ``replay_no_game`` (no game with that id; param ``game``),
    ``replay_not_started`` (a lobby, or a game cancelled before it started; param
    ``game``), ``replay_unreadable`` (its stored rows cannot be read; param ``game``),
    ``storage_failed`` (the store cannot be read). A log that does not replay exactly is not
    an error: the Replay says so (``exact`` False, ``error``)."""
    from store import CorruptRow, StoreError

    try:
        row = await store.get_game(game_id)
        if row is None:
            raise HostError("replay_no_game", game=game_id)
        options, lobby, stored_state = row.decoded()
        seed = lobby.get("seed") if isinstance(lobby, dict) else None
        if row.status == "lobby" or type(seed) is not int:
            raise HostError("replay_not_started", game=game_id)
        seats = [Seat(s["id"], s["name"]) for s in lobby["seats"]]
        rows = [r for r in await store.actions(game_id) if r.seq <= row.seq]
    except (CorruptRow, KeyError, TypeError) as exc:
        raise HostError("replay_unreadable", game=game_id) from exc
    except StoreError as exc:
        raise HostError("storage_failed") from exc
    try:
        return await asyncio.to_thread(build_replay, game_id, row.kind, seats, seed,
                                       options or {}, rows, stored_state, row.status, lang,
                                       max_bytes)
    except (ReplayError, KeyError) as exc:  # not even the setup replays, or an unknown kind
        raise HostError("replay_unreadable", game=game_id) from exc


class ReplayCache:
    """The last few finished games' replays, by game and language. A finished game never
    changes, so another press of its Replay button (the history's, the final table's, a
    /darwin replay) is served without replaying and drawing it again; a live game's replay
    is always made anew."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._replays: OrderedDict[tuple[int, str], Replay] = OrderedDict()

    async def get(self, store, game_id: int, lang: str = "en") -> Replay:
        """:func:`replay_gif`, from the cache when it holds that finished game."""
        key = (game_id, lang)
        if key in self._replays:
            self._replays.move_to_end(key)
            return self._replays[key]
        replay = await replay_gif(store, game_id, lang)
        if replay.status == "finished":
            self._replays[key] = replay
            while len(self._replays) > self.size:
                self._replays.popitem(last=False)
        return replay
