"""The top-level command line: fast help, lazy heavy imports, stable exit codes."""

from __future__ import annotations

import subprocess
import sys

import pytest
from causalcheck.cli import main

HEAVY = ("z3", "causallearn", "spacy", "openai", "anthropic", "cliquepicking", "sympy", "lark")


def test_help_does_not_import_heavy_dependencies() -> None:
    """Building the parser (what --help does) imports no solver, NLP or provider package."""
    code = (
        "import sys, causalcheck.cli as c; c.build_parser();"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_import_causalcheck_is_light() -> None:
    """``import causalcheck`` loads no heavy dependency; public names resolve lazily."""
    code = (
        "import sys, causalcheck;"
        f"print([m for m in {HEAVY!r} if m in sys.modules]);"
        "print(causalcheck.CausalGraph.__name__)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["[]", "CausalGraph"]


def test_public_api_is_sorted_and_resolves() -> None:
    """``__all__`` is sorted and every name in it can be imported."""
    import causalcheck

    assert causalcheck.__all__ == sorted(causalcheck.__all__)
    for name in causalcheck.__all__:
        assert getattr(causalcheck, name) is not None


def test_unknown_command_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """argparse rejects an unknown command with exit code 2 and a usage line."""
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_version() -> None:
    """``--version`` prints the package version."""
    out = subprocess.run(
        [sys.executable, "-m", "causalcheck", "--version"], capture_output=True, text=True, check=True
    )
    assert out.stdout.startswith("causalcheck ")


def test_output_path_that_is_a_file_exits_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """An --out that is an existing file is a usage error (exit 2) naming the path, not a crash."""
    blocker = tmp_path / "out"
    blocker.write_text("not a folder")
    code = main(["lab", "run", "--suite", "mini", "--agent", "random", "--limit", "1", "--out", str(blocker), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "out" in err and "internal error" not in err


def test_non_utf8_suite_exits_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A suite file that is not UTF-8 is reported as bad input (exit 2), not a crash."""
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes("{\"graph_id\": \"caf\xe9\"}\n".encode("latin-1"))
    code = main(["lab", "run", "--suite", str(bad), "--agent", "random", "--out", str(tmp_path / "o"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 2 and "UTF-8" in err


@pytest.mark.parametrize("raised", [RuntimeError("boom"), BaseException("a native panic")])
def test_a_bug_is_exit_70_with_a_message_even_when_it_is_not_an_exception(
    raised: BaseException, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug in a handler — also a BaseException such as pyo3's PanicException from native code — exits 70 with one line, no traceback."""
    import causalcheck.cli as cli

    def broken(handler: object, args: object) -> int:
        raise raised

    monkeypatch.setattr(cli, "run_handler", broken)
    code = main(["lab", "suites"])
    err = capsys.readouterr().err
    assert code == 70 and "internal error" in err and str(raised) in err and "Traceback" not in err


def test_the_command_registry_names_every_registered_command():
    """causalcheck.cli imports only the given command's module: the registry's commands are every command, in --help order."""
    import argparse

    from causalcheck.cli import build_parser
    from causalcheck.plugins import BUILTINS

    commands = list(BUILTINS["command"])
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert list(sub.choices) == commands
    for name in commands:  # each alone registers exactly its command; demo, which runs the others, all of them
        alone = next(a for a in build_parser(only=name)._actions if isinstance(a, argparse._SubParsersAction))
        assert list(alone.choices) == (commands if name == "demo" else [name])
