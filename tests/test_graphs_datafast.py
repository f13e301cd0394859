"""The fast CSV reader of ``load_data``: clean files parsed in C bit for bit as the plain reader does, the rest left to it.

The plain reader (``csv`` and ``float()`` per cell) is the oracle; ``properties/test_graphs_datafast_properties.py``
compares the two on generated files.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from causalcheck.base.errors import CausalCheckError
from causalcheck.graphs import data as plain_data
from causalcheck.graphs import datafast
from causalcheck.graphs.data import load_data
from causalcheck.graphs.datafast import read_clean_csv

#: Numbers in the spellings a clean file may hold, each read by float() exactly.
SPELLINGS = ["0.1", "-0", "+1", ".5", "1.", "1E5", "-.25e-3", "00012", "4.9e-324", "2.4703282292062328e-324", "123456789012345678901",
             "0.1000000000000000055511151231257827", "1.7976931348623157e308", "9007199254740993", "-7"]


def _write(tmp_path: Path, content: bytes | str, name: str = "d.csv") -> str:
    path = tmp_path / name
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    return str(path)


def _clean(tmp_path: Path, delimiter: str = ",", empty: bool = False) -> str:
    """A clean file: the spellings, random floats written by repr, small integers (and two empty cells)."""
    rng = np.random.default_rng(3)
    rows = [delimiter.join(["a", "b", "c"])]
    for k in range(40):
        first = "" if empty and k % 20 == 7 else SPELLINGS[k % len(SPELLINGS)]
        rows.append(delimiter.join([first, repr(float(rng.normal())), str(int(rng.integers(-5, 5)))]))
    return _write(tmp_path, "\n".join(rows) + "\n\n")


@pytest.fixture(params=["pandas", "numpy"])
def parser(request, monkeypatch):
    """Both parsers of the fast path: pandas' C reader (from any size) and numpy.loadtxt (pandas hidden)."""
    monkeypatch.setattr(datafast, "PANDAS_FROM_BYTES", 0)
    if request.param == "pandas":
        pytest.importorskip("pandas")
    else:
        monkeypatch.setitem(sys.modules, "pandas", None)
    return request.param


@pytest.mark.parametrize("delimiter", [",", "\t"])
def test_a_clean_file_is_parsed_in_c_bit_for_bit_as_float_reads_it(tmp_path, parser, delimiter):
    """Every spelling reads as float() reads it (the plain reader's values, compared as bytes)."""
    path = _clean(tmp_path, delimiter)
    fast = read_clean_csv(path)
    assert fast is not None and fast[0] == ["a", "b", "c"]
    _, rows = plain_data._read_csv(path)
    expected = np.array([[float(c) if c else np.nan for c in r] for _, r in rows])
    assert fast[1].shape == expected.shape and fast[1].tobytes() == np.ascontiguousarray(expected).tobytes()
    assert np.signbit(fast[1][1, 0])  # "-0" is -0.0, as float("-0")


def test_load_data_gives_the_same_table_with_and_without_the_fast_reader(tmp_path, parser, monkeypatch):
    """Names, kinds, levels, notes and the values bit for bit; the empty cells dropped as rows with NaN."""
    path = _clean(tmp_path, empty=True)
    assert (read_clean_csv(path) is None) == (parser == "numpy")  # numpy.loadtxt has no empty cells: the plain reader
    fast = load_data(path, ["c", "a", "b"], nan="drop")
    monkeypatch.setattr(plain_data, "read_clean_csv", lambda p: None)
    plain = load_data(path, ["c", "a", "b"], nan="drop")
    assert (fast.names, fast.kinds, fast.levels, fast.notes, fast.rows_dropped, fast.discrete) == (
        plain.names, plain.kinds, plain.levels, plain.notes, plain.rows_dropped, plain.discrete
    )
    assert fast.values.tobytes() == plain.values.tobytes() and fast.rows_dropped == 2


