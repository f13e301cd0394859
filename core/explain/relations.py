"""Offline relation extraction from explicit discourse cues, and the offline answer parser.

Each EDU is inspected for the cue that opens it (:func:`._cues.lead_cue`); the cue's kind
decides the relation and its direction.  Edges always run **cause → effect** (the RST
satellite is the source), whatever the word order of the sentence:

* ``fwd`` cue ("A, so B", "A. Therefore B", "A, leading to B") → ``A → B``, ``RESULT``
  (``CONSEQUENCE`` for "consequently" / "as a consequence");
* ``back`` cue ("B because A") → ``A → B``, ``CAUSE``; when the ``because``-unit opens its
  sentence and another unit of the same sentence follows ("Because A, B"), → ``A → B`` to
  that following unit;
* ``cond`` cue ("If A, B") → ``A → B``, ``CONDITION`` to the next unit of the same sentence;
  at the end of a sentence ("B unless A") → to the previous unit;
* ``contrast`` → ``CONTRAST`` (``NN``, earlier → later); ``concession``, ``example``,
  ``purpose``, ``summary``, ``elaboration``, ``restatement`` → that label, cue unit →
  previous unit; ``temporal`` → ``SEQUENCE`` (``NN``);
* a unit that is only a forward cue ("As a result,", "Because of this,") links the unit
  before it to the one after it in its sentence: ``A. Because of this, B`` → ``A → B``;
* a causal cue (``fwd``, ``back``, ``cond``) gives no relation when either endpoint is
  meta-talk (:func:`._cues.is_meta_talk`: "Since the prompt is ambiguous, I'll assume …");
* an *opener* condition ("Without the Moon, …", "With less oxygen, …") counts only where it
  opens its sentence;
* no cue, but the unit opens with a causative verb and an object right after its subject in the
  same sentence ("Smaller tides | would shrink intertidal zones", :func:`._cues.causative_start`)
  → ``subject → unit``, ``RESULT``;
* no cue, but the unit opens with a pronoun or demonstrative ("This …", "It …") →
  ``ELABORATION`` to the previous unit.  Units with none of these stay unconnected.

Labels come from the spec's 24-label set.  A unit after an ``if``-clause that starts with
"then" gets only the ``CONDITION`` edge.  The result is an :class:`~.rst.RSTRecord` with
``source="offline"``; its ``raw_output`` is the record written in the parser text format.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from causalcheck.base.boundary import call_plugin
from causalcheck.explain._cues import (
    Cue,
    causative_start,
    is_meta_talk,
    lead_cue,
    starts_with_anaphor,
)
from causalcheck.explain._text import content_lemmas
from causalcheck.explain.rst import EDU, Relation, RSTRecord, TreeNode, build_tree_nodes, render_rst
from causalcheck.explain.segment import RuleSegmenter, Segmenter, get_segmenter

__all__ = ["OfflineParser", "extract_relations"]

_SENTENCE_END = re.compile(r"[.!?]\s|\n|[.!?]$")


def _same_sentence(text: str, a: EDU, b: EDU) -> bool:
    """True when nothing between the end of *a*'s text and *b* ends a sentence (and *a* itself does not)."""
    if a.start is None or a.end is None or b.start is None:
        return not re.search(r"[.!?]$", a.text.strip())
    gap = text[a.end - 1 : b.start] if a.end > 0 else text[a.end : b.start]
    return not _SENTENCE_END.search(gap)


def _is_stub(unit: str, cue: Cue) -> bool:
    """True when *unit* is only its cue ("As a result,", "Because of this,"): no content word after it."""
    low = unit.lower()
    at = low.find(cue.phrase)
    return at >= 0 and not content_lemmas(low[at + len(cue.phrase) :])


def _relation_for(cue: Cue, i: int, edus: Sequence[EDU], text: str) -> Relation | None:
    cur = edus[i]
    prev = edus[i - 1] if i > 0 else None
    nxt = edus[i + 1] if i + 1 < len(edus) else None
    opens_sentence = prev is None or not _same_sentence(text, prev, cur)
    if (cue.opener and not opens_sentence) or (cue.inner and opens_sentence):
        return None
    if cue.kind == "fwd":
        if prev is not None and nxt is not None and _is_stub(cur.text, cue) and _same_sentence(text, cur, nxt):
            return Relation(prev.id, nxt.id, cue.label, "SN")  # "A. Because of this, B": A → B
        return Relation(prev.id, cur.id, cue.label, "SN") if prev else None
    if cue.kind in ("back", "cond"):
        if opens_sentence and nxt is not None and _same_sentence(text, cur, nxt):
            return Relation(cur.id, nxt.id, cue.label, "SN")
        if prev is not None and (cue.kind == "back" or not opens_sentence):
            return Relation(cur.id, prev.id, cue.label, "SN")
        return None
    if prev is None:
        return None
    if cue.kind in ("contrast", "temporal"):
        return Relation(prev.id, cur.id, cue.label, "NN")
    return Relation(cur.id, prev.id, cue.label, "SN")


