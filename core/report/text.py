"""Words and widths of the report's text: counts with the right plural, and how wide a label is drawn.

:func:`counted` writes a count with its noun in the singular or plural ("1 relation",
"3 relations"), so the report never prints "1 relations" or "file(s)".  :func:`text_width`
estimates the drawn width of a label from the advance widths of DejaVu Sans (the widest of
the fonts the report's font stack names, so the estimate errs on the wide side for the
others): figures are sized from it, so titles, legends and node labels fit their figure.

>>> counted(1, "relation"), counted(3, "relation"), counted(2, "entry", "entries")
('1 relation', '3 relations', '2 entries')
>>> round(text_width("EDU12", 11))
37

:func:`readable` prepares a message written for machines for reading: long decimals such
as ``249.978944`` are rounded (:func:`short_number`; :func:`number_spans` finds them, so the
HTML report keeps the exact value in a tooltip), and the independence sign ``⫫`` (U+2AEB,
which common fonts lack) becomes ``⊥⊥``.

>>> readable("X ⫫ Y | Z: predicted 249.978944 (off by 0.0001234567)")
'X ⊥⊥ Y | Z: predicted 249.98 (off by 0.000123)'
"""

from __future__ import annotations

import re

__all__ = ["INDEPENDENT", "LONG_DECIMAL", "counted", "number_spans", "plural", "readable", "short_number", "text_width"]

#: The conditional-independence sign as drawn: U+2AEB "⫫" is missing from DejaVu Sans, Liberation,
#: Arial and Segoe UI (it renders as an empty box), so it is written as two "up tacks" (U+22A5).
INDEPENDENT = "⊥⊥"
#: A decimal with four or more digits after the point (the report's own numbers have at most three).
LONG_DECIMAL = re.compile(r"(?<![\w.])-?\d+\.\d{4,}(?![\w.])")

# Advance widths (1/1000 em) of DejaVu Sans Book and Bold for the printable ASCII characters
# " " to "~", measured from the fonts' glyph metrics.
_REGULAR = (
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636,
    636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 631, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787,
    603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635,
    634, 278, 279, 579, 278, 974, 634, 611, 635, 635, 412, 521, 392, 634, 592, 818, 592, 592, 525, 637, 337, 636, 838,
)
_BOLD = (
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696,
    696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850,
    733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716,
    712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)
# Other characters the report draws; anything else counts as a full em (wide, so it fits).
_OTHER = {"·": 318, "–": 500, "—": 1000, "…": 1000, "×": 838, "→": 838, "−": 838, "✓": 838, "✗": 838, "↻": 838, "⇄": 838,
          "◆": 838, "ρ": 634, "⊥": 838, "κ": 600, "é": 615, "ö": 611, "ü": 634, "ä": 613}


def text_width(text: str, size: float = 11.0, *, bold: bool = False) -> float:
    """Drawn width in px of *text* at font *size* px (an upper estimate for the report's font stack)."""
    table = _BOLD if bold else _REGULAR
    units = 0
    for ch in text:
        code = ord(ch)
        units += table[code - 32] if 32 <= code < 127 else _OTHER.get(ch, 1000)
    return units * size / 1000.0


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """*noun* as it goes with the count *n*: singular for 1 (and -1), else *plural_form* (default: noun + "s")."""
    return noun if abs(n) == 1 else (plural_form or noun + "s")


def counted(n: int, noun: str, plural_form: str | None = None) -> str:
    """``"<n> <noun>"`` in the right number: ``counted(1, "file")`` is ``"1 file"``, ``counted(0, "file")`` ``"0 files"``."""
    return f"{n} {plural(n, noun, plural_form)}"


def short_number(text: str) -> str:
    """A decimal written for reading: two decimals from 1 on, else three significant digits.

    >>> short_number("249.978944"), short_number("-11.0210"), short_number("0.000123456"), short_number("0.00000")
    ('249.98', '-11.02', '0.000123', '0')
    """
    x = float(text)
    if x == 0:
        return "0"
    return f"{x:.2f}" if abs(x) >= 1 else f"{x:.3g}"


def number_spans(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, shown)`` of every long decimal in *text* (:data:`LONG_DECIMAL`), with its short form."""
    return [(m.start(), m.end(), short_number(m.group())) for m in LONG_DECIMAL.finditer(text)]


def readable(text: str) -> str:
    """*text* with long decimals shortened and ``⫫`` written as :data:`INDEPENDENT` (module docstring)."""
    return LONG_DECIMAL.sub(lambda m: short_number(m.group()), text).replace("⫫", INDEPENDENT)
