"""Every button and menu of the bot: one base class and one table of custom ids.

A component is a discord.py ``DynamicItem`` whose custom id, ``dw:<prefix>:<fields>``, carries
all a press needs (the game, the position it was drawn for, the action...), so it works after
a restart with no view kept in memory. :data:`PREFIXES` names every prefix once, with the
class that answers it; :func:`register` hands them all to discord.py at once.

:class:`Component` does what every press needs, in this order:

1. parse the custom id (:meth:`Component.rebuild` gets its fields, ``game``, ``seq`` and
   ``seat`` as numbers);
2. load the channel's game and the server's settings (``load_channel_game``: after a restart
   the game is read when its channel is next used; a stopping bot turns presses away);
3. run the press (:meth:`Component.run`; :meth:`Component.live_game` is the channel's game
   if it is still the one the component was drawn for);
4. answer a refusal (``HostError``, ``IllegalAction``) as one private sentence
   (:meth:`Component.refuse`, :meth:`Component.answer`), and an unexpected failure with the
   generic sentence (logged): never Discord's "This interaction failed".

Whether a press is for the position now is checked once, by the host, under the game's lock
(``GameHost.act(expected_key=...)``; ``GameHost.check_position`` for a press that only offers
choices). A component bound to a position (``bound``) answers the host's ``stale_game`` for
its own, still running, game with "drawn for an earlier moment" and a link to the live table.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from typing import Any, ClassVar

import discord

from cogs.common import load_channel_game, reader_lang, refusal, send_ephemeral
from engine import IllegalAction
from host import HostError, LiveGame
from messages import t
from ops import interactions

log = logging.getLogger("darwin.cogs")

# every custom-id prefix the bot writes, each once: the class that answers its presses
PREFIXES: dict[str, str] = {
    "l": "cogs.lobby:LobbyButton",        # a lobby's Join, Leave, Add AI, Start, Cancel
    "a": "cogs.table:ActButton",          # one concrete action, at one position
    "s": "cogs.table:ActSelect",          # a menu of actions for one seat, at one position
    "h": "cogs.table:HandButton",         # My cards (no position)
    "c": "cogs.cubosaurs:ChoiceButton",   # Cubosaurs' Pass… and Buy: the choices, privately
    "ck": "cogs.climate:CardPick",        # Climate's private Choose a card… (redraws the panel)
    "u": "cogs.community:UndoButton",     # take back the move that led to one position
    "rm": "cogs.community:RematchButton",  # under a finished game
    "rp": "cogs.community:ReplayButton",   # under a finished game, and in /darwin history
}
# written but never pressed: the greyed hint naming the slash command of a full menu
NOT_PRESSABLE: dict[str, str] = {"m": "the greyed hint naming a slash command (disabled=True)"}

NUMBERS = ("game", "seq", "seat")  # custom-id fields read as numbers


def component_classes() -> list[type[Component]]:
    """The classes of :data:`PREFIXES`, in its order (their modules imported)."""
    out = []
    for path in PREFIXES.values():
        module, _, name = path.partition(":")
        out.append(getattr(importlib.import_module(module), name))
    return out


def register(bot) -> None:
    """Every component class, registered once on the bot (before it connects)."""
    bot.add_dynamic_items(*component_classes())


def hint_id(game_id: int, at: int, command: str) -> str:
    """The custom id of a greyed hint button (it is never pressed: no class answers it)."""
    return f"dw:m:{game_id}:{at}:{command}"


def live_link(interaction: discord.Interaction, game: LiveGame | None) -> str:
    """A jump link to the game's live table message ('' when there is none)."""
    listener = getattr(interaction.client, "listener", None)
    table = listener.tables.get(game.id) if listener is not None and game is not None else None
    if table is None or table.live_id is None:
        return ""
    guild = interaction.guild_id or "@me"
    return f"https://discord.com/channels/{guild}/{game.channel_id}/{table.live_id}"


async def refuse_stale(interaction: discord.Interaction, game: LiveGame | None, lang: str) -> None:
    """A press made for a position that is gone: say so privately, with the live table."""
    text = t("bot.stale_position", lang)
    link = live_link(interaction, game)
    if link:
        text += " " + t("bot.live_table_link", lang, link=link)
    await send_ephemeral(interaction, text)


