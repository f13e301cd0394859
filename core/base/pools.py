"""The fixed pools the strategies and the snapshot corpora draw from (no hypothesis needed).

Names that trip scoring rules, CausaLab's properties and frequency spellings, and the
words and cue templates of generated what-if answers.  :mod:`causalcheck.strategies` draws
from them with hypothesis; :func:`causalcheck.testing.corpus` with a seeded numpy
generator — one list, two ways of drawing.

>>> CUE_TEMPLATES["RESULT"].format(A="Tides fall", b="farms dry out")
'Tides fall, so farms dry out.'
"""

from __future__ import annotations

__all__ = [
    "AWKWARD_NAMES",
    "CAUSALAB_PROPERTIES",
    "CLAUSE_MANNERS",
    "CLAUSE_SUBJECTS",
    "CLAUSE_VERBS",
    "CUE_TEMPLATES",
    "FREQUENCY_SPELLINGS",
    "NAME_FAMILIES",
]

#: Names that trip metrics: case variants, padding, spaces, unicode, frequency spellings.
AWKWARD_NAMES: tuple[str, ...] = (
    "a", "A", "b", "B", " a", "a ", "x1", "X1", "Crystal Color", "crystal color", "ä", "Ä",
    "naïve", "名前", "freq", "Frequency", "resonanceFreq", "a-b", "a.b", "\u00a0a", "x\ty",
)  # fmt: skip

#: Names an edge parser must keep exactly, by family: family -> (what is kept, groups of names that are
#: different nodes although a sloppy parser merges or changes them).  ``check_edge_parser`` draws whole groups,
#: so confusable spellings (``a`` / `` a``, ``é`` in NFC and NFD) appear in one graph together.
NAME_FAMILIES: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {
    "structure": ("every edge read once, with its direction (plain names)", (("a", "b"), ("x1", "y2"), ("c", "d", "e"), ("n_1", "n_2"))),
    "blanks": (
        "leading, trailing and inner blanks are part of a name",
        (("a", " a", "a "), ("b c", "b  c", "bc"), ("\tx", "x"), (" y ", "y"), ("crystal color", "crystal  color"), ("w\t",)),
    ),
    "case": ("names that differ only by letter case are different nodes", (("a", "A"), ("ab", "Ab", "AB"), ("x1", "X1"), ("Freq", "freq"), ("xY", "Xy"))),
    "unicode": ("non-ASCII characters (letters, a no-break space) are kept", (("ä", "a"), ("\u00a0z", "z"), ("名前",), ("straße", "strasse"), ("Ωmega",), ("Σσς",), ("ĳ",), ("Привет",), ("Ǆ", "ǅ", "ǆ"))),
    "combining": ("combining marks are kept", (("e\u0301x",), ("a\u0308",), ("n\u0303o",), ("x\u0323\u0302",), ("\u0915\u094d\u0937",), ("q\u0307",))),
    "right-to-left": ("right-to-left scripts are kept, in their order", (("שלום",), ("مرحبا",), ("a-שלום",), ("עברית 2",), ("\u200fx", "x"), ("سلام", "مالس"))),
    "emoji": ("emoji, sequences joined by U+200D and skin tones are kept", (("🙂",), ("👩\u200d🔬", "👩"), ("🇫🇷",), ("👍🏽", "👍"), ("a🙂b",), ("❤\ufe0f", "❤"))),
    "normalization": (
        "canonically equivalent spellings (NFC, NFD) are different nodes, as written",
        (("\u00e9", "e\u0301"), ("\u00c5", "A\u030a", "\u212b"), ("\ufb01", "fi"), ("\u00f1o", "n\u0303o"), ("\u1e9b\u0323", "\u017f\u0323\u0307")),
    ),
    "syntax": (
        "characters of edge syntax inside a name are part of it",
        (("a->b", "a"), ("a,b", "b"), ('q"x', "q"), ("a;b",), ("#x", "x"), ("a\\b",), ("{y}",), ("nodes:",), ("a -- b",)),
    ),
}

#: The CausaLab crystal properties (causalab-spec §1.1).
CAUSALAB_PROPERTIES: tuple[str, ...] = (
    "temperatureC", "moisture", "density", "quantumSize", "radiation", "pressure", "ph", "conductivity",
)  # fmt: skip

#: Fixed spellings of the frequency that CausaLab maps to ``resonanceFreq``.
FREQUENCY_SPELLINGS: tuple[str, ...] = (
    "resonanceFreq", "freq", "Freq", "FREQ", "frequency", "Frequency", "resonance_freq",
    "Resonance_Freq", "resonance frequency", "Resonance Frequency", "resonance-frequency",
    "resonanceFrequency", " freq ", "ResonanceFreq",
)  # fmt: skip

#: Causal relation → sentence template over a cause ``{a}`` and an effect ``{b}``
#: (``{A}`` / ``{B}``: capitalised); the relation causalcheck's offline parser reads from it.
CUE_TEMPLATES: dict[str, str] = {
    "RESULT": "{A}, so {b}.",
    "CONDITION": "If {a}, {b}.",
    "CAUSE": "{B} because {a}.",
}

#: Clause subjects (distinct content words), verbs and adverbs of generated answers.
CLAUSE_SUBJECTS: tuple[str, ...] = (
    "ocean tides", "coastal farms", "crop yields", "food prices", "river levels", "bird migrations",
    "forest cover", "soil moisture", "insect numbers", "fishing fleets", "power demand", "city traffic",
    "glacier mass", "storm surges", "harbor trade", "wheat harvests",
)  # fmt: skip
CLAUSE_VERBS: tuple[str, ...] = (
    "would shrink", "would rise", "would collapse", "would spread", "would weaken", "would double", "would stall", "would recover",
)  # fmt: skip
CLAUSE_MANNERS: tuple[str, ...] = ("sharply", "slowly", "steadily", "abruptly", "everywhere", "locally")
