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
]

#: Names that trip metrics: case variants, padding, spaces, unicode, frequency spellings.
AWKWARD_NAMES: tuple[str, ...] = (
    "a", "A", "b", "B", " a", "a ", "x1", "X1", "Crystal Color", "crystal color", "ä", "Ä",
    "naïve", "名前", "freq", "Frequency", "resonanceFreq", "a-b", "a.b", "\u00a0a", "x\ty",
)  # fmt: skip

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
