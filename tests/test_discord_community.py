"""Ratings, stats, leaderboards, rematch, history, replays and undo on Discord (SimCord).

Two people and a strong AI seat play three Cubosaurs games (the second and third through the
Rematch button); their ratings equal openskill's Plackett-Luce computed by hand from the stored
results, a rebuild gives the same numbers and a cancelled game changes nothing; /darwin stats,
leaderboard and history read them back; the Rematch button keeps seats and options, draws a
new seed, works once and refuses when a newer game was opened. Undo: the private button after a
move and /darwin undo, allowed and refused.
"""

from __future__ import annotations

import asyncio

from openskill.models import PlackettLuce

from cogs.community import number
from engine.ai import ai_action
from host.ratings import match_of, ordinal
from messages import t
from messages.cubosaurs import card_label
from tests.conftest import flush
from tests.locales import locales  # noqa: F401 - a fixture
from tests.test_discord import custom_ids, reply_text


def told(result) -> str:
    """What the presser was told privately after a press that also edited the message."""
    return result.followups[-1].content if result.followups else reply_text(result)


def server(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("cubosaurs")
    ann, bob, cy = (guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cy"))
    return guild, channel, ann, bob, cy


async def open_cubosaurs(env, channel, creator, others, **options):
    """/cubosaurs new by ``creator``, the others join, a strong AI seat, Start."""
    r = await creator.slash(channel, "cubosaurs new", **options)
    assert not r.ephemeral, reply_text(r)  # issue 25: answered with the lobby itself
    lobby = channel.last_message
    for user in others:
        await user.click(lobby, label=t("bot.btn_join"))
    r = await creator.slash(channel, "cubosaurs ai", level="strong")
    assert reply_text(r) == t("bot.ok")
    await creator.click(lobby, label=t("bot.btn_start"))
    game = env.bot.host.game_in(channel.id)
    assert game is not None and game.status == "active"
    return game


async def play_to_end(env, channel, game, users):
    """Each person plays the fast AI's choice by slash command one move in four and lets the
    turn timer play the others (to keep the test short); the AI seat plays by itself."""
    by_seat = {game.seat_of(u.id): u for u in users}
    timer = game.lobby["timer"]
    steps = 0
    while game.status == "active":
        steps += 1
        assert steps < 400, "the game does not end"
        seat = game.awaiting()[0]
        before = game.seq
        if seat not in by_seat or steps % 4:
            await env.advance_time(timer + 1 if seat in by_seat else 1.5)
            assert game.seq > before or game.status != "active"
            continue
        action = ai_action(game.rules, game.state, seat, "fast")
        user = by_seat[seat]
        if action["type"] == "keep":
            r = await user.slash(channel, "cubosaurs keep")
        else:
            r = await user.slash(channel, "cubosaurs pass", card=action["card"])
        assert game.seq > before, reply_text(r)
    await flush(env)


def final_message(channel, game_id):
    """The table's last post of a finished game (the one with its Replay button)."""
    return next(m for m in channel.history()
                if f"dw:rp:{game_id}" in custom_ids(m))


def by_hand(results_per_game):
    """openskill's Plackett-Luce over the games in order, one rating per player (the AI
    seat as 'ai:strong')."""
    model = PlackettLuce()
    ratings = {}
    for rows in results_per_game:
        rows = sorted(rows, key=lambda r: r.seat)
        players = ["ai:strong" if r.user_id.startswith("ai:") else r.user_id for r in rows]
        teams = [[ratings.get(p) or model.rating()] for p in players]
        for p, team in zip(players, model.rate(teams, ranks=[r.rank for r in rows]), strict=True):
            ratings[p] = team[0]
    return {p: (r.mu, r.sigma) for p, r in ratings.items()}


async def stored_ratings(store, guild_id, players):
    out = {}
    for p in players:
        for row in await store.player_ratings(guild_id, p):
            out[p] = (row.mu, row.sigma, row.games)
    return out


async def test_three_rated_games_rematches_stats_leaderboard_history(simcord_env, locales):  # noqa: F811
    env = simcord_env
    guild, channel, ann, bob, cy = server(env)
    store = env.bot.store
    game = await open_cubosaurs(env, channel, ann, [bob], interactive=False, timer=20)
    first = game
    games = [game]
    seeds = [game.lobby["seed"]]
    await play_to_end(env, channel, game, [ann, bob])

    # the final message: standings, each person's rating change, Rematch and Replay
    final = final_message(channel, game.id)
    changes = {c.player_id: c for c in await store.rating_changes(game.id)}
    assert set(changes) == {str(ann.id), str(bob.id), "ai:strong"}
    assert t("community.table.ratings") in final.content
    for user, name in ((ann, "ann"), (bob, "bob")):
        c = changes[str(user.id)]
        line = t("community.table.rating_line", player=name,
                 rating=number(ordinal(c.mu_after, c.sigma_after), "en"),
                 change=number(ordinal(c.mu_after, c.sigma_after)
                               - ordinal(c.mu_before, c.sigma_before), "en", signed=True))
        assert line in final.content
    assert f"dw:rm:{game.id}" in custom_ids(final)

    # a stranger cannot ask for the rematch; bob can: same seats, options, timer
    r = await cy.click(final, label=t("community.btn.rematch"))
    assert reply_text(r) == t("bot.error.rematch_not_player")
    r = await bob.click(final, label=t("community.btn.rematch"))
    assert told(r) == t("community.rematch.opened")
    lobby_game = env.bot.host.game_in(channel.id)
    assert lobby_game.status == "lobby" and lobby_game.id != first.id
    assert [(s["id"], s.get("ai"), s.get("level")) for s in lobby_game.seats] == \
        [(s["id"], s.get("ai"), s.get("level")) for s in first.seats]
    assert lobby_game.options == first.options and lobby_game.lobby["timer"] == 20
    assert lobby_game.lobby["creator"] == str(bob.id)
    lobby_message = channel.last_message
    assert f"<@{ann.id}>" in lobby_message.content  # the others are told their seat is kept
    assert f"dw:rm:{first.id}" not in custom_ids(final_message(channel, first.id))  # once
    assert f"dw:rp:{first.id}" in custom_ids(final_message(channel, first.id))
    await bob.click(lobby_message, label=t("bot.btn_start"))
    game = env.bot.host.game_in(channel.id)
    games.append(game)
    seeds.append(game.lobby["seed"])
    await play_to_end(env, channel, game, [ann, bob])

    # a newer game opened by hand makes the older Rematch button stale
    second_final = final_message(channel, game.id)
    game = await open_cubosaurs(env, channel, ann, [bob], interactive=False, timer=20)
    r = await ann.click(second_final, label=t("community.btn.rematch"))
    assert reply_text(r) == t("bot.error.rematch_stale")
    games.append(game)
    seeds.append(game.lobby["seed"])
    await play_to_end(env, channel, game, [ann, bob])
    assert len(set(seeds)) == 3  # each game its own seed

    # pressed once, the button goes; two presses at the same moment open one lobby, the
    # other is told it was opened already (the store names each game's rematch once)
    third_final = final_message(channel, game.id)
    both = await asyncio.gather(*(env.bot.host.rematch(channel.id, game.id, u.id)
                                  for u in (ann, bob)), return_exceptions=True)
    assert sorted(type(x).__name__ for x in both) == ["HostError", "LiveGame"]
    assert next(x for x in both if isinstance(x, Exception)).code == "rematch_taken"
    r = await ann.click(third_final, label=t("community.btn.rematch"))
    assert reply_text(r) == t("bot.error.rematch_taken")

    # the ratings: openskill by hand from the stored results, in the order the games ended
    results = [await store.game_results(g.id) for g in games]
    assert all(r.ai_level == "strong" for rows in results for r in rows if r.user_id == "ai:1")
    expected = by_hand(results)
    players = [str(ann.id), str(bob.id), "ai:strong"]
    got = await stored_ratings(store, guild.id, players)
    for p in players:
        assert abs(got[p][0] - expected[p][0]) < 1e-9 and abs(got[p][1] - expected[p][1]) < 1e-9
        assert got[p][2] == 3

    # the fourth game (the rematch lobby) is cancelled: nothing changes
    r = await ann.slash(channel, "cubosaurs cancel")
    await flush(env)
    assert await stored_ratings(store, guild.id, players) == got

    # a rebuild from the results alone gives the same numbers
    assert await store.rebuild_ratings(match_of) == (3, 3)
    rebuilt = await stored_ratings(store, guild.id, players)
    assert rebuilt == got
    assert len(await store.rating_history(guild.id, "cubosaurs", ann.id)) == 3

    # /darwin stats: public, one line of figures and the rating
    r = await cy.slash(channel, "darwin stats", user=ann, game="cubosaurs")
    assert not r.ephemeral
    text = reply_text(r)
    mine = [rows for rows in results]
    ann_rows = [x for rows in mine for x in rows if x.user_id == str(ann.id)]
    wins = sum(1 for x in ann_rows if x.rank == 1)
    assert t("community.stats.game", game="Cubosaurs", games=3, wins=wins,
             rank=number(sum(x.rank for x in ann_rows) / 3, "en"),
             best=max(x.score for x in ann_rows)) in text, text
    history = await store.rating_history(guild.id, "cubosaurs", ann.id)
    change = ordinal(history[0].mu_after, history[0].sigma_after) - ordinal(
        history[-1].mu_before, history[-1].sigma_before)
    assert t("community.stats.rating", rating=number(ordinal(*got[str(ann.id)][:2]), "en"),
             change=number(change, "en", signed=True), count=3) in text, text
    r = await bob.slash(channel, "darwin stats")
    assert reply_text(r).startswith(t("community.stats.title", player="bob",
                                      scope=t("community.all_games")))
    r = await cy.slash(channel, "darwin stats")
    assert reply_text(r) == t("community.stats.none", player="cy")
    locales[cy.id] = "it"  # in the reader's language, with its decimal comma
    r = await cy.slash(channel, "darwin stats", user=ann, game="Cubosaurs")
    assert t("community.stats.rating", "it", rating=number(ordinal(*got[str(ann.id)][:2]), "it"),
             change=number(change, "it", signed=True), count=3) in reply_text(r)
    assert "," in number(ordinal(*got[str(ann.id)][:2]), "it")
    del locales[cy.id]

    # /darwin leaderboard: the three rated players, best first, the AI by its level
    r = await cy.slash(channel, "darwin leaderboard", game="cubosaurs")
    assert not r.ephemeral
    lines = reply_text(r).splitlines()
    assert lines[0] == t("community.board.title", game="Cubosaurs", min=3)
    order = sorted(players, key=lambda p: -ordinal(*got[p][:2]))
    names = {str(ann.id): "ann", str(bob.id): "bob",
             "ai:strong": t("community.ai_player", level="strong")}
    assert lines[1:] == [t("community.board.line", n=i + 1, player=names[p],
                           rating=number(ordinal(*got[p][:2]), "en"), games=3)
                         for i, p in enumerate(order)]
    r = await cy.slash(channel, "darwin leaderboard", game="EVO")  # a name works too
    assert reply_text(r) == t("community.board.empty", min=3, game="EVO")
    choices = await cy.autocomplete(channel, "darwin leaderboard", "game", "cub")
    assert [c["value"] for c in choices] == ["cubosaurs"]

    # /darwin history: the three games, newest first, a Replay button each
    r = await cy.slash(channel, "darwin history")
    assert not r.ephemeral
    lines = reply_text(r).splitlines()
    assert lines[0] == t("community.history.title") and len(lines) == 4
    for line, g, rows in zip(lines[1:], reversed(games), reversed(results), strict=True):
        winners = [x.name for x in sorted(rows, key=lambda x: x.seat) if x.rank == 1]
        assert line.startswith(f"#{g.id} · <t:") and line.endswith("🏆 " + ", ".join(winners))
        assert "Cubosaurs · ann, bob, AI 1" in line
    assert custom_ids(r.response.message) == [f"dw:rp:{g.id}" for g in reversed(games)]

    # its Replay button: the game's GIF, privately, for whoever presses
    r = await cy.click(r.response, custom_id=f"dw:rp:{first.id}")
    assert r.ephemeral
    shown = r.followups[-1] if r.followups else r.response
    assert shown.content.startswith(t("community.replay.caption", game=first.id,
                                      kind="Cubosaurs", frames="")[:-9]), shown.content
    assert t("community.replay.not_exact") not in shown.content
    assert [a.filename for a in shown.attachments] == [f"darwin-{first.id}.gif"]
    # /darwin replay: the channel's games offered, the GIF in public
    choices = await cy.autocomplete(channel, "darwin replay", "game", "")
    assert [c["value"] for c in choices] == [str(g.id) for g in reversed(games)]
    r = await cy.slash(channel, "darwin replay", game=str(games[-1].id))
    assert not r.ephemeral
    shown = r.followups[-1] if r.followups else r.response
    assert [a.filename for a in shown.attachments] == [f"darwin-{games[-1].id}.gif"]
    # not a game of this channel, a cancelled one: refused privately, nothing drawn
    r = await cy.slash(channel, "darwin replay", game="999")
    assert r.ephemeral and reply_text(r) == t("bot.error.replay_not_here", game=999)
    cancelled = games[-1].id + 1
    r = await cy.slash(channel, "darwin replay", game=f"#{cancelled}")
    assert r.ephemeral and reply_text(r) == t("bot.error.replay_cancelled", game=cancelled)


async def test_undo_button_and_command(simcord_env):
    env = simcord_env
    guild, channel, ann, bob, cy = server(env)
    host = env.bot.host
    r = await ann.slash(channel, "cubosaurs new")
    lobby = channel.last_message
    await bob.click(lobby, label=t("bot.btn_join"))
    await ann.click(lobby, label=t("bot.btn_start"))
    game = host.game_in(channel.id)
    by_seat = {game.seat_of(u.id): u for u in (ann, bob)}
    names = {ann: "ann", bob: "bob"}

    async def move(kind):
        """The awaited person plays a move of that kind (keep or pass) by command."""
        seat = game.awaiting()[0]
        user = by_seat[seat]
        legal = [a for a in game.rules.legal_actions(game.state, seat) if a["type"] == kind]
        if kind == "keep":
            return user, await user.slash(channel, "cubosaurs keep")
        return user, await user.slash(channel, "cubosaurs pass", card=legal[0]["card"])

    # a pass reveals nothing: the press (the table's button, then the private menu) is
    # answered privately with an Undo button, which takes the move back
    from tests.test_discord_cubosaurs import choose_privately

    await flush(env)
    seat = game.awaiting()[0]
    user = by_seat[seat]
    card = next(a["card"] for a in game.rules.legal_actions(game.state, seat)
                if a["type"] == "pass")
    r = await user.click(channel.last_message, custom_id=f"dw:c:{game.id}:{game.seq}:{seat}:pass")
    r = await choose_privately(user, r, f"dw:s:{game.id}:{game.seq}:{seat}:pass", card_label(card))
    assert told(r) == t("community.undo.offer")
    seq, before = game.seq, game.rules.to_json(game.state)
    offer = r.followups[-1] if r.followups else r.response.message
    r2 = await user.click(offer, label=t("bot.undo.button"))
    assert reply_text(r2) == t("community.undo.done")
    assert game.seq == seq + 1 and game.awaiting() == [seat]
    await flush(env)
    assert t("bot.undo.done", player=names[user]) in channel.last_message.content
    assert game.rules.to_json(game.state) != before

    # by command: the confirmation carries the button too
    user, r = await move("pass")
    assert reply_text(r) == t("community.undo.offer")
    message = r.followups[-1] if r.followups else r.response
    assert custom_ids(message.message) == [f"dw:u:{game.id}:{game.seq}"]
    r2 = await user.slash(channel, "darwin undo")
    assert reply_text(r2) == t("community.undo.done")

    # the same move again; the other player cannot take it back, and once they have played
    # the first cannot either
    user, r = await move("pass")
    other = bob if user is ann else ann
    r = await other.slash(channel, "darwin undo")
    assert reply_text(r) == t("bot.undo.refused.not_yours")
    other_user, r = await move("pass")
    assert other_user is other
    r = await user.slash(channel, "darwin undo")
    assert reply_text(r) == t("bot.undo.refused.acted_since")
    r = await other.slash(channel, "darwin undo")
    assert reply_text(r) == t("community.undo.done")

    # a keep draws a new hand: no Undo offered, and /darwin undo says why
    user, r = await move("keep")
    assert reply_text(r) == t("bot.ok")
    r = await user.slash(channel, "darwin undo")
    assert reply_text(r) == t("bot.undo.refused.revealed")
    r = await cy.slash(channel, "darwin undo")
    assert reply_text(r) == t("bot.error.not_a_player")


async def test_nobody_takes_back_an_ai_or_a_timer_step(simcord_env):
    env = simcord_env
    guild, channel, ann, bob, cy = server(env)
    host = env.bot.host
    game = await open_cubosaurs(env, channel, ann, [bob], timer=20)
    by_seat = {game.seat_of(u.id): u for u in (ann, bob)}
    ai_seat = next(i for i, s in enumerate(game.seats) if s.get("ai"))

    async def until_person():
        while game.awaiting()[0] == ai_seat:
            await env.advance_time(1.5)
        return game.awaiting()[0]

    # the turn timer plays a late person's step: not theirs to take back
    seat = await until_person()
    seq = game.seq
    await env.advance_time(20.5)  # the timer, not yet the AI seat after it
    assert game.seq == seq + 1
    r = await by_seat[seat].slash(channel, "darwin undo")
    assert reply_text(r) == t("bot.undo.refused.automatic")
    assert game.seq == seq + 1

    # the AI seat's step: nobody's to take back
    while game.awaiting()[0] != ai_seat:
        await until_person()
        seat = game.awaiting()[0]
        action = ai_action(game.rules, game.state, seat, "fast")
        if action["type"] == "keep":
            await by_seat[seat].slash(channel, "cubosaurs keep")
        else:
            await by_seat[seat].slash(channel, "cubosaurs pass", card=action["card"])
    await env.advance_time(1.5)
    seq = game.seq
    assert host.undo_refusal(game, ai_seat) is not None
    for user in (ann, bob):
        r = await user.slash(channel, "darwin undo")
        assert reply_text(r) in (t("bot.undo.refused.acted_since"),
                                 t("bot.undo.refused.not_yours")), reply_text(r)
    assert game.seq == seq
