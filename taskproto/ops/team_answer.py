"""phone-a-team's answer format: what a backend is asked to write, how its text becomes a record.

The relay prompt ends with `INSTRUCTIONS`: three labelled sections, DO (the
work), REVIEW (the three rubric items, each with a reason) and DECIDE (a
verdict and the feedback for the next round). The parser is tolerant: any
heading style (`## DO`, `**DO**`, `DO:`), any case, `:` or `=`, yes/no for
pass/fail, and a fenced JSON object with the same keys instead of sections.

An answer without a REVIEW section, or with a rubric item missing, is
`unparseable`: its text is kept as the round's output and each missing item
counts as a fail ("not assessed"), so the loop goes on rather than converging
on an answer nobody assessed. Pure: no IO.
"""

from __future__ import annotations

import re
from typing import Any

from taskproto import plainjson as json
from taskproto.machine.builtin.phone_a_team import RUBRIC

MAX_OUTPUT = 100 * 1024  # per backend: the next relay sends the delta, not a transcript

INSTRUCTIONS = """\
# How to answer
Answer in three sections, with these headings:
## DO
Your work for this round: the answer, the change (as a unified diff) or the findings.
## REVIEW
acceptance: pass|fail - does the output accomplish the task as described? (one line why)
risks: pass|fail - free of bugs, security issues, logical errors, significant omissions?
validation: pass|documented|fail - checked (tests run, code reviewed, logic verified)?
  documented = not done, and the line says why
## DECIDE
verdict: converged|iterate
- one line per thing the next round must fix (none when converged)
"""

