"""The game host: live games per channel, locks, persistence, AI seats and turn timers.

It sits between the Discord cogs and the engine and imports neither ``discord`` nor any cog.
"""

from host.host import AUTOPASS_MODES, GameHost, HostError, LiveGame, Outcome, RealClock

__all__ = ["AUTOPASS_MODES", "GameHost", "HostError", "LiveGame", "Outcome", "RealClock"]
