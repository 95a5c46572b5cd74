"""What every game's message module shares: one way to word an event and one way to word a
refusal.

*Events*: a game declares a table ``{event type: wording}``; a wording takes an
:class:`Event` (the event's fields, ``who`` for a seat's name, ``line`` for the sentence
``<game>.event.<key>``) and gives the line, or None for an event not worth one;
:func:`describe` looks the type up.

*Refusals*: a game declares how each parameter of an ``IllegalAction`` is shown
(``{parameter: (type, format)}``: a value of that type becomes ``format(value, lang,
names)``; :data:`SEAT`, :data:`WAITING`, :func:`named` and :func:`word` build the usual
ones); :func:`refusal` words a malformed action (``bad_action`` with a ``reason``) or the
sentence ``<game>.error.<code>`` with the parameters shown.
"""

from __future__ import annotations

from collections.abc import Callable

from messages import has, t


def who(names: list[str], p) -> str:
    """Seat ``p``'s name ("?" for no such seat)."""
    if isinstance(p, int) and 0 <= p < len(names):
        return names[p]
    return "?"


def species_of(game: str, names: list[str], owner, sid, lang: str) -> str:
    """Species ``sid`` with its owner's name (``<game>.species_of``), or without a seat
    (``<game>.species_ref``)."""
    if isinstance(owner, int) and 0 <= owner < len(names):
        return t(f"{game}.species_of", lang, player=names[owner], id=sid)
    return t(f"{game}.species_ref", lang, id=sid)


# --- events --------------------------------------------------------------------------------------

class Event:
    """One event as its line is worded: ``e["field"]``/``e.get("field")`` its fields,
    ``e.who("field")`` the name of the seat in a field, ``e.line(key, **params)`` the sentence
    ``<game>.event.<key>`` (``key`` defaults to the event's type) in the reader's language."""

    __slots__ = ("event", "game", "lang", "names", "type")

    def __init__(self, game: str, event: dict, names: list[str], lang: str) -> None:
        self.game, self.event, self.names, self.lang = game, event, names, lang
        self.type = event.get("type")

    def __getitem__(self, field: str):
        return self.event[field]

    def get(self, field: str, default=None):
        return self.event.get(field, default)

    def who(self, field: str = "player") -> str:
        return who(self.names, self.event.get(field))

    def line(self, key: str | None = None, **params) -> str:
        return t(f"{self.game}.event.{key or self.type}", self.lang, **params)

    def ranking(self, head: str) -> str:
        """``head`` over one ``ranking_line`` per row of the event's final ``ranking`` (a
        row's fields are the line's parameters, its seat named)."""
        rows = [self.line("ranking_line", **{**row, "player": who(self.names, row["player"])})
                for row in self.event["ranking"]]
        return "\n".join([head, *rows])


def clauses(line: str, *more) -> str:
    """``line`` followed by the clauses of ``more`` that are given (falsy ones left out)."""
    return line + "".join(" " + m for m in more if m)


Wording = Callable[[Event], "str | None"]


def describe(game: str, table: dict[str, Wording], event: dict, names: list[str], lang: str,
             other: Wording | None = None) -> str | None:
    """The line of ``event`` by the game's ``table`` (``other`` for a type it does not name;
    None by default)."""
    wording = table.get(event.get("type"), other)
    return None if wording is None else wording(Event(game, event, names, lang))


# --- refusals ------------------------------------------------------------------------------------

Format = tuple[type, Callable[[object, str, list[str]], str]]

SEAT: Format = (int, lambda p, lang, names: who(names, p))
WAITING: Format = (list, lambda ps, lang, names: ", ".join(who(names, p) for p in ps) or "—")


def named(name: Callable[[object, str], str], kind: type = str) -> Format:
    """A parameter of type ``kind`` shown as ``name(value, lang)``."""
    return kind, lambda value, lang, names: name(value, lang)


def word(prefix: str) -> Format:
    """A text parameter shown as the catalogue's ``<prefix>.<value>`` when there is one."""
    def show(value, lang, names):
        key = f"{prefix}.{value}"
        return t(key, lang) if has(key) else value
    return str, show


def malformed(game: str, error, lang: str) -> str | None:
    """The sentence for a malformed action (``bad_action`` with a known ``reason``), or None."""
    reason = error.params.get("reason")
    key = f"{game}.malformed.{reason}"
    if error.code != "bad_action" or not isinstance(reason, str) or not has(key):
        return None
    return t(key, lang, field=str(error.params.get("field")),
             expected=t(f"{game}.malformed.expected.{error.params.get('expected')}", lang))


def refusal(game: str, error, names: list[str] | None, lang: str, formats: dict[str, Format],
            fallback: bool = True) -> str:
    """The sentence for a refused action (an ``IllegalAction``): a malformed action's, or
    ``<game>.error.<code>`` with each parameter shown by ``formats`` (``<game>.error.bad_action``
    for a code the catalogue does not have, unless not ``fallback``)."""
    text = malformed(game, error, lang)
    if text is not None:
        return text
    params = dict(error.params)
    for field, (kind, show) in formats.items():
        if isinstance(params.get(field), kind):
            params[field] = show(params[field], lang, names or [])
    key = f"{game}.error.{error.code}"
    if fallback and not has(key):
        key = f"{game}.error.bad_action"
    return t(key, lang, **params)
