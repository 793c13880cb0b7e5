"""The words a regex cannot match without, read from its parse tree (``re._parser``).

``gate(pattern)`` gives ``(starts, contains)``: every match of ``pattern`` (as ``re.search``
finds it) starts the text with one of ``starts`` (an alternative anchored with ``^``) or lies on
a stretch of text containing one of ``contains``; a text that has neither cannot match, so its
pattern need not be compiled nor run. None when some alternative guarantees no word. Derived,
never written by hand: ``scripts/make_gate_words.py`` writes what ``gates.py`` reads at run
time from this module, and ``tests/test_classifier_gates.py`` checks that it is current.

Sound by construction: a node's words are what every string it matches must hold; where that is
not known (a class such as ``\\w``, a back-reference, a repeat that may be empty) no word is
claimed. Zero-width assertions (``\\b``, lookarounds) consume nothing and add nothing. A pattern
with a capital letter is compiled case-insensitively (``interruptions._compile``): its literals
are then words only where no other character of a lowercased text matches them ("s" is matched
by "ſ", so it breaks a word). Never imported by a hook: only by the script and the tests.
"""

from __future__ import annotations

from re import _casefix, _constants, _parser  # type: ignore[attr-defined]
from typing import Any

# The most strings a node's exact set may hold, and the longest a word needs to be.
_LIMIT = 48
_LONG = 12
_EMPTY: frozenset[str] = frozenset({""})


def _useful(words: frozenset[str] | None) -> frozenset[str] | None:
    return None if words is None or "" in words or not words else words


class _Info:
    """What one node matches: ``exact``, every string (when few), ``inner``, a set one of which
    every match contains (None: unknown), ``head``, a set one of which every match starts with."""

    __slots__ = ("exact", "head", "inner")

    def __init__(
        self,
        exact: frozenset[str] | None,
        inner: frozenset[str] | None = None,
        head: frozenset[str] | None = None,
    ) -> None:
        self.exact = exact
        self.inner = _useful(exact if exact is not None else inner)
        self.head = _useful(exact if exact is not None else head)


_ANYTHING = _Info(None)


def _cross(left: frozenset[str], right: frozenset[str]) -> frozenset[str] | None:
    if len(left) > 1 and len(right) > 1 and len(left) * len(right) > _LIMIT:
        return None
    return frozenset(a + b for a in left for b in right)


def _safe(char: str, icase: bool) -> bool:
    """Whether ``char`` in a pattern matches only ``char`` itself in lowercased text."""
    if not icase:
        return True
    return char == char.lower() and ord(char) not in _casefix._EXTRA_CASES


def _node(op: Any, av: Any, icase: bool) -> _Info:
    if op is _constants.LITERAL:
        char = chr(av)
        return _Info(frozenset({char})) if _safe(char, icase) else _ANYTHING
    if op is _constants.IN:
        chars: set[str] = set()
        for item_op, item_av in av:
            if item_op is _constants.LITERAL:
                chars.add(chr(item_av))
            elif item_op is _constants.RANGE and item_av[1] - item_av[0] < 8:
                chars.update(chr(c) for c in range(item_av[0], item_av[1] + 1))
            else:
                return _ANYTHING
        if len(chars) > 8 or not all(_safe(c, icase) for c in chars):
            return _ANYTHING
        return _Info(frozenset(chars))
    if op in (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT):
        return _Info(_EMPTY)
    if op is _constants.SUBPATTERN:
        _group, add, remove, sub = av
        flags = _constants.SRE_FLAG_IGNORECASE
        return _sequence(sub, (icase or bool(add & flags)) and not remove & flags)
    if op is getattr(_constants, "ATOMIC_GROUP", None):
        return _sequence(av, icase)
    if op is _constants.BRANCH:
        return _branch([_sequence(seq, icase) for seq in av[1]])
    if op in (_constants.MAX_REPEAT, _constants.MIN_REPEAT) or op is getattr(
        _constants, "POSSESSIVE_REPEAT", None
    ):
        low, high, sub = av
        return _repeat(low, high, _sequence(sub, icase))
    return _ANYTHING  # any character, a class, a back-reference, a conditional group


def _branch(infos: list[_Info]) -> _Info:
    exact: frozenset[str] | None = frozenset()
    inner: frozenset[str] | None = frozenset()
    head: frozenset[str] | None = frozenset()
    for info in infos:
        exact = exact | info.exact if exact is not None and info.exact is not None else None
        inner = inner | info.inner if inner is not None and info.inner is not None else None
        head = head | info.head if head is not None and info.head is not None else None
    if exact is not None and len(exact) > _LIMIT:
        exact = None
    return _Info(exact, inner, head)


def _repeat(low: int, high: int, sub: _Info) -> _Info:
    if sub.exact is not None and high <= 3:
        exact: frozenset[str] | None = _EMPTY if low == 0 else frozenset()
        power: frozenset[str] | None = _EMPTY
        for count in range(1, high + 1):
            power = _cross(power, sub.exact) if power is not None else None
            if power is None:
                exact = None
                break
            if count >= low and exact is not None:
                exact = exact | power
        if exact is not None and len(exact) <= _LIMIT:
            return _Info(exact)
    if low == 0:
        return _ANYTHING
    return _Info(None, sub.inner, sub.head)


