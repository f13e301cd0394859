"""WhatIfBench items, rubrics, answer files and the scores of an item.

A WhatIfBench file is one JSON object ``{"meta": {...}, "items": [...]}``.  Each item is an
open-ended counterfactual ("what if …") question with a *query-dependent rubric*: five
criteria, each with a description and five behavioural score bands (``"1-2"`` … ``"9-10"``).
The Rubric Metric asks a judge for one integer 1–10 per criterion and averages them.

Domains: the data says ``"STEM"`` or ``"HASS"`` (humanities, arts and social sciences) and
marks cross-domain questions with ``is_hybrid``.  Reports use the paper's buckets
``STEM`` / ``HSS`` / ``Hybrid``: ``Hybrid`` when ``is_hybrid`` is true or the domain is
literally ``HYBRID``, else ``STEM`` or ``HSS`` (``HASS`` and ``HSS`` are the same bucket).

Answers come either in the official runner format (the benchmark items plus
``model_answer`` / ``model_answer_error``, under ``meta.task == "runner"``) or as plain JSONL
with one ``{"id": ..., "answer": ...}`` object per line.  Items and answers are joined on the
official *item key*: ``canonical_id`` when present, else ``str(id)``; a JSONL ``id`` may name
either.

``load_benchmark("demo")`` / ``load_answers("demo")`` read the bundled demo set.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from causalcheck.base import safejson
from causalcheck.base.errors import InputFormatError
from causalcheck.base.files import read_input_text
from causalcheck.base.shown import shown
from causalcheck.episodes.inspect_logs import inspect_answer_records, is_inspect_log

if TYPE_CHECKING:  # pragma: no cover
    from causalcheck.base.files import Provenance

__all__ = [
    "ANSWER_KEYS",
    "BAND_KEYS",
    "RUN_HEADER_KEY",
    "Answer",
    "AnswerSet",
    "Benchmark",
    "Bucket",
    "Criterion",
    "Rubric",
    "WhatIfItem",
    "bucket_of",
    "criteria_of",
    "is_run_header",
    "load_answer_sets",
    "load_answers",
    "load_benchmark",
    "parse_item",
]

#: The five score-band keys of a criterion, in order.
BAND_KEYS: tuple[str, ...] = ("1-2", "3-4", "5-6", "7-8", "9-10")

Bucket = Literal["STEM", "HSS", "Hybrid"]

DEMO = "demo"

#: Key of the provenance line an ``explain answer`` session writes into its answer file.
RUN_HEADER_KEY = "causalcheck_run"


@dataclass(frozen=True)
class Criterion:
    """One rubric criterion: a name, a description and the five band texts (``BAND_KEYS`` order)."""

    name: str
    description: str
    bands: tuple[str, ...]

    def band(self, key: str) -> str:
        """The text of band *key* (one of :data:`BAND_KEYS`)."""
        if key not in BAND_KEYS:
            raise InputFormatError(f"band key={key!r} must be one of {list(BAND_KEYS)!r}")
        return self.bands[BAND_KEYS.index(key)]

    def to_json(self) -> dict[str, str]:
        """The official criterion object (keys in the official order)."""
        out = {"name": self.name, "criteria_description": self.description}
        out.update(zip(BAND_KEYS, self.bands, strict=True))
        return out


@dataclass(frozen=True)
class Rubric:
    """A query-dependent rubric; ``raw`` keeps the JSON object as read."""

    criteria: tuple[Criterion, ...]
    title: str = ""
    question_focus: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False)


def bucket_of(domain: str, is_hybrid: bool) -> Bucket | None:
    """The report bucket of an item (see the module docstring); ``None`` for unknown domains.

    >>> bucket_of("HASS", False), bucket_of("STEM", True), bucket_of("hybrid", False)
    ('HSS', 'Hybrid', 'Hybrid')
    """
    upper = domain.strip().upper()
    if is_hybrid or upper == "HYBRID":
        return "Hybrid"
    if upper == "STEM":
        return "STEM"
    if upper in ("HASS", "HSS"):
        return "HSS"
    return None


@dataclass(frozen=True)
class WhatIfItem:
    """One benchmark question.  ``raw`` is the item object as read (written back into result files)."""

    id: int | str
    question: str
    domain: str
    rubric: Rubric | None
    canonical_id: str | None = None
    answer_type: str = "open"
    is_hybrid: bool = False
    subcategory: str = ""
    original_question: str = ""
    human_answers: tuple[str, ...] = ()
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def key(self) -> str:
        """The official join key: ``canonical_id`` if set, else ``str(id)``."""
        return self.canonical_id if self.canonical_id else str(self.id)

    @property
    def bucket(self) -> Bucket | None:
        """``STEM``, ``HSS`` or ``Hybrid`` (``None`` for an unknown domain)."""
        return bucket_of(self.domain, self.is_hybrid)


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark file."""

    items: tuple[WhatIfItem, ...]
    meta: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""

    def by_key(self) -> dict[str, WhatIfItem]:
        """Items by their official key."""
        return {it.key: it for it in self.items}


