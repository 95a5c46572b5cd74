"""The host's refusals (kept apart so that every host module can raise them)."""

from __future__ import annotations

from typing import Any


class HostError(Exception):
    """A refusal by the host (not the rules): ``code`` + ``params`` for the catalogue."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params
