"""/darwin settings on Discord (SimCord): shown with their defaults, set by a member with
Manage Server, used by the next /evo new, refused to others and for bad values, kept across
a restart."""

from __future__ import annotations

import discord
import pytest

from cogs.admin import SETTING_NAMES
from cogs.bot import DarwinBot
from host import ServerSettings
from messages import t
from tests.conftest import flush
from tests.locales import locales  # noqa: F401 - a fixture
from tests.test_discord import reply_text

MANAGE_SERVER = discord.Permissions(manage_guild=True)


def server(env, locale="en-US"):
    """A server with an admin (Manage Server), a moderator role and two plain members."""
    guild = env.create_guild(preferred_locale=locale)
    channel = guild.create_text_channel("games")
    admins = guild.create_role("admins", permissions=MANAGE_SERVER)
    mods = guild.create_role("mods")
    people = {
        "boss": guild.add_member(env.create_user("boss"), roles=[admins]),
        "mod": guild.add_member(env.create_user("mod"), roles=[mods]),
        "ann": guild.add_member(env.create_user("ann")),
        "bob": guild.add_member(env.create_user("bob")),
    }
    return guild, channel, mods, people


def shown(settings_text: str, lang: str = "en") -> dict[str, str]:
    """The value shown for each setting (by its catalogue name)."""
    out = {}
    for name in ServerSettings.names():
        label = t("bot.settings.line", lang, name=t(f"bot.settings.name.{name}", lang), value="")
        line = next(x for x in settings_text.splitlines() if x.startswith(label))
        out[name] = line[len(label):]
    return out


async def test_settings_are_shown_set_and_used_by_the_next_new_game(simcord_env, locales):  # noqa: F811
    env = simcord_env
    guild, channel, mods, people = server(env, locale="fr")
    boss, mod, ann, bob = (people[n] for n in ("boss", "mod", "ann", "bob"))

    r = await boss.slash(channel, "darwin settings show")
    before = shown(reply_text(r))
    assert r.ephemeral and all(v.endswith(t("bot.settings.unchanged", value="")[-10:])
                               for v in before.values()), before
    assert before["language"] == t("bot.settings.unchanged", value="Français (fr)")

    r = await boss.slash(channel, "darwin settings set", language="it", timer="10m",
                         ai_delay=2.5, ai_level="strong", thread=True, manager_role=mods)
    text = reply_text(r)
    assert text.startswith(t("bot.settings.saved"))
    after = shown(text)
    assert after["language"] == t("bot.settings.changed", value="Italiano (it)",
                                  default="Français (fr)")
    assert after["turn_timer"] == t("bot.settings.changed", value="10 min",
                                    default=t("bot.settings.off"))
    assert after["ai_delay"].startswith("2.5 s")
    assert after["thread"].startswith(t("bot.settings.yes"))
    assert after["manager_role"].startswith(f"<@&{mods.id}>")

    # the next /evo new: in a thread, in Italian, with the server's timer, delay and level
    r = await ann.slash(channel, "evo new")
    assert r.ephemeral
    thread = channel.threads[0]
    game = env.bot.host.game_in(thread.id)
    assert game is not None and env.bot.host.game_in(channel.id) is None
    assert game.lobby["timer"] == 600 and game.lobby["ai_delay"] == 2.5
    assert game.lobby["lang"] == "it"
    lobby = thread.last_message
    assert lobby.embeds[0].title == t("bot.lobby_title", "it", game="EVO")
    await ann.click(lobby, label=t("bot.btn_ai", "it"))
    assert game.seats[1]["level"] == "strong"
    # an option given to /evo new still wins over the server's default
    r = await bob.slash(channel, "evo new", thread=False, timer=30)
    assert env.bot.host.game_in(channel.id).lobby["timer"] == 30

    # the managers' role: a moderator may remove a seat and cancel anyone's game; others not
    r = await bob.slash(thread, "evo cancel")
    assert reply_text(r) == t("bot.error.not_creator")
    r = await mod.slash(thread, "evo remove", player="AI 1")
    assert reply_text(r) == t("bot.ok")
    assert len(game.seats) == 1
    r = await mod.slash(thread, "evo cancel")
    assert game.status == "cancelled"
    await flush(env)

    # reset: one setting back to its default
    r = await boss.slash(channel, "darwin settings reset", setting="thread")
    assert shown(reply_text(r))["thread"] == t("bot.settings.unchanged", value=t("bot.settings.no"))
    assert env.bot.host.cached_settings(guild.id).thread is None


async def test_a_member_without_manage_server_is_refused(simcord_env, locales):  # noqa: F811
    env = simcord_env
    guild, channel, mods, people = server(env)
    ann = people["ann"]
    locales[ann.id] = "fr"
    darwin = env.backend.find_command("darwin", None)
    # /darwin is for everyone (stats, leaderboard, history, replay, undo): the settings
    # commands check Manage Server when they run
    assert darwin.get("default_member_permissions") is None
    for command, options in (("darwin settings show", {}),
                             ("darwin settings set", {"timer": "5m"}),
                             ("darwin settings set", {}),
                             ("darwin settings reset", {"setting": "turn_timer"})):
        r = await ann.slash(channel, command, **options)
        assert r.ephemeral and reply_text(r) == t("bot.error.need_manage_server", "fr")
    assert env.bot.host.cached_settings(guild.id) == ServerSettings()
    assert await env.bot.store.guild_settings(guild.id) == {}


