"""Plain text: what a seat name or an arbiter's reason may hold (docs/api.md, "Plain text")."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.text import NotPlainText, plain_text


@pytest.mark.parametrize(
    ("text", "refused"),
    [
        ("a\x00b", "U+0000"),
        ("a\x07", "U+0007"),
        ("tab\there", "U+0009"),
        ("line\nbreak", "U+000A"),
        ("evil\u202etxt.exe", "U+202E"),  # right-to-left override
        ("isolate\u2066x", "U+2066"),
        ("zero\u200bwidth", "U+200B"),
        ("\ufeffbom", "U+FEFF"),
        ("soft\u00adhyphen", "U+00AD"),
        ("private\ue000", "U+E000"),
        ("sep\u2028arator", "U+2028"),
        ("lone\ud800", "U+D800"),
        ("joiner\u200dalone", "U+200D"),
    ],
)
def test_invisible_characters_are_refused_naming_the_field(text: str, refused: str) -> None:
    with pytest.raises(NotPlainText) as error:
        plain_text("name", text)
    assert error.value.code == "not-plain-text"
    assert "The name holds" in error.value.message and refused in error.value.message
    assert text not in error.value.message


@pytest.mark.parametrize("text", ["", " ", "\u3000\u00a0 "])
def test_blank_text_is_refused(text: str) -> None:
    with pytest.raises(NotPlainText, match="blank"):
        plain_text("reason", text)


@pytest.mark.parametrize(
    "text",
    [
        "Ann",
        "Zoë",
        "Łukasz",
        "渡辺",
        "محمد",
        "Ωμέγα",
        "🦊 fox",
        "👨\u200d👩\u200d👧",
        "🏳\ufe0f\u200d🌈",
    ],
)
def test_names_in_every_script_and_emoji_sequences_are_kept(text: str) -> None:
    assert plain_text("name", text) == unicodedata.normalize("NFC", text)


def test_text_is_stored_in_normal_form_c() -> None:
    assert plain_text("name", "Zoe\u0308") == "Zo\u00eb"


@given(st.text(min_size=1))
def test_what_is_kept_holds_no_refused_character(text: str) -> None:
    try:
        kept = plain_text("name", text)
    except NotPlainText:
        return
    assert kept.strip()
    for index, char in enumerate(kept):
        category = unicodedata.category(char)
        assert category not in {"Cc", "Cs", "Co", "Zl", "Zp"}
        if category == "Cf":
            assert char == "\u200d" and 0 < index < len(kept) - 1
