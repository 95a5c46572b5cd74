"""Shards: which Discord servers (and so which games) a process owns.

Discord splits a bot's servers into ``shard_count`` shards by one rule, ``shard_id =
(guild_id >> 22) % shard_count`` (direct messages go to shard 0), and sends a server's events
and interactions to the connection of its shard only. Several processes may each run a
disjoint set of the shards (``[discord] shard_count`` / ``shard_ids``, or
``DARWIN_SHARD_COUNT`` / ``DARWIN_SHARD_IDS``); each one loads and resumes only the games of
its own servers. Pure: no discord, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass


class ShardConfigError(ValueError):
    """The shard settings cannot be used: the message is one sentence for the admin."""


def shard_of(guild_id: int | str | None, count: int) -> int:
    """The shard that Discord gives the server ``guild_id`` to (0 for no server: a DM)."""
    if count < 1:
        raise ValueError(f"shard count must be at least 1, not {count}")
    if guild_id is None:
        return 0
    return (int(guild_id) >> 22) % count


@dataclass(frozen=True)
class Shards:
    """The shards a process runs: ``ids`` out of ``count``."""

    count: int
    ids: frozenset[int]

    def owns(self, guild_id: int | str | None) -> bool:
        """Does this process run the shard of server ``guild_id``? (An id that is not a
        number, which Discord never sends, counts as shard 0's, like a DM.)"""
        try:
            return shard_of(guild_id, self.count) in self.ids
        except ValueError:
            return 0 in self.ids

    def __str__(self) -> str:
        return f"shards {', '.join(map(str, sorted(self.ids)))} of {self.count}"


def owned(rows, shards: Shards | None) -> list:
    """The rows (anything with a ``guild_id``) whose server is on ``shards`` (all if None)."""
    if shards is None:
        return list(rows)
    return [row for row in rows if shards.owns(row.guild_id)]


@dataclass(frozen=True)
class ShardPlan:
    """What the configuration asks: ``count`` None = let Discord decide (the recommended
    count, every shard in this process); ``ids`` None = every shard of ``count``."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    @property
    def host_shards(self) -> Shards | None:
        """The filter for the game host: None when this process runs every shard."""
        if self.count is None or self.ids is None or set(self.ids) == set(range(self.count)):
            return None
        return Shards(self.count, frozenset(self.ids))


def _count(value) -> int:
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return 0
        if not text.isdigit():
            raise ShardConfigError(
                f"shard_count must be a whole number (0 = let Discord decide), not {value!r}: "
                "check [discord] shard_count in config.toml or DARWIN_SHARD_COUNT.")
        return int(text)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ShardConfigError(
            f"shard_count must be a whole number (0 = let Discord decide), not {value!r}: "
            "check [discord] shard_count in config.toml or DARWIN_SHARD_COUNT.")
    return value


def _ids(value) -> list[int]:
    bad = ShardConfigError(
        f"shard_ids must be a list of whole numbers such as [0, 1] (or \"0,1\" in "
        f"DARWIN_SHARD_IDS), not {value!r}: check [discord] shard_ids in config.toml or "
        "DARWIN_SHARD_IDS.")
    if value is None:
        return []
    if isinstance(value, str):
        parts = [p.strip() for p in value.split(",")]
        if parts == [""]:
            return []
        if not all(p.isdigit() for p in parts):
            raise bad
        return [int(p) for p in parts]
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(
            isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in value):
        raise bad
    return list(value)


def shard_plan(discord_config: dict) -> ShardPlan:
    """The shard settings of the ``[discord]`` section, checked: ``shard_count`` (0 or
    missing = let Discord decide) and ``shard_ids`` (empty or missing = all of them).
    ShardConfigError (one sentence for the admin) when they cannot be used."""
    count = _count(discord_config.get("shard_count", 0))
    ids = _ids(discord_config.get("shard_ids"))
    if not ids:
        return ShardPlan(count or None, None)
    if not count:
        raise ShardConfigError(
            f"shard_ids {ids} need shard_count (the number of shards of all the processes "
            "together): set [discord] shard_count in config.toml or DARWIN_SHARD_COUNT.")
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ShardConfigError(
            f"shard_ids name shard {', '.join(map(str, duplicates))} more than once: "
            "each shard is listed once, in one process only.")
    outside = [i for i in ids if i >= count]
    if outside:
        raise ShardConfigError(
            f"shard_ids {outside} are not shards of shard_count {count}: the shards are "
            f"numbered 0 to {count - 1}.")
    return ShardPlan(count, tuple(sorted(ids)))