async def test_the_owners_sync_is_shown_to_administrators_only(simcord_env, locales):  # noqa: F811
    """/darwin-sync is a command of its own (not under /darwin, which every member sees):
    Discord shows it to administrators only (default permissions "0"), and it refuses
    anyone but the bot's owner when it runs."""
    from simcord import SetupError

    env = simcord_env
    guild, channel, mods, people = server(env)
    darwin = env.backend.find_command("darwin", None)
    assert all(c["name"] != "sync" for c in darwin.get("options", []))
    assert int(env.backend.find_command("darwin-sync", None)["default_member_permissions"]) == 0
    for name in ("ann", "boss"):  # a member; Manage Server is not enough either
        with pytest.raises(SetupError, match="not visible"):
            await people[name].slash(channel, "darwin-sync")
    admin = guild.add_member(env.create_user("root"), roles=[
        guild.create_role("root", permissions=discord.Permissions(administrator=True))])
    locales[admin.id] = "fr"
    r = await admin.slash(channel, "darwin-sync")
    assert r.ephemeral and reply_text(r) == t("bot.error.not_owner", "fr")


async def test_bad_values_are_refused_in_the_askers_language(simcord_env, locales):  # noqa: F811
    env = simcord_env
    guild, channel, mods, people = server(env)
    boss = people["boss"]
    locales[boss.id] = "it"
    gone = guild.create_role("gone")
    env.backend.delete_role(guild.id, gone.id)  # the client still offers it
    cases = [
        ({"timer": "0"}, "bot.error.timer_zero", {"min": "10 s", "max": "1 d"}),
        ({"timer": "10 years"}, "bot.error.timer_range",
         {"value": "10 years", "min": "10 s", "max": "1 d"}),
        ({"timer": "soon"}, "bot.error.bad_duration", {"value": "soon"}),
        ({"language": "de"}, "bot.error.bad_language", {"value": "de", "languages": "en, fr, it"}),
        ({"ai_delay": -1.0}, "bot.error.ai_delay_range", {"value": "-1.0", "max": 30}),
        ({"manager_role": gone}, "bot.error.deleted_role", {}),
        ({}, "bot.error.nothing_to_set", {"command": "/darwin impostazioni ripristina"}),
    ]
    for options, key, params in cases:
        r = await boss.slash(channel, "darwin settings set", **options)
        assert reply_text(r) == t(key, "it", **params), options
    assert await env.bot.store.guild_settings(guild.id) == {}
    # the language autocomplete offers the catalogue's languages, by their own names
    choices = await boss.autocomplete(channel, "darwin settings set", "language", "")
    assert [c["value"] for c in choices] == ["en", "fr", "it"]
    assert choices[2]["name"] == "Italiano (it)"


async def test_a_deleted_managers_role_is_shown_as_such_and_gives_no_power(simcord_env):
    env = simcord_env
    guild, channel, mods, people = server(env)
    boss, mod, ann = people["boss"], people["mod"], people["ann"]
    await boss.slash(channel, "darwin settings set", manager_role=mods)
    await ann.slash(channel, "evo new")
    env.backend.delete_role(guild.id, mods.id)
    r = await boss.slash(channel, "darwin settings show")
    assert shown(reply_text(r))["manager_role"].startswith(t("bot.settings.deleted_role"))
    r = await mod.slash(channel, "evo cancel")
    assert reply_text(r) == t("bot.error.not_creator")


async def test_settings_survive_a_restart(simcord_env, darwin_config):
    env = simcord_env
    guild, channel, mods, people = server(env)
    boss, ann = people["boss"], people["ann"]
    await boss.slash(channel, "darwin settings set", timer="2h", ai_level="random",
                     manager_role=mods)
    await env.bot.stop_services()
    new_bot = DarwinBot(darwin_config)
    try:
        await env.restart_bot(new_bot)
        r = await boss.slash(channel, "darwin settings show")
        values = shown(reply_text(r))
        assert values["turn_timer"].startswith("2 h")
        assert values["manager_role"].startswith(f"<@&{mods.id}>")
        await ann.slash(channel, "evo new")
        game = new_bot.host.game_in(channel.id)
        assert game.lobby["timer"] == 7200 and game.lobby["ai_level"] == "random"
        # the role's members are recognized after the restart too
        r = await people["mod"].slash(channel, "evo cancel")
        assert game.status == "cancelled", reply_text(r)
    finally:
        await new_bot.stop_services()


def test_every_setting_can_be_reset():
    assert set(SETTING_NAMES) == set(ServerSettings.names())
