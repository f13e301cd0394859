"""interruptible: the worker's answer, its exception and its death reach the caller."""

from __future__ import annotations

import os

import pytest
from causalcheck.base.interrupt import WorkerDied, interruptible


def test_the_worker_answer_and_exception_reach_the_caller():
    """A result comes back from the worker process; an exception is re-raised in the caller."""
    assert interruptible(divmod, 17, 5) == (3, 2)
    with pytest.raises(ZeroDivisionError):
        interruptible(divmod, 1, 0)


def test_a_worker_that_dies_without_an_answer_is_named():
    """A worker that exits without answering raises WorkerDied with its exit code, never hangs."""
    with pytest.raises(WorkerDied, match=r"'_exit'.*exit code 3"):
        interruptible(os._exit, 3)


def test_outside_the_main_thread_the_call_is_direct():
    """In a worker thread (no signals there) the function runs in the calling process."""
    import threading

    seen: list[int] = []
    t = threading.Thread(target=lambda: seen.append(interruptible(os.getpid)))
    t.start()
    t.join()
    assert seen == [os.getpid()]
