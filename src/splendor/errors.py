"""The errors of the engines, one class per cause, each a :class:`ValueError` (as
python-chess's ``InvalidMoveError`` and ``IllegalMoveError``).

Every error an engine raises on bad input is a :class:`SplendorError`, so an interface
(the terminal, the web server, the bot protocol, the research environments) catches that
one class, and a finer one when it words the causes apart:

- :class:`ParseError`: text that is not notation (an action, a position, a card), or an
  action id out of range; the message quotes the input and says what is allowed.
- :class:`IllegalActionError`: a well-formed action that the rules do not allow now; the
  state is unchanged.
- :class:`PositionError`: a position (JSON or text) that is malformed or impossible; the
  message names the field and the rule.

Being :class:`ValueError`\\ s, they are caught by code written before they existed.
"""

from __future__ import annotations


class SplendorError(ValueError):
    """Bad input to an engine: the base of every error the engines raise on purpose."""


class ParseError(SplendorError):
    """Text that is not notation of the game, or an action id out of range: the message
    quotes the input and says how to write it."""


class IllegalActionError(SplendorError):
    """An action that is well formed but not legal in this state; the state is unchanged."""


class PositionError(SplendorError):
    """A position that is malformed (a missing or mistyped field) or impossible (a rule
    broken): the message names the field and the rule."""


__all__ = ["IllegalActionError", "ParseError", "PositionError", "SplendorError"]
