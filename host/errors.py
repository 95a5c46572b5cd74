"""The host's refusals (kept apart so that every host module can raise them)."""

from __future__ import annotations

from typing import Any

from engine.core import _refusal_text


class HostError(Exception):
    """A refusal by the host (not the rules): ``code`` + ``params`` for the catalogue."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(_refusal_text(code, params))  # never fails, whatever the values
        self.code = code
        self.params = params