def test_the_index_column_pandas_writes_is_noted_and_ignored_on_the_fast_path(tmp_path, parser):
    """A header starting with an empty name: the same note as the plain reader's."""
    path = _write(tmp_path, ",x,y\n0,1.5,2\n1,2.5,1\n2,0.5,3\n3,1.0,4\n4,2.0,0\n")
    assert read_clean_csv(path) is not None
    t = load_data(path, ["x", "y"])
    assert t.values[:, 0].tolist() == [1.5, 2.5, 0.5, 1.0, 2.0]
    assert any("an index written by pandas" in n for n in t.notes)


@pytest.mark.parametrize(
    "content",
    [
        "\ufeffa,b\n1,2\n",  # a BOM
        'a,b\n"1",2\n',  # quotes
        "a,b\n1,x\n",  # a label
        "a,b\n1,nan\n",  # missing-value text
        "a,b\n1,inf\n",  # infinity text
        "a,b\n1, 2\n",  # a space
        "a,b\r\n1,2\r\n",  # carriage returns
        "a,b\n1,2\n3\n",  # a short row
        "a,b\n1,2\n3,4,5\n",  # a long row
        "a,b\n1,2\n,\n",  # a row of empty cells
        "a,b\n",  # a header alone
        ",\n1,2\n",  # a header of empty cells
        "a,b\n1,1_0\n",  # float() reads 1_0; the C parsers do not
        'a,"b"\n1,2\n',  # a quoted header
        "",  # nothing
    ],
)
def test_anything_unclean_is_left_to_the_plain_reader(tmp_path, parser, content):
    """None (never an error) for every irregular file: the plain reader reads it or names what is wrong."""
    assert read_clean_csv(_write(tmp_path, content)) is None


def test_paths_that_are_not_regular_files_are_left_to_the_plain_reader(tmp_path):
    """A folder and a missing path give None; load_data's own messages name them."""
    assert read_clean_csv(str(tmp_path)) is None and read_clean_csv(str(tmp_path / "missing.csv")) is None
    with pytest.raises(CausalCheckError, match="is a folder"):
        load_data(str(tmp_path), ["a"])
    with pytest.raises(CausalCheckError, match="does not exist"):
        load_data(str(tmp_path / "missing.csv"), ["a"])


def test_damaged_cells_keep_the_plain_readers_messages(tmp_path):
    """A short row and an infinite value: the messages load_data gave before the fast reader existed."""
    short = _write(tmp_path, "a,b\n1,2\n3\n4,5\n6,7\n8,9\n1,1\n", "short.csv")
    with pytest.raises(CausalCheckError, match=r"short\.csv:3: the row has 1 cells but the header names 2 columns"):
        load_data(short, ["a", "b"])
    infinite = _write(tmp_path, "a,b\n1,2\n3,1e400\n4,5\n6,7\n8,9\n1,1\n", "inf.csv")
    assert read_clean_csv(infinite) is not None  # clean: 1e400 is a number (inf), refused by the checks below the readers
    with pytest.raises(CausalCheckError, match=r"data column\(s\) \['b'\] contain infinite values"):
        load_data(infinite, ["a", "b"])


def test_the_cell_limit_is_the_plain_readers(tmp_path, monkeypatch):
    """Over CAUSALCHECK_MAX_DATA_CELLS the fast reader steps aside and the plain reader's limit error is raised."""
    path = _write(tmp_path, "a,b\n" + "".join(f"{k},{k % 3}\n" for k in range(10)))
    monkeypatch.setenv("CAUSALCHECK_MAX_DATA_CELLS", "19")
    assert read_clean_csv(path) is None
    with pytest.raises(CausalCheckError, match=r"10 rows x 2 columns"):
        load_data(path, ["a", "b"])
    monkeypatch.setenv("CAUSALCHECK_MAX_DATA_CELLS", "20")
    assert read_clean_csv(path) is not None


def test_a_small_file_does_not_import_pandas(tmp_path):
    """Below PANDAS_FROM_BYTES numpy parses (importing pandas costs more than it saves): cold start stays fast."""
    path = _write(tmp_path, "a,b\n" + "".join(f"{k}.5,{k % 7}\n" for k in range(200)))
    probe = (
        "import sys; from causalcheck.graphs.data import load_data; "
        f"t = load_data({path!r}, ['a', 'b']); print(t.rows, 'pandas' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONWARNINGS": "error"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["200", "False"]
