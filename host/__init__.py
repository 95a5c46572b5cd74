"""The game host: live games per channel, locks, persistence, AI seats and turn timers, and
each server's settings.

It sits between the Discord cogs and the engine and imports neither ``discord`` nor any cog.
"""

from host.host import AUTOPASS_MODES, GameHost, HostError, LiveGame, Outcome, RealClock
from host.settings import ServerSettings, format_duration

__all__ = ["AUTOPASS_MODES", "GameHost", "HostError", "LiveGame", "Outcome", "RealClock",
           "ServerSettings", "format_duration"]
