"""Errors that speak to the person: each says what was wrong and what is allowed."""


class NemetonError(Exception):
    """Base class of every error Nemeton raises on purpose."""


class InvalidOptionsError(NemetonError, ValueError):
    """A game was asked for with an unknown option, a bad value or a bad player count."""


class IllegalActionError(NemetonError, ValueError):
    """An action that is not legal now. The state is left unchanged."""


class UnknownGameError(NemetonError, KeyError):
    """No registered game has that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class RecordError(NemetonError, ValueError):
    """A game record or state JSON that cannot be read."""


class InputError(NemetonError, ValueError):
    """A file or value typed by a person is malformed (the message names the bad part)."""


class InvalidSeatError(NemetonError, ValueError):
    """A seat that is not an integer from 0 to players-1 (or None where the spectator is meant)."""
