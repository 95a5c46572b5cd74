"""The /mutations command group (Evolution: Random Mutations): thin adapters from slash
commands, buttons and menus to host actions.

The table shows, for the seat awaited now: in Development **New species**, the menus **Trait
on…**, **Animal for…** (and **Split…** with Divergence) of that player's own species, **Pass**;
in Feeding a menu of the legal token plays (token → animal), a menu of the legal attacks
(attacker → target) and **Pass** when the rules allow it; an owed choice (the attacked
owner's animal, Mimicry, the Scavenger, the parasite loss, Grazing, a dark first trait) as a
menu or buttons named for the player who owes it. A menu shows at most 25 choices; beyond
that a greyed button names the slash command whose autocomplete lists them all.
"""

from __future__ import annotations

import discord
from discord import app_commands

from cogs.common import decode_action, reader_lang
from cogs.game import MAX_CHOICES, THREAD, TIMER, GameCog, Timer, rules_command
from cogs.table import ActButton
from host import HostError, LiveGame
from messages import t
from messages.mutations import action_label, species_ref, trait_name

TOPICS = ("turn", "development", "climate", "feeding", "extinction", "scoring", "divergence")
TOKENS = ("food", "burrow", "parasite")
OWED = ("redirect", "eat", "scavenge", "lose")


