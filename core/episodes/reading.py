"""One step's output → a parsed record or an :class:`~causalcheck.episodes.model.Unparsed` marker.

Every reader of :mod:`causalcheck.episodes` hands what the agent wrote for a step — the
model's text (``raw_io`` ``raw_output``, a lab ``record`` given as text) or an already
decoded object (a lab ``record``, an official tracking ``action``) — to one
:class:`RecordReader`, which runs the tolerant record parser (:mod:`causalcheck.parsing`)
and never raises for bad content: a step with no recoverable record becomes an
``Unparsed`` marker with the parser's message.  The reader keeps an
:class:`~causalcheck.parsing.ParseMemo` for the episode, so ``past_data`` entries an agent
copied forward (decoded into the same objects by the trajectory reader) are converted once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from causalcheck.base.errors import CausalCheckError, InputFormatError
from causalcheck.episodes.model import Unparsed
from causalcheck.parsing import ParseMemo, parse_record, parse_record_obj
from causalcheck.records import StepRecord

__all__ = ["RecordReader"]


class RecordReader:
    """Parses the step outputs of one episode (one reader per episode: it holds the memo)."""

    __slots__ = ("_memo",)

    def __init__(self, *, memo: bool = True) -> None:
        self._memo = ParseMemo() if memo else None

    def read(self, raw: Any, where: str, *, what: str = "record") -> StepRecord | Unparsed:
        """The record in *raw* (model text or a decoded object); *where* names the step in messages.

        *what* is the field *raw* came from (``record``, ``raw_output``), for the message when
        *raw* is neither text nor an object.
        """
        try:
            if isinstance(raw, str):
                return parse_record(raw, source=where)
            if isinstance(raw, Mapping):
                return parse_record_obj(raw, source=where, memo=self._memo)
            if what == "raw_output":
                raise InputFormatError(f"{where}: raw_output={raw!r} must be the model's text")
            raise InputFormatError(f"{where}: {what}={raw!r} must be an object or the model's text")
        except CausalCheckError as exc:
            return Unparsed(str(exc), exc)