@dataclass(frozen=True)
class Answer:
    """One model answer; ``text`` is ``None`` when the runner recorded no answer (see ``error``)."""

    key: str
    text: str | None
    error: str | None = None
    model: str = ""


@dataclass(frozen=True)
class AnswerSet:
    """Answers by item key, with the answering model's name (``meta.model``, else first ``model_name``, else the file stem)."""

    answers: Mapping[str, Answer]
    model: str = "answers"
    source: str = ""
    model_from: str = ""
    """Where :attr:`model` came from: ``"record"`` (a ``model`` / ``model_name`` field), ``"meta.model"``,
    ``"file name"`` (neither was there), ``"inspect log"``; ``""`` when the caller named it."""

    def get(self, item: WhatIfItem) -> Answer | None:
        """The answer for *item*: looked up by its key, then by ``str(item.id)``."""
        return self.answers.get(item.key) or self.answers.get(str(item.id))


# ---------------------------------------------------------------- parsing helpers
def _req_str(obj: Mapping[str, Any], key: str, where: str) -> str:
    value = obj.get(key)
    if not isinstance(value, str):
        raise InputFormatError(f"{where}: {key}={value!r} must be a string")
    return value


def _criterion(obj: Any, where: str) -> Criterion | None:
    """A criterion from its JSON object; ``None`` (dropped, as the official loader does) when incomplete."""
    if not isinstance(obj, Mapping):
        return None
    name = obj.get("name", obj.get("criterion_name"))
    desc = obj.get("criteria_description", obj.get("description"))
    bands = [obj.get(k) for k in BAND_KEYS]
    if not isinstance(name, str) or not isinstance(desc, str):
        return None
    if not all(isinstance(b, str) for b in bands):
        return None
    return Criterion(name=name, description=desc, bands=tuple(str(b) for b in bands))


def _rubric(obj: Any, where: str) -> Rubric | None:
    if obj is None:
        return None
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"{where}: rubrics={obj!r:.80} must be an object")
    raw_criteria = obj.get("criteria")
    if raw_criteria is None:
        raw_criteria = []
    if not isinstance(raw_criteria, list):
        raise InputFormatError(f"{where}: rubrics.criteria={raw_criteria!r:.80} must be a list")
    criteria = [c for c in (_criterion(x, where) for x in raw_criteria) if c is not None]
    return Rubric(
        criteria=tuple(criteria),
        title=str(obj.get("rubric_title", "")),
        question_focus=str(obj.get("question_focus", "")),
        raw=dict(obj),
    )


def parse_item(obj: Any, index: int = 0) -> WhatIfItem:
    """One benchmark item from its JSON object; raises :class:`InputFormatError` naming the bad field."""
    where = f"item #{index}"
    if not isinstance(obj, Mapping):
        raise InputFormatError(f"{where}: item={obj!r:.80} must be a JSON object")
    item_id = obj.get("id")
    if not isinstance(item_id, (int, str)) or isinstance(item_id, bool):
        raise InputFormatError(f"{where}: id={item_id!r} must be an integer or a string")
    question = _req_str(obj, "question", where)
    domain = obj.get("domain", "")
    if not isinstance(domain, str):
        raise InputFormatError(f"{where}: domain={domain!r} must be a string")
    canonical = obj.get("canonical_id")
    if canonical is not None and not isinstance(canonical, str):
        raise InputFormatError(f"{where}: canonical_id={canonical!r} must be a string")
    humans = obj.get("human_answers") or []
    if not isinstance(humans, list):
        raise InputFormatError(f"{where}: human_answers={humans!r:.80} must be a list")
    return WhatIfItem(
        id=item_id,
        question=question,
        domain=domain,
        rubric=_rubric(obj.get("rubrics"), where),
        canonical_id=canonical or None,
        answer_type=str(obj.get("answer_type", "open")),
        is_hybrid=obj.get("is_hybrid") is True,
        subcategory=str(obj.get("subcategory", "")),
        original_question=str(obj.get("original_question", "") or ""),
        human_answers=tuple(str(h) for h in humans),
        raw=dict(obj),
    )


