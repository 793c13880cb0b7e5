"""User rules (``[[interrupt.rules]]``) merged into the default interruption rules: a known name
replaced in place, a new one put first, ``disabled`` removing one; each entry checked, with a
one-line ``ValueError`` for a bad one."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from taskproto.classify.interruption_rules import INTERRUPTION_TYPES, Rule

__all__ = ["merge_rules"]


_RULE_KEYS = frozenset({"name", "type", "pattern", "confidence", "disabled"})


def _checked_rule(entry: Mapping[str, object], base: Rule | None, label: str) -> Rule:
    unknown = sorted(set(entry) - _RULE_KEYS)
    if unknown:
        raise ValueError(f"interrupt rule {label}: unknown key(s) {', '.join(unknown)}")
    rule_type = entry.get("type", base.type if base else None)
    pattern = entry.get("pattern", base.pattern if base else None)
    confidence = entry.get("confidence", base.confidence if base else 0.8)
    if rule_type is None:
        raise ValueError(f"interrupt rule {label}: missing key 'type'")
    if pattern is None:
        raise ValueError(f"interrupt rule {label}: missing key 'pattern'")
    if rule_type not in INTERRUPTION_TYPES:
        raise ValueError(
            f"interrupt rule {label}: unknown type {rule_type!r}"
            f" (expected one of {', '.join(INTERRUPTION_TYPES)})"
        )
    if not isinstance(pattern, str) or not pattern:
        raise ValueError(f"interrupt rule {label}: 'pattern' must be a non-empty string")
    try:
        re.compile(pattern, re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"interrupt rule {label}: bad regex {pattern!r}: {exc}") from None
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        # ValueError, not TypeError: callers catch one error type for any bad config entry.
        raise ValueError(f"interrupt rule {label}: 'confidence' must be a number")  # noqa: TRY004
    if not 0.0 <= float(confidence) <= 1.0:
        raise ValueError(f"interrupt rule {label}: 'confidence' must be between 0 and 1")
    assert isinstance(rule_type, str)  # checked against INTERRUPTION_TYPES above
    name = entry["name"]
    assert isinstance(name, str)
    return Rule(name, rule_type, pattern, float(confidence))


def merge_rules(
    defaults: Sequence[Rule], overrides: Sequence[Mapping[str, object]]
) -> tuple[Rule, ...]:
    """Apply user rules to ``defaults``.

    A known name is replaced in place (keys left out keep the default's values); a new name is
    put before all defaults so the user's rules win; ``disabled = true`` removes the named rule.
    Raises ``ValueError`` with a one-line message for an invalid entry.
    """
    added: list[Rule] = []
    kept: list[Rule] = list(defaults)
    for index, entry in enumerate(overrides, start=1):
        name = entry.get("name")
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"interrupt rule #{index}: missing or empty key 'name'")
        label = f"{name!r}"
        disabled = entry.get("disabled", False)
        if not isinstance(disabled, bool):
            message = f"interrupt rule {label}: 'disabled' must be true or false"
            raise ValueError(message)  # noqa: TRY004 - one error type for any bad config entry
        home = added if any(r.name == name for r in added) else kept
        position = next((i for i, r in enumerate(home) if r.name == name), None)
        if disabled:
            if position is None:
                raise ValueError(f"interrupt rule {label}: cannot disable, no rule has that name")
            del home[position]
            continue
        base = home[position] if position is not None else None
        rule = _checked_rule(entry, base, label)
        if position is None:
            added.append(rule)
        else:
            home[position] = rule
    return (*added, *kept)
