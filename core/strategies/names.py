"""Node names, including the awkward ones real graphs and model outputs contain.

Scoring rules break on names long before they break on structure: a metric that lower-cases
merges ``A`` and ``a``; one that trims merges ``" x"`` and ``"x"``; one that does not know the
CausaLab dialect keeps ``freq`` and ``resonanceFreq`` apart.  The strategies here draw names
from small pools on purpose, so two names of one graph are often *confusable* (case
variants, padded variants, frequency aliases) and such a bug shows up within a few dozen
examples:

* :func:`node_names` — one name under a dialect (``"exact"``: any non-empty string, biased
  to the awkward pool; ``"causalab"``: property names, padded variants and frequency
  aliases, every one of which CausaLab's :func:`~causalcheck.graph.normalize_node` accepts);
* :func:`frequency_aliases` — every spelling CausaLab reads as ``resonanceFreq``;
* :func:`name_lists` — distinct names (distinct *after* the dialect's normalisation);
* :func:`spellings` — other spellings of a name that the dialect maps onto the same node;
* :func:`confusables` — names that differ from a given one only by case, padding or alias
  (the same node to a sloppy metric, a different node under ``"exact"``).

>>> from hypothesis import find
>>> find(node_names("causalab"), lambda n: n != n.strip())
'temperatureC '
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from causalcheck.base.pools import AWKWARD_NAMES, CAUSALAB_PROPERTIES, FREQUENCY_SPELLINGS
from causalcheck.graph import FREQ, is_freq_alias, normalize_node
from causalcheck.graphs.names import NamePolicy, get_policy
from hypothesis import strategies as st

__all__ = [
    "AWKWARD_NAMES",
    "CAUSALAB_PROPERTIES",
    "FREQUENCY_SPELLINGS",
    "confusables",
    "distinct_under",
    "frequency_aliases",
    "identifiers",
    "name_lists",
    "node_names",
    "spellings",
]

#: the first character of an identifier, and the others, in the order they shrink to ("A", then "A0")
_ID_FIRST = string.ascii_uppercase + string.ascii_lowercase + "_"
_ID_REST = string.digits + string.ascii_uppercase + string.ascii_lowercase + "_"


def identifiers(max_size: int = 8) -> st.SearchStrategy[str]:
    """Plain ASCII identifiers (``[A-Za-z_][A-Za-z0-9_]*``, at most *max_size* long) — names every format writes unquoted.

    Drawn character by character from the two alphabets, not with ``st.from_regex``: the same
    language and the same shrinking (``"A"``, then ``"A0"``), but hypothesis's regex strategy
    costs about 1.7 s of CPU on its first use in a process, and about 15 % of a property suite's
    time after that (measured: a first ``find`` of this regex, and ``check_graph_metric`` on SHD
    at the ``ci`` profile, old and new strategy, CPU time).
    """
    first = st.sampled_from(_ID_FIRST)
    if max_size <= 1:
        return first
    return st.builds(str.__add__, first, st.text(st.sampled_from(_ID_REST), max_size=max_size - 1))


def _case_mix(word: str) -> st.SearchStrategy[str]:
    return st.lists(st.booleans(), min_size=len(word), max_size=len(word)).map(
        lambda flips: "".join(c.upper() if f else c.lower() for c, f in zip(word, flips, strict=True))
    )


def frequency_aliases() -> st.SearchStrategy[str]:
    """Spellings of the frequency node that CausaLab normalises to ``resonanceFreq``.

    Fixed spellings (:data:`FREQUENCY_SPELLINGS`) and generated ones: optional
    ``resonance`` + a separator (``""``, ``" "``, ``"_"``, ``"-"``) + ``freq`` or
    ``frequency``, in any letter case, optionally padded with blanks.
    """
    generated = st.builds(
        lambda pad_l, res, sep, word, pad_r: pad_l + res + sep + word + pad_r,
        st.sampled_from(["", " ", "  "]),
        st.one_of(st.just(""), _case_mix("resonance")),
        st.sampled_from(["", " ", "_", "-"]),
        st.one_of(_case_mix("freq"), _case_mix("frequency")),
        st.sampled_from(["", " ", "\t"]),
    ).filter(is_freq_alias)
    return st.one_of(st.sampled_from(FREQUENCY_SPELLINGS), generated)


def _padded(name: str) -> st.SearchStrategy[str]:
    return st.builds(lambda left, right: left + name + right, st.sampled_from(["", " ", "  ", "\t"]), st.sampled_from(["", " ", "\n"]))


def node_names(dialect: str | NamePolicy = "exact", *, awkward: bool | str = True) -> st.SearchStrategy[str]:
    """One node name valid under *dialect*.

    ``"exact"``: any non-empty string — the awkward pool (:data:`AWKWARD_NAMES`), plain
    identifiers and, with *awkward*, arbitrary unicode text (no surrogates or control
    characters other than tab).  ``"causalab"``: a name whose normalisation is non-empty —
    the properties, other identifiers, padded variants and, with *awkward*, frequency
    aliases.  ``awkward=False`` gives plain identifiers only (every format writes them bare);
    ``awkward="pool"`` draws only from the fixed pools and short identifiers (fast to draw
    and to shrink: what the property suites use).
    """
    pol = get_policy(dialect)
    if awkward == "pool":
        if pol.merges:
            props = st.sampled_from(CAUSALAB_PROPERTIES)
            return st.one_of(props, props.map(lambda n: f" {n}"), st.sampled_from(FREQUENCY_SPELLINGS))
        return st.one_of(st.sampled_from(AWKWARD_NAMES), identifiers(3))
    if not awkward:
        plain = identifiers()
        return plain.filter(lambda n: not is_freq_alias(n)) if pol.merges else plain
    if pol.merges:
        base = st.one_of(st.sampled_from(CAUSALAB_PROPERTIES), identifiers().filter(lambda n: not is_freq_alias(n)))
        return st.one_of(base, base.flatmap(_padded), frequency_aliases())
    text = st.text(
        st.characters(exclude_categories=("Cs", "Cc"), include_characters="\t"), min_size=1, max_size=8
    )
    return st.one_of(st.sampled_from(AWKWARD_NAMES), identifiers(), text)


def name_lists(
    dialect: str | NamePolicy = "exact",
    *,
    min_size: int = 0,
    max_size: int = 6,
    names: st.SearchStrategy[str] | None = None,
    include_target: bool = False,
    awkward: bool | str = True,
) -> st.SearchStrategy[list[str]]:
    """Lists of names that stay distinct under *dialect*'s normalisation.

    *names* overrides the per-name strategy (default :func:`node_names` with *awkward*);
    *include_target* puts one spelling of the dialect's target (CausaLab: a frequency
    alias) in every list.
    """
    pol = get_policy(dialect)
    one = names if names is not None else node_names(pol, awkward=awkward)
    key = pol.normalize
    lists = st.lists(one, min_size=min_size, max_size=max_size, unique_by=key)
    if not include_target or pol.target is None:
        return lists
    target = (st.sampled_from(FREQUENCY_SPELLINGS) if awkward == "pool" else frequency_aliases()) if pol.merges else st.just(pol.target)
    others = one.filter(lambda n: key(n) != key(pol.target or ""))
    return st.builds(
        lambda t, rest, pos: [*rest[:pos], t, *rest[pos:]],
        target,
        st.lists(others, min_size=max(min_size - 1, 0), max_size=max(max_size - 1, 0), unique_by=key),
        st.integers(0, max_size),
    )


def spellings(name: str, dialect: str | NamePolicy = "causalab") -> st.SearchStrategy[str]:
    """Other spellings of *name* that *dialect* maps onto the same node (*name* itself included).

    CausaLab: padded variants, and every frequency alias for the frequency; exact: *name* only.

    >>> from hypothesis import find
    >>> find(spellings("resonanceFreq"), lambda s: s.lower() == "freq")
    'freq'
    """
    pol = get_policy(dialect)
    if not pol.merges:
        return st.just(name)
    core = normalize_node(name) if pol.name == "causalab" else pol(name)
    if core == FREQ:
        return st.one_of(st.just(name), frequency_aliases())
    return st.one_of(st.just(name), _padded(core)).filter(lambda s: pol(s) == pol(name))


def confusables(name: str) -> st.SearchStrategy[str]:
    """Names that differ from *name* only by letter case, blanks or a frequency alias.

    Under ``"exact"`` each is a different node; a metric that folds case, trims or aliases
    would merge it with *name*.  The result is never *name* itself.
    """
    options: list[st.SearchStrategy[str]] = [_padded(name)]
    if name.lower() != name or name.upper() != name:
        options.append(_case_mix(name))
    if is_freq_alias(name):
        options.append(frequency_aliases())
    return st.one_of(options).filter(lambda s: s != name)


def distinct_under(dialect: str | NamePolicy, names: Sequence[str]) -> bool:
    """True when no two of *names* map onto one node under *dialect*."""
    pol = get_policy(dialect)
    return len({pol(n) for n in names}) == len(names)
