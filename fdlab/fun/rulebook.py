"""The Formula Fun rules text shipped with fdlab, for the table's rules panel.

The text is package data (``fdlab/fun/rules.md``), written for players, with
the clause ids FF-1..FF-17 that error messages name. It uses a small part of
Markdown (``#`` headings, ``-`` lists, paragraphs, ``**bold**`` and
``*italics*``), which :func:`rules_html` turns into HTML without any
Markdown library.
"""

from __future__ import annotations

import re
from html import escape
from importlib import resources

__all__ = ["markdown_html", "rules_html", "rules_text"]


def rules_text() -> str:
    """Return the rules of Formula Fun as Markdown text.

    Examples
    --------
    >>> text = rules_text()
    >>> text.splitlines()[0], all(f"**FF-{n}**" in text for n in range(1, 18))
    ('# Formula Fun: the rules', True)
    """
    return resources.files("fdlab.fun").joinpath("rules.md").read_text("utf-8")


def _inline(text: str) -> str:
    html = escape(text, quote=False).replace("-&gt;", "&rarr;")
    html = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html)
    return re.sub(r"\*(.+?)\*", r"<i>\1</i>", html)


def markdown_html(text: str) -> str:
    """Turn the small Markdown of the rules text into HTML.

    Examples
    --------
    >>> markdown_html("## Races\\n\\n- **FF-10** one circuit card\\n  per turn")
    '<h4>Races</h4>\\n<ul><li><b>FF-10</b> one circuit card per turn</li></ul>'
    """
    blocks: list[str] = []
    items: list[str] = []
    para: list[str] = []

    def close() -> None:
        if items:
            blocks.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in items) + "</ul>")
            items.clear()
        if para:
            blocks.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            close()
        elif line.startswith("#"):
            close()
            level = len(line) - len(line.lstrip("#"))
            blocks.append(f"<h{level + 2}>{_inline(line[level:].strip())}</h{level + 2}>")
        elif line.startswith("- "):
            if para:
                close()
            items.append(line[2:])
        elif items and raw.startswith(" "):
            items[-1] += " " + line
        else:
            if items:
                close()
            para.append(line)
    close()
    return "\n".join(blocks)


def rules_html() -> str:
    """Return the rules of Formula Fun as HTML, for the table's rules panel.

    Examples
    --------
    >>> html = rules_html()
    >>> html.startswith("<h3>Formula Fun: the rules</h3>"), "<b>FF-17</b>" in html
    (True, True)
    """
    return markdown_html(rules_text())
