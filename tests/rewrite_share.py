"""The xdist workers share the rewriting of the test modules' asserts.

Every worker collects every test module, and pytest rewrites a module's asserts before importing
it, caching the result in `__pycache__` (unless bytecode is not written). On a fresh clone no
module is cached and the workers start together: each rewrites all of them, the same work once a
worker. So, before collecting, worker k of n rewrites every n-th module from the k-th into the
cache, as pytest itself would; the modules the others rewrote are then read from the cache, and
one not written yet is rewritten by pytest as before. pytest checks each cached file against its
source's hash and writes it atomically, so a worker never reads a stale or half-written one.

This uses pytest's own rewriting functions, which are not public: where they are missing (another
pytest) the workers do as before.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def rewrite_this_workers_share(config: pytest.Config) -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if not worker.startswith("gw") or count < 2 or sys.dont_write_bytecode:
        return
    if config.getoption("assertmode") != "rewrite":
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        tail, cache_dir_of = rewrite.PYC_TAIL, rewrite.get_cache_dir
        read, rewrite_test, write = rewrite._read_pyc, rewrite._rewrite_test, rewrite._write_pyc
    except (ImportError, AttributeError, KeyError):
        return
    patterns = config.getini("python_files")
    here = config.invocation_params.dir
    asked = [(here / arg.partition("::")[0]).resolve() for arg in config.args]
    modules = sorted(
        p
        for p in TESTS.rglob("*.py")
        if any(p.match(pat) for pat in patterns)
        and any(p == a or a in p.parents for a in asked)  # the files this run collects
    )
    for path in modules[int(worker.removeprefix("gw")) :: count]:
        cache_dir = cache_dir_of(path)
        pyc = cache_dir / (path.name[:-3] + tail)
        if read(path, pyc) is not None:
            continue
        try:
            cache_dir.mkdir(parents=True, exist_ok=True)
        except OSError:
            return  # a read-only tree: pytest will not write the cache either
        try:
            source_hash, code = rewrite_test(path, config)
            write(state, code, source_hash, pyc)
        except Exception:  # another pytest's private functions: pytest rewrites as before
            return
