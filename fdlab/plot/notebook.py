"""BokehJS on a notebook page, from the installed package (no CDN): one home for it.

The widgets' shell (:func:`fdlab._shell.load_bokehjs`), the circuit report
and the comparison of boards all put BokehJS on the page through
:func:`inline_bokehjs`; :func:`show_in_notebook` draws a layout after it.
"""

from __future__ import annotations

from typing import Any

__all__ = ["inline_bokehjs", "show_in_notebook"]


def inline_bokehjs() -> None:
    """Send BokehJS, inlined from the installed bokeh, to the notebook page.

    Examples
    --------
    >>> inline_bokehjs()  # doctest: +SKIP
    """
    from bokeh.io import output_notebook
    from bokeh.resources import INLINE

    output_notebook(INLINE, hide_banner=True)


def show_in_notebook(layout: Any) -> None:
    """Draw a Bokeh layout in the notebook, BokehJS inlined (works offline).

    BokehJS is sent again each time: the page may have been opened anew.

    Examples
    --------
    >>> from bokeh.plotting import figure
    >>> show_in_notebook(figure())  # doctest: +SKIP
    """
    from bokeh.io import show

    inline_bokehjs()
    show(layout)
