"""One idiom for names a package exports but imports on first use (PEP 562).

A package whose heavy parts (the builder, the solver, the widgets) should
not load with it lists them as ``name -> module`` and installs the pair of
module functions this returns::

    __getattr__, __dir__ = lazy_exports(__name__, globals(), {"solve_par": "fdlab.par.solve"})

The first access imports the module, keeps the value in the package's
namespace (later accesses are plain lookups) and returns it; ``dir()`` lists
the lazy names too. Static type checkers see the names through an
``if TYPE_CHECKING:`` import in the package.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from importlib import import_module
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(
    package: str, namespace: dict[str, Any], homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The ``__getattr__`` and ``__dir__`` of a package that exports ``homes`` lazily.

    Parameters
    ----------
    package : str
        The package's ``__name__`` (for the error message).
    namespace : dict
        The package's ``globals()``, where a loaded value is kept.
    homes : mapping
        Exported name -> the module (absolute name) that defines it.

    Returns
    -------
    (__getattr__, __dir__)

    Examples
    --------
    >>> space = {}
    >>> getattr_, dir_ = lazy_exports("demo", space, {"sqrt": "math"})
    >>> getattr_("sqrt")(9.0), "sqrt" in space
    (3.0, True)
    >>> getattr_("cbrt")
    Traceback (most recent call last):
    ...
    AttributeError: module 'demo' has no attribute 'cbrt'
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = import_module(home)
        # every name from that module at once (one import, one lookup each after)
        for other, other_home in homes.items():
            if other_home == home:
                namespace[other] = getattr(module, other)
        return namespace[name]

    def __dir__() -> list[str]:
        return sorted({*namespace, *homes})

    return __getattr__, __dir__