def _sequence(nodes: Any, icase: bool) -> _Info:
    infos = [_node(op, av, icase) for op, av in nodes]
    # every contiguous run of nodes whose strings are known spells words the match holds
    candidates: list[frozenset[str]] = []
    run: frozenset[str] | None = _EMPTY
    whole: frozenset[str] | None = _EMPTY
    for info in infos:
        joined = _cross(run, info.exact) if run is not None and info.exact is not None else None
        if joined is not None:
            run = joined
            continue
        if run is not None and _useful(run):
            candidates.append(run)
        whole = None
        run = info.exact
        if info.exact is None and info.inner is not None:
            candidates.append(info.inner)
    if run is not None and _useful(run):
        candidates.append(run)
    if whole is not None:
        return _Info(run)
    inner = max(candidates, key=_score, default=None)
    return _Info(None, inner, _head(infos))


def _head(infos: list[_Info]) -> frozenset[str] | None:
    """The strings every match of a sequence of ``infos`` starts with."""
    start: frozenset[str] = _EMPTY
    for info in infos:
        if info.exact is not None:
            joined = _cross(start, info.exact)
            if joined is None:
                return _useful(start)
            start = joined
            continue
        if info.head is None:
            return _useful(start)
        return _useful(_cross(start, info.head) or start)
    return _useful(start)


def _score(words: frozenset[str]) -> tuple[int, int]:
    """The better of two sets of words a match must hold: the shortest word longest (rarer in
    text), then the fewer words."""
    return min(min(len(w) for w in words), _LONG), -len(words)


def _trim(words: frozenset[str], inside: bool) -> tuple[str, ...]:
    """``words`` cut to their first ``_LONG`` characters (a text that holds or starts with a
    word holds or starts with its start), without those another one implies (a word that holds
    another, or starts with it), sorted: a smaller table, the same answer."""
    kept = sorted({word[:_LONG] for word in words}, key=lambda w: (len(w), w))
    out: list[str] = []
    for word in kept:
        if not any((short in word) if inside else word.startswith(short) for short in out):
            out.append(word)
    return tuple(sorted(out))


def gate(pattern: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """``(starts, contains)`` of ``pattern`` (see the module's text), or None."""
    icase = pattern != pattern.lower()
    parsed = _parser.parse(pattern, 0)
    flags = parsed.state.flags
    if flags & (_constants.SRE_FLAG_VERBOSE | _constants.SRE_FLAG_MULTILINE):
        return None
    icase = icase or bool(flags & _constants.SRE_FLAG_IGNORECASE)
    nodes = list(parsed)
    branches = [nodes]
    if len(nodes) == 1 and nodes[0][0] is _constants.BRANCH:
        branches = [list(seq) for seq in nodes[0][1][1]]
    starts: set[str] = set()
    contains: set[str] = set()
    for seq in branches:
        anchored = bool(seq) and seq[0] == (_constants.AT, _constants.AT_BEGINNING)
        if seq and seq[0] == (_constants.AT, _constants.AT_BEGINNING_STRING):
            anchored = True
        info = _sequence(seq, icase)
        if anchored and info.head is not None:
            starts.update(info.head)
        elif info.inner is not None:
            contains.update(info.inner)
        else:
            return None
    return _trim(frozenset(starts), False), _trim(frozenset(contains), True)


def starts(words: str) -> tuple[str, ...] | None:
    """The strings a text that one of ``words`` (a regex alternative, as a table's ``fillers``)
    matches at its start starts with, or None when some alternative guarantees none."""
    found = gate(f"^(?:{words})")
    if found is None or found[1]:
        return None
    return found[0]


def table() -> tuple[
    dict[int, tuple[tuple[str, ...], tuple[str, ...]]], dict[int, tuple[str, ...]]
]:
    """What ``gates.py`` reads, keyed by ``gates.key`` of each pattern: the gate of every default
    rule's pattern, every table's rules and searched fields (``later``, ``conditions``, ...), and
    the start words of English's and every table's ``fillers``."""
    from taskproto.classify import gates, interruptions, languages

    searched: list[str] = [rule.pattern for rule in interruptions.DEFAULT_RULES]
    fillers: list[str] = [interruptions._FILLER_WORDS]
    for code in (*languages.CODES, *languages.ENGLISH):
        found = languages.language(code)
        searched.extend(rule.pattern for rule in found.rules)
        searched.extend(getattr(found, field) for field in gates.SEARCHED)
        fillers.extend([found.fillers] if found.fillers else [])
    words = {}
    for pattern in searched:
        derived = gate(pattern) if pattern else None
        if derived is not None:
            words[gates.key(pattern)] = derived
    heads = {}
    for pattern in fillers:
        head = starts(pattern)
        if head is not None:
            heads[gates.key(pattern)] = head
    return words, heads
