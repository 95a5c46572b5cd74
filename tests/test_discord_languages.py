"""Every player in their own language: on an Italian server, a French, an Italian and a
Japanese player (the catalogue has no Japanese: English) play EVO. Each private reply is in
its reader's language; every public message and image is in Italian."""

from __future__ import annotations

import json

import images
from cogs import game as game_module
from engine.evo.ai import choose_action
from messages import t
from tests.conftest import flush
from tests.locales import locales  # noqa: F401 - a fixture
from tests.test_discord import reply_text

PLAYERS = {"fra": "fr", "ita": "it", "jun": "ja"}
READS = {"fr": "fr", "it": "it", "ja": "en"}  # the catalogue has no Japanese: English


def prefix(key: str, lang: str) -> str:
    """A sentence's fixed start (what comes before its first placeholder)."""
    return t(key, lang).split("{")[0]


def public_text(message) -> str:
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
    return "\n".join(parts)


def button_labels(message) -> list[str]:
    return [getattr(child, "label", None) or ""
            for row in message.components for child in getattr(row, "children", [row])]


async def play(env, channel, user, game, seat, action):
    """One action as a player sends it (slash commands; the table's buttons read Italian)."""
    kind = action["type"]
    await flush(env)
    if kind == "move":
        return await user.slash(channel, "evo move", **{"from": action["from"], "to": action["to"]})
    if kind == "end":
        return await user.slash(channel, "evo end")
    if kind == "hatch":
        return await user.slash(channel, "evo hatch", region=action["region"])
    if kind == "lose":
        return await user.slash(channel, "evo lose", regions=" ".join(action["regions"]))
    if kind == "bid":
        return await user.slash(channel, "evo bid", gene=str(action["gene"]),
                                amount=action["amount"])
    if kind == "pass":
        return await user.slash(channel, "evo pass")
    if kind == "play":
        card = json.dumps(action, separators=(",", ":"), sort_keys=True)
        return await user.slash(channel, "evo play", card=card)
    label = t("bot.btn_first_go" if action["go"] else "bot.btn_first_keep", "it")
    return await user.click(channel.last_message, label=label)


