"""MkDocs hooks for the documentation site (``mkdocs.yml``, ``hooks:``).

The docstrings are written for readers of the source: Google-style sections, with the Sphinx
roles of reStructuredText for cross-references (``:func:`make_bot```,
``:class:`~splendor.classic.Observation```) and ``Example::`` before a literal block.
mkdocstrings renders them as Markdown, where a role would show as ``:func:`` before the code.
This hook turns each role into a cross-reference that mkdocs-autorefs resolves when the
object has a page (an *optional* one: a name without a page stays plain code, with no
warning), and drops the second colon of ``Example::``. On a reference page
(``docs/api/NAME.md``) a name relative to its module (``:func:`make_bot```) is looked up in
``splendor.NAME`` first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROLE = re.compile(
    r":(?:py:)?(?:mod|func|class|meth|data|attr|exc|obj|const):<code>(~?)([\w.]+)(\(\))?</code>"
)
LITERAL_INTRO = re.compile(r"::</p>")


def _autoref(match: re.Match[str], module: str | None) -> str:
    short, name, call = match.group(1), match.group(2), match.group(3) or ""
    shown = name.rsplit(".", 1)[-1] if short else name
    target = f'identifier="{name}"'
    if module and not name.startswith("splendor"):
        target = f'identifier="{module}.{name}" slug="{name}"'
    return f"<autoref {target} optional><code>{shown}{call}</code></autoref>"


def on_page_content(html: str, page: Any, **kwargs: Any) -> str:
    """Rewrite the Sphinx roles and ``::`` of the rendered docstrings on every page."""
    path = Path(page.file.src_path)
    module = f"splendor.{path.stem}" if path.parent.name == "api" else None
    html = ROLE.sub(lambda m: _autoref(m, module), html)
    return LITERAL_INTRO.sub(":</p>", html)
