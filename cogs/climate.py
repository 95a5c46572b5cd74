"""The /climate command group (Evolution: Climate): thin adapters from slash commands, buttons
and menus to host actions.

Hands are secret, and two steps are secret and simultaneous: the food card (every player at
once) and, in the Quick game, the whole play phase. The public table therefore never shows a
hand card: in those steps it shows one button that any seated player may press (**Choose your
food card**, **Play your cards**; **My cards** otherwise), and the footer says who is still
awaited, nothing more. The button opens the presser's *private panel*: an ephemeral message
with their hand (as text, and as a picture once the renderer draws one), their species with
their own face-down cards, their bag, and the menus they may use now, each bound to their own
decision key (``game.key_for(seat)``): another player's secret choice leaves it valid, their
own move refreshes it in place (with an Undo button while the host may take that move back). The reveal is the one table update made when the last player
has chosen.

In the play phase a card is chosen first (a menu that acts on nothing), then what to do with
it (a trait on a species, a new species at either end, +1 body size or population, under the
draw deck); besides, **Discard a trait…** and **Done**. In Feeding the table shows the awaited
player's **Feed…** menu (hungry species that may take a plant), **Attack…** (the attacks that
cost no card) and **Pass** when the rules allow it; whatever costs a hand card (Intelligence,
an attack on a Mud Wallowing species) is in the private panel. A player who owns two green
traits that would act orders them from a menu that mentions them (``rules.owed_choice``).
Every button has a slash command whose autocomplete offers only the legal choices.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from cogs.common import Picture, decode_action, draw, reader_lang, refusal, spent
from cogs.community import UndoButton, undo_offer
from cogs.components import Component
from cogs.game import MAX_CHOICES, THREAD, TIMER, GameCog, Timer, rules_command
from cogs.table import ActButton, HandButton
from engine import IllegalAction
from host import HostError, LiveGame
from images import render_hand
from messages import resolve, t
from messages.climate import (
    action_label,
    card_label,
    card_trait,
    event_name,
    species_label,
    trait_name,
    zone_name,
)

log = logging.getLogger("darwin.climate")


TOPICS = ("round", "deal", "food", "play", "environment", "climate", "events", "feeding",
          "attacks", "extinction", "scoring", "variants")
PLAY = ("trait", "species", "grow", "remove", "exchange", "done")
CARD_USES = ("trait", "species", "grow", "exchange", "intelligence", "negate")


# --- actions as short texts (autocomplete values) --------------------------------------------------

def pack(action: dict) -> str:
    """``attack|species=1001|target=2001``: an action as an autocomplete value (JSON would
    not always fit Discord's 100 characters)."""
    return "|".join([str(action["type"])] + [f"{k}={action[k]}" for k in sorted(action)
                                             if k != "type"])


def unpack(text: str) -> dict:
    kind, *parts = text.split("|")
    action: dict = {"type": kind}
    for part in parts:
        key, _, value = part.partition("=")
        if key in ("species", "target") and value.lstrip("-").isdigit() and len(value) < 10:
            action[key] = int(value)
        else:
            action[key] = value
    return action


def card_uses(action: dict) -> str | None:
    """The hand card an action spends (None: it spends none)."""
    if action["type"] in CARD_USES:
        return action["card"]
    if action["type"] == "attack":
        return action.get("discard")
    return None


# --- the private panel's card menu ----------------------------------------------------------------

class CardPick(Component, prefix="ck", fields=r"(?P<game>\d+):(?P<seat>\d+)"):
    """The private panel's **Choose a card…**: it acts on nothing, it only redraws the panel
    with what the chosen card may do (so it needs no position)."""

    def __init__(self, game_id: int, seat: int,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=self.make_id(game_id, seat), placeholder=placeholder,
            options=options or [discord.SelectOption(label="-", value="-")]))
        self.game_id = game_id
        self.seat = seat

    @classmethod
    def rebuild(cls, fields, item):
        return cls(fields["game"], fields["seat"], list(item.options), item.placeholder)

    async def run(self, interaction: discord.Interaction) -> None:
        game = self.live_game(interaction)
        await interaction.client.game_cog(game.kind).pick_card(interaction, game, self.seat,
                                                               self.item.values[0])


