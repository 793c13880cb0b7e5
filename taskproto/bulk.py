"""Reading thousands of records at once without the cyclic garbage collector's growing passes.

A bulk read (doctor's snapshot of every task, `task list`, the board's cards) builds tens of
thousands of small objects that all live until it ends. CPython's collector examines the
objects that survive, again and again as their number grows: at 10,000 tasks doctor spent
about a fifth of its time there (docs/performance.md) collecting nothing, since records hold
no reference cycles. `paused()` turns it off for the read and back on after; what cycles the
read made are collected by the next collection after it. Standard library only.
"""

from __future__ import annotations

import gc  # built into the interpreter: importing it costs nothing (the hooks' reads use this)


class paused:  # noqa: N801 - used as a function: `with bulk.paused():`
    """The cyclic collector off inside the block, as it was after (nested blocks: the outer one
    turns it back on). A class, not contextlib's decorator: nothing more is imported."""

    def __enter__(self) -> None:
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.was:
            gc.enable()
