"""The check every round's classifier test file makes: a message read as a type, and by a rule
when one is named (the failure shows the message and the whole decision)."""

from __future__ import annotations

from taskproto.classify.interruptions import classify


def reads(message: str, expected: str, rule: str | None = None) -> None:
    """Assert ``classify(message)`` is of type ``expected``, decided by ``rule`` if given."""
    found = classify(message)
    if rule is None:
        assert found.type == expected, (message, found)
    else:
        assert (found.type, found.rule) == (expected, rule), (message, found)
