"""Slash commands in Italian and French: every name, description and choice of the command
tree has a localization in the catalogue that Discord accepts, and the synced payload
carries them."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest

from cogs.bot import EXTENSIONS, DarwinBot
from cogs.translator import SHARED, CatalogueTranslator, command_key, entries, lookup, slash
from engine.core import description, game_kinds
from messages import catalogue, languages

OTHERS = [lang for lang in languages() if lang != "en"]
MAX_COMMAND_CHARS = 8000  # Discord: names, descriptions and choice values of one command


def valid_name(text: str) -> bool:
    """Discord's rule for command and option names: lowercase, 1-32 characters, each a
    letter, a digit, '-' or '_'."""
    return (1 <= len(text) <= 32 and text == text.lower()
            and all(c.isalnum() or c in "-_" for c in text))


@pytest.fixture
async def bot(darwin_config):
    """The bot with every cog loaded and its translator (nothing started, nothing synced)."""
    bot = DarwinBot(darwin_config)
    await bot.tree.set_translator(CatalogueTranslator(bot.tree))
    for ext in EXTENSIONS:
        await bot.load_extension(ext)
    return bot


@pytest.fixture
def tree(bot):
    return bot.tree


@pytest.mark.parametrize("lang", OTHERS)
async def test_every_command_string_has_a_localization_discord_accepts(tree, lang):
    problems = []
    for entry in entries(tree):
        text = lookup(entry.key, lang)
        if text is None:
            problems.append((entry.key, "missing"))
        elif entry.what == "name" and not valid_name(text):
            problems.append((entry.key, text))
        elif entry.what in ("description", "choice") and not 1 <= len(text) <= 100:
            problems.append((entry.key, len(text)))
    assert problems == []


@pytest.mark.parametrize("lang", languages())
async def test_no_two_options_or_subcommands_of_one_command_share_a_name(tree, lang):
    names = defaultdict(list)
    for entry in entries(tree):
        if entry.what == "name":
            names[entry.parent].append(lookup(entry.key, lang) or entry.english)
    clashes = {parent: sorted(n for n in set(group) if group.count(n) > 1)
               for parent, group in names.items() if len(set(group)) != len(group)}
    assert clashes == {}


async def test_the_english_catalogue_words_each_command_as_the_code_does(tree):
    wrong = [(e.key, e.english, lookup(e.key, "en")) for e in entries(tree)
             if lookup(e.key, "en") != e.english]
    assert wrong == []


async def test_no_command_key_is_left_over(tree):
    used = {e.key for e in entries(tree)}
    used |= {f"{SHARED}.{e.key.partition('.')[2]}" for e in entries(tree)}
    roots = {command_key(c).split(".")[0] for c in tree.get_commands()} | {SHARED}
    stale = [k for k in catalogue("en") if ".cmd." in f"{k}." and k.split(".")[0] in roots
             and k not in used]
    assert stale == []


async def test_localizations_of_shared_commands_come_from_the_shared_wording(tree):
    assert lookup("evo.cmd.join.name", "it") == catalogue("it")["game.cmd.join.name"]
    assert lookup("evo.cmd.new.description", "fr") == catalogue("fr")["evo.cmd.new.description"]
    assert lookup("evo.cmd.nothing.name", "fr") is None
    assert slash("evo new", "it") == "/evo " + catalogue("it")["game.cmd.new.name"]
    assert slash("mutations choose", "fr") == "/mutations choisir"
    assert slash("evo new", "en") == "/evo new"


@pytest.mark.parametrize("lang", languages())
async def test_sentences_name_commands_as_their_readers_type_them(tree, lang):
    subcommands = defaultdict(set)  # root -> its subcommands' names in this language
    for entry in entries(tree):
        if entry.what == "name" and entry.parent.count(".") == 1:  # parent: "<root>.cmd"
            subcommands[entry.parent.split(".")[0]].add(lookup(entry.key, lang))
    roots = "|".join(subcommands)
    named = re.compile(rf"/({roots}) ([\w-]+)")
    wrong = [(key, m[0]) for key, text in catalogue(lang).items()
             for m in named.finditer(text) if m[2] not in subcommands[m[1]]]
    assert wrong == []


def _walk(node: dict, path: str = ""):
    """Every command, subcommand and option of a payload, then every choice."""
    here = f"{path} {node['name']}".strip()
    yield here, node
    for child in node.get("options") or []:
        yield from _walk(child, here)
    for choice in node.get("choices") or []:
        yield f"{here} = {choice['value']}", choice


@pytest.mark.parametrize("lang", OTHERS)
async def test_the_synced_payload_carries_italian_and_french(simcord_env, lang):
    """The commands as the fake Discord received them from ``tree.sync`` at start."""
    env = simcord_env
    registered = env.backend.commands.get(None, {})
    roots = {name for name, _ in registered}
    assert {"evo", "cubosaurs", "mutations", "darwin"} <= roots
    missing = []
    for command in registered.values():
        for path, node in _walk(command):
            if lang not in (node.get("name_localizations") or {}):
                missing.append((path, "name"))
            if "description" in node and lang not in (node.get("description_localizations") or {}):
                missing.append((path, "description"))
    assert missing == []
    evo = registered[("evo", 1)]
    bid = next(o for o in evo["options"] if o["name"] == "bid")
    assert bid["name_localizations"][lang] == catalogue(lang)["evo.cmd.bid.name"]
    amount = next(o for o in bid["options"] if o["name"] == "amount")
    assert amount["description_localizations"][lang] == catalogue(lang)[
        "evo.cmd.bid.opt.amount.description"]
    ai = next(o for o in evo["options"] if o["name"] == "ai")
    fast = next(c for c in ai["options"][0]["choices"] if c["value"] == "fast")
    assert fast["name_localizations"][lang] == catalogue(lang)["game.cmd.ai.opt.level.choice.fast"]
    # a language the catalogue lacks gets no localization: Discord shows the English
    assert "ja" not in evo["name_localizations"]


async def test_each_games_ai_command_offers_the_levels_that_game_has(simcord_env):
    """``/<game> ai``'s choices as synced: a game's own ``ai_levels`` (Cubosaurs has no
    expert), the one shared declaration left unchanged for the other games."""
    registered = simcord_env.backend.commands.get(None, {})
    offered = {}
    for kind in game_kinds():
        root = registered[(kind, 1)]
        ai = next(o for o in root["options"] if o["name"] == "ai")
        offered[kind] = {c["value"] for c in ai["options"][0]["choices"]}
        assert offered[kind] == set(description(kind).ai_levels), kind
    assert "expert" not in offered["cubosaurs"] and "expert" in offered["evo"]


async def test_each_command_fits_discords_size_limit_in_every_language(tree):
    sizes = defaultdict(int)  # (root, lang) -> characters
    for entry in entries(tree):
        root = entry.key.split(".")[0]
        for lang in languages():
            sizes[root, lang] += len(lookup(entry.key, lang) or entry.english)
    assert max(sizes.values()) <= MAX_COMMAND_CHARS, max(sizes.items(), key=lambda x: x[1])


async def test_the_sync_hash_changes_with_a_translation(bot, monkeypatch):
    before = await bot.command_hash()
    words = dict(catalogue("it"))
    words["evo.cmd.bid.name"] = "puntata"
    monkeypatch.setattr("cogs.translator.catalogue",
                        lambda lang: words if lang == "it" else catalogue(lang))
    assert await bot.command_hash() != before
