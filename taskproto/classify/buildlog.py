"""Classify a build or test log: compilation error, test failure, style violation or unknown.

Pure: takes the log text, returns a `BuildClassification`. The patterns live in
`buildlog_patterns.py`; the recovery advice follows Recovery Procedure 3 (build failure after
partial implementation).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from taskproto.classify.buildlog_patterns import (
    ACTIONS,
    COMPILATION,
    ITEM,
    KINDS,
    MISSING_SYMBOL,
    PATTERNS,
    STYLE,
    STYLE_DIRECT_FIX_MAX,
    SUMMARY,
    TEST,
    UNKNOWN,
    LogPattern,
)

# Bounds that keep a 50 MB log cheap. Failures are reported near the end of a log, and the head
# keeps the lines that name the tool, so a long middle is skipped rather than scanned.
MAX_SCAN_CHARS = 8_000_000
HEAD_CHARS = 1_000_000
MAX_LINE_CHARS = 2_000
MAX_EVIDENCE = 10
MAX_EVIDENCE_CHARS = 300
TAIL_EVIDENCE = 5

# ANSI CSI/OSC sequences, then any other C0/C1 control character except the tab.
_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)

HANDLER_MAIN = "main"
HANDLER_ARCHITECT = "architect"
HANDLER_TEST = "test"
HANDLER_STYLE = "style"
HANDLER_USER = "user"


@dataclass(frozen=True)
class BuildClassification:
    """What a failed build's log shows and what to do about it.

    `kind` is one of compilation, test, style, unknown. `evidence` holds at most ten of the log
    lines that decided it, cleaned of colour codes. `handler` names who should act:
    main, architect, test, style or user.
    """

    kind: str
    ecosystem: str | None
    evidence: tuple[str, ...]
    count: int | None
    action: str
    advice: str
    handler: str

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "ecosystem": self.ecosystem,
            "evidence": list(self.evidence),
            "count": self.count,
            "action": self.action,
            "advice": self.advice,
            "handler": self.handler,
        }


@dataclass(frozen=True)
class _Match:
    line_no: int
    text: str
    pattern: LogPattern
    count: int | None
    run: int


def clean_line(line: str) -> str:
    """Drop colour codes and control characters; cut very long lines."""
    line = line[: MAX_LINE_CHARS * 2]
    if not line.isprintable():
        line = _CONTROL.sub("", line)
    return line[:MAX_LINE_CHARS]


def _windows(text: str) -> Iterator[list[str]]:
    if len(text) <= MAX_SCAN_CHARS:
        yield text.splitlines()
        return
    head = text[:HEAD_CHARS]
    tail = text[len(text) - (MAX_SCAN_CHARS - HEAD_CHARS) :]
    # Drop the lines the cut went through: half a line can match the wrong pattern.
    yield head.splitlines()[:-1]
    yield tail.splitlines()[1:]


def _count(pattern: LogPattern, line: str) -> int | None:
    if pattern.count is None:
        return None
    total = 0
    for found in pattern.count.finditer(line):
        total += sum(int(group) for group in found.groups() if group)
    return total


@functools.cache
def _patterns_for(section: str) -> tuple[LogPattern, ...]:
    return tuple(
        p
        for p in PATTERNS
        if (not p.within or section in p.within) and not (section and section in p.outside)
    )


def _scan(windows: Iterable[list[str]]) -> tuple[list[_Match], list[str]]:
    matches: list[_Match] = []
    tail: list[str] = []
    line_no = 0
    run = 0
    for lines in windows:
        section = ""
        patterns = _patterns_for(section)
        for raw in lines:
            line_no += 1
            line = clean_line(raw)
            stripped = line.strip()
            if not stripped:
                continue
            tail.append(stripped)
            if len(tail) > TAIL_EVIDENCE * 4:
                del tail[:-TAIL_EVIDENCE]
            for pattern in patterns:
                if pattern.needles and not any(n in line for n in pattern.needles):
                    continue
                if pattern.regex.search(line) is None:
                    continue
                count = _count(pattern, line)
                if count == 0:
                    continue
                run += pattern.new_run
                matches.append(_Match(line_no, stripped, pattern, count, run))
                if pattern.opens is not None:
                    section = pattern.opens
                    patterns = _patterns_for(section)
                elif pattern.role == SUMMARY and section:
                    # A tool's summary line ends its run: what follows (another tool's output,
                    # a traceback) is not inside that run's test case any more.
                    section = ""
                    patterns = _patterns_for(section)
                break
    return matches, tail[-TAIL_EVIDENCE:]


def _drop_weak(matches: list[_Match]) -> list[_Match]:
    strong = {
        (m.pattern.ecosystem, m.run)
        for m in matches
        if not m.pattern.weak and m.pattern.kind != UNKNOWN
    }
    return [m for m in matches if not (m.pattern.weak and (m.pattern.ecosystem, m.run) in strong)]


def _ecosystem(matches: list[_Match]) -> str | None:
    # A tool's own summary or marker names it better than diagnostic lines, which several
    # tools print in the same shape (ruff and flake8, javac under Gradle).
    named = [m for m in matches if m.pattern.ecosystem is not None]
    preferred = [m for m in named if m.pattern.role != ITEM] or named
    if not preferred:
        return None
    votes = Counter(m.pattern.ecosystem for m in preferred)
    return votes.most_common(1)[0][0]


def _evidence(matches: list[_Match]) -> tuple[str, ...]:
    unique: list[_Match] = []
    seen: set[str] = set()
    for m in matches:
        if m.text not in seen:
            seen.add(m.text)
            unique.append(m)
    if len(unique) > MAX_EVIDENCE:
        # Keep the last few summaries (the totals) and the first diagnostics (the root causes).
        summaries = [m for m in unique if m.pattern.role != ITEM][-3:]
        items = [m for m in unique if m.pattern.role == ITEM]
        keep = summaries + items[: MAX_EVIDENCE - len(summaries)]
        if len(keep) < MAX_EVIDENCE:
            rest = [m for m in unique if m not in keep]
            keep += rest[: MAX_EVIDENCE - len(keep)]
        unique = sorted(keep, key=lambda m: m.line_no)
    return tuple(_shorten(m.text) for m in unique)


def _shorten(text: str) -> str:
    if len(text) <= MAX_EVIDENCE_CHARS:
        return text
    return text[: MAX_EVIDENCE_CHARS - 3] + "..."


def _count_for(matches: list[_Match]) -> int | None:
    summaries = [m.count for m in matches if m.count is not None]
    if summaries:
        return summaries[-1]
    items = {m.text for m in matches if m.pattern.role == ITEM}
    return len(items) or None


def _advise(kind: str, matches: list[_Match], count: int | None) -> tuple[str, str]:
    if kind == COMPILATION:
        items = [m.text for m in matches if m.pattern.role == ITEM]
        if items and all(MISSING_SYMBOL.search(text) for text in items):
            return HANDLER_MAIN, (
                "The compilation errors look like missing imports or symbols: the main agent can "
                "fix them directly, then re-run the build."
            )
        return HANDLER_ARCHITECT, (
            "The compilation errors are more than missing imports or symbols: re-delegate to the "
            "architect agent with this evidence, then re-run the build."
        )
    if kind == TEST:
        what = f"{count} failing test(s)" if count is not None else "Failing tests"
        return HANDLER_TEST, (
            f"{what}: re-delegate to the test agent with the failures listed in the evidence, "
            "then re-run the build."
        )
    if kind == STYLE:
        if count is not None and count <= STYLE_DIRECT_FIX_MAX:
            return HANDLER_MAIN, (
                f"{count} style violation(s), at most {STYLE_DIRECT_FIX_MAX}: the main agent fixes "
                "them directly, then re-runs the build."
            )
        what = (
            f"{count} style violations"
            if count is not None
            else "An unknown number of style violations"
        )
        return HANDLER_STYLE, (
            f"{what}, more than {STYLE_DIRECT_FIX_MAX}: re-delegate to the style agent, "
            "then re-run the build."
        )
    causes = sorted({m.pattern.name for m in matches if m.pattern.ecosystem is None})
    looks = f" (it looks like: {', '.join(causes)})" if causes else ""
    return HANDLER_USER, (
        f"The failure matches no known compilation, test or style pattern{looks}: save the build "
        "log and escalate to the user."
    )


def unknown_result(
    evidence: Iterable[str], ecosystem: str | None = None, reason: str | None = None
) -> BuildClassification:
    """An `unknown` classification for a failure no log explains (not started, timed out)."""
    handler, advice = _advise(UNKNOWN, [], None)
    if reason is not None:
        advice = f"{reason}: save the build log and escalate to the user."
    return BuildClassification(
        kind=UNKNOWN,
        ecosystem=ecosystem,
        evidence=tuple(_shorten(clean_line(line).strip()) for line in evidence),
        count=None,
        action=ACTIONS[UNKNOWN],
        advice=advice,
        handler=handler,
    )


def classify_log(text: str) -> BuildClassification:
    """Classify a failed build's log. Never raises on any string.

    When several kinds appear, compilation beats test beats style: a build that does not compile
    has no meaningful test result.
    """
    matches, tail = _scan(_windows(text))
    matches = _drop_weak(matches)
    kind = next((k for k in KINDS if any(m.pattern.kind == k for m in matches)), UNKNOWN)
    of_kind = [m for m in matches if m.pattern.kind == kind]
    if kind == UNKNOWN:
        count = None
        evidence = _evidence(of_kind) if of_kind else tuple(_shorten(t) for t in tail)
    else:
        count = _count_for(of_kind)
        evidence = _evidence(of_kind)
    handler, advice = _advise(kind, of_kind, count)
    return BuildClassification(
        kind=kind,
        ecosystem=_ecosystem(of_kind),
        evidence=evidence,
        count=count,
        action=ACTIONS[kind],
        advice=advice,
        handler=handler,
    )
