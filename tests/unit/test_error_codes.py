"""Every error code the code can raise is documented, and every documented code is raised
(issue 10, part 6; docs/api.md, "Conventions"): the ledger's and the API's codes are in the
error table of docs/api.md, each game's own codes in its rules page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from api.errors import HTTP_CODES

ROOT = Path(__file__).resolve().parents[2]
KEBAB = re.compile(r"[a-z]+(?:-[a-z0-9]+)+")
RAISERS = re.compile(
    r"(Error|Refused|Move|Options|NotFound|Conflict|BadRequest|InvalidToken"
    r"|NotReady|Unavailable|UnknownGame|PlainText|illegal|malformed|problem)$"
)
"""Names of the calls whose first or second argument is an error code."""
FALLBACKS = {"http-error", "invalid-request", "internal-error"}
"""Codes made by api/errors.py without a literal call: a webargs schema error, a status
without a code of its own, an unexpected exception."""


def raised_codes(paths: list[Path]) -> set[str]:
    """The kebab-case string literals passed to error constructors in ``paths``."""
    codes = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if not RAISERS.search(name):
                continue
            codes |= {
                arg.value
                for arg in node.args[:2]
                if isinstance(arg, ast.Constant)
                and isinstance(arg.value, str)
                and KEBAB.fullmatch(arg.value)
            }
    return codes


def documented_codes(doc: str) -> set[str]:
    """The backticked kebab-case words of a document."""
    return set(re.findall(r"`([a-z]+(?:-[a-z0-9]+)+)`", doc))


def error_table(doc: str) -> set[str]:
    """The codes of the error table and the paragraph after it (docs/api.md)."""
    start = doc.index("| status | code | when |")
    end = doc.index("checks this table against every code", start)
    return documented_codes(doc[start:end])


def ledger_paths() -> list[Path]:
    return sorted(
        [
            *(ROOT / "api").rglob("*.py"),
            *(ROOT / "application").rglob("*.py"),
            *(ROOT / "infrastructure").rglob("*.py"),
            *(ROOT / "domain").glob("*.py"),
        ]
    )


def test_the_api_error_table_is_every_ledger_code() -> None:
    table = error_table((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    raised = raised_codes(ledger_paths()) | set(HTTP_CODES.values()) | FALLBACKS
    game_codes = {"malformed-move", "not-your-turn", "invalid-player-count", "invalid-options"}
    assert raised - table == set(), "raised but not in docs/api.md's error table"
    assert table - raised - game_codes == set(), "in the table but never raised"


@pytest.mark.parametrize("game", ["azul", "carcassonne", "risk"])
def test_each_game_documents_its_codes(game: str) -> None:
    doc = (ROOT / "docs" / f"{game}.md").read_text(encoding="utf-8")
    raised = raised_codes(sorted((ROOT / "domain" / game).rglob("*.py")))
    assert raised, f"no codes found in domain/{game}"
    assert raised - documented_codes(doc) == set(), f"raised but not in docs/{game}.md"
