"""One error root: every exception class fdlab defines derives from FdlabError, and no
name is defined twice (so ``except SomeError`` always means one thing)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections import defaultdict

import fdlab
from fdlab.errors import FdlabError

#: The errors that are a second built-in kind too, and why (README, fdlab/errors.py).
SECOND_KIND = {
    "fdlab.rules.errors.RaceStuckError": RuntimeError,  # a bug in the engine or a bot
    "fdlab.fun.invariants.InvariantError": AssertionError,  # a bug in Formula Fun's engine
    "fdlab.editor.placing.Unplaced": LookupError,  # an edit whose place is gone
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
