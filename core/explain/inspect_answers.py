"""Answers from an inspect_ai evaluation log: what ``inspect eval causalcheck/whatif`` generated.

``explain score --answers LOG`` reads a ``.eval`` / ``.json`` log of the ``causalcheck/whatif``
task (or of any task whose samples carry WhatIfBench item keys as ids) into the same
:class:`~causalcheck.explain.data.AnswerSet` every other answers file becomes
(:func:`causalcheck.explain.data.load_answer_sets` calls :func:`inspect_answer_records`), so an
inspect run is re-scored offline with any judge, parser or option and gives exactly the
numbers the same answers give in any other file.

Each sample is one answer record ``{"id", "answer", "error", "model"}`` — the fields of an
answers JSONL line: ``id`` is the key of the WhatIfBench item kept in the sample's metadata
(:data:`ITEM_KEY`), else the sample id; ``answer`` is the sample's final output text
(``output.completion``, ``""`` when the model said nothing: the item then fails as a missing
answer, exactly as an empty answer in a JSONL file); a sample that failed in inspect has no
answer and its error (the item fails with that reason).  ``model`` is the log's model
(``mockllm/model``, ``openai/gpt-4o``); a log with several epochs gives one answer model per
epoch, ``<model>@epoch<N>``.

>>> item_key({"id": 7, "canonical_id": "moon-01", "question": "?"}, "7")
'moon-01'
>>> item_key(None, "12")
'12'
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from causalcheck.errors import InputFormatError
from causalcheck.inspect_logs import log_samples

__all__ = ["ITEM_KEY", "inspect_answer_records", "item_key"]

#: The sample-metadata key under which ``causalcheck/whatif`` keeps the WhatIfBench item (its JSON object).
ITEM_KEY = "whatif_item"


def item_key(raw: Any, sample_id: str) -> str:
    """The official key of the item *raw* (``canonical_id``, else ``id``), else *sample_id*."""
    if isinstance(raw, Mapping):
        key = raw.get("canonical_id") or raw.get("id")
        if isinstance(key, (str, int)) and not isinstance(key, bool) and str(key):
            return str(key)
    return sample_id


def inspect_answer_records(path: str | Path) -> list[dict[str, Any]]:
    """One answer record per sample of the log at *path* (module docstring)."""
    model, samples = log_samples(path)
    if not samples:
        raise InputFormatError(f"path={str(path)!r} is an inspect log without samples")
    several = len({s.epoch for s in samples}) > 1
    out: list[dict[str, Any]] = []
    for s in samples:
        text = None if s.error else (s.completion or "")
        out.append(
            {
                "id": item_key(s.metadata.get(ITEM_KEY), s.id),
                "answer": text,
                "error": s.error,
                "model": f"{model}@epoch{s.epoch}" if several else model,
            }
        )
    return out
