"""The root of fdlab's errors: one class to catch whatever fdlab refuses on purpose.

Every error fdlab raises about what it was given (a track file, a move, a
bid, a setting) derives from :class:`FdlabError`, itself a ``ValueError``,
and says in plain words what is wrong and where. Each package keeps its
own errors in its ``errors.py``; this module imports nothing, so any layer
may use it.

Some fdlab errors are more than a value error, and say so by deriving
from a second built-in class too:

* :class:`fdlab.rules.errors.RaceStuckError` is also a ``RuntimeError``: a
  race that hits its cap on rounds is a bug in the engine or a bot, not bad
  input;
* :class:`fdlab.fun.invariants.InvariantError` is also an
  ``AssertionError``: a Formula Fun state that breaks the game's own
  bookkeeping (checked by tests and playouts), again a bug;
* :class:`fdlab.editor.placing.Unplaced` is also a ``LookupError``: an edit
  whose place (a lane at a share of the lap, a corner) is not on the board
  any more; the editor lists such edits after a rebuild;
* :class:`fdlab.track.errors.SpaceNotOnTrackError` is also a ``KeyError``:
  ``track.space(id)`` of a space the board does not have; so is
  :class:`fdlab.plot.errors.UnknownSpaceError`, one of them, for a car or a
  highlight drawn there;
* :class:`fdlab.fun.errors.BotLimitError` is also a ``RuntimeError``:
  Formula Fun bots that go on past the cap on actions, a bug in a bot;
* :class:`fdlab.rules.errors.RuleTypeError`,
  :class:`fdlab.track.errors.TrackTypeError` and
  :class:`fdlab.table.errors.TableTypeError` are each also a ``TypeError``:
  a value of the wrong type (``Race(track, seed="x")``), which
  ``except TypeError`` keeps catching.

The ``fdlab`` command and the commands of the packages refuse what they
cannot act on (an output file that exists, without ``--force``) with a
:class:`CommandError`.

Examples
--------
>>> import fdlab.rules, fdlab.track
>>> issubclass(fdlab.rules.RuleError, FdlabError), issubclass(FdlabError, ValueError)
(True, True)
"""

from __future__ import annotations

__all__ = ["CommandError", "FdlabError"]


class FdlabError(ValueError):
    """Anything fdlab refuses on purpose; the message says what is wrong and where."""


class CommandError(FdlabError):
    """Arguments an fdlab command cannot act on (an output that exists, a wrong suffix)."""