async def test_private_replies_in_the_readers_language_public_ones_in_the_servers(
        simcord_env, locales, monkeypatch):  # noqa: F811 - the fixture
    env = simcord_env
    drawn: list[str] = []  # the language of every board picture drawn
    real_render = images.render

    def render(kind, view, lang="en"):
        drawn.append(lang)
        return real_render(kind, view, lang)

    monkeypatch.setattr(images, "render", render)
    monkeypatch.setattr(game_module, "render", render)

    guild = env.create_guild(preferred_locale="it")
    channel = guild.create_text_channel("evo")
    users = {}
    for name, locale in PLAYERS.items():
        users[name] = guild.add_member(env.create_user(name))
        locales[users[name].id] = locale
    lang_of = {u.id: READS[PLAYERS[name]] for name, u in users.items()}
    fra, ita, jun = users["fra"], users["ita"], users["jun"]

    # the lobby: opened by the French player, public in Italian
    r = await fra.slash(channel, "evo new")
    assert not r.ephemeral  # issue 25: answered with the lobby itself (public: Italian)
    lobby = channel.last_message
    assert lobby.embeds[0].title == t("bot.lobby_title", "it", game="EVO")
    assert t("bot.btn_join", "it") in button_labels(lobby)
    await ita.click(lobby, label=t("bot.btn_join", "it"))
    await jun.click(lobby, label=t("bot.btn_join", "it"))
    for user in (fra, jun):  # a refusal, each in its reader's language
        r = await user.slash(channel, "evo join")
        assert reply_text(r) == t("bot.error.already_joined", lang_of[user.id])
    await fra.click(lobby, label=t("bot.btn_start", "it"))
    game = env.bot.host.game_in(channel.id)
    assert game.status == "active" and game.lobby["lang"] == "it"
    by_seat = {game.seat_of(u.id): u for u in users.values()}

    # autocomplete labels and /evo rules in the asker's language
    for user in users.values():
        lang = lang_of[user.id]
        choices = await user.autocomplete(channel, "evo rules", "topic", "")
        assert choices[0]["name"] == f"1. {t('evo.phase.initiative', lang)}"
        r = await user.slash(channel, "evo rules", topic="phase:movement")
        assert r.response.embeds[0].title == t("evo.phase.movement", lang)

    # play a whole first turn, every action by its player's slash command
    while game.status == "active" and game.state.turn < 2:
        seat = next(p for p in game.awaiting() if not env.bot.host._auto_passes(game, p))
        user = by_seat[seat]
        others = [u for s, u in by_seat.items() if s not in game.awaiting()]
        if others:  # someone not awaited tries to act: refused in their language
            r = await others[0].slash(channel, "evo end")
            assert reply_text(r).startswith(prefix("evo.error.not_your_turn",
                                                   lang_of[others[0].id])), reply_text(r)
        action = choose_action(game.rules, game.state, seat, "fast")
        r = await play(env, channel, user, game, seat, action)
        if action["type"] != "first":
            # done (with the offer to take it back when it may be): in the player's language
            assert reply_text(r) in (t("bot.ok", lang_of[user.id]),
                                     t("community.undo.offer", lang_of[user.id]))
    await flush(env)

    # private: the hand, the status, the board, each in its reader's language
    for user in users.values():
        lang = lang_of[user.id]
        r = await user.slash(channel, "evo hand")
        assert r.ephemeral and r.response.embeds[0].title == t("bot.hand_title", lang)
        r = await user.slash(channel, "evo status")
        assert prefix("bot.status_awaiting", lang) in reply_text(r)
        r = await user.slash(channel, "evo board")
        files = [a for m in [r.response, *r.followups] if m for a in m.attachments]
        assert r.ephemeral and [a.filename for a in files] == ["board.png"]
    cog = env.bot.get_cog("Evo")
    assert {lang for (gid, lang) in cog._boards if gid == game.id} == {"fr", "it", "en"}

    # public: every message the channel shows is in Italian, its pictures too
    messages = list(channel.history())
    tables = [m for m in messages if m.id != lobby.id]
    assert len(tables) >= 2 and any(m.attachments for m in tables)
    for message in tables:
        text = public_text(message)
        header = next(line for line in text.splitlines() if not line.startswith("<@"))
        assert header.startswith("**EVO — turno "), header
        for lang in ("en", "fr"):
            for key in ("bot.turn_prompt", "bot.window_prompt", "bot.waiting_prompt"):
                assert prefix(key, lang) not in text, (lang, key, text)
        for label in button_labels(message):
            assert label not in (t("bot.btn_hand", "en"), t("bot.btn_hand", "fr"),
                                 t("bot.btn_pass", "en"), t("bot.btn_pass", "fr"))
    assert any(prefix("bot.turn_prompt", "it") in public_text(m) for m in tables)
    assert any(t("bot.btn_hand", "it") in button_labels(m) for m in tables)
    table_pictures = len([a for m in tables for a in m.attachments])
    assert drawn.count("it") >= table_pictures
    assert set(drawn) == {"it", "fr", "en"}  # the Italian table, and three private boards


async def test_a_server_whose_language_the_catalogue_lacks_gets_the_configured_one(
        simcord_env, locales):  # noqa: F811 - the fixture
    env = simcord_env
    guild = env.create_guild(preferred_locale="ja")
    channel = guild.create_text_channel("evo")
    ann = guild.add_member(env.create_user("ann"))
    locales[ann.id] = "it"
    r = await ann.slash(channel, "evo new")
    assert not r.ephemeral  # issue 25: answered with the lobby itself
    assert channel.last_message.embeds[0].title == t("bot.lobby_title", "en", game="EVO")
    assert env.bot.host.game_in(channel.id).lobby["lang"] == "en"
