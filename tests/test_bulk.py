"""bulk.paused(): the cyclic collector off for a bulk read, and back on after, whatever happens."""

from __future__ import annotations

import gc

import pytest

from taskproto import bulk


def test_the_collector_is_off_inside_and_on_after() -> None:
    assert gc.isenabled()
    with bulk.paused():
        assert not gc.isenabled()
        with bulk.paused():  # nested: the outer block turns it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_error_inside_turns_it_back_on() -> None:
    with pytest.raises(ValueError), bulk.paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_importing_it_imports_nothing_more() -> None:
    """The hooks' quick reads use it: it may cost them no import."""
    import subprocess
    import sys

    code = (
        "import sys; a = set(sys.modules); import taskproto.bulk; "
        "print(sorted(set(sys.modules) - a))"
    )
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True)
    # gc is built into the interpreter (no file read); nothing else may come
    assert out.stdout.strip() == "['gc', 'taskproto', 'taskproto.bulk']", out.stdout + out.stderr


def test_a_collector_turned_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        with bulk.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
