"""Slash commands in every catalogue language (discord.py's ``app_commands.Translator``).

Discord shows a command, its options and their choices in the user's language when the
synced payload carries ``name_localizations`` / ``description_localizations``. Their text
comes from the message catalogue under a key made from the command's English path:

* ``<root>.cmd.name`` / ``.description``: the top-level command or group (``evo.cmd.name``)
* ``<root>.cmd.<sub>.name`` / ``.description``: a subcommand (``evo.cmd.bid.name``), one more
  level per nested group (``darwin.cmd.settings.set.name``)
* ``<command>.opt.<option>.name`` / ``.description``: an option (``evo.cmd.bid.opt.gene.name``)
* ``<command>.opt.<option>.choice.<value>``: a choice's name (``game.cmd.ai.opt.level.choice.fast``)

Every part is the English name (the option's shown name: ``from``, not the parameter
``origin``). The commands every game inherits from ``GameCog`` (join, ai, start, new's timer
and thread...) are worded once under ``game.cmd``; a game's own key wins over it. A game keeps
its keys in its own catalogue file (``messages/<lang>/<kind>.toml``, table ``[<kind>.cmd]``),
English included: the English entries must equal the code's (a test checks it).
"""

from __future__ import annotations

from dataclasses import dataclass

from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from messages import DEFAULT_LANG, catalogue, catalogue_lang

SHARED = "game"  # the root of the wording of the commands every game inherits


def command_key(command) -> str:
    """``evo.cmd.bid`` for ``/evo bid``, ``evo.cmd`` for the ``/evo`` group."""
    root, *subs = command.qualified_name.split()
    return ".".join([root, "cmd", *subs])


def option_key(command, option: str) -> str:
    return f"{command_key(command)}.opt.{option}"


def lookup(key: str, lang: str) -> str | None:
    """The text of a command key in ``lang`` (a game's own key, else the shared one)."""
    words = catalogue(lang)
    if key in words:
        return words[key]
    root, _, rest = key.partition(".")
    shared = f"{SHARED}.{rest}"
    return words.get(shared) if root != SHARED else None


def slash(path: str, lang: str) -> str:
    """A command as a reader of ``lang`` types it: ``slash("evo new", "it")`` -> ``/evo nuova``."""
    root, *subs = path.split()
    words = [lookup(f"{root}.cmd.name", lang) or root]
    key = f"{root}.cmd"
    for sub in subs:
        key += f".{sub}"
        words.append(lookup(f"{key}.name", lang) or sub)
    return "/" + " ".join(words)


@dataclass(frozen=True)
class Entry:
    """One localizable string of the command tree: its key, its English text (the code's),
    what it is (``name``, ``description``, ``choice``) and, for names, the siblings it must
    differ from (the parent's key)."""

    key: str
    english: str
    what: str
    parent: str = ""


def entries(tree) -> list[Entry]:
    """Every name, description and choice of the tree's commands, as the code words them."""
    out: list[Entry] = []
    for command in tree.walk_commands():
        key = command_key(command)
        parent = command_key(command.parent) if command.parent is not None else ""
        out.append(Entry(f"{key}.name", command.name, "name", parent))
        out.append(Entry(f"{key}.description", command.description, "description"))
        if isinstance(command, app_commands.Group):
            continue
        for param in command.parameters:
            opt = option_key(command, param.display_name)
            out.append(Entry(f"{opt}.name", param.display_name, "name", key))
            out.append(Entry(f"{opt}.description", param.description, "description"))
            for choice in param.choices:
                out.append(Entry(f"{opt}.choice.{choice.value}", choice.name, "choice"))
    return out


class CatalogueTranslator(app_commands.Translator):
    """Looks every command string up in the catalogue (see the module docstring). English is
    the code's own text; a language the catalogue lacks gets no localization (Discord then
    shows the English)."""

    def __init__(self, tree) -> None:
        self.tree = tree
        self._choices: dict[int, str] = {}  # id(Choice) -> its key

    def _choice_key(self, choice) -> str | None:
        if id(choice) not in self._choices:  # commands added since: index them again
            for command in self.tree.walk_commands():
                if isinstance(command, app_commands.Group):
                    continue
                for param in command.parameters:
                    for c in param.choices:
                        self._choices.setdefault(
                            id(c), f"{option_key(command, param.display_name)}.choice.{c.value}")
        return self._choices.get(id(choice))

    def key(self, context: app_commands.TranslationContext) -> str | None:
        where, data = context.location, context.data
        if where in (Where.command_name, Where.group_name):
            return f"{command_key(data)}.name"
        if where in (Where.command_description, Where.group_description):
            return f"{command_key(data)}.description"
        if where is Where.parameter_name:
            return f"{option_key(data.command, data.display_name)}.name"
        if where is Where.parameter_description:
            return f"{option_key(data.command, data.display_name)}.description"
        if where is Where.choice_name:
            return self._choice_key(data)
        return None

    async def translate(self, string: app_commands.locale_str, locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = catalogue_lang(locale)
        if lang is None or lang == DEFAULT_LANG:
            return None
        key = self.key(context)
        return lookup(key, lang) if key is not None else None
