"""Any value a JSON file can hold, for the bad-input property tests (one strategy, three users).

Finite numbers, integers up to 420 digits (Python's ``json`` reads up to 4300),
text, lists and objects, nested, with the ``words`` of the file being tested
mixed in so that hypothesis also tries values that are almost right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st


def json_values(
    words: Sequence[Any],
    keys: st.SearchStrategy[str],
    *,
    text_size: int = 8,
    size: int = 3,
    leaves: int = 8,
) -> st.SearchStrategy[Any]:
    """Nested JSON values: scalars and ``words``, in lists and in objects keyed by ``keys``."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers()
        | st.integers(min_value=10**300, max_value=10**420)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=text_size)
        | st.sampled_from(list(words))
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=size) | st.dictionaries(keys, children, max_size=size)
        ),
        max_leaves=leaves,
    )


def set_at(path: Sequence[Any], value: Any) -> Callable[[Any], None]:
    """A change to a JSON document: put ``value`` at ``path`` (keys and indices)."""

    def change(doc: Any) -> None:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change