def _read_text(path: Path, what: str, record: Provenance | None) -> str:
    """The text of the user's file (:func:`causalcheck.base.files.read_input_text`), recorded in *record* with its hash."""
    text = read_input_text(path, what=what)
    if record is not None:
        record.add_input(path)
    return text


def _demo_path(name: str) -> Path:
    return Path(str(resources.files("causalcheck") / "data" / name))


def load_benchmark(path: str | Path, *, record: Provenance | None = None) -> Benchmark:
    """Load a WhatIfBench JSON file (``{"meta", "items"}`` or a bare item list); ``"demo"`` = bundled set.

    The file is read with :func:`causalcheck.base.files.read_input_bytes` and decoded with
    :func:`causalcheck.base.safejson.loads`; *record*, when given, gets it as an input (path, SHA-256).
    """
    p = _demo_path("whatif_demo.json") if str(path) == DEMO else Path(path)
    data = safejson.loads(_read_text(p, "benchmark", record), source=f"benchmark {str(p)!r}")
    if isinstance(data, list):
        meta: Mapping[str, Any] = {}
        raw_items: Any = data
    elif isinstance(data, Mapping):
        meta = data.get("meta") or {}
        raw_items = data.get("items")
        if not isinstance(meta, Mapping):
            raise InputFormatError(f"{p}: meta={meta!r:.80} must be an object")
    else:
        raise InputFormatError(f"{p}: top level={type(data).__name__!r} must be an object with 'items'")
    if not isinstance(raw_items, list):
        raise InputFormatError(f"{p}: items={raw_items!r:.80} must be a list")
    try:
        items = tuple(parse_item(obj, i) for i, obj in enumerate(raw_items))
    except InputFormatError as exc:
        raise InputFormatError(f"benchmark {str(p)!r}: {exc}") from None
    keys = [it.key for it in items]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise InputFormatError(f"{p}: item keys {dup!r} occur more than once")
    return Benchmark(items=items, meta=dict(meta), source=str(p))


ANSWER_KEYS = ("answer", "model_answer")
"""The fields an answer record's text is read from (JSONL / list: ``answer``; the official runner: ``model_answer``)."""


def _answer_from_mapping(obj: Mapping[str, Any], where: str, model: str) -> Answer:
    key_value = obj.get("canonical_id") or obj.get("id")
    if key_value is None or isinstance(key_value, bool) or not isinstance(key_value, (int, str)):
        raise InputFormatError(f"{where}: id={key_value!r} must be an integer or a string")
    text = obj.get("model_answer", obj.get("answer"))
    if text is not None and not isinstance(text, str):
        raise InputFormatError(f"{where}: answer={text!r:.80} must be a string or null")
    err = obj.get("model_answer_error", obj.get("error"))
    if err is None and "answer" not in obj and "model_answer" not in obj:  # a misnamed key, e.g. "response"
        others = sorted(str(k) for k in obj if k not in ("id", "canonical_id", "model", "model_name"))
        err = (f"{where} has no {ANSWER_KEYS[0]!r} field (nor {ANSWER_KEYS[1]!r}); its other keys: {others!r}"
               if others else f"{where} has no {ANSWER_KEYS[0]!r} field (nor {ANSWER_KEYS[1]!r})")
    return Answer(key=str(key_value), text=text, error=None if err is None else str(err), model=model)


def is_run_header(obj: Mapping[str, Any]) -> bool:
    """True for the provenance line ``explain answer`` writes at the start of each session (:data:`RUN_HEADER_KEY`)."""
    return RUN_HEADER_KEY in obj and "model_answer" not in obj and "answer" not in obj


def _record_answer(obj: Mapping[str, Any], i: int, p: Path, default: str) -> Answer:
    raw_name = obj.get("model") or obj.get("model_name") or default
    if not isinstance(raw_name, str):
        raise InputFormatError(f"{p}: answer #{i}: model={raw_name!r:.60} must be a string")
    return _answer_from_mapping(obj, f"{p}: answer #{i}", raw_name)


def _grouped(answers: Iterable[Answer], p: Path, what: str) -> dict[str, dict[str, Answer]]:
    """The answers by model and key; an id given twice for one model is refused (which one would count?), naming both."""
    groups: dict[str, dict[str, Answer]] = {}
    first: dict[tuple[str, str], int] = {}
    for i, ans in enumerate(answers):
        seen = first.setdefault((ans.model, ans.key), i)
        if seen != i:
            same = "the same answer" if groups[ans.model][ans.key] == ans else "a different answer"
            raise InputFormatError(
                f"{p}: {what} #{i} repeats id {shown(ans.key)} of model {shown(ans.model)} ({what} #{seen}) with {same}; "
                "an answer file holds one answer per id and model"
            )
        groups.setdefault(ans.model, {})[ans.key] = ans
    return groups


