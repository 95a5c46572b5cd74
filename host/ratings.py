"""Ratings: openskill's Plackett-Luce model, one rating per (server, game, player).

Pure (no discord, no store, no I/O): :func:`match_of` turns a finished game's results into the
:class:`Match` that is rated, or None when the game is not rated; :meth:`Match.rate` gives
every rated player's rating before and after it. The store applies it in the transaction
that finishes the game and again, game after game in the order they finished, when the
ratings are rebuilt (``python bot.py ratings --rebuild``): the same results always give the
same numbers.

Who is rated, and as whom:

* a player who finished the game: as themselves (their Discord id);
* an AI seat: as one player per level, ``ai:strong``, ``ai:fast``... (so "AI strong" has a
  rating people can measure themselves against). Two AI seats of one level in a game are
  rated as separate entrants from the same rating; the player then moves by the mean of
  their two changes;
* a player who left (an AI finished their seat): as themselves, placed after everyone who
  finished (leaving a game you are losing does not save your rating);
* a game that fewer than two players finished is not rated (nor is a cancelled game: it has
  no results).

Ranks are the game's (1 = winner); a shared rank is a tie. A rating is shown as its
conservative *ordinal*, ``mu - 3 sigma`` (0 for a newcomer, openskill's default).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
Z = 3.0  # ordinal = mu - Z * sigma
MIN_PLAYERS = 2  # people who must finish a game for it to be rated
AI_PREFIX = "ai:"


def ai_player(level: str | None) -> str:
    """The rated player of an AI seat of that level."""
    return f"{AI_PREFIX}{level or 'fast'}"


def is_ai(player_id: str | None) -> bool:
    return isinstance(player_id, str) and player_id.startswith(AI_PREFIX)


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: a conservative estimate of the skill (openskill's ordinal)."""
    return mu - Z * sigma


def initial() -> tuple[float, float]:
    """(mu, sigma) of a player's first rated game."""
    return MODEL.mu, MODEL.sigma


class Change(NamedTuple):
    """One rated player's rating before and after a game."""

    player: str
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> float:
        return self.after - self.before


@dataclass(frozen=True)
class Match:
    """A rated game: who is rated in it and their places (``(player, rank)`` per entrant,
    in seat order; an AI level may enter more than once)."""

    entrants: tuple[tuple[str, int], ...]

    def players(self) -> list[str]:
        """The rated players, each once, in seat order."""
        return list(dict.fromkeys(p for p, _ in self.entrants))

    def rate(self, current: Mapping[str, tuple[float, float]]) -> list[Change]:
        """Each player's rating after this game, from ``current`` ((mu, sigma) of the
        players rated before; a player missing from it starts at :func:`initial`)."""
        start = {p: tuple(current.get(p) or initial()) for p in self.players()}
        teams = [[MODEL.rating(mu=start[p][0], sigma=start[p][1])] for p, _ in self.entrants]
        rated = MODEL.rate(teams, ranks=[rank for _, rank in self.entrants])
        moves: dict[str, list[tuple[float, float]]] = {}
        for (player, _), team in zip(self.entrants, rated, strict=True):
            moves.setdefault(player, []).append((team[0].mu - start[player][0], team[0].sigma))
        out = []
        for player in self.players():
            mu, sigma = start[player]
            steps = moves[player]
            out.append(Change(player, min(r for p, r in self.entrants if p == player), mu, sigma,
                              mu + sum(d for d, _ in steps) / len(steps),
                              sum(s for _, s in steps) / len(steps)))
        return out


def match_of(results: Iterable[tuple[str | None, int, str | None]]) -> Match | None:
    """The rated match of a finished game, from its results in seat order: ``(user_id, rank,
    ai_level)`` per seat (``ai_level`` None: the seat's player finished it). None when fewer
    than :data:`MIN_PLAYERS` people finished it."""
    rows = [(uid, rank, level) for uid, rank, level in results]
    finished = [r for r in rows if r[0] is not None and not is_ai(r[0]) and r[2] is None]
    if len({r[0] for r in finished}) < MIN_PLAYERS:
        return None
    last = max(rank for _, rank, _ in rows) + 1
    entrants = []
    for uid, rank, level in rows:
        if uid is None:
            continue  # a seat nobody can be rated as
        if is_ai(uid):
            entrants.append((ai_player(level), rank))
        elif level is None:
            entrants.append((uid, rank))
        else:  # left: an AI finished the seat
            entrants.append((uid, last))
    return Match(tuple(entrants))