_SECTIONS = ("do", "review", "decide")
_HEADING = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(do|review|decide)\s*(?:\*\*|__)?\s*:?\s*(?:\*\*|__)?\s*(.*)$",
    re.IGNORECASE,
)
_ITEM = re.compile(
    r"^[\s>*_`\-+]*(acceptance|risks?|validation)[\s*_`]*[:=][\s*_`]*"
    r"(pass(?:ed)?|fail(?:ed)?|documented|yes|no|ok)\b[\s*_`]*[-:–—,;.)(]*\s*(.*)$",
    re.IGNORECASE,
)
_VERDICT = re.compile(
    r"^[\s>*_`\-+]*(?:verdict|decision)[\s*_`]*[:=][\s*_`]*(converged|iterate)\b", re.IGNORECASE
)
_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)\n```", re.DOTALL | re.IGNORECASE)
_VALUES = {"pass": "pass", "passed": "pass", "yes": "pass", "ok": "pass", "fail": "fail"}
_VALUES |= {"failed": "fail", "no": "fail", "documented": "documented"}


def _clip(text: str) -> str:
    data = text.encode()
    if len(data) <= MAX_OUTPUT:
        return text
    cut = data[:MAX_OUTPUT].decode("utf-8", "ignore")
    return cut + f"\n[taskproto: output cut at {MAX_OUTPUT // 1024} KB of {len(data) // 1024} KB]\n"


def _sections(text: str) -> dict[str, str] | None:
    """Split at the DO/REVIEW/DECIDE headings; None when there is no REVIEW heading."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        m = _HEADING.match(line)
        # A heading is a short line of its own, or `DO: text` on one line.
        if m and (not m.group(2) or line.lstrip().startswith(("#", "*", "_")) or ":" in line):
            name = m.group(1).lower()
            if name not in found:
                current = name
                found[name] = [m.group(2)] if m.group(2).strip() else []
                continue
        if current is not None:
            found[current].append(line)
    if "review" not in found:
        return None
    return {k: "\n".join(v).strip() for k, v in found.items()}


def _from_json(text: str) -> dict[str, Any] | None:
    candidates = [m.group(1) for m in _FENCE.finditer(text)]
    if text.lstrip().startswith("{"):
        candidates.insert(0, text)
    for raw in candidates:
        try:
            data = json.loads(raw)
        except ValueError:
            continue
        if isinstance(data, dict):
            lowered = {str(k).lower(): v for k, v in data.items()}
            if "review" in lowered:
                return lowered
    return None


def _verdict(value: Any) -> str | None:
    word = str(value or "").strip().lower()
    return word if word in ("converged", "iterate") else None


def _json_record(data: dict[str, Any]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    review: dict[str, Any] = {}
    raw_review = data.get("review")
    if isinstance(raw_review, dict):
        for key, value in raw_review.items():
            item = _item_name(str(key))
            if item is None:
                continue
            if isinstance(value, dict):
                verdict, reason = value.get("verdict") or value.get("value"), value.get("reason")
            else:
                verdict, reason = value, None
            mapped = _VALUES.get(str(verdict or "").strip().lower())
            if mapped:
                review[item] = {"verdict": mapped, "reason": str(reason or "").strip()}
    decide = data.get("decide")
    verdict, feedback = None, []
    if isinstance(decide, dict):
        verdict = _verdict(decide.get("verdict"))
        items = decide.get("feedback") or []
        feedback = (
            [str(i).strip() for i in items if str(i).strip()] if isinstance(items, list) else []
        )
    else:
        verdict = _verdict(decide)
    do = data.get("do")
    output = do if isinstance(do, str) else json.dumps(do, indent=2) if do is not None else ""
    return output, review, {"verdict": verdict, "feedback": feedback}


def _item_name(word: str) -> str | None:
    word = word.lower()
    if word.startswith("risk"):
        return "risks"
    return word if word in RUBRIC else None


def _section_record(sections: dict[str, str]) -> tuple[str, dict[str, Any], dict[str, Any]]:
    review: dict[str, Any] = {}
    for line in sections.get("review", "").splitlines():
        m = _ITEM.match(line)
        if m:
            item = _item_name(m.group(1))
            if item and item not in review:
                review[item] = {
                    "verdict": _VALUES[m.group(2).lower()],
                    "reason": m.group(3).strip(),
                }
    verdict, feedback = None, []
    for line in sections.get("decide", "").splitlines():
        m = _VERDICT.match(line)
        if m and verdict is None:
            verdict = m.group(1).lower()
            continue
        item = line.strip().lstrip("-*+•").strip()
        if item and item.lower() not in ("none", "(none)", "n/a"):
            feedback.append(item)
    return sections.get("do", ""), review, {"verdict": verdict, "feedback": feedback}


def parse(text: str) -> dict[str, Any]:
    """A backend's answer as `{format, problems, do, review, decide}`; never raises."""
    data = _from_json(text)
    if data is not None:
        output, review, decide = _json_record(data)
    else:
        sections = _sections(text)
        if sections is None:
            return {
                "format": "unparseable",
                "problems": ["no REVIEW section: the answer did not follow the answer format"],
                "do": _clip(text.strip()),
                "review": {},
                "decide": {"verdict": None, "feedback": []},
            }
        output, review, decide = _section_record(sections)
    problems = [f"{item} not assessed" for item in RUBRIC if item not in review]
    for item, entry in review.items():
        if entry["verdict"] not in RUBRIC[item]:  # e.g. acceptance: documented
            problems.append(f"{item}: {entry['verdict']} is not one of {'|'.join(RUBRIC[item])}")
            entry["verdict"] = "fail"
    return {
        "format": "unparseable" if problems else "ok",
        "problems": problems,
        "do": _clip(output.strip() or text.strip()),
        "review": review,
        "decide": decide,
    }


def combine(answers: dict[str, dict[str, Any]]) -> tuple[dict[str, str], str]:
    """The round's rubric from the backends' answers, and the note that explains it.

    An item passes only when every answering backend passed it; a missing item
    fails. validation is `documented` only when none failed and each
    `documented` carries its reason (the reasons become the note the guard needs).
    """
    rubric: dict[str, str] = {}
    reasons: list[str] = []
    for item in RUBRIC:
        verdicts = []
        for backend, answer in answers.items():
            entry: dict[str, Any] = (answer.get("review") or {}).get(item) or {}
            verdict = entry.get("verdict") or "fail"
            if verdict == "documented":
                if not entry.get("reason"):
                    verdict = "fail"  # skipped validation with no reason is not documented
                else:
                    reasons.append(f"{backend}: {entry['reason']}")
            verdicts.append(verdict)
        if not verdicts or "fail" in verdicts:
            rubric[item] = "fail"
        elif "documented" in verdicts:
            rubric[item] = "documented"
        else:
            rubric[item] = "pass"
    note = f"rubric from the answers of {', '.join(answers)}"
    disagree = [
        b
        for b, a in answers.items()
        if (a.get("decide") or {}).get("verdict") == "iterate" and _passes(rubric)
    ]
    if disagree:
        note += (
            f"; {', '.join(disagree)} said iterate though the rubric passes (the rubric decides)"
        )
    if rubric["validation"] == "documented":
        note += "; validation not done: " + "; ".join(reasons)
    return rubric, note


def _passes(rubric: dict[str, str]) -> bool:
    return all(v == "pass" or (k == "validation" and v == "documented") for k, v in rubric.items())


def feedback(answers: dict[str, dict[str, Any]]) -> list[str]:
    """The actionable items for the next round: each backend's DECIDE list and its failed items."""
    out: list[str] = []
    for backend, answer in answers.items():
        for item, entry in (answer.get("review") or {}).items():
            if entry["verdict"] == "fail" and entry["reason"]:
                out.append(f"{backend}: {item}: {entry['reason']}")
        for problem in answer.get("problems") or []:
            out.append(f"{backend}: {problem}")
        for line in (answer.get("decide") or {}).get("feedback") or []:
            out.append(f"{backend}: {line}")
    return out
