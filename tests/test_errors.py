"""One error root: every exception class fdlab defines derives from FdlabError, and no
name is defined twice (so ``except SomeError`` always means one thing)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import fdlab
from fdlab.errors import FdlabError

#: The errors that are a second built-in kind too, and why (README, fdlab/errors.py).
SECOND_KIND = {
    "fdlab.rules.errors.RaceStuckError": RuntimeError,  # a bug in the engine or a bot
    "fdlab.fun.invariants.InvariantError": AssertionError,  # a bug in Formula Fun's engine
    "fdlab.editor.placing.Unplaced": LookupError,  # an edit whose place is gone
    "fdlab.plot.errors.UnknownSpaceError": KeyError,  # a car on a space the board lacks
    "fdlab.track.errors.SpaceNotOnTrackError": KeyError,  # Track.space of a space it lacks
    "fdlab.fun.errors.BotLimitError": RuntimeError,  # Formula Fun bots past run_bots's limit
    # a value of the wrong type: ``except TypeError`` keeps catching it
    "fdlab.rules.errors.RuleTypeError": TypeError,
    "fdlab.track.errors.TrackTypeError": TypeError,
    "fdlab.table.errors.TableTypeError": TypeError,
}


def _modules() -> list[object]:
    return [
        importlib.import_module(info.name)
        for info in pkgutil.walk_packages(fdlab.__path__, "fdlab.")
        if not info.name.endswith("__main__")
    ]


def _defined_here(module: object) -> list[tuple[str, object]]:
    return [
        (name, value)
        for name, value in vars(module).items()
        if (inspect.isclass(value) or inspect.isfunction(value))
        and getattr(value, "__module__", None) == module.__name__  # type: ignore[attr-defined]
    ]


def test_every_exception_fdlab_defines_is_an_fdlab_error():
    errors = {
        f"{value.__module__}.{value.__qualname__}": value
        for module in _modules()
        for _, value in _defined_here(module)
        if inspect.isclass(value)
        and issubclass(value, BaseException)
        # a warning is no error: the builder says what it did other than asked
        and not issubclass(value, Warning)
    }
    assert len(errors) > 40
    outside = sorted(name for name, error in errors.items() if not issubclass(error, FdlabError))
    assert outside == []
    for name, kind in SECOND_KIND.items():
        assert issubclass(errors[name], kind), name
    assert issubclass(FdlabError, ValueError)


#: Names every subcommand module of the ``fdlab`` command defines: the protocol
#: ``fdlab.cli`` dispatches by (``arguments`` adds the options, ``run`` runs them).
SUBCOMMAND_PROTOCOL = {"arguments", "run"}


def test_no_public_class_or_function_is_defined_twice_under_one_name():
    homes: dict[str, list[str]] = defaultdict(list)
    for module in _modules():
        for name, value in _defined_here(module):
            if not name.startswith("_") and name not in SUBCOMMAND_PROTOCOL:
                homes[name].append(value.__module__)  # type: ignore[attr-defined]
    twice = {name: where for name, where in homes.items() if len(where) > 1}
    assert twice == {}


# -- no bare built-in errors: what fdlab raises on purpose is an FdlabError --------------

#: The built-in errors fdlab never raises bare: each refusal is an FdlabError (a
#: ``ValueError``; a refusal of a value of the wrong type also a ``TypeError``, a missing
#: key also a ``KeyError``, a limit reached also a ``RuntimeError``: :data:`SECOND_KIND`).
#: Not here: ``NotImplementedError`` (an abstract method), ``AttributeError`` (a module's
#: ``__getattr__``), and a re-raise (``raise`` or ``raise error``), which builds nothing.
BARE = {"ValueError", "TypeError", "RuntimeError", "KeyError", "IndexError", "LookupError"}

#: ``path:line`` of a bare one that stays, with the reason. None stays: a refusal says
#: what is wrong in fdlab's words, and a bug is a RaceStuckError or an InvariantError.
BARE_ALLOWED: dict[str, str] = {}

PACKAGE = Path(fdlab.__file__).resolve().parent


def bare_builtin_errors(source: str) -> list[tuple[int, str]]:
    """(line, how) of each bare built-in error of :data:`BARE` fdlab code raises or builds.

    Found: ``raise ValueError``, ``ValueError(...)`` anywhere (raised there, or
    returned to be raised), and ``error=ValueError`` as a default or an argument.
    Not found: ``except ValueError`` and ``isinstance(x, TypeError)``, which
    only catch or test, a re-raise (``raise``, ``raise error``) and the errors
    not in :data:`BARE` (``raise NotImplementedError``).
    """
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Name):
            if node.exc.id in BARE:
                found.append((node.lineno, f"raise {node.exc.id}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in BARE:
                found.append((node.lineno, f"{node.func.id}(...)"))
        elif isinstance(node, ast.keyword) and isinstance(node.value, ast.Name):
            if node.value.id in BARE:
                found.append((node.value.lineno, f"{node.arg}={node.value.id}"))
        elif isinstance(node, ast.arguments):
            for default in [*node.defaults, *node.kw_defaults]:
                if isinstance(default, ast.Name) and default.id in BARE:
                    found.append((default.lineno, f"default {default.id}"))
    return found


def test_the_scanner_finds_bare_errors_and_nothing_else():
    source = (
        "def f(x, error=ValueError):\n"
        "    if x:\n        raise ValueError('no')\n"
        "    if x is None:\n        raise TypeError\n"
        "    try:\n        g(error=TypeError)\n"
        "    except (ValueError, TypeError):\n        pass\n"
        "    if isinstance(x, TypeError):\n        raise RuleError('fine')\n"
        "    return ValueError('built, to be raised by the caller')\n"
        "def g(table, key):\n"
        "    try:\n        return table[key]\n"
        "    except (KeyError, IndexError) as error:\n        raise error\n"
        "    except LookupError:\n        raise\n"
        "    if key is None:\n        raise KeyError(key)\n"
        "    if not table:\n        raise RuntimeError('empty')\n"
        "    raise NotImplementedError\n"
        "def h(items=IndexError):\n"
        "    raise LookupError\n"
    )
    assert sorted(bare_builtin_errors(source)) == [
        (1, "default ValueError"),
        (3, "ValueError(...)"),
        (5, "raise TypeError"),
        (7, "error=TypeError"),
        (12, "ValueError(...)"),
        (21, "KeyError(...)"),
        (23, "RuntimeError(...)"),
        (25, "default IndexError"),
        (26, "raise LookupError"),
    ]


def test_fdlab_raises_no_bare_builtin_error():
    """The README's promise, read from the source: every error fdlab raises on purpose
    derives from FdlabError, so ``except FdlabError`` catches whatever it refuses."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent).as_posix()
        for line, how in bare_builtin_errors(path.read_text(encoding="utf-8")):
            if f"{where}:{line}" not in BARE_ALLOWED:
                found.append(f"{where}:{line}: {how}")
    assert found == [], "raise an fdlab error (FdlabError; with TypeError for a type) instead"


