"""What the content interpreter asks of a font: byte string in, decoded character codes out.

Contract (the interpreter relies on nothing else):
- `Font.decode(data)` splits a string operand into character codes (1 byte for simple fonts,
  per the codespace ranges of the CMap for Type0 fonts) and returns one `DecodedChar` each.
- Widths are in glyph space; `font_matrix` maps glyph space to text space
  (0.001 scale for every font but Type3, whose /FontMatrix is used as given).
- `text` is None when the code cannot be decoded: the interpreter drops the glyph (it still
  moves the pen) and counts it in the page's warnings. Never '(cid:N)', never U+FFFD.
- Loading a font never raises: a broken font dict gives a best-effort font and `warnings`.
- `Font.code_reader()` may offer a faster way to the same chars: (char_of, code_bytes) when every
  code is `code_bytes` bytes (big-endian) and `char_of(code)` is exactly the char decode() gives
  (a subclass that overrides decode() must not inherit its parent's reader).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

IDENTITY_FONT_MATRIX = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class DecodedChar:
    code: int            # the character code (CID-keyed fonts: the code before CMap → CID)
    text: str | None     # Unicode for this code; None when it cannot be decoded
    width: float         # horizontal advance w0 in glyph space (1/1000 em unless Type3)
    is_space: bool       # single-byte code 32: the only code word spacing (Tw) applies to
    vertical_advance: float = 0.0   # w1 (vertical fonts): displacement along y, glyph space, usually negative
    position_x: float = 0.0         # vertical fonts: position vector v (origin shift), glyph space
    position_y: float = 0.0


@dataclass
class Font:
    name: str                                   # BaseFont without subset prefix, or the resource name
    vertical: bool = False                      # WMode 1
    font_matrix: tuple = IDENTITY_FONT_MATRIX   # glyph space → text space
    ascent: float = 0.0                         # glyph space units, > 0 (0 = unknown)
    descent: float = 0.0                        # glyph space units, <= 0
    warnings: list = field(default_factory=list)
    em_scale: float = 1.0                       # font size → em in text space (Type3 fonts in big units)
    bold: bool = False                          # weight and slant as the dictionary and name declare (style.py)
    italic: bool = False

    def decode(self, data: bytes) -> list[DecodedChar]:  # pragma: no cover - overridden
        raise NotImplementedError

    def code_reader(self) -> tuple[Callable[[int], DecodedChar], int] | None:
        """(code → DecodedChar, bytes per code) when the codes can be read straight from the
        bytes, every code that long; None when only decode() can split a string."""
        return None
