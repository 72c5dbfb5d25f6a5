"""Text a person typed that the service keeps and shows to others: seat names and the
arbiter's reasons (docs/api.md, "Plain text").

Such text is *plain*: it may hold any letter, mark, number, punctuation, symbol or space of
any script, but none of the characters that change how other text is shown or read without
being seen themselves — control characters (NUL included: PostgreSQL cannot store it),
formatting characters (bidi overrides and isolates, zero-width spaces and joiners, the byte
order mark), lone surrogates, private-use characters, and line or paragraph separators. It is
stored in Unicode normal form C, so that one name is stored one way. One exception: a
zero-width joiner between two symbols, which joins an emoji sequence into one picture.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from domain.errors import GameError

REFUSED: Final = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character (a bidi control, a zero-width character)",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""The Unicode general categories plain text never holds, with how a refusal names them."""


class NotPlainText(GameError):
    """Text that is blank or holds a character plain text never holds (422
    ``not-plain-text``)."""


def plain_text(field: str, text: str) -> str:
    """``text`` in normal form C, if it is plain text (docs/api.md, "Plain text"); raises
    :class:`NotPlainText` naming ``field``, the character's code point and its position
    (counted from 1), never echoing the text itself."""
    normal = unicodedata.normalize("NFC", text)
    for position, char in enumerate(normal, start=1):
        refused = REFUSED.get(unicodedata.category(char))
        if refused is not None and not _joins_emoji(normal, position - 1):
            raise NotPlainText(
                "not-plain-text",
                f"The {field} holds {refused} (U+{ord(char):04X}) at position {position}; "
                "it must be plain text.",
            )
    if not normal.strip():
        raise NotPlainText("not-plain-text", f"The {field} is blank.")
    return normal


ZERO_WIDTH_JOINER: Final = "\u200d"
EMOJI_PRESENTATION: Final = "\ufe0f"


def _joins_emoji(text: str, index: int) -> bool:
    """Whether ``text[index]`` is a zero-width joiner inside an emoji sequence (a symbol,
    perhaps shown as emoji, joined to a symbol: 👨‍👩‍👧, 🏳️‍🌈), the one place plain text keeps
    an invisible character: there it draws one picture, and cannot hide or reorder text."""
    if text[index] != ZERO_WIDTH_JOINER or index == 0 or index + 1 == len(text):
        return False
    before, after = text[index - 1], text[index + 1]
    if before == EMOJI_PRESENTATION and index >= 2:
        before = text[index - 2]
    return unicodedata.category(before) == "So" and unicodedata.category(after) == "So"
