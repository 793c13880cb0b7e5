"""A rule's words, tested before its pattern is compiled or run (docs/interruptions.md, "How a
rule is reached").

A pattern is compiled the first time a text could match it, not the first time a text reaches
it: ``Gated.search`` first asks whether the text starts with one of the words every match of an
anchored alternative starts with, or holds one of the words every other match holds
(``needles.gate``, derived from the pattern's parse tree and written to ``gate_words.py`` by
``scripts/make_gate_words.py``). A text with none of them cannot match, so the pattern is
neither compiled nor run, and the answer is the same. A pattern the table has no words for (a
user's own rule, a pattern changed since the table was written) is compiled and run as before:
the table is keyed by the pattern's whole text.

Standard library only, nothing imported but ``re``: a hook's hot path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

TYPE_CHECKING = False  # not `from typing`: its import costs more than this module's
if TYPE_CHECKING:
    from taskproto.classify.interruption_rules import Rule

# The fields of a language table (languages/table.py) that are searched in a clause.
SEARCHED = ("later", "conditions", "retractions", "approvals", "negations", "courtesies")
_PRIME = (1 << 61) - 1

Words = tuple[tuple[str, ...], tuple[str, ...]]
_tables: list[dict[int, str]] = []


def key(pattern: str) -> int:
    """A pattern's key in the table: its length and its text read as a number modulo a prime
    (no import, a few microseconds)."""
    return len(pattern) << 61 | int.from_bytes(pattern.encode(), "big") % _PRIME


def join(words: Words) -> str:
    """``(starts, contains)`` as the one string the table holds."""
    return "\x1f".join("\x1e".join(part) for part in words)


def _split(joined: str | None) -> Words | None:
    if joined is None:
        return None
    head, inner = joined.split("\x1f")
    return tuple(head.split("\x1e")) if head else (), tuple(inner.split("\x1e")) if inner else ()


def _table(which: int) -> dict[int, str]:
    if not _tables:
        from taskproto.classify.gate_words import STARTS, WORDS

        _tables.extend((WORDS, STARTS))
    return _tables[which]


def words(pattern: str) -> Words | None:
    """``(starts, contains)`` of ``pattern`` (``needles.gate``), or None when it has none."""
    return _split(_table(0).get(key(pattern)))


def starts(fillers: str) -> tuple[str, ...] | None:
    """The words a text that one of ``fillers`` matches at its start starts with, or None."""
    found = _split(_table(1).get(key(fillers)))
    return None if found is None else found[0]


class Gated:
    """A pattern compiled the first time a text that holds its words is searched."""

    __slots__ = ("_compiled", "contains", "flags", "pattern", "starts")

    def __init__(self, pattern: str, flags: int = 0, gate: Words | None = None) -> None:
        self.pattern = pattern
        self.flags = flags
        self.starts, self.contains = gate if gate is not None else ((), ("",))
        self._compiled: re.Pattern[str] | None = None

    def may_match(self, text: str) -> bool:
        """False only when ``text`` cannot match: it has none of the pattern's words."""
        return text.startswith(self.starts) or any(map(text.__contains__, self.contains))

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        return self.compiled().search(text) if self.may_match(text) else None

    def sub(self, replacement: str, text: str) -> str:
        return self.compiled().sub(replacement, text) if self.may_match(text) else text


def gated(pattern: str, flags: int = 0) -> Gated:
    """``pattern`` behind its words from the table (none: always compiled when searched)."""
    return Gated(pattern, flags, words(pattern))


_rules: dict[str, Gated] = {}


def cached(pattern: str) -> Gated:
    """A rule's ``pattern`` behind its words, made once: case-insensitive when it has a capital,
    as ``interruptions._compile`` compiles it (text is lowercased before it is matched)."""
    found = _rules.get(pattern)
    if found is None:
        flags = re.IGNORECASE if pattern != pattern.lower() else 0
        found = _rules[pattern] = gated(pattern, flags)
    return found


def first(clause: str, rules: Sequence[Rule]) -> Rule | None:
    """The first of ``rules`` whose pattern matches ``clause``, as compiling each in turn finds
    it; a pattern whose words ``clause`` lacks is skipped, neither compiled nor run. (A loop of
    calls into C: warm, it costs what compiling them all once did, a few µs a clause.)"""
    for rule in rules:
        gate = _rules.get(rule.pattern) or cached(rule.pattern)
        found = gate._compiled
        if found is None:  # not compiled yet: only if the clause holds its words
            if not clause.startswith(gate.starts) and not any(
                map(clause.__contains__, gate.contains)
            ):
                continue
            found = gate.compiled()
        if found.search(clause):
            return rule
    return None