class Climate(GameCog, group_name="climate", group_description="Play Evolution: Climate"):
    kind = "climate"

    # --- menus ----------------------------------------------------------------------------------

    def _hand_button(self, game: LiveGame, lang: str) -> HandButton:
        phase = game.state.phase
        key = {"food": "btn_food", "play": "btn_play"}.get(phase, "btn_hand")
        button = HandButton(game.id, lang)
        button.item.label = t(f"climate.bot.{key}", lang)[:80]
        return button

    def action_label(self, game, seat, view, action, lang):
        return action_label(action, view, game.names(), lang)

    def choice_value(self, action: dict) -> str:
        return pack(action)  # JSON would not always fit an autocomplete value

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        """The public table's buttons and menus: never a hand card, and in a secret step the
        same single button whoever has chosen (every press is checked again when it comes)."""
        rules, state = game.rules, game.state
        items: list[discord.ui.Item] = []
        if state.phase in ("green", "feeding") or (state.phase == "play"
                                                    and not state.options["quick"]):
            view = rules.view(state, None)
            for seat in self.people_awaited(game):
                by = self.by_type(rules.legal_actions(state, seat))
                if state.phase == "green":
                    items += self._green_menu(game, seat, by, view, lang)
                elif state.phase == "play":
                    if "done" in by:
                        items.append(self._done_button(game, seat, view, lang))
                else:
                    items += self._feeding_items(game, seat, by, view, lang)
        items.append(self._hand_button(game, lang))
        return items

    def _green_menu(self, game: LiveGame, seat: int, by: dict, view: dict,
                    lang: str) -> list[discord.ui.Item]:
        return self.menu(game, seat, by.get("green", []), t(
            "climate.bot.select_green", lang, player=game.names()[seat]), "green", view, "order",
            lang)

    def _feeding_items(self, game: LiveGame, seat: int, by: dict, view: dict,
                       lang: str) -> list[discord.ui.Item]:
        """**Feed…**, **Attack…** (the attacks that cost no card) and **Pass**."""
        free = [a for a in by.get("attack", []) if "discard" not in a]
        items = self.menu(game, seat, by.get("feed", []), t("climate.bot.select_feed", lang),
                          "feed", view, "feed", lang)
        items += self.menu(game, seat, free, t("climate.bot.select_attack", lang), "attack",
                           view, "attack", lang)
        if "pass" in by:
            items.append(ActButton(game.id, game.key_for(seat), {"type": "pass"},
                                   t("climate.bot.btn_pass", lang)))
        return items

    def _done_button(self, game: LiveGame, seat: int, view: dict, lang: str) -> ActButton:
        back = view["players"][seat]["returned"]
        count = len(back) if isinstance(back, list) else back
        label = t("climate.bot.btn_done_exchange", lang, count=count) if count \
            else t("climate.bot.btn_done", lang)
        return ActButton(game.id, game.key_for(seat), {"type": "done"}, label,
                         discord.ButtonStyle.success)

    def status_lines(self, game: LiveGame, v: dict, lang: str) -> list[str]:
        last = t("climate.bot.status_last", lang) if v["last"] else ""
        lines = [t("climate.bot.status_title", lang, round=v["round"], last=last,
                   phase=t(f"climate.phase.{v['phase']}", lang),
                   zone=zone_name(v["climate"]["zone"], lang), wh=v["watering_hole"],
                   deck=v["deck"])]
        for p in v["players"]:
            lines.append(t("climate.bot.status_player", lang, name=p["name"],
                           species=len(p["species"]),
                           pop=sum(sp["pop"] for sp in p["species"]),
                           traits=sum(len(sp["traits"]) for sp in p["species"]),
                           hand=p["hand"], points=p["points"]))
        ev = v["events"]
        if v["options"]["events"]:
            ups = [t("climate.bot.status_event", lang, event=event_name(ev[d]["up"]["event"], lang),
                     zone=zone_name(ev[d]["up"]["zone"], lang))
                   for d in ("cold", "hot") if ev[d]["up"]]
            lines.append(t("climate.bot.status_events", lang,
                           events="; ".join(ups) or t("climate.bot.status_no_event", lang)))
        return lines

    # --- the private panel ----------------------------------------------------------------------

    def panel(self, game: LiveGame, seat: int, lang: str, card: str | None = None,
              note: str | None = None,
              extra: list[discord.ui.Item] = ()) -> tuple[str, discord.ui.View | None]:
        """The text and menus of ``seat``'s private panel (see the module docstring)."""
        rules, state = game.rules, game.state
        v = rules.view(state, seat)
        me = v["players"][seat]
        lines = [t("climate.bot.hand_title", lang, round=v["round"],
                   phase=t(f"climate.phase.{v['phase']}", lang))]
        if note:
            lines.append(note)
        cards = me["cards"] or []
        if cards:
            lines.append(t("climate.bot.hand_cards", lang, count=len(cards)))
            lines += [f"• {card_label(c, lang)}" for c in cards]
        else:
            lines.append(t("climate.bot.hand_empty", lang))
        food = v["food_cards"][seat]
        if isinstance(food, dict) and food.get("down") and food.get("card"):
            lines.append(t("climate.bot.hand_food", lang, card=card_label(food, lang)))
        if isinstance(me["returned"], list) and me["returned"]:
            lines.append(t("climate.bot.hand_back", lang, cards=", ".join(
                card_label(c, lang) for c in me["returned"])))
        if me["species"]:
            lines.append(t("climate.bot.hand_species", lang))
            lines += [f"• {species_label(sp, lang)}" for sp in me["species"]]
        lines.append(t("climate.bot.hand_bag", lang, bag=me["bag"] or 0, points=me["points"],
                       total=me["total"] or 0))
        items: list[discord.ui.Item] = []
        awaited = game.status == "active" and seat in game.awaiting()
        if awaited:
            prompt, items = self._panel_items(game, seat, v, lang, card)
            lines.append(prompt)
        elif game.status == "active" and v["phase"] == "play" and v["options"]["quick"]:
            lines.append(t("climate.bot.prompt_done_quick", lang, count=len(v["awaiting"])))
        elif game.status == "active":
            lines.append(t("climate.bot.prompt_wait", lang))
        view = None
        items = [*items, *extra]
        if items:
            view = discord.ui.View(timeout=None)
            for item in items:
                try:
                    view.add_item(item)
                except ValueError:  # no room left in Discord's five rows: the commands remain
                    break
            # every item is a DynamicItem found again by its custom id: nothing needs to be kept
            # listening (an ephemeral message's view would otherwise be stored for 15 minutes)
            view.stop()
        return "\n".join(lines)[:2000], view

    def _panel_items(self, game: LiveGame, seat: int, v: dict, lang: str,
                     card: str | None) -> tuple[str, list[discord.ui.Item]]:
        state = game.state
        legal = game.rules.legal_actions(state, seat)
        by = self.by_type(legal)
        phase = state.phase
        if phase == "food":
            return t("climate.bot.prompt_food", lang), self.menu(
                game, seat, by.get("food", []), t("climate.bot.select_food", lang), "food", v,
                "food", lang)
        if phase == "green":
            return t("climate.bot.prompt_green", lang), self._green_menu(game, seat, by, v, lang)
        if phase == "play":
            if state.back[seat]:
                items = self.menu(game, seat, by.get("exchange", []),
                                  t("climate.bot.select_exchange", lang), "exchange", v,
                                  "exchange", lang)
                items.append(self._done_button(game, seat, v, lang))
                return t("climate.bot.prompt_exchange", lang), items
            items = self._card_menus(game, seat, legal, v, lang, card, "use")
            items += self.menu(game, seat, by.get("remove", []),
                               t("climate.bot.select_remove", lang), "remove", v, "discard", lang)
            items.append(self._done_button(game, seat, v, lang))
            key = "climate.bot.prompt_play_quick" if v["options"]["quick"] \
                else "climate.bot.prompt_play"
            return t(key, lang), items
        # feeding
        items = self._card_menus(game, seat, legal, v, lang, card, "spend")
        items += self._feeding_items(game, seat, by, v, lang)
        return t("climate.bot.prompt_feeding", lang), items

    def _card_menus(self, game: LiveGame, seat: int, legal: list[dict], v: dict, lang: str,
                    card: str | None, mode: str) -> list[discord.ui.Item]:
        """**Choose a card…** (the hand cards that can do something now) and what the chosen
        card may do."""
        uses: dict[str, list[dict]] = {}
        for a in legal:
            c = card_uses(a)
            if c is not None:
                uses.setdefault(c, []).append(a)
        if not uses:
            return []
        hand = [c for c in v["players"][seat]["cards"] if c["card"] in uses]
        if card not in uses:
            card = hand[0]["card"]
        options = [discord.SelectOption(label=card_label(c, lang)[:100], value=c["card"],
                                        default=c["card"] == card) for c in hand[:MAX_CHOICES]]
        pick = CardPick(game.id, seat, options, t(f"climate.bot.select_card_{mode}", lang))
        name = trait_name(card_trait(card), lang)
        command = "intelligence" if mode == "spend" else "trait"
        return [pick] + self.menu(game, seat, uses[card], t(
            f"climate.bot.select_use_{mode}", lang, card=name), "use", v, command, lang)

    async def _panel_file(self, game: LiveGame, seat: int, lang: str) -> discord.File | None:
        try:
            png = await draw(render_hand, "climate", game.rules.view(game.state, seat), lang)
        except Exception:
            log.exception("could not draw the hand of seat %s in game %s", seat, game.id)
            return None
        return Picture(png, "hand.png")

    async def send_panel(self, interaction: discord.Interaction) -> None:
        """The caller's private panel, as a new ephemeral message."""
        lang = reader_lang(interaction)
        game = self._game(interaction)
        if game.status != "active":
            raise HostError("not_started")
        seat = game.seat_of(interaction.user.id)
        if seat is None:
            raise HostError("not_a_player")
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        content, view = self.panel(game, seat, lang)
        kwargs: dict = {"ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        file = await self._panel_file(game, seat, lang)
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(content, **kwargs)
        spent(view)

    async def show_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The table's hand button: the presser's private panel."""
        async with self.refusing(interaction):
            await self.send_panel(interaction)

    async def pick_card(self, interaction: discord.Interaction, game: LiveGame, seat: int,
                        card: str) -> None:
        """**Choose a card…** in a private panel: the panel again, for that card."""
        lang = reader_lang(interaction)
        if game.status != "active" or game.seat_of(interaction.user.id) != seat:
            raise HostError("stale_game")
        content, view = self.panel(game, seat, lang, card=card)
        await interaction.response.edit_message(content=content, view=view)
        spent(view)

    async def press(self, interaction: discord.Interaction, game_id: int, seq: int | None,
                    action: dict, seat: int | None = None) -> None:
        """A press on the public table goes the shared way; a press in a private panel
        applies the action and redraws that panel in place, with an Undo button while the
        move may be taken back (a panel drawn for a position that is gone, as the host finds,
        is redrawn as it is now, with why nothing was done)."""
        message = interaction.message
        if message is None or not message.flags.ephemeral:
            await super().press(interaction, game_id, seq, action, seat)
            return
        lang = reader_lang(interaction)
        game = self.host.game_in(interaction.channel_id)  # game_id's (the component checked)
        me = game.seat_of(interaction.user.id)
        if me is None:
            raise HostError("not_a_player")
        before = game.rules.view(game.state, me)  # what the panel showed: the action's words
        await interaction.response.defer()
        extra: list[discord.ui.Item] = []
        try:
            outcome = await self.host.act(interaction.channel_id, interaction.user.id, action,
                                          game_id=game_id, expected_key=seq, for_seat=seat)
            note = t("climate.bot.played", lang,
                     action=action_label(action, before, game.names(), lang))
            if undo_offer(self.bot, game, interaction.user.id, outcome.seq,
                          lang) is not None:
                extra.append(UndoButton(game.id, outcome.seq, lang))  # in the panel itself
        except HostError as exc:
            note = t("climate.bot.stale_panel", lang) if exc.code == "stale_game" \
                else refusal(exc, lang, game)
        except IllegalAction as exc:
            note = refusal(exc, lang, game)
        if game.status != "active":
            await interaction.edit_original_response(content=note, view=None)
            return
        content, view = self.panel(game, me, lang, note=note, extra=extra)
        kwargs: dict = {"content": content, "view": view}
        file = await self._panel_file(game, me, lang)
        if file is not None:
            kwargs["attachments"] = [file]
        await interaction.edit_original_response(**kwargs)
        spent(view)

    # --- lobby ----------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open an Evolution: Climate lobby in this channel")
    @app_commands.describe(events="Climate event cards (off: the variant suggested for first games)",
                           quick="Quick game: everyone plays cards at once, unseen (always with 6 players)",
                           timer=TIMER, thread=THREAD)
    async def new(self, interaction: discord.Interaction, events: bool = True,
                  quick: bool = False, timer: Timer | None = None,
                  thread: bool | None = None) -> None:
        await self.open_lobby(interaction, {"events": events, "quick": quick}, timer, thread)

    # --- helpers for the action commands --------------------------------------------------------

    def _action(self, interaction: discord.Interaction, text: str, types, build=None) -> dict:
        """The action a command option names: the autocomplete's value (or JSON), else what
        ``build`` makes of the typed text (a card's trait, a species number)."""
        text = text.strip()
        action = None
        if text.startswith("{"):
            action = decode_action(text)
        elif "|" in text:
            action = unpack(text)
        elif build is not None:
            action = build(text)
        if action is None or action.get("type") not in types:
            raise HostError("bad_option", detail=t("climate.bot.choose_from_list",
                                                   reader_lang(interaction)))
        return action

    def _hand_card(self, interaction: discord.Interaction, text: str) -> str | None:
        """A card of the caller's hand named by its id or its trait (any language)."""
        from engine.climate.data import TRAIT_OF, TRAITS

        game = self._game(interaction)
        seat = game.seat_of(interaction.user.id)
        if seat is None or game.status != "active":
            return None
        hand = game.state.hands[seat]
        if text in hand:
            return text
        trait = resolve(text, TRAITS, "climate.trait.{id}.name")
        return next((c for c in hand if TRAIT_OF[c] == trait), None)

    async def _slash(self, interaction: discord.Interaction, text: str, build=None) -> None:
        """An action command: the action its option names, of the types its ``extras`` name
        (the autocomplete offers the caller's legal ones: ``GameCog.action_autocomplete``)."""
        async with self.refusing(interaction):
            game = self._game(interaction)
            if game.status == "active" and game.seat_of(interaction.user.id) is None:
                raise HostError("not_a_player")  # before reading a hand they do not have
            types = interaction.command.extras["actions"]
            await self._do(interaction, self._action(interaction, text, types, build))

    def _card_action(self, interaction: discord.Interaction, kind: str):
        def build(text: str) -> dict | None:
            card = self._hand_card(interaction, text)
            return None if card is None else {"type": kind, "card": card}
        return build

    # --- information ----------------------------------------------------------------------------

    @app_commands.command(name="hand", description="Your hand and the menus you may use now (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        async with self.refusing(interaction):
            await self.send_panel(interaction)

    # --- food card ------------------------------------------------------------------------------

    @app_commands.command(name="food", description="Food card: put a card of your hand face down on the Watering Hole",
                          extras={"actions": ("food",)})
    @app_commands.describe(card="A card of your hand")
    @app_commands.autocomplete(card=GameCog.action_autocomplete)
    async def food(self, interaction: discord.Interaction, card: str) -> None:
        await self._slash(interaction, card, self._card_action(interaction, "food"))

    # --- play cards -----------------------------------------------------------------------------

    @app_commands.command(name="trait", description="Play cards: a card of your hand as a trait, face down, on one of your species",
                          extras={"actions": ("trait",)})
    @app_commands.describe(play="Card → species (only the legal plays are offered)")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def trait(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="species", description="Play cards: discard a card for a new species at either end of your row",
                          extras={"actions": ("species",)})
    @app_commands.describe(play="The card and the end of the row")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def species(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="grow", description="Play cards: discard a card for +1 body size or population",
                          extras={"actions": ("grow",)})
    @app_commands.describe(play="The card, the species and what grows")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def grow(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="discard", description="Play cards: discard a trait card from one of your species",
                          extras={"actions": ("remove",)})
    @app_commands.describe(trait="The species and its trait card")
    @app_commands.autocomplete(trait=GameCog.action_autocomplete)
    async def discard(self, interaction: discord.Interaction, trait: str) -> None:
        await self._slash(interaction, trait)

    @app_commands.command(name="exchange", description="Play cards: put a card under the draw deck (you draw as many when done)",
                          extras={"actions": ("exchange",)})
    @app_commands.describe(card="A card of your hand")
    @app_commands.autocomplete(card=GameCog.action_autocomplete)
    async def exchange(self, interaction: discord.Interaction, card: str) -> None:
        await self._slash(interaction, card, self._card_action(interaction, "exchange"))

    @app_commands.command(name="done", description="Play cards: you have finished (the cards put back are exchanged)")
    async def done(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "done"})

    # --- modify the environment -----------------------------------------------------------------

    @app_commands.command(name="order", description="Green traits: choose which of yours acts next",
                          extras={"actions": ("green",)})
    @app_commands.describe(choice="A species and its green trait")
    @app_commands.autocomplete(choice=GameCog.action_autocomplete)
    async def order(self, interaction: discord.Interaction, choice: str) -> None:
        await self._slash(interaction, choice)

    # --- feeding --------------------------------------------------------------------------------

    @app_commands.command(name="feed", description="Feeding: a hungry species of yours takes a plant from the Watering Hole",
                          extras={"actions": ("feed",)})
    @app_commands.describe(species="One of your species that may take a plant")
    @app_commands.autocomplete(species=GameCog.action_autocomplete)
    async def feed(self, interaction: discord.Interaction, species: str) -> None:
        def build(text: str) -> dict | None:
            number = text.lstrip("#")
            return {"type": "feed", "species": int(number)} \
                if number.isdigit() and len(number) < 10 else None

        await self._slash(interaction, species, build)

    @app_commands.command(name="attack", description="Feeding: a hungry carnivore of yours attacks a species",
                          extras={"actions": ("attack",)})
    @app_commands.describe(play="Attacker → target (only the legal attacks are offered)")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def attack(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="intelligence", description="Feeding: discard a card for Intelligence",
                          extras={"actions": ("intelligence", "negate")})
    @app_commands.describe(play="The card and its effect (only the legal ones are offered)")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def intelligence(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="pass", description="Feeding: pass (only when no hungry species of yours can eat)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "pass"})

    # --- rules ----------------------------------------------------------------------------------

    rules = rules_command("Read a rule: a phase, the climate zones, an event or a trait",
                          topic="A phase, the zones, an event or a trait")

    def topics(self, lang: str) -> list[tuple[str, str]]:
        from engine.climate.data import EVENT_KINDS, TRAITS

        return ([(f"rule:{x}", t(f"climate.rules.{x}_title", lang)) for x in TOPICS]
                + [(f"event:{x}", event_name(x, lang)) for x in EVENT_KINDS]
                + [(f"trait:{x}", trait_name(x, lang)) for x in TRAITS])

    def typed_topic(self, text: str, lang: str) -> tuple[str, str]:
        """"feeding", "Carnivoro", "Thaw": a trait, an event or a rule named in any language."""
        from engine.climate.data import EVENT_KINDS, TRAITS

        return self.named_topic(text, [("trait", TRAITS, "climate.trait.{id}.name"),
                                       ("event", EVENT_KINDS, "climate.card_event.{id}"),
                                       ("rule", TOPICS, "climate.rules.{id}_title")])

    def topic_text(self, kind: str, name: str, lang: str) -> tuple[str, str] | None:
        from engine.climate.data import EVENT_KINDS, GREEN, TRAITS

        if kind == "rule" and name in TOPICS:
            text = t(f"climate.rules.{name}", lang)
            if name == "climate":
                text += "\n" + self._zones(lang)
            return t(f"climate.rules.{name}_title", lang), text
        if kind == "trait" and name in TRAITS:
            title = t("climate.rules.trait_title", lang, trait=trait_name(name, lang))
            if name in GREEN:
                title += f" ({t('climate.rules.green', lang)})"
            return title, t(f"climate.trait.{name}.text", lang)
        if kind == "event" and name in EVENT_KINDS:
            return (t("climate.rules.event_title", lang, event=event_name(name, lang)),
                    t(f"climate.rules.event.{name}", lang))
        return None

    @staticmethod
    def _zones(lang: str) -> str:
        """Every zone of the climate track with its loss and plant modifiers (the data's)."""
        from engine.climate.data import BODY, CAUSE, ICONS, ZONES, zone_plants

        small, large = zone_plants("small"), zone_plants("large")
        lines = []
        for i, z in enumerate(ZONES):
            if CAUSE[i]:
                lo, hi = BODY[i]
                loss = t(f"climate.rules.zone_loss_{CAUSE[i]}", lang, count=ICONS[i], low=lo,
                         high=hi)
            else:
                loss = t("climate.rules.zone_no_loss", lang)
            lines.append(t("climate.rules.zone_line", lang, zone=zone_name(z, lang), loss=loss,
                           small=f"{small[i]:+d}", large=f"{large[i]:+d}"))
        return "\n".join(lines)


async def setup(bot) -> None:
    await bot.add_cog(Climate(bot))
