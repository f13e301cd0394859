"""The error tree's warning value: a Notice is its text and carries a code (causalcheck.base.errors)."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from causalcheck.base.errors import Notice


def test_a_notice_is_its_text_for_everything_that_shows_it() -> None:
    """Printing, joining, comparing and JSON output see exactly the message; derived text is a plain str."""
    n = Notice("past_data=None read as []", "past-data-null", "past_data")
    assert n == "past_data=None read as []" and f"{n}" == str(n) == "past_data=None read as []"
    assert json.dumps([n]) == '["past_data=None read as []"]' and repr(n) == repr("past_data=None read as []")
    assert type(str(n)) is str and type(f"step 1: {n}") is str and "; ".join([n, n]) == f"{n}; {n}"


def test_a_notice_keeps_its_code_and_field_and_cannot_be_changed() -> None:
    """code and field survive pickling and copying; setting an attribute is refused."""
    n = Notice("text", "some-code", "hypothesis")
    for other in (pickle.loads(pickle.dumps(n)), copy.deepcopy(n), copy.copy(n)):
        assert (other, other.code, other.field, type(other)) == ("text", "some-code", "hypothesis", Notice)
    with pytest.raises(AttributeError, match="immutable"):
        n.code = "other"
    assert Notice("x", "c").field == ""