def _refusals() -> list[tuple[str, Callable[[], object], type[Exception]]]:
    """(what, a call fdlab refuses, the built-in kind it is besides ValueError, if any)."""
    from fdlab.championship import points_for, points_table
    from fdlab.fun.game import Game
    from fdlab.fun.state import FunRules
    from fdlab.rules import Race
    from fdlab.rules.arguments import whole_number
    from fdlab.table.game_file import game_to_dict
    from fdlab.track import Track, validate
    from fdlab.track.examples import two_corner_ring

    track = two_corner_ring()
    return [
        ("Race(cars=11)", lambda: Race(track, cars=11), ValueError),
        ("Race(seed='x')", lambda: Race(track, seed="x"), TypeError),
        ("Race(laps=0)", lambda: Race(track, laps=0), ValueError),
        ("Race('board.json')", lambda: Race("board.json"), TypeError),
        ("validate(cars=11)", lambda: validate(track, cars=11), ValueError),
        ("add_contact('zz')", lambda: track.add_contact(0, 1, "zz"), ValueError),
        ("Track({})", lambda: Track({}), TypeError),
        ("track.space(999)", lambda: track.space(999), KeyError),
        (
            "Game.run_bots(max_actions=1)",
            lambda: Game(2, seed=0, bots="random").run_bots(max_actions=1),
            RuntimeError,
        ),
        ("FunRules(start_money=-1)", lambda: FunRules(start_money=-1), ValueError),
        ("points_table(0)", lambda: points_table(0), ValueError),
        ("points_for(4, 3)", lambda: points_for(4, 3), ValueError),
        ("game_to_dict('race')", lambda: game_to_dict("race"), TypeError),
        ("whole_number(10**5000)", lambda: whole_number(10**5000, "n", low=0, high=9), ValueError),
    ]


def test_each_refusal_is_an_fdlab_error_of_its_old_kind():
    """What raised a bare ValueError, TypeError, KeyError or RuntimeError still is one
    (``except TypeError`` keeps working), and is an FdlabError too."""
    for what, call, kind in _refusals():
        try:
            call()
        except FdlabError as error:
            assert isinstance(error, kind), what
            assert str(error), what
        else:
            raise AssertionError(f"{what} was not refused")