class Mutations(GameCog, group_name="mutations",
                group_description="Play Evolution: Random Mutations"):
    kind = "mutations"

    # --- the table ------------------------------------------------------------------------------

    def action_label(self, game, seat, view, action, lang):
        return action_label(action, view, game.names(), lang)

    def table_items(self, game: LiveGame, lang: str) -> list[discord.ui.Item]:
        """The buttons and menus valid now (every press is checked again when it arrives)."""
        rules, state = game.rules, game.state
        view = rules.view(state, None)
        names = game.names()
        items: list[discord.ui.Item] = []
        pend = view["pending"]
        for seat in self.people_awaited(game):
            legal = rules.legal_actions(state, seat)
            by = self.by_type(legal)
            who = names[seat]
            if pend is not None and pend["player"] == seat:
                kind = pend["kind"]
                if kind == "dark":
                    for a in by.get("dark", []):
                        items.append(ActButton(game.id, game.seq, a,
                                               action_label(a, view, names, lang),
                                               discord.ButtonStyle.primary
                                               if a["play"] == "trait" else
                                               discord.ButtonStyle.secondary))
                    continue
                where = species_ref(pend.get("target", pend.get("species")), lang)
                placeholders = {
                    "graze": t("mutations.bot.select_graze", lang),
                    "mimicry": t("mutations.bot.select_redirect", lang, player=who),
                    "eat": t("mutations.bot.select_eat", lang, player=who, species=where),
                    "scavenge": t("mutations.bot.select_scavenge", lang, player=who),
                    "lose": t("mutations.bot.select_lose", lang, player=who, species=where),
                }
                command = "graze" if kind == "graze" else "choose"
                items += self.menu(game, seat, legal, placeholders[kind], kind, view, command,
                                   lang)
                continue
            if state.phase == "development":
                develop = by.get("develop", [])
                if any(a["use"] == "species" for a in develop):
                    items.append(ActButton(game.id, game.seq, {"type": "develop", "use": "species"},
                                           t("mutations.bot.btn_species", lang),
                                           discord.ButtonStyle.success))
                for use in ("trait", "animal", "split"):
                    acts = [a for a in develop if a["use"] == use]
                    items += self.menu(game, seat, acts, t(f"mutations.bot.select_{use}", lang),
                                       use, view, use, lang)
            else:
                tokens = [a for a in legal if a["type"] in TOKENS]
                if len(tokens) <= MAX_CHOICES:
                    items += self.menu(game, seat, tokens, t("mutations.bot.select_food", lang),
                                       "token", view, "token", lang)
                else:  # one menu per kind of token
                    for kind in TOKENS:
                        items += self.menu(game, seat, by.get(kind, []), t(
                            "mutations.bot.select_food_kind", lang,
                            token=t(f"mutations.token.{kind}", lang)), kind, view, "token", lang)
                items += self.menu(game, seat, by.get("attack", []),
                                   t("mutations.bot.select_attack", lang), "attack", view,
                                   "attack", lang)
            if "pass" in by:
                items.append(ActButton(game.id, game.seq, {"type": "pass"},
                                       t("mutations.bot.btn_pass", lang)))
        return items

    def status_lines(self, game: LiveGame, v: dict, lang: str) -> list[str]:
        last = t("mutations.bot.status_last", lang) if v["last"] else ""
        lines = [t("mutations.bot.status_title", lang, turn=v["turn"], last=last,
                   phase=t(f"mutations.phase.{v['phase']}", lang), main=v["main"])]
        for p in v["players"]:
            lines.append(t("mutations.bot.status_player", lang, name=p["name"],
                           species=len(p["species"]),
                           animals=sum(len(sp["animals"]) for sp in p["species"]),
                           deck=p["deck"], score=p["score"]["total"]))
        if v["phase"] == "feeding":
            lines.append(t("mutations.bot.status_centre", lang, **v["centre"]))
        return lines

    # --- lobby ----------------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Random Mutations lobby in this channel")
    @app_commands.describe(divergence="Expert rule: a new animal may split a species in two",
                           timer=TIMER, thread=THREAD)
    async def new(self, interaction: discord.Interaction, divergence: bool = False,
                  timer: Timer | None = None, thread: bool | None = None) -> None:
        await self.open_lobby(interaction, {"divergence": divergence}, timer, thread)

    # --- helpers for the action commands --------------------------------------------------------

    def _action(self, interaction: discord.Interaction, text: str, types, build=None) -> dict:
        """The action a command option names: the autocomplete's JSON, or (when ``build`` is
        given) a typed number such as ``12`` or ``#12``."""
        text = text.strip()
        if text.startswith("{"):
            action = decode_action(text)
            if action.get("type") not in types:
                raise HostError("bad_option", detail=text[:40])
            return action
        number = text.lstrip("#")
        if build is not None and number.isdigit() and len(number) < 10:
            return build(int(number))
        raise HostError("bad_option", detail=t("mutations.bot.choose_from_list",
                                               reader_lang(interaction)))

    async def _slash(self, interaction: discord.Interaction, text: str, build=None) -> None:
        """An action command: the action its option names, of the types its ``extras`` name
        (the autocomplete offers the caller's legal ones: ``GameCog.action_autocomplete``)."""
        async with self.refusing(interaction):
            self._game(interaction)
            types = interaction.command.extras["actions"]
            await self._do(interaction, self._action(interaction, text, types, build))

    async def _develop(self, interaction: discord.Interaction, species: str) -> None:
        use = interaction.command.extras["use"]
        await self._slash(interaction, species,
                          lambda sid: {"type": "develop", "use": use, "species": sid})

    # --- development ----------------------------------------------------------------------------

    @app_commands.command(name="species", description="Development: your top card becomes a new species")
    async def species(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "develop", "use": "species"})

    @app_commands.command(name="trait", description="Development: your top card as a trait on one of your species",
                          extras={"actions": ("develop",), "use": "trait"})
    @app_commands.describe(species="One of your species with a single animal")
    @app_commands.autocomplete(species=GameCog.action_autocomplete)
    async def trait(self, interaction: discord.Interaction, species: str) -> None:
        await self._develop(interaction, species)

    @app_commands.command(name="animal", description="Development: your top card as an animal for one of your species",
                          extras={"actions": ("develop",), "use": "animal"})
    @app_commands.describe(species="One of your species below the population limit")
    @app_commands.autocomplete(species=GameCog.action_autocomplete)
    async def animal(self, interaction: discord.Interaction, species: str) -> None:
        await self._develop(interaction, species)

    @app_commands.command(name="split", description="Divergence: your top card splits one of your species in two",
                          extras={"actions": ("develop",), "use": "split"})
    @app_commands.describe(species="The species to split")
    @app_commands.autocomplete(species=GameCog.action_autocomplete)
    async def split(self, interaction: discord.Interaction, species: str) -> None:
        await self._develop(interaction, species)

    @app_commands.command(name="pass", description="Pass (Development: for the rest of the phase)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._do(interaction, {"type": "pass"})

    @app_commands.command(name="dark", description="A negative first trait: keep it as a trait or make it a new species")
    @app_commands.describe(play="What the negative card becomes")
    @app_commands.choices(play=[app_commands.Choice(name="keep it as a trait", value="trait"),
                                app_commands.Choice(name="make it a new species", value="species")])
    async def dark(self, interaction: discord.Interaction, play: str) -> None:
        await self._do(interaction, {"type": "dark", "play": play})

    # --- feeding --------------------------------------------------------------------------------

    @app_commands.command(name="token", description="Feeding: play a token from the centre on an animal",
                          extras={"actions": TOKENS})
    @app_commands.describe(play="Token → animal (only the legal plays are offered)")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def token(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="attack", description="Feeding: an unfed carnivore of yours attacks a species",
                          extras={"actions": ("attack",)})
    @app_commands.describe(play="Attacker → target (only the legal attacks are offered)")
    @app_commands.autocomplete(play=GameCog.action_autocomplete)
    async def attack(self, interaction: discord.Interaction, play: str) -> None:
        await self._slash(interaction, play)

    @app_commands.command(name="graze", description="Grazing: destroy red food in the centre")
    @app_commands.describe(count="How many red food tokens to destroy (0 = none)")
    async def graze(self, interaction: discord.Interaction,
                    count: app_commands.Range[int, 0, 99]) -> None:
        await self._do(interaction, {"type": "graze", "count": count})

    @app_commands.command(name="choose", description="Answer a choice you owe: Mimicry, the animal eaten, Scavenger, parasites",
                          extras={"actions": OWED})
    @app_commands.describe(option="One of the choices offered")
    @app_commands.autocomplete(option=GameCog.action_autocomplete)
    async def choose(self, interaction: discord.Interaction, option: str) -> None:
        def build(number: int) -> dict:  # a typed number: the choice owed now
            game = self._game(interaction)
            pend = game.state.pending if game.status == "active" else None
            if pend is not None and pend["kind"] == "mimicry":
                return {"type": "redirect", "target": number}
            kind = {"eat": "eat", "scavenge": "scavenge", "lose": "lose"}.get(
                (pend or {}).get("kind"), "eat")
            return {"type": kind, "animal": number}

        await self._slash(interaction, option, build)

    # --- information ----------------------------------------------------------------------------

    rules = rules_command("Read a rule: the phases, scoring, Divergence, a trait",
                          topic="A phase, scoring, divergence or a trait")

    def topics(self, lang: str) -> list[tuple[str, str]]:
        from engine.mutations.data import TRAITS

        return ([(f"rule:{x}", t(f"mutations.rules.{x}_title", lang)) for x in TOPICS]
                + [(f"trait:{x}", trait_name(x, lang)) for x in TRAITS])

    def typed_topic(self, text: str, lang: str) -> tuple[str, str]:
        """"feeding", "carnivore", "Carnivoro": a trait or a rule named in any language."""
        from engine.mutations.data import TRAITS

        return self.named_topic(text, [("trait", TRAITS, "mutations.trait.{id}.name"),
                                       ("rule", TOPICS, "mutations.rules.{id}_title")])

    def topic_text(self, kind: str, name: str, lang: str) -> tuple[str, str] | None:
        from engine.mutations.data import TRAITS, trait

        if kind == "rule" and name in TOPICS:
            return t(f"mutations.rules.{name}_title", lang), t(f"mutations.rules.{name}", lang)
        if kind != "trait" or name not in TRAITS:
            return None
        info = trait(name)
        title = t("mutations.rules.trait_title", lang, trait=trait_name(name, lang))
        extra = []
        if info.food:
            extra.append(t("mutations.rules.food_bonus", lang, food=info.food))
        if info.dark:
            extra.append(t("mutations.rules.negative", lang))
        if extra:
            title += f" ({', '.join(extra)})"
        return title, t(f"mutations.trait.{name}.text", lang)

async def setup(bot) -> None:
    await bot.add_cog(Mutations(bot))