class Component(discord.ui.DynamicItem[discord.ui.Item], template=r"(?!)"):
    """The base of every button and menu (see the module's docstring). A subclass names its
    prefix (a key of :data:`PREFIXES` naming that class) and the regular expression of the
    fields after it: ``class X(Component, prefix="a", fields=r"(?P<game>\\d+)")``; builds its
    custom id with :meth:`make_id`; implements :meth:`rebuild` and :meth:`run`."""

    prefix: ClassVar[str] = ""
    bound: ClassVar[bool] = False  # drawn for one position of its game (see refuse)
    game_id: int

    def __init_subclass__(cls, *, prefix: str, fields: str, **kwargs: Any) -> None:
        path = f"{cls.__module__}:{cls.__qualname__}"
        if PREFIXES.get(prefix) != path:
            raise TypeError(f"{path}: the prefix {prefix!r} is not its own in "
                            "cogs.components.PREFIXES")
        cls.prefix = prefix
        super().__init_subclass__(template=rf"dw:{prefix}:{fields}", **kwargs)

    @classmethod
    def make_id(cls, *fields) -> str:
        """``dw:<prefix>:<fields joined by ':'>``; a field None or '' is left out (an optional
        part of the template)."""
        return ":".join(["dw", cls.prefix, *(str(f) for f in fields if f is not None and f != "")])

    # --- parsing -------------------------------------------------------------------------

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        fields = {k: int(v) if k in NUMBERS and v is not None else v
                  for k, v in match.groupdict().items()}
        return cls.rebuild(fields, item)

    @classmethod
    def rebuild(cls, fields: dict, item: discord.ui.Item) -> Component:
        """The component pressed, from its custom id's fields and the item as Discord sent it
        (a label or a menu's options need not be drawn again)."""
        raise NotImplementedError

    # --- the press -----------------------------------------------------------------------

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await load_channel_game(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            try:
                await self.run(interaction)
            except (HostError, IllegalAction) as exc:
                await self.refuse(interaction, exc)
        except Exception:
            log.exception("component %s failed", type(self).__name__)
            interactions.mark(interactions.FAILED)
            try:
                await send_ephemeral(interaction, t("bot.error_generic", reader_lang(interaction)))
            except discord.HTTPException:
                log.warning("could not tell the user that the press failed")
        finally:
            # discord.py drew a whole view of the pressed message to find this item (its
            # items and the view refer to each other): emptied now, refcounting frees it at
            # once instead of the garbage collector's passes (issue 25: GC pauses)
            view = self.view
            if view is not None:
                view.clear_items()
            # and the interaction's cached answer object, which refers back to it (the
            # handler's tracking keeps what it needs: ops.interactions)
            with contextlib.suppress(AttributeError):
                del interaction._cs_response

    async def run(self, interaction: discord.Interaction) -> None:
        """What the press does; a refusal is raised (HostError, IllegalAction)."""
        raise NotImplementedError

    def live_game(self, interaction: discord.Interaction) -> LiveGame:
        """The channel's game, if it is the one this component was drawn for; HostError
        ``stale_game`` otherwise (that game is over)."""
        game = interaction.client.host.game_in(interaction.channel_id)
        if game is None or game.id != self.game_id:
            raise HostError("stale_game")
        return game

    async def refuse(self, interaction: discord.Interaction, exc: Exception) -> None:
        """A refusal, in one private sentence: the host's ``stale_game`` for a component
        bound to a position of the game still running here means that position is gone."""
        game = interaction.client.host.game_in(interaction.channel_id)
        lang = reader_lang(interaction)
        if self.bound and isinstance(exc, HostError) and exc.code == "stale_game" \
                and game is not None and game.id == self.game_id:
            await refuse_stale(interaction, game, lang)
            return
        await self.answer(interaction, refusal(exc, lang, game))

    async def answer(self, interaction: discord.Interaction, text: str) -> None:
        """A private answer (a component on a private message may edit it instead)."""
        await send_ephemeral(interaction, text)