def load_answer_sets(path: str | Path, *, record: Provenance | None = None) -> tuple[AnswerSet, ...]:
    """Load answers grouped by answering model.

    Accepts the official runner JSON, a JSON list, or JSONL ``{"id", "answer"}`` lines; an
    optional ``"model"`` (or ``"model_name"``) field per record splits one file into several
    answer sets (the demo file holds three).  ``"demo"`` = the bundled demo answers.  The
    provenance lines of an ``explain answer`` file (:func:`is_run_header`) are skipped.
    *record*, when given, gets the file as an input (path, SHA-256).
    An inspect_ai log (``.eval`` / ``.json``) is read by :mod:`causalcheck.episodes.inspect_logs`.
    """
    p = _demo_path("whatif_demo_answers.jsonl") if str(path) == DEMO else Path(path)
    if is_inspect_log(p):  # an inspect_ai log of causalcheck/whatif
        samples = inspect_answer_records(p)
        if record is not None:
            record.add_input(p)
        by_model = _grouped((_answer_from_mapping(rec, f"{p}: sample #{i}", str(rec["model"])) for i, rec in enumerate(samples)), p, "sample")
        return tuple(AnswerSet(answers=a, model=m, source=str(p), model_from="inspect log") for m, a in by_model.items())
    text = _read_text(p, "answers", record)
    records: list[Mapping[str, Any]] = []
    model = ""
    try:
        whole: Any = safejson.loads(text, source=f"answers {str(p)!r}")
    except safejson.JSONSyntaxError:
        whole = None  # not one JSON document: read it as JSONL below
    if isinstance(whole, Mapping) and "items" in whole:
        if not isinstance(whole["items"], list):
            raise InputFormatError(f"{p}: items={whole['items']!r:.80} must be a list")
        meta = whole.get("meta") or {}
        model_value = (meta.get("model") or meta.get("answer_model") or "") if isinstance(meta, Mapping) else ""
        model = model_value if isinstance(model_value, str) else ""
        records = [r for r in whole["items"] if isinstance(r, Mapping)]
        if len(records) != len(whole["items"]):
            raise InputFormatError(f"{p}: every entry of 'items' must be an object")
    elif isinstance(whole, list):
        if not all(isinstance(r, Mapping) for r in whole):
            raise InputFormatError(f"{p}: every entry of the answer list must be an object")
        records = list(whole)
    elif isinstance(whole, Mapping):
        records = [whole]
    elif whole is not None:
        raise InputFormatError(f"{p}: top level={type(whole).__name__!r} must be an object, a list or JSONL")
    else:
        for lineno, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                obj = safejson.loads(line, source=f"{p}:{lineno}")
            except safejson.JSONSyntaxError as exc:
                raise InputFormatError(f"{p}:{lineno}: line={line[:60]!r} is not JSON: {exc}") from None
            if not isinstance(obj, Mapping):
                raise InputFormatError(f"{p}:{lineno}: line={line[:60]!r} must be a JSON object")
            if not is_run_header(obj):
                records.append(obj)
    groups = _grouped((_record_answer(obj, i, p, model or p.stem) for i, obj in enumerate(records)), p, "answer")
    if not groups:
        raise InputFormatError(f"path={str(p)!r} holds no answers")
    named = {obj.get("model") or obj.get("model_name") for obj in records}
    origin = {m: "record" if m in named else ("meta.model" if model else "file name") for m in groups}
    return tuple(AnswerSet(answers=a, model=m, source=str(p), model_from=origin[m]) for m, a in groups.items())


def load_answers(path: str | Path, model: str | None = None, *, record: Provenance | None = None) -> AnswerSet:
    """The one answer set in *path* (or the one of *model* when the file holds several)."""
    sets = load_answer_sets(path, record=record)
    if model is not None:
        chosen = [s for s in sets if s.model == model]
        if not chosen:
            raise InputFormatError(f"model={model!r} must be one of {[s.model for s in sets]!r}")
        return chosen[0]
    if len(sets) > 1:
        raise InputFormatError(f"path={str(path)!r} holds answers of models {[s.model for s in sets]!r}; pick one with model=")
    return sets[0]


def criteria_of(item: WhatIfItem) -> Sequence[Criterion]:
    """The item's criteria (empty when it has no usable rubric)."""
    return item.rubric.criteria if item.rubric is not None else ()
