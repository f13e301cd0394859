"""Parsing agent records and hypotheses into typed values — tolerant of what models really write.

Three inputs, three grammars (all in ``grammar/``, all LALR):

* **Step records** (causalab-spec §3): one JSON object per agent step with ``memory``,
  ``thought``, ``past_data``, ``hypothesis``, ``experiment`` and one action form.
  :func:`parse_record` finds the object inside ``<think>`` blocks, code fences and prose
  (:mod:`causalcheck.base.jsontext`, the controller's order), decodes it (``json`` first, then ``record.lark``, which
  also accepts trailing commas and reports errors with line, column, expected tokens and a
  caret), and converts it to a :class:`~causalcheck.records.StepRecord`.  The conversion
  repairs the drift seen in real runs — int vs float, numeric strings, ``null``s, unknown
  keys, frequency aliases (``freq`` → ``resonanceFreq``), a non-intervention written into
  ``experiment`` (``{"target_prop": "none"}``) — and lists every repair in
  ``StepRecord.warnings`` as a :class:`~causalcheck.base.errors.Notice` with a stable code
  (:data:`REPAIR_CODES`; :func:`dropped_content` picks the repairs that dropped content by
  code, never by wording).  Only input that holds no record at all raises.  Readers of whole
  episodes pass a :class:`ParseMemo`, so the entries and hypotheses an agent repeats from step
  to step are converted once (well-formed values also take fast paths that give the same
  result as the repairing code).
* **Hypotheses**: :func:`parse_hypothesis` takes the CausaLab JSON form
  ``{"edges": [{"from", "to"}], "freq_equation", "coefficients"}`` (a dict or JSON text) or
  causalcheck's plain-text format (``hypothesis.lark``)::

      nodes: density, moisture, quantumSize       # optional: declares nodes and their order
      density -> quantumSize
      moisture -> resonanceFreq : CAUSE          # optional relation label
      resonanceFreq = base + c_moisture*moisture
      base = 25
      c_moisture = null                          # undetermined

  :func:`format_hypothesis` prints that format; ``parse → print → parse`` is the identity.
* **Equations**: :func:`parse_equation` (see :mod:`causalcheck.equation`).

One module because records and hypotheses are read by one tolerant conversion — the same node,
edge, number and key repairs, the same warnings, one ``ParseMemo`` — and a record holds a
hypothesis: two modules would split one set of repair rules.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import Any

from causalcheck.base import safejson
from causalcheck.base.errors import CausalCheckError, DSLSyntaxError, InputFormatError, Notice
from causalcheck.base.jsontext import Candidate, candidates
from causalcheck.equation import Equation, format_number, is_coefficient_name, parse_equation
from causalcheck.graph import FREQ, CausalGraph, Edge, is_freq_alias, normalize_node
from causalcheck.records import (
    Action,
    DataPoint,
    Experiment,
    Hypothesis,
    Intervention,
    StepRecord,
)

__all__ = [
    "MAX_HYPOTHESIS_CHARS",
    "MAX_LENIENT_CHARS",
    "MAX_RECORD_CHARS",
    "RECORD_KEYS",
    "REPAIR_CODES",
    "Equation",
    "ParseMemo",
    "decode_json",
    "dropped_content",
    "format_hypothesis",
    "looks_like_record",
    "parse_equation",
    "parse_hypothesis",
    "parse_record",
    "parse_record_obj",
]

#: Longest model output :func:`parse_record` reads, in characters.  The official sample's
#: longest ``raw_output`` has 4 234 characters and the lab's LLM agent asks for at most 4 096
#: tokens; a longer text is refused before any scan (every scan is linear, this bounds them).
MAX_RECORD_CHARS = 1_000_000
#: Characters of one record's text that may be read by the lenient (``record.lark``) decoder,
#: summed over the candidate slices tried: about 0.25 s of parsing.  Longer slices must be
#: strict JSON.
MAX_LENIENT_CHARS = 100_000

#: Longest hypothesis text :func:`parse_hypothesis` reads (JSON or the text format), in
#: characters: a hypothesis of 1 000 edges in the text format has about 30 000.
MAX_HYPOTHESIS_CHARS = 200_000

#: The keys of a CausaLab step record (causalab-spec §3.1).
RECORD_KEYS = (
    "memory",
    "thought",
    "past_data",
    "hypothesis",
    "experiment",
    "action",
    "arg1",
    "arg2",
    "chosen_dialog_option_int",
    "value",
)
_HYP_KEYS = ("edges", "freq_equation", "coefficients")
_ALL_KEYS = frozenset({*RECORD_KEYS, *_HYP_KEYS})
_KEY_ALIASES = {
    "pastdata": "past_data",
    "data": "past_data",
    "evidence": "past_data",
    "chosen_dialog_option": "chosen_dialog_option_int",
    "dialog_option": "chosen_dialog_option_int",
    "chosen_option": "chosen_dialog_option_int",
}
_EQ_KEYS = ("freq_equation", "equation", "frequency_formula", "formula", "frequency_equation")
_NO_TARGET = {"", "none", "null", "n/a", "na", "nothing", "no", "-"}
#: ``warn(code, message)``: reports one repair (made by :func:`_warner` for one record field).
_Warn = Callable[[str, str], None]

# (code, drops content, meaning) of every repair in ``StepRecord.warnings``
_REPAIRS = (
    # the text around the record (causalcheck.base.jsontext) and its JSON
    ("think-removed", False, "``<think>…</think>`` blocks were blanked out"),
    ("think-unclosed", False, "an unclosed ``<think>`` tag was blanked out"),
    ("code-fence", False, "the record was taken out of a ``` code fence"),
    ("prose-around", True, "prose around the JSON object was ignored"),
    ("prose-before", True, "prose before the JSON object was ignored"),
    ("lenient-json", False, "the JSON was not strict (e.g. a trailing comma) and was read leniently"),
    # the record's keys
    ("key-spelling", False, "a record key spelled another way (``Past Data``) was read as the key"),
    ("bare-hypothesis", False, "a bare hypothesis object was read as a record holding only it"),
    ("unknown-keys", False, "unknown record keys were ignored (kept in ``extras``)"),
    ("text-not-a-string", False, "``memory`` / ``thought`` was not a string; kept as its JSON text"),
    # numbers (coefficients, entries, the experiment, the action)
    ("boolean-number", False, "a boolean where a number belongs was read as null"),
    ("non-finite-number", False, "a non-finite number was read as null"),
    ("numeric-string", False, "a number written as a string was read as the number"),
    ("null-word", False, "a word meaning null (``unknown``, ``?``, ...) was read as null"),
    ("not-a-number", False, "a value that is not a number was read as null"),
    # the hypothesis
    ("numeric-node-name", False, "a node name written as a number was read as its text"),
    ("not-a-node-name", True, "a value that is not a node name was ignored"),
    ("empty-node-name", True, "an empty node name was ignored"),
    ("frequency-alias", False, "a name for the frequency (``freq``) was read as ``resonanceFreq``"),
    ("edge-without-ends", True, "an edge object without both ends was ignored"),
    ("edge-unknown-keys", True, "unknown keys of an edge object were ignored"),
    ("edge-as-list", False, "an edge written as a list ``[from, to]`` was read as an edge"),
    ("edge-as-string", False, "an edge written as ``'A -> B'`` was read as an edge"),
    ("not-an-edge", True, "a value that is not an edge was ignored"),
    ("edges-null", False, "``edges: null`` was read as no edges"),
    ("edges-as-string", False, "``edges`` written as one string was read edge by edge"),
    ("edges-not-a-list", True, "``edges`` that is not a list was ignored"),
    ("equation-key-alias", False, "another key for the equation (``equation``, ...) was read as ``freq_equation``"),
    ("equation-not-a-string", True, "an equation that is not a string was ignored"),
    ("coefficients-not-an-object", True, "``coefficients`` that is not an object was ignored"),
    ("hypothesis-unknown-keys", True, "unknown keys of the hypothesis object were ignored"),
    ("hypothesis-as-text", False, "a hypothesis written as text inside a string was parsed"),
    ("hypothesis-text-unparsable", True, "a hypothesis string that does not parse was ignored"),
    ("hypothesis-null", False, "``hypothesis: null`` was read as the empty hypothesis"),
    ("hypothesis-not-an-object", True, "a hypothesis that is not an object was ignored"),
    # past_data
    ("past-data-as-json-text", False, "``past_data`` written as JSON text inside a string was decoded"),
    ("past-data-not-json", True, "``past_data`` as a string that is not JSON was ignored"),
    ("past-data-null", False, "``past_data: null`` was read as no entries"),
    ("past-data-single-object", False, "``past_data`` as one object was read as a list of one entry"),
    ("past-data-not-a-list", True, "``past_data`` that is not a list was ignored"),
    ("entry-not-an-object", True, "a ``past_data`` entry that is not an object was ignored"),
    ("props-not-an-object", True, "an entry's ``props`` that is not an object was ignored"),
    ("frequency-in-props", False, "the frequency written among an entry's ``props`` was read as its ``freq``"),
    ("freq-key-alias", False, "another key for an entry's frequency was read as ``freq``"),
    ("intervention-not-an-object", True, "an entry's ``intervention`` that is not ``{target_prop, target_value}`` was ignored"),
    ("entry-without-freq", False, "an entry has no ``freq`` (kept without one)"),
    # the experiment and the action
    ("experiment-null", False, "``experiment: null`` was read as ``{}``"),
    ("experiment-not-an-object", False, "an experiment that is not an object was read as ``{}``"),
    ("no-target-intervention", False, "an experiment naming no target (``none``) was read as ``{}``"),
    ("frequency-intervention", False, "the experiment targets the frequency, which cannot be intervened on"),
    ("target-not-in-past-data", False, "the experiment targets a property never seen in ``past_data``"),
    ("several-action-forms", True, "the record has several action forms; the first was used and the others' values were not"),
    ("action-as-object", False, "an action written as an object was read from its ``action`` / ``name``"),
    ("action-not-a-name", True, "an action that is not an action name was ignored"),
    ("action-case", False, "an action name not in upper case was upper-cased"),
    ("dialog-option-not-whole", True, "a ``chosen_dialog_option_int`` that is not a whole number was ignored"),
)
#: Every repair the tolerant record parser lists in ``StepRecord.warnings``: its
#: :attr:`~causalcheck.base.errors.Notice.code` → meaning.  Tools may match on the codes; the
#: wording of the messages may change.
REPAIR_CODES: Mapping[str, str] = MappingProxyType({code: meaning for code, _, meaning in _REPAIRS})
#: The repairs that drop content (:func:`dropped_content`).
_DROPPING = frozenset(code for code, drops, _ in _REPAIRS if drops)


def _warner(notes: list[str], field: str) -> _Warn:
    """The ``warn`` of one record field: adds each repair to *notes* as a :class:`Notice` about *field*."""

    def warn(code: str, message: str) -> None:
        notes.append(Notice(message, code, field))

    return warn


def _ignore(code: str, message: str) -> None:
    """A ``warn`` that drops the repairs (:func:`parse_hypothesis` does not list them)."""


# ============================================================================ JSON layer
def _lark_json(body: str) -> Any:
    """Decode *body* with ``record.lark`` (JSON plus trailing commas); raises lark errors."""
    # late: keeps check API light
    from causalcheck.grammar.parsers import parser
    from lark import Token, Tree

    tree = parser("record").parse(body)

    def conv(t: Any) -> Any:
        if isinstance(t, Token):  # pragma: no cover - every token is wrapped by a rule
            return str(t)
        assert isinstance(t, Tree)
        kind = t.data
        if kind == "object":
            out: dict[str, Any] = {}
            for pair in t.children:
                if pair is None:
                    continue
                key, value = pair.children
                out[json.loads(str(key))] = conv(value)
            return out
        if kind == "array":
            return [conv(c) for c in t.children if c is not None]
        if kind == "string":
            return json.loads(str(t.children[0]))
        if kind == "number":
            text = str(t.children[0])
            return int(text) if re.fullmatch(r"-?[0-9]+", text) else float(text)
        return {"true": True, "false": False, "null": None}[str(kind)]

    return conv(tree)


def decode_json(
    body: str, *, source: str = "<string>", offset: int = 0, document: str | None = None, lenient: bool = True
) -> tuple[Any, bool]:
    """Decode JSON text; returns ``(value, lenient)``.

    The safe decoder (:func:`causalcheck.base.safejson.loads`) is tried first; if the text is not
    strict JSON and *lenient* is true (and *body* has at most :data:`MAX_LENIENT_CHARS`
    characters), ``record.lark`` (which also accepts trailing commas) is tried and
    ``lenient`` is True.  When both fail a :class:`~causalcheck.base.errors.DSLSyntaxError`
    points at the offending character of *document* (default *body*, of which *body* starts
    at *offset*).  A value the safe decoder refuses (nested deeper than ``MAX_DEPTH``, a huge
    integer, a non-finite number, a lone surrogate) raises
    :class:`~causalcheck.base.errors.InputFormatError` naming *source*.
    """
    try:
        return safejson.loads(body, source=source), False
    except safejson.JSONSyntaxError as exc:
        strict_error = exc
    if not lenient or len(body) > MAX_LENIENT_CHARS:
        # late: keeps check API light
        from causalcheck.grammar.parsers import line_col

        doc = body if document is None else document
        line, column = line_col(doc, offset + strict_error.pos)
        why = "" if lenient else " (the lenient reading budget of this record is spent)"
        if len(body) > MAX_LENIENT_CHARS:
            why = f" (texts over MAX_LENIENT_CHARS={MAX_LENIENT_CHARS} characters must be strict JSON)"
        raise DSLSyntaxError(
            f"not valid JSON: {strict_error.msg}{why}", text=doc, line=line, column=column, source=source
        ) from None
    # late: keeps check API light
    from causalcheck.grammar.parsers import syntax_error
    from lark.exceptions import UnexpectedInput

    try:
        value = _lark_json(body)
    except UnexpectedInput as exc:
        raise syntax_error(
            exc, body, grammar="record", source=source, what="not valid JSON", offset=offset, document=document
        ) from None
    except RecursionError:
        raise InputFormatError(f"{source}: JSON nested deeper than MAX_DEPTH={safejson.MAX_DEPTH} levels") from None
    except ValueError as exc:  # a string token json cannot decode (bad escape), an integer past Python's limit
        raise InputFormatError(f"{source}: not valid JSON: {exc}") from None
    safejson.check_value(value, source=source)
    return value, True


# ============================================================================ value helpers
def _number(value: Any, where: str, warn: _Warn, *, allow_null: bool = True) -> tuple[float | None, bool]:
    """``(number, ok)``: numbers as float, numeric strings repaired, null as None."""
    if value is None:
        return None, allow_null
    if isinstance(value, bool):
        warn("boolean-number", f"{where}={value!r} is a boolean, not a number; read as null")
        return None, False
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:  # an integer beyond float range (10**400 is valid JSON)
            warn("non-finite-number", f"{where}={value!r:.40}… is beyond float range; read as null")
            return None, False
        if not math.isfinite(number):
            warn("non-finite-number", f"{where}={value!r} is not finite; read as null")
            return None, False
        return number, True
    if isinstance(value, str):
        text = value.strip().replace(",", "")
        m = re.fullmatch(r"([-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?)\s*(?:hz|Hz|HZ)?", text)
        if m:
            v = float(m.group(1))
            if math.isfinite(v):
                warn("numeric-string", f"{where}={value!r} is a string; read as the number {format_number(v)}")
                return v, True
        if text.lower() in ("null", "none", "unknown", "?", "nan", ""):
            warn("null-word", f"{where}={value!r} read as null")
            return None, True
    warn("not-a-number", f"{where}={value!r} is not a number; read as null")
    return None, False


def _node(name: Any, where: str, warn: _Warn) -> str | None:
    if not isinstance(name, str):
        if isinstance(name, (int, float)) and not isinstance(name, bool):
            warn("numeric-node-name", f"{where}={name!r} is not a string; read as {str(name)!r}")
            name = str(name)
        else:
            warn("not-a-node-name", f"{where}={name!r} is not a node name; ignored")
            return None
    norm = normalize_node(name)
    if not norm:
        warn("empty-node-name", f"{where}={name!r} is an empty node name; ignored")
        return None
    if norm == FREQ and name.strip() != FREQ:
        warn("frequency-alias", f"{where}={name!r} is a frequency alias; read as {FREQ!r}")
    return norm


@lru_cache(maxsize=4096)
def _norm_key(key: str) -> str:
    k = re.sub(r"[\s\-]+", "_", key.strip()).lower()
    return _KEY_ALIASES.get(k, k)


# ============================================================================ hypothesis (JSON)
_EDGE_FROM = ("from", "source", "cause", "parent", "src", "head")
_EDGE_TO = ("to", "target", "effect", "child", "dst", "tail")


@lru_cache(maxsize=8192)
def _plain_edge(a: str, b: str) -> Edge | None:
    """``Edge(a, b)`` when the names need no repair (shared: edges are immutable), else ``None``."""
    na, nb = normalize_node(a), normalize_node(b)
    if na and nb and (na != FREQ or a.strip() == FREQ) and (nb != FREQ or b.strip() == FREQ):
        return Edge(na, nb, None)
    return None


#: The middle of a ``[left, token, right]`` edge list: ``True`` left to right, ``False`` right to
#: left, ``None`` an edge that is not directed (a hypothesis holds directed edges only).
_LIST_ARROWS: dict[str, bool | None] = {
    "->": True, "→": True, "=>": True, "<-": False, "←": False,
    "--": None, "<->": None, "o->": None, "<-o": None, "o-o": None, "o--": None, "--o": None,
}


def _edge(item: Any, i: int, warn: _Warn) -> Edge | None:
    if type(item) is dict and len(item) == 2:  # fast path: {"from": A, "to": B}, nothing to repair
        a, b = item.get("from"), item.get("to")
        if type(a) is str and type(b) is str:
            plain = _plain_edge(a, b)
            if plain is not None:
                return plain
    where = f"hypothesis.edges[{i}]"
    label: Any = None
    if isinstance(item, Mapping):
        src = next((item[k] for k in _EDGE_FROM if k in item), None)
        dst = next((item[k] for k in _EDGE_TO if k in item), None)
        if src is None or dst is None:
            warn("edge-without-ends", f"{where}={item!r} needs 'from' and 'to'; ignored")
            return None
        label = item.get("label", item.get("type", item.get("relation")))
        extra = set(item) - {*_EDGE_FROM, *_EDGE_TO, "label", "type", "relation"}
        if extra:
            warn("edge-unknown-keys", f"{where} has unknown keys {sorted(extra)!r}; ignored them")
    elif isinstance(item, (list, tuple)) and len(item) == 3 and isinstance(item[1], str) and item[1].strip() in _LIST_ARROWS:
        # [left, token, right] (the JSON graph format's edge): the middle is the arrow, never a node named '->'
        arrow = item[1].strip()
        if _LIST_ARROWS[arrow] is None:
            warn("not-an-edge", f"{where}={item!r} is a {arrow!r} edge, not a directed one; ignored")
            return None
        src, dst = (item[0], item[2]) if _LIST_ARROWS[arrow] else (item[2], item[0])
        warn("edge-as-list", f"{where}={item!r} is a list; read as {{'from': {src!r}, 'to': {dst!r}}}")
    elif isinstance(item, (list, tuple)) and len(item) in (2, 3):
        src, dst = item[0], item[1]
        label = item[2] if len(item) == 3 else None
        warn("edge-as-list", f"{where}={item!r} is a list; read as {{'from': {src!r}, 'to': {dst!r}}}")
    elif isinstance(item, str) and re.search(r"->|→|=>", item):
        src, dst = re.split(r"\s*(?:->|→|=>)\s*", item.strip(), maxsplit=1)
        warn("edge-as-string", f"{where}={item!r} is a string; read as {{'from': {src!r}, 'to': {dst!r}}}")
    else:
        warn("not-an-edge", f"{where}={item!r} is not an edge {{'from': ..., 'to': ...}}; ignored")
        return None
    a = _node(src, f"{where}.from", warn)
    b = _node(dst, f"{where}.to", warn)
    if a is None or b is None:
        return None
    if label is not None and not isinstance(label, str):
        label = str(label)
    return Edge(a, b, label or None)


_HYP_OBJ_KEYS = frozenset({"edges", "coefficients", "nodes", "target", *_EQ_KEYS})


def _hypothesis_from_obj(obj: Mapping[str, Any], warn: _Warn) -> Hypothesis:
    edges: list[Edge] = []
    raw_edges = obj.get("edges", [])
    if raw_edges is None:
        warn("edges-null", "hypothesis.edges=None read as []")
        raw_edges = []
    if isinstance(raw_edges, str) and re.search(r"->|→|=>", raw_edges):
        warn("edges-as-string", f"hypothesis.edges={raw_edges!r} is a string; read each 'A -> B' in it as an edge")
        raw_edges = [part for part in re.split(r"[\n;,]+", raw_edges) if part.strip()]
    if not isinstance(raw_edges, list):
        warn("edges-not-a-list", f"hypothesis.edges={raw_edges!r} must be a list of {{'from', 'to'}} objects; ignored")
        raw_edges = []
    for i, item in enumerate(raw_edges):
        e = _edge(item, i, warn)
        if e is not None:
            edges.append(e)
    eq_key = next((k for k in _EQ_KEYS if k in obj), None)
    equation = obj.get(eq_key, "") if eq_key else ""
    if eq_key and eq_key != "freq_equation":
        warn("equation-key-alias", f"hypothesis key {eq_key!r} read as 'freq_equation'")
    if equation is None:
        equation = ""
    elif not isinstance(equation, str):
        warn("equation-not-a-string", f"hypothesis.freq_equation={equation!r} must be a string; ignored")
        equation = ""
    coefficients: dict[str, float | None] = {}
    raw_coeffs = obj.get("coefficients", {})
    if raw_coeffs is None:
        raw_coeffs = {}
    if not isinstance(raw_coeffs, Mapping):
        warn("coefficients-not-an-object", f"hypothesis.coefficients={raw_coeffs!r} must be an object name -> number; ignored")
        raw_coeffs = {}
    for name, value in raw_coeffs.items():
        t = type(value)
        if t is float and math.isfinite(value):  # fast path: a plain float (an int may be beyond float range: _number)
            v: float | None = value
        else:
            v, _ = _number(value, f"hypothesis.coefficients[{name!r}]", warn)
        coefficients[str(name).strip()] = v
    nodes: list[str] = []
    raw_nodes = obj.get("nodes", [])
    if isinstance(raw_nodes, Mapping):  # a graph_config.json: nodes keyed by name
        raw_nodes = list(raw_nodes)
    if isinstance(raw_nodes, list):
        for i, n in enumerate(raw_nodes):
            norm = _node(n, f"hypothesis.nodes[{i}]", warn)
            if norm is not None:
                nodes.append(norm)
    target = obj.get("target", FREQ)
    target = normalize_node(target) if isinstance(target, str) and target.strip() else FREQ
    extra = sorted(str(k) for k in obj if k not in _HYP_OBJ_KEYS)
    if extra:
        warn("hypothesis-unknown-keys", f"hypothesis has unknown keys {extra!r}; ignored them")
    return Hypothesis(CausalGraph(tuple(nodes), tuple(edges)), equation, coefficients, target)


# ============================================================================ hypothesis (text)
_NUMBER_RHS = re.compile(r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LABEL = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


def _parse_text_hypothesis(text: str, source: str) -> Hypothesis:
    # late: keeps check API light
    from causalcheck.grammar.parsers import parser, syntax_error
    from lark.exceptions import UnexpectedInput

    try:
        tree = parser("hypothesis").parse(text)
    except UnexpectedInput as exc:
        error = syntax_error(exc, text, grammar="hypothesis", source=source, what="bad hypothesis line")
        raise _with_hint(error, text) from None

    try:
        return _build_text_hypothesis(tree, text, source)
    except DSLSyntaxError as exc:
        raise _with_hint(exc, text) from None


# Common mistakes in the text format, recognised on the offending line (cf. lark's match_examples).
_HINTS = (
    (re.compile(r"=>|-->|<-|⇒"), "write an edge as 'cause -> effect'"),
    (re.compile(r"^\s*[^=#]*\b(causes|affects)\b"), "write an edge as 'cause -> effect'"),
    (re.compile(r"^\s*\{"), "this looks like JSON; a JSON hypothesis must be one complete object"),
    (re.compile(r"^[^#=]*=[^#]*\b(and|plus|times)\b"), "write equations with + - * / ^, e.g. 'resonanceFreq = base + c_A*A'"),
)


def _with_hint(error: DSLSyntaxError, text: str) -> DSLSyntaxError:
    lines = text.splitlines()
    line = lines[error.line - 1] if 0 < error.line <= len(lines) else ""
    for pattern, hint in _HINTS:
        if pattern.search(line):
            return DSLSyntaxError(
                error.message,
                text=text,
                line=error.line,
                column=error.column,
                expected=error.expected,
                source=error.source,
                label=hint,
            )
    return error


def _string_token(token: str, source: str) -> str:
    """A quoted name of the text format, decoded (a lone surrogate escape is refused)."""
    value = safejson.loads(token, source=source)
    return str(value)


def _build_text_hypothesis(tree: Any, text: str, source: str) -> Hypothesis:
    from lark import Token, Tree

    def err(msg: str, tok: Token) -> DSLSyntaxError:
        return DSLSyntaxError(msg, text=text, line=tok.line or 1, column=tok.column or 1, source=source)

    def node_name(t: Tree[Token]) -> str:
        tok = t.children[0]
        assert isinstance(tok, Token)
        raw = _string_token(str(tok), source) if tok.type == "STRING" else str(tok)
        name = normalize_node(raw)
        if not name:
            raise err(f"node name {raw!r} must not be empty", tok)
        return name

    nodes: list[str] = []
    edges: list[Edge] = []
    coefficients: dict[str, float | None] = {}
    equation = ""
    target = FREQ
    for st in tree.children:
        if not isinstance(st, Tree):
            continue
        if st.data == "nodes":
            nodes.extend(node_name(c) for c in st.children if isinstance(c, Tree))
        elif st.data == "edge":
            trees = [c for c in st.children if isinstance(c, Tree)]
            label_tok = [c for c in st.children if isinstance(c, Token) and c.type in ("LABEL", "STRING")]
            label = None
            if label_tok:
                lt = label_tok[0]
                label = _string_token(str(lt), source) if lt.type == "STRING" else str(lt)
            edges.append(Edge(node_name(trees[0]), node_name(trees[1]), label or None))
        elif st.data == "assignment":
            name_tok, rhs_tok = st.children
            assert isinstance(name_tok, Token) and isinstance(rhs_tok, Token)
            name = str(name_tok)
            rhs = str(rhs_tok).strip()
            is_value = rhs == "null" or _NUMBER_RHS.fullmatch(rhs) is not None
            if not is_value and not is_freq_alias(name) and is_coefficient_name(name) and _IDENT.fullmatch(rhs):
                raise err(f"coefficient {name} = {rhs!r} must be a number or null", rhs_tok)
            if is_value and not is_freq_alias(name):
                if name in coefficients:
                    raise err(f"coefficient {name!r} is assigned twice", name_tok)
                value = None if rhs == "null" else float(rhs)
                if value is not None and not math.isfinite(value):
                    raise err(f"coefficient {name}={rhs!r} must be a finite number or null", rhs_tok)
                coefficients[name] = value
                continue
            if equation:
                raise err(
                    f"a second equation {name} = {rhs!r}: a hypothesis has one equation (for its target)",
                    name_tok,
                )
            assert rhs_tok.start_pos is not None
            parse_equation(rhs, source=source, offset=rhs_tok.start_pos, document=text)
            equation = f"{name} = {' '.join(rhs.split())}"
            target = normalize_node(name)
    return Hypothesis(CausalGraph(tuple(nodes), tuple(edges)), equation, coefficients, target)


def _quote(name: str) -> str:
    return name if _IDENT.fullmatch(name) and name != "nodes" else json.dumps(name)


def format_hypothesis(h: Hypothesis) -> str:
    """Print *h* in the plain-text format (``parse_hypothesis`` reads it back unchanged).

    A ``nodes:`` line appears only when the node order is not the one the edges imply
    (isolated nodes, or a declared order).
    """
    lines: list[str] = []
    implied = CausalGraph((), h.graph.edges).nodes
    if h.graph.nodes != implied:
        lines.append("nodes: " + ", ".join(_quote(n) for n in h.graph.nodes))
    for e in h.graph.edges:
        line = f"{_quote(e.source)} -> {_quote(e.target)}"
        if e.label:
            line += f" : {e.label if _LABEL.fullmatch(e.label) else json.dumps(e.label)}"
        lines.append(line)
    eq = " ".join(h.equation.split())
    if eq:
        if "#" in eq:
            raise InputFormatError(f"equation={h.equation!r} contains '#', which starts a comment in the text format")
        if "=" not in eq:
            eq = f"{h.target} = {eq}"
        lines.append(eq)
    for name, value in h.coefficients.items():
        if not _IDENT.fullmatch(name):
            raise InputFormatError(f"coefficient name={name!r} must be an identifier to be printed")
        lines.append(f"{name} = {'null' if value is None else format_number(value)}")
    return "\n".join(lines) + ("\n" if lines else "")


def parse_hypothesis(text_or_obj: Any, *, source: str = "<string>") -> Hypothesis:
    """A :class:`~causalcheck.records.Hypothesis` from JSON (dict or text) or the plain-text format.

    A whole step record is accepted too (its ``hypothesis`` is returned).  Raises
    :class:`~causalcheck.base.errors.DSLSyntaxError` for text that is neither, and
    :class:`~causalcheck.base.errors.InputFormatError` for other values.
    """
    if isinstance(text_or_obj, Hypothesis):
        return text_or_obj
    if isinstance(text_or_obj, Mapping):
        keys = {_norm_key(str(k)) for k in text_or_obj}
        if "hypothesis" in keys and not keys & set(_HYP_KEYS):
            rec = parse_record_obj(text_or_obj, source=source)
            return rec.hypothesis or Hypothesis()
        return _hypothesis_from_obj(text_or_obj, _ignore)
    if not isinstance(text_or_obj, str):
        raise InputFormatError(f"hypothesis={text_or_obj!r} must be a dict, JSON text or plain text")
    text = text_or_obj
    if "\x00" in text:
        raise InputFormatError(f"{source}: contains NUL bytes; this looks like a binary file, not a hypothesis")
    if len(text) > MAX_HYPOTHESIS_CHARS:
        raise InputFormatError(
            f"{source}: the hypothesis has {len(text)} characters; the limit is MAX_HYPOTHESIS_CHARS={MAX_HYPOTHESIS_CHARS}"
        )
    body = text.strip()
    if body.startswith(("{", "```", "<think>")):
        budget = MAX_LENIENT_CHARS
        for cand in candidates(text):
            allowed = len(cand.body) <= budget
            if allowed:
                budget -= len(cand.body)
            try:
                obj, _ = decode_json(cand.body, source=source, offset=cand.start, document=text, lenient=allowed)
            except DSLSyntaxError:
                continue
            if isinstance(obj, Mapping):
                return parse_hypothesis(obj, source=source)
        start = text.find("{")
        decode_json(text[start:], source=source, offset=start, document=text)  # raises with a caret
        raise InputFormatError(f"{source}: the JSON holds no hypothesis object")  # pragma: no cover
    return _parse_text_hypothesis(text, source)


# ============================================================================ records
def looks_like_record(obj: Any) -> bool:
    """True when *obj* is a JSON object with at least one step-record or hypothesis key.

    Key spelling drift counts (``"Past Data"`` is ``past_data``).

    >>> looks_like_record({"Past Data": []}), looks_like_record({"step": 1, "raw_input": "x"})
    (True, False)
    """
    if not isinstance(obj, Mapping):
        return False
    keys = {_norm_key(str(k)) for k in obj}
    return bool(keys & {*RECORD_KEYS, *_HYP_KEYS})


def dropped_content(warnings: Sequence[str]) -> tuple[Notice, ...]:
    """The repairs among *warnings* (``StepRecord.warnings``) that had to drop content.

    Decided by each repair's code (:data:`REPAIR_CODES`), not its wording: the repairs that
    discard part of the input (an edge that is not ``{"from", "to"}``, an entry that is not
    an object, prose around the JSON, ...); unknown top-level keys are not content (they are
    kept in ``extras``).  A plain string without a code is not known to drop anything.

    >>> rec = parse_record_obj({"Past Data": [], "hypothesis": {"edges": [3]}})
    >>> rec.warnings
    ("key 'Past Data' read as 'past_data'", "hypothesis.edges[0]=3 is not an edge {'from': ..., 'to': ...}; ignored")
    >>> dropped_content(rec.warnings)
    ("hypothesis.edges[0]=3 is not an edge {'from': ..., 'to': ...}; ignored",)
    """
    return tuple(w for w in warnings if isinstance(w, Notice) and w.code in _DROPPING)


class ParseMemo:
    """The parts of an episode's records that repeat, converted once.

    Agents copy their evidence forward and often restate the same hypothesis, so a
    trajectory repeats the same ``past_data`` entries and hypotheses step after step.
    Readers pass one memo to every :func:`parse_record_obj` call of an episode:

    * an entry is remembered by the identity of the decoded object and its position — the
      lab trajectory reader decodes a copied-forward entry into the *same* object; the memo
      keeps the object alive, so an id can never be reused by another object;
    * a hypothesis in the plain form ``{"edges": [{"from", "to"}, ...], "freq_equation",
      "coefficients": {name: number}}`` is remembered by its content (the key holds every
      value the conversion reads, so equal keys convert to equal hypotheses).

    The repairs a remembered part needed are replayed into every record that holds it (the
    methods append them to the record's *notes*).
    Converted parts are shared between records: they must not be mutated, and decoded
    input must not change while the memo is in use.
    """

    __slots__ = ("_entries", "_graphs", "_hypotheses", "_last")

    def __init__(self) -> None:
        self._entries: dict[tuple[int, int], tuple[Any, DataPoint | None, tuple[str, ...]]] = {}
        self._hypotheses: dict[tuple[Any, ...], tuple[Hypothesis, tuple[str, ...]]] = {}
        self._graphs: dict[tuple[Any, ...], CausalGraph | None] = {}
        # the previous past_data list and its conversion, entry by entry
        self._last: tuple[list[Any], list[DataPoint | None], list[tuple[int, tuple[str, ...]]]] = ([], [], [])

    def points(self, raw: list[Any], notes: list[str]) -> tuple[DataPoint, ...]:
        """The data points of a ``past_data`` list (entries it shares with the previous list are not looked up)."""
        last_raw, last_points, last_notes = self._last
        n = min(len(raw), len(last_raw))
        j = 0
        while j < n and raw[j] is last_raw[j]:
            j += 1
        points = last_points[:j]
        groups = [(k, group) for k, group in last_notes if k < j] if last_notes else []
        for i in range(j, len(raw)):
            entry = raw[i]
            key = (id(entry), i)
            hit = self._entries.get(key)
            if hit is None or hit[0] is not entry:
                found: list[str] = []
                hit = self._entries[key] = (entry, _datapoint(entry, i, _warner(found, "past_data")), tuple(found))
            points.append(hit[1])
            if hit[2]:
                groups.append((i, hit[2]))
        self._last = (raw, points, groups)
        for _, group in groups:
            notes.extend(group)
        return tuple(p for p in points if p is not None)

    def hypothesis(self, obj: Mapping[str, Any], notes: list[str]) -> Hypothesis:
        """``_hypothesis_from_obj(obj, ...)``, converted once per distinct plain hypothesis."""
        key = _plain_hypothesis_key(obj)
        if key is None:
            return _hypothesis_from_obj(obj, _warner(notes, "hypothesis"))
        hit = self._hypotheses.get(key)
        if hit is None:
            found: list[str] = []
            plain = _plain_hypothesis(key, self._graphs)
            hit = self._hypotheses[key] = (plain or _hypothesis_from_obj(obj, _warner(found, "hypothesis")), tuple(found))
        notes.extend(hit[1])
        return hit[0]


def _plain_hypothesis(key: tuple[Any, ...], graphs: dict[tuple[Any, ...], CausalGraph | None]) -> Hypothesis | None:
    """The hypothesis of a plain key when nothing needs a repair (else ``None``: the general path decides).

    *graphs* remembers the graph of each edge list (agents often keep the edges and refit the
    coefficients); graphs are immutable, so they are shared.
    """
    pairs, eq, values = key
    if pairs in graphs:
        graph = graphs[pairs]
    else:
        found = [_plain_edge(a, b) for a, b in pairs]
        edges = tuple(e for e in found if e is not None)
        graph = graphs[pairs] = CausalGraph((), edges) if len(edges) == len(found) else None
    if graph is None:
        return None
    coefficients: dict[str, float | None] = {}
    for name, v in values:
        if type(v) is str:  # a zero or null, kept apart by its text (see _plain_hypothesis_key)
            coefficients[name.strip()] = None if v == "None" else float(v)
        elif math.isfinite(v):
            coefficients[name.strip()] = float(v)
        else:
            return None
    return Hypothesis(graph, eq, coefficients, FREQ)


def _plain_hypothesis_key(obj: Any) -> tuple[Any, ...] | None:
    """Everything :func:`_hypothesis_from_obj` reads from a plain hypothesis, or ``None`` for other shapes."""
    if type(obj) is not dict or len(obj) != 3:
        return None
    edges, eq, coeffs = obj.get("edges"), obj.get("freq_equation"), obj.get("coefficients")
    if type(edges) is not list or type(eq) is not str or type(coeffs) is not dict:
        return None
    pairs = []
    for e in edges:
        if type(e) is not dict or len(e) != 2:
            return None
        a, b = e.get("from"), e.get("to")
        if type(a) is not str or type(b) is not str:
            return None
        pairs.append((a, b))
    values = []
    for k, v in coeffs.items():
        t = type(v)
        if type(k) is not str or not (t is float or t is int or v is None):
            return None
        # 1 and 1.0 may share a key (both convert to 1.0 without a repair); zeros keep their sign
        values.append((k, v if v else str(v)))
    return (tuple(pairs), eq, tuple(values))


def parse_record(text: str | Mapping[str, Any], *, source: str = "<string>") -> StepRecord:
    """Parse one agent step record from model output (or an already-decoded dict).

    Tolerates ``<think>`` blocks, code fences, prose around the object, trailing commas and
    the value drift described in the module docstring; every repair is listed in
    ``StepRecord.warnings``.  Raises :class:`~causalcheck.base.errors.DSLSyntaxError` (line,
    column, expected tokens, caret) when no JSON object can be recovered, and
    :class:`~causalcheck.base.errors.InputFormatError` when the JSON is not a record.
    """
    if isinstance(text, Mapping):
        return parse_record_obj(text, source=source)
    if not isinstance(text, str):
        raise InputFormatError(f"record={text!r} must be a string or a dict")
    if "\x00" in text:
        raise InputFormatError(f"{source}: contains NUL bytes; this looks like a binary file, not a record")
    if len(text) > MAX_RECORD_CHARS:
        raise InputFormatError(
            f"{source}: the model output has {len(text)} characters; the limit is MAX_RECORD_CHARS={MAX_RECORD_CHARS}"
        )
    if not text.strip():
        raise DSLSyntaxError(
            "empty input: expected a JSON object such as {\"hypothesis\": {...}, \"action\": ...}",
            text=text or " ",
            expected=['"{"'],
            source=source,
        )
    if "{" not in text:
        stripped = text.strip()
        raise DSLSyntaxError(
            "no JSON object found: a record is a JSON object starting with '{'",
            text=text,
            line=text[: len(text) - len(text.lstrip())].count("\n") + 1,
            column=1,
            expected=['"{"'],
            source=source,
            label=f"the text starts with {stripped[:30]!r}",
        )
    errors: list[DSLSyntaxError] = []
    not_record: list[Any] = []
    tried: set[tuple[int, int]] = set()

    def all_candidates() -> Any:
        yield from candidates(text)
        brace = text.find("{")
        yield Candidate(text[brace:].rstrip(), brace, (Notice("ignored prose before the JSON object", "prose-before"),))

    count = 0
    budget = MAX_LENIENT_CHARS
    for cand in all_candidates():  # lazily: the common case decodes the first candidate
        key = (cand.start, len(cand.body))
        if key in tried:
            continue
        tried.add(key)
        count += 1
        allowed = len(cand.body) <= budget
        if allowed:
            budget -= len(cand.body)
        try:
            obj, lenient = decode_json(cand.body, source=source, offset=cand.start, document=text, lenient=allowed)
        except DSLSyntaxError as exc:
            errors.append(exc)
            continue
        if looks_like_record(obj):
            repairs = list(cand.repairs)
            if lenient:
                repairs.append(Notice("the JSON was not strict (e.g. a trailing comma); read it leniently", "lenient-json"))
            return parse_record_obj(obj, source=source, warnings=repairs)
        not_record.append(obj)
    if not_record and (not errors or isinstance(not_record[0], list) or count == 1):
        obj = not_record[0]
        shown = sorted(obj)[:8] if isinstance(obj, Mapping) else type(obj).__name__
        raise InputFormatError(
            f"{source}: the JSON is not a step record (found {shown!r}); "
            f"expected an object with some of the keys {', '.join(RECORD_KEYS)}"
        )
    if errors:
        raise max(errors, key=lambda e: (e.line, e.column))
    raise DSLSyntaxError(  # pragma: no cover - every non-empty text yields a candidate
        "no JSON object found", text=text, expected=['"{"'], source=source
    )


def _plain_datapoint(entry: Any) -> DataPoint | None:
    """The point of an entry ``{"id": str, "props": {name: number}, "freq": number}`` (optionally with
    ``"intervention": {"target_prop": str, "target_value": number}``) needing no repair, else ``None``."""
    if type(entry) is not dict or "freq" not in entry:
        return None
    intervention: Intervention | None = None
    if len(entry) == 4:
        iv = entry.get("intervention")
        if type(iv) is not dict or len(iv) != 2:
            return None
        prop: Any = iv.get("target_prop")
        value: Any = iv.get("target_value")
        t = type(value)
        if type(prop) is not str or not (t is float or t is int) or not math.isfinite(value):
            return None
        intervention = Intervention(normalize_node(prop), float(value))
    elif len(entry) != 3:
        return None
    ident, raw, freq = entry.get("id"), entry.get("props"), entry["freq"]
    if type(ident) is not str or type(raw) is not dict:
        return None
    if freq is not None:
        t = type(freq)
        if not (t is float or t is int) or not math.isfinite(freq):
            return None
        freq = float(freq)
    props: dict[str, float | None] = {}
    for k, v in raw.items():
        if type(k) is not str:
            return None
        name = normalize_node(k)
        if not name or name == FREQ:
            return None
        t = type(v)
        if (t is float or t is int) and math.isfinite(v):
            props[name] = float(v)
        elif v is None:
            props[name] = None
        else:
            return None
    return DataPoint(ident, props, freq, intervention, {})


def _datapoint(entry: Any, i: int, warn: _Warn) -> DataPoint | None:
    plain = _plain_datapoint(entry)
    if plain is not None:
        return plain
    where = f"past_data[{i}]"
    if not isinstance(entry, Mapping):
        warn("entry-not-an-object", f"{where}={entry!r} is not an entry {{'id', 'props', 'freq'}}; ignored")
        return None
    ident = entry.get("id", str(i))
    ident = ident if isinstance(ident, str) else str(ident)
    props: dict[str, float | None] = {}
    raw_props: dict[str, Any] = {}
    freq: float | None = None
    freq_seen = False
    raw = entry.get("props", {})
    if not isinstance(raw, Mapping):
        warn("props-not-an-object", f"{where}.props={raw!r} must be an object property -> number; ignored")
        raw = {}
    for k, v in raw.items():
        name = normalize_node(str(k))
        if not name:
            continue
        if name == FREQ:
            warn("frequency-in-props", f"{where}.props[{k!r}] is the frequency; read as {where}.freq")
            if not freq_seen:
                freq, _ = _number(v, f"{where}.props[{k!r}]", warn)
                freq_seen = True
            continue
        value, ok = _number(v, f"{where}.props[{k!r}]", warn)
        if not ok:
            raw_props[name] = v
        props[name] = value
    extras: dict[str, Any] = {}
    intervention: Intervention | None = None
    for k, v in entry.items():
        if k in ("id", "props"):
            continue
        if k == "freq" or (isinstance(k, str) and is_freq_alias(k)):
            if k != "freq":
                warn("freq-key-alias", f"{where} key {k!r} read as 'freq'")
            freq, _ = _number(v, f"{where}.freq", warn)
            freq_seen = True
        elif k == "intervention":
            if isinstance(v, Mapping) and isinstance(v.get("target_prop"), str):
                tv, _ = _number(v.get("target_value"), f"{where}.intervention.target_value", warn)
                if tv is not None:
                    intervention = Intervention(normalize_node(v["target_prop"]), tv)
            elif v is not None:
                warn("intervention-not-an-object", f"{where}.intervention={v!r} is not {{'target_prop', 'target_value'}}; ignored")
        else:
            extras[str(k)] = v
    if not freq_seen:
        warn("entry-without-freq", f"{where} (id {ident!r}) has no 'freq'")
    if raw_props:
        extras["raw_props"] = raw_props
    return DataPoint(ident, props, freq, intervention, extras)


def _experiment(v: Any, warn: _Warn, past: Sequence[DataPoint]) -> Experiment:
    if type(v) is dict and not v:  # fast path: {} (no intervention this step)
        return Experiment(None, None, {})
    if type(v) is dict and len(v) == 2:  # fast path: {"target_prop": P, "target_value": number}, nothing to repair
        prop: Any = v.get("target_prop")
        value: Any = v.get("target_value")
        t = type(value)
        if type(prop) is str and (t is float or t is int) and math.isfinite(value):
            name = normalize_node(prop)
            if (
                name
                and name != FREQ
                and prop.strip().lower() not in _NO_TARGET
                and (any(name in p.props for p in past) or not any(p.props for p in past))
            ):
                return Experiment(name, float(value), {})
    if v is None:
        warn("experiment-null", "experiment=None read as {}")
        return Experiment()
    if not isinstance(v, Mapping):
        warn("experiment-not-an-object", f"experiment={v!r} must be an object {{'target_prop', 'target_value'}} or {{}}; read as {{}}")
        return Experiment(extras={"raw": v})
    extras = {str(k): x for k, x in v.items() if k not in ("target_prop", "target_value")}
    prop = v.get("target_prop")
    value, _ = _number(v.get("target_value"), "experiment.target_value", warn)
    if prop is None and "target_prop" not in v:
        return Experiment(None, value, extras)
    if not isinstance(prop, str) or prop.strip().lower() in _NO_TARGET:
        warn("no-target-intervention", f"experiment.target_prop={prop!r} means no intervention; read as {{}} (the format asks for {{}})")
        return Experiment(None, None, {**extras, "raw_target_prop": prop, "raw_target_value": v.get("target_value")})
    name = normalize_node(prop)
    if name == FREQ:
        warn("frequency-intervention", f"experiment.target_prop={prop!r} is the frequency, which cannot be intervened on")
    elif not any(name in p.props for p in past) and (known_props := {n for p in past for n in p.props}):
        warn(
            "target-not-in-past-data",
            f"experiment.target_prop={prop!r} is not a property seen in past_data "
            f"({', '.join(sorted(known_props))}); experiment misused for a non-intervention step?"
        )
    return Experiment(name, value, extras)


def _action(obj: Mapping[str, Any], warn: _Warn) -> Action:
    v = obj.get("action")
    if type(v) is str and obj.get("chosen_dialog_option_int") is None and obj.get("value") is None:
        name = v.strip()  # fast path: one upper-case action name, nothing to repair
        if name and name == name.upper():
            return Action("action", name, obj.get("arg1"), obj.get("arg2"))
    forms = [k for k in ("action", "chosen_dialog_option_int", "value") if k in obj and obj[k] is not None]
    if len(forms) > 1:
        unused = ", ".join(f"{k}={obj[k]!r}" for k in forms[1:])
        warn("several-action-forms", f"record has several action forms {forms!r}; used {forms[0]!r}, not {unused}")
    if not forms:
        return Action()
    kind = forms[0]
    v = obj[kind]
    if kind == "action":
        arg1, arg2 = obj.get("arg1"), obj.get("arg2")
        if isinstance(v, Mapping):
            warn("action-as-object", f"action={v!r} is an object; read its 'action'/'name' and arguments")
            arg1, arg2 = v.get("arg1", arg1), v.get("arg2", arg2)
            v = v.get("action", v.get("name"))
        if not isinstance(v, str) or not v.strip():
            warn("action-not-a-name", f"action={v!r} must be an action name such as 'TALK'; ignored")
            return Action()
        name = v.strip()
        if name != name.upper():
            warn("action-case", f"action={v!r} read as {name.upper()!r}")
            name = name.upper()
        return Action("action", name, arg1, arg2)
    if kind == "chosen_dialog_option_int":
        num, _ = _number(v, "chosen_dialog_option_int", warn, allow_null=False)
        if num is None or num != int(num):
            warn("dialog-option-not-whole", f"chosen_dialog_option_int={v!r} must be a whole number; ignored")
            return Action()
        return Action("dialog", option=int(num))
    num, _ = _number(v, "value", warn, allow_null=False)
    if num is None:
        return Action()
    return Action("value", value=num)


def _text_field(name: str, v: Any, warn: _Warn) -> str | None:
    if v is None or isinstance(v, str):
        return v
    warn("text-not-a-string", f"{name} is a {type(v).__name__}, not a string; kept as its JSON text")
    try:
        return json.dumps(v, sort_keys=True)
    except (TypeError, ValueError, RecursionError):  # not JSON (an API caller's object), or nested too deeply
        return repr(v)[:10_000]


@lru_cache(maxsize=1024)
def _key_plan(keys: tuple[str, ...]) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...], tuple[Notice, ...]]:
    """``(record keys as (written, normalised), unknown keys, rename repairs)`` of a record's keys, in order."""
    known: list[tuple[str, str]] = []
    unknown: list[str] = []
    renamed: list[Notice] = []
    for k in keys:
        nk = _norm_key(k)
        if nk in _ALL_KEYS:
            if nk != k:
                renamed.append(Notice(f"key {k!r} read as {nk!r}", "key-spelling"))
            known.append((k, nk))
        else:
            unknown.append(k)
    return tuple(known), tuple(unknown), tuple(renamed)


def parse_record_obj(
    obj: Mapping[str, Any],
    *,
    source: str = "<string>",
    warnings: Sequence[str] = (),
    memo: ParseMemo | None = None,
) -> StepRecord:
    """Convert a decoded JSON object into a :class:`~causalcheck.records.StepRecord`.

    A bare hypothesis object (``{"edges", "freq_equation", "coefficients"}``) is read as a
    record holding only that hypothesis.  *memo* (an :class:`ParseMemo` shared by the
    records of one episode) converts each repeated ``past_data`` entry once.  Raises
    :class:`~causalcheck.base.errors.InputFormatError` when *obj* is not an object or has none of
    the record keys.
    """
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise InputFormatError(f"{source}: record={obj!r} must be a JSON object")
    notes: list[str] = list(warnings)
    data, extras = _record_fields(obj, source, notes)
    past = _past_data(data["past_data"], source, notes, memo) if "past_data" in data else None
    hypothesis = _hypothesis_field(data["hypothesis"], source, notes, memo) if "hypothesis" in data else None
    experiment = _experiment(data["experiment"], _warner(notes, "experiment"), past or ()) if "experiment" in data else None
    memory, thought = data.get("memory"), data.get("thought")
    return StepRecord(
        memory=memory if memory is None or type(memory) is str else _text_field("memory", memory, _warner(notes, "memory")),
        thought=thought if thought is None or type(thought) is str else _text_field("thought", thought, _warner(notes, "thought")),
        past_data=past,
        hypothesis=hypothesis,
        experiment=experiment,
        action=_action(data, _warner(notes, "action")),
        extras=extras,
        warnings=tuple(dict.fromkeys(notes)) if notes else (),
    )


def _record_fields(obj: Mapping[str, Any], source: str, notes: list[str]) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """``(record fields by normalised key, unknown keys)`` of *obj*; a bare hypothesis becomes the ``hypothesis`` field."""
    warn = _warner(notes, "")
    data: dict[str, Any] = {}
    extras: dict[str, Any] = {}
    keys = tuple(obj)
    if all(type(k) is str for k in keys):  # records of one run share their keys: plan them once
        known, unknown, renamed = _key_plan(keys)
        if unknown or renamed:
            data = {nk: obj[k] for k, nk in known}
            extras = {k: obj[k] for k in unknown}
            notes.extend(renamed)
        else:  # every key is a record key as written: read the object itself (it is not changed)
            data = obj  # type: ignore[assignment]
    else:
        for k, v in obj.items():
            if not isinstance(k, str):
                extras[str(k)] = v
                continue
            nk = _norm_key(k)
            if nk in _ALL_KEYS:
                if nk != k:
                    warn("key-spelling", f"key {k!r} read as {nk!r}")
                data[nk] = v
            else:
                extras[k] = v
    if not data:
        raise InputFormatError(
            f"{source}: not a step record: keys {sorted(map(str, obj))[:8]!r}; "
            f"expected some of {', '.join(RECORD_KEYS)}"
        )
    bare = [k for k in _HYP_KEYS if k in data]
    if bare:
        data = dict(data)  # *obj* itself may be data: never change it
    if bare and "hypothesis" not in data:
        warn("bare-hypothesis", "a bare hypothesis object; read as a record with only a hypothesis")
        data = {"hypothesis": {k: data.pop(k) for k in list(data) if k in _HYP_KEYS}, **data}
    elif bare:
        for k in bare:
            extras[k] = data.pop(k)
    if extras:
        warn("unknown-keys", f"ignored unknown keys {sorted(extras)[:8]!r}")
    return data, extras


def _past_data(raw: Any, source: str, notes: list[str], memo: ParseMemo | None) -> tuple[DataPoint, ...]:
    """The data points of a record's ``past_data`` value (JSON text, ``null`` and one object repaired)."""
    warn = _warner(notes, "past_data")
    if type(raw) is list:
        pass  # the usual case
    elif isinstance(raw, str):
        try:
            raw = safejson.loads(raw, source=f"{source} past_data") if raw.strip() else []
            warn("past-data-as-json-text", "past_data is JSON text inside a string; decoded it")
        except InputFormatError as exc:
            warn("past-data-not-json", f"past_data={raw[:60]!r} is a string that is not JSON ({str(exc)[:80]}); ignored")
            raw = []
    if raw is None:
        warn("past-data-null", "past_data=None read as []")
        raw = []
    if type(raw) is not list and isinstance(raw, Mapping):
        warn("past-data-single-object", "past_data is a single object; read as a list of one entry")
        raw = [raw]
    if type(raw) is not list and not isinstance(raw, list):
        warn("past-data-not-a-list", f"past_data={raw!r} must be a list of entries; ignored")
        raw = []
    if memo is not None:
        return memo.points(raw, notes)
    points = [_datapoint(e, i, warn) for i, e in enumerate(raw)]
    return tuple(p for p in points if p is not None)


def _hypothesis_field(raw_h: Any, source: str, notes: list[str], memo: ParseMemo | None) -> Hypothesis | None:
    """The hypothesis of a record's ``hypothesis`` value (an object, or text in a string); ``None`` when unusable."""
    warn = _warner(notes, "hypothesis")
    if type(raw_h) is dict or isinstance(raw_h, Mapping):
        return _hypothesis_from_obj(raw_h, warn) if memo is None else memo.hypothesis(raw_h, notes)
    if isinstance(raw_h, str):
        if not raw_h.strip():
            return Hypothesis()
        try:
            hypothesis = parse_hypothesis(raw_h, source=f"{source} (hypothesis string)")
        except CausalCheckError as exc:
            warn("hypothesis-text-unparsable", f"hypothesis string could not be parsed ({exc.args[0].splitlines()[0]}); ignored")
            return None
        warn("hypothesis-as-text", "hypothesis is text inside a string; parsed it")
        return hypothesis
    if raw_h is None:
        warn("hypothesis-null", "hypothesis=None read as the empty hypothesis")
        return Hypothesis()
    warn("hypothesis-not-an-object", f"hypothesis={raw_h!r} must be an object {{'edges', 'freq_equation', 'coefficients'}}; ignored")
    return None
