"""Users and servers with a Discord language, under SimCord (which sends ``en-US`` for all).

``locales`` is a fixture: ``locales[user.id] = "fr"`` makes that user's interactions carry
``locale: "fr"``; every interaction in a server carries the server's ``preferred_locale``
as ``guild_locale`` (``env.create_guild(preferred_locale="it")``). Import it into a test
module (``from tests.locales import locales``) to use it there.
"""

from __future__ import annotations

import pytest


@pytest.fixture
def locales(monkeypatch) -> dict[int, str]:
    import simcord.interactions as wire

    chosen: dict[int, str] = {}
    original = wire.base_payload

    def base_payload(backend, *, user_id, guild_id, **kwargs):
        record, payload = original(backend, user_id=user_id, guild_id=guild_id, **kwargs)
        payload["locale"] = chosen.get(user_id, payload["locale"])
        if guild_id is not None:
            payload["guild_locale"] = backend.get_guild(guild_id).preferred_locale
        return record, payload

    monkeypatch.setattr(wire, "base_payload", base_payload)
    return chosen
