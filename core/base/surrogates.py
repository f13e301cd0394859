"""Lone surrogates in model text: the one way causalcheck treats them.

A Python string can hold a *lone surrogate* — a code point in U+D800–U+DFFF, which is half of a
UTF-16 pair and no character at all.  A model reply gets one when a provider's JSON says
``"\\ud800"``, and a tokenizer or a caller's code can produce one too.  No UTF-8 file, SQLite
row or spaCy document can hold it: written as it is, it stops the writer.

So model text is made valid where it enters causalcheck — the adapters' completions, the replies
the RL environment is given, the completions a TRL reward function is given: each lone surrogate
becomes U+FFFD (the replacement character, ``�``), and every writer downstream (the call cache,
trajectories, observations, result files) gets text it can write and read back as written.  The
RL environment also counts such a reply as degraded (its ``format`` term), since what the model
meant there is lost; the adapters log a warning.

>>> has_lone_surrogates("ok \\ud800")
True
>>> scrub("ok \\ud800 and \\udfff")
'ok \\ufffd and \\ufffd'
>>> scrub("emoji \\U0001f600 stays")
'emoji \\U0001f600 stays'
"""

from __future__ import annotations

import re

__all__ = ["REPLACEMENT", "has_lone_surrogates", "scrub"]

#: What a lone surrogate becomes.
REPLACEMENT = "\ufffd"

# every code point of the surrogate range is lone in a Python str (a pair would be one code point)
_LONE = re.compile("[\ud800-\udfff]")


def has_lone_surrogates(text: str) -> bool:
    """True when *text* holds a lone surrogate (a code point in U+D800–U+DFFF)."""
    return _LONE.search(text) is not None


def scrub(text: str) -> str:
    """*text* with every lone surrogate replaced by :data:`REPLACEMENT` (the same object when it has none)."""
    return _LONE.sub(REPLACEMENT, text) if _LONE.search(text) else text
