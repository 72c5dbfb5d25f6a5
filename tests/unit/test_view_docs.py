"""Each game's doc describes its view (issue 13, part 7): every field of the game's view
``TypedDict`` — the top level and the objects nested in it — is named, in backticks, in the
"View" section of docs/<game>.md, so the docs cannot drift from the typed definition."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any

import pytest
from typing_extensions import is_typeddict

from domain.registry import games

ROOT = Path(__file__).resolve().parents[2]


def view_section(game: str) -> str:
    """The text of the ``## View`` section of docs/<game>.md, up to the next ``## ``."""
    text = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    found = re.search(r"^## View\n(.*?)(?=^## )", text, re.S | re.M)
    assert found, f"docs/{game}.md has no '## View' section"
    return found.group(1)


def nested(shape: Any) -> list[Any]:
    """The ``TypedDict``s a field's type holds (in a list, a dict's values, a union)."""
    if is_typeddict(shape):
        return [shape]
    return [found for arg in typing.get_args(shape) for found in nested(arg)]


def fields_of(shape: Any, depth: int = 2) -> dict[str, set[str]]:
    """Every field of ``shape`` and of the ``TypedDict``s nested in it (``depth`` levels),
    by the name of the ``TypedDict`` that declares it."""
    hints = typing.get_type_hints(shape)
    out = {shape.__name__: set(hints)}
    if depth > 1:
        for hint in hints.values():
            for inner in nested(hint):
                for name, names in fields_of(inner, depth - 1).items():
                    out.setdefault(name, set()).update(names)
    return out


@pytest.mark.parametrize("game", sorted(games()))
def test_every_field_of_the_view_is_in_the_docs_view_section(game: str) -> None:
    section = view_section(game)
    missing = {
        owner: sorted(name for name in names if f"`{name}`" not in section)
        for owner, names in fields_of(games()[game].shapes.view).items()
    }
    assert not any(missing.values()), {k: v for k, v in missing.items() if v}


def test_each_view_section_says_who_sees_what() -> None:
    for game in games():
        section = view_section(game)
        for viewer in ("spectator", "arbiter", "seat"):
            assert viewer in section, (game, viewer)
