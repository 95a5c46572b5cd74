"""What the store remembers of finished games, as the community commands show it: a
player's stats and ratings (/darwin stats), a server's leaderboard (/darwin leaderboard), a
channel's last games (/darwin history, the replay autocomplete) and what a game changed in
the ratings (the end-of-game table message).

No discord here. Every read goes to the store; a failing database reaches the player as one
sentence (HostError ``storage_failed``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from host.errors import HostError
from host.ratings import Change, is_ai, ordinal
from store import StoreError

log = logging.getLogger("darwin.records")

RECENT = 10  # the rating change shown is over this many rated games
BOARD_SIZE = 10
BOARD_MIN_GAMES = 3  # rated games a player needs to appear on the leaderboard
HISTORY = 10


@dataclass(frozen=True)
class GameStats:
    """A player's record in one game on one server."""

    kind: str
    games: int  # games they finished there
    wins: int  # of those, ranked first (ties included)
    average_rank: float | None
    best_score: int | None
    rating: float | None  # the conservative ordinal; None before their first rated game
    rated_games: int
    change: float | None  # the ordinal's change over their last RECENT rated games
    change_games: int  # how many rated games that change covers (<= RECENT)


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    player_id: str
    name: str | None  # the name of their latest result there (None for an AI level)
    rating: float
    games: int

    @property
    def ai(self) -> bool:
        return is_ai(self.player_id)

    @property
    def level(self) -> str | None:
        return self.player_id.split(":", 1)[1] if self.ai else None


@dataclass(frozen=True)
class PastGame:
    """One finished game of a channel."""

    id: int
    kind: str
    finished_at: float
    players: list[str]  # names, in seat order
    winners: list[str]  # names of those ranked first


async def _read(coro):
    try:
        return await coro
    except StoreError as exc:
        log.error("could not read the records: %s", exc)
        raise HostError("storage_failed") from exc


async def player_stats(store, guild_id, user_id, kind: str | None = None) -> list[GameStats]:
    """A person's stats on a server, one entry per game they finished or were rated in (only
    ``kind`` if given), most played first."""
    results = await _read(store.player_results(guild_id, user_id, kind))
    ratings = {r.kind: r for r in await _read(store.player_ratings(guild_id, user_id))}
    kinds = list(dict.fromkeys([r.kind for r in results] + list(ratings)))
    if kind is not None:
        kinds = [k for k in kinds if k == kind]
    out = []
    for k in kinds:
        mine = [r for r in results if r.kind == k]
        scores = [r.score for r in mine if r.score is not None]
        rating = ratings.get(k)
        change = None
        recent = []
        if rating is not None:
            recent = await _read(store.rating_history(guild_id, k, user_id, RECENT))
            if recent:
                change = (ordinal(recent[0].mu_after, recent[0].sigma_after)
                          - ordinal(recent[-1].mu_before, recent[-1].sigma_before))
        out.append(GameStats(
            kind=k, games=len(mine), wins=sum(1 for r in mine if r.rank == 1),
            average_rank=sum(r.rank for r in mine) / len(mine) if mine else None,
            best_score=max(scores) if scores else None,
            rating=ordinal(rating.mu, rating.sigma) if rating is not None else None,
            rated_games=rating.games if rating is not None else 0,
            change=change, change_games=len(recent)))
    out.sort(key=lambda s: (-s.games, -s.rated_games, s.kind))
    return out


async def leaderboard(store, guild_id, kind: str) -> list[Standing]:
    """A server's top players of one game (at least BOARD_MIN_GAMES rated games), best
    first."""
    rows = await _read(store.leaderboard(guild_id, kind, min_games=BOARD_MIN_GAMES,
                                         limit=BOARD_SIZE))
    return [Standing(r.player_id, None if is_ai(r.player_id) else r.name,
                     ordinal(r.mu, r.sigma), r.games) for r in rows]


async def channel_history(store, channel_id, limit: int = HISTORY) -> list[PastGame]:
    """A channel's last finished games, newest first."""
    out = []
    for row in await _read(store.channel_games(channel_id, limit)):
        results = await _read(store.game_results(row.id))
        by_seat = sorted(results, key=lambda r: r.seat)
        names = [r.name or "?" for r in by_seat]
        winners = [r.name or "?" for r in by_seat if r.rank == 1]
        finished = results[0].finished_at if results else row.updated_at
        out.append(PastGame(row.id, row.kind, finished, names, winners))
    return out


async def rating_changes(store, game_id: int) -> dict[str, Change]:
    """What a finished game changed in its server's ratings, by rated player ({} when it
    was not rated)."""
    rows = await _read(store.rating_changes(game_id))
    return {r.player_id: Change(r.player_id, r.rank, r.mu_before, r.sigma_before, r.mu_after,
                                r.sigma_after) for r in rows}