_CAUSAL_KINDS = frozenset({"fwd", "back", "cond"})


def _meta(rel: Relation, meta: frozenset[str]) -> bool:
    """True when an endpoint of *rel* is one of the meta-talk EDU ids *meta*."""
    return rel.source in meta or rel.target in meta


def extract_relations(text: str, edus: Sequence[EDU]) -> list[Relation]:
    """Relations between *edus* (segments of *text*) from their opening cues (module docstring)."""
    rels: list[Relation] = []
    conditioned: set[str] = set()
    meta = frozenset(e.id for e in edus if is_meta_talk(e.text))
    for i, edu in enumerate(edus):
        cue = lead_cue(edu.text)
        if cue is not None:
            if edu.id in conditioned and cue.phrase == "then":
                continue
            rel = _relation_for(cue, i, edus, text)
            if rel is not None and cue.kind in _CAUSAL_KINDS and _meta(rel, meta):
                rel = None  # "Since the prompt is ambiguous, I'll assume …" is no causal claim
            if rel is not None:
                rels.append(rel)
                if cue.kind == "cond" and i + 1 < len(edus) and rel.target == edus[i + 1].id:
                    conditioned.add(rel.target)
        elif i > 0 and causative_start(edu.text) and _same_sentence(text, edus[i - 1], edu) and not edus[i - 1].text.rstrip().endswith((",", ";", ":")):
            if not _meta(Relation(edus[i - 1].id, edu.id, "RESULT", "SN"), meta):
                rels.append(Relation(edus[i - 1].id, edu.id, "RESULT", "SN"))
        elif i > 0 and starts_with_anaphor(edu.text):
            rels.append(Relation(edu.id, edus[i - 1].id, "ELABORATION", "SN"))
    return list(dict.fromkeys(_first_per_pair(rels)))


def _first_per_pair(rels: Sequence[Relation]) -> list[Relation]:
    """*rels* without a second relation between the same two units ("If A, B" read as a condition is not also a result)."""
    seen: set[tuple[str, str]] = set()
    out = []
    for rel in rels:
        if (rel.source, rel.target) not in seen:
            seen.add((rel.source, rel.target))
            out.append(rel)
    return out


def _tree_nodes(rels: Sequence[Relation]) -> tuple[TreeNode, ...]:
    """:func:`~.rst.build_tree_nodes` of *rels*, read straight from plain ``EDU<n>`` references.

    Any other reference form goes through :func:`~.rst.build_tree_nodes` itself.
    """
    num: dict[str, int] = {}
    for rel in rels:
        for ref in (rel.source, rel.target):
            if ref not in num:
                digits = ref[3:]
                if not (ref.startswith("EDU") and digits.isascii() and digits.isdigit()):
                    general: tuple[TreeNode, ...] = build_tree_nodes(rels)
                    return general
                num[ref] = int(digits)
    nodes = []
    for i, rel in enumerate(rels, start=1):
        a, b = rel.source, rel.target
        na, nb = num[a], num[b]
        left, right = (a, b) if na <= nb else (b, a)
        lo, hi = (na, nb) if na <= nb else (nb, na)
        sat, nuc = (a, b) if rel.nuclearity in ("SN", "NS") else (None, None)
        nodes.append(TreeNode(f"node_{i}", (lo, hi), f"EDU{lo}" if lo == hi else f"EDU{lo}-{hi}", rel.type, rel.nuclearity, left, right, sat, nuc))
    return tuple(nodes)


class OfflineParser:
    """:class:`~.judges.AnswerParser` without a model: segment with *segmenter*, then :func:`extract_relations`."""

    def __init__(self, segmenter: Segmenter | str = "rules") -> None:
        self.segmenter = get_segmenter(segmenter) if isinstance(segmenter, str) else segmenter

    def parse(self, answer: str) -> RSTRecord:
        if type(self.segmenter) is RuleSegmenter:
            return _parse_with_rules(answer)  # deterministic: the scorer and the criterion judge share one parse
        return _record(answer, call_plugin("segmenter", self.segmenter, "segment", answer, returns=(list, EDU)))


@lru_cache(maxsize=64)
def _parse_with_rules(answer: str) -> RSTRecord:
    """The offline parse of *answer* with the rules segmenter (cached per text)."""
    return _record(answer, RuleSegmenter().segment(answer))


def _record(answer: str, edus: Sequence[EDU]) -> RSTRecord:
    """The RST record of *answer* cut into *edus*: relations from cues, tree nodes, the text form."""
    rels = extract_relations(answer, edus)
    record = RSTRecord(
        raw_output="",
        edus=tuple(edus),
        relations=tuple(rels),
        tree_nodes=_tree_nodes(rels),
        ascii_lines=(),
        source="offline",
        error=None,
    )
    return RSTRecord(render_rst(record), record.edus, record.relations, record.tree_nodes, (), "offline", None)
