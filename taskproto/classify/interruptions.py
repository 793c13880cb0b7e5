"""Classify a user message that interrupts a task into one of five interruption types.

Pure and cheap to import: it runs inside a hook whose whole process budget is a few tens of
milliseconds, so it uses only ``re`` and ``dataclasses`` and compiles rules on first use.

A message is normalised, split into clauses, and each clause is given the type of the first
rule that matches it (a message in German, Spanish, French, Brazilian Portuguese, Japanese or
Chinese also gets that language's rules, ``languages/``, before the English ones). The message
then takes the type of the *last* clause that asks for
something (what the user asks for last is what they want now), except that a hold ("stop",
"don't continue") after a resumption cancels it. In those other languages, a decision that is
not a go may then be changed by a small model's second opinion (``languages/model.py``). See
docs/interruptions.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from taskproto.classify import languages
from taskproto.classify.interruption_rules import (
    DEFAULT_RULES,
    INTERRUPTION_TYPES,
    TYPO_FIXES,
    Rule,
)

TYPE_CHECKING = False  # not `from typing`: its import costs more than the classifier's
if TYPE_CHECKING:
    from taskproto.classify.gates import Gated

__all__ = [
    "DEFAULT_RULES",
    "INTERRUPTION_TYPES",
    "Classification",
    "Rule",
    "classify",
    "is_approval_like",
    "seed_classify",
]

# The last words of a message decide it, so a huge paste is cut from the front; clause caps keep
# every regex run short whatever the input.
MAX_CHARS = 4096
MAX_CLAUSES = 32
MAX_CLAUSE_CHARS = 400
FALLBACK_CONFIDENCE = 0.5
# A message that mixes types (a question, then "keep going") is less certain than a clean one.
MIXED_PENALTY = 0.85
# A go in another language than English that names a later time or an event the user waits for.
LATER_CONFIDENCE = 0.85


@dataclass(frozen=True)
class Classification:
    """The type of one message, the rule that decided it and how sure that rule is."""

    type: str
    rule: str
    confidence: float

    def to_dict(self) -> dict[str, object]:
        return {"type": self.type, "rule": self.rule, "confidence": self.confidence}


_CONTROL_CHARS = re.compile(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_TRANSLATE = str.maketrans(
    {
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": " - ",
        "\u2014": " - ",
        "\u2015": " - ",
        "\u2212": "-",
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2026": "...",
        "\u00a0": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\u3000": " ",
        # Japanese and Chinese punctuation (with the space their scripts leave out, so clauses
        # split as after ASCII's), and full-width letters and digits as ASCII ("ｐｒｏｃｅｅｄ")
        **{chr(c): chr(c - 0xFEE0) for c in range(0xFF10, 0xFF5B) if chr(c - 0xFEE0).isalnum()},
        "\uff1f": "? ",
        "\uff01": "! ",
        "\uff0c": ", ",
        "\u3002": ". ",
        "\u3001": ", ",
        "\uff1a": ": ",
        "\uff1b": "; ",
        "\u300c": '"',
        "\u300d": '"',
        "\u300e": '"',
        "\u300f": '"',
        "\uff08": "(",
        "\uff09": ")",
        "\u00bf": " ",  # Spanish opening marks
        "\u00a1": " ",
        "\r": "\n",
    }
)
# Code spans and quoted words are mentions, not requests: "the `continue` in the loop".
_MENTIONS = re.compile(r"`[^`\n]{0,200}`|\"[^\"\n]{0,200}\"")
_MARKDOWN = re.compile(r"[*_~#`>]+")
_SPACES = re.compile(r"[ \t\f\v]+")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\s*\n\s*")
# Split before connectives so "explain X before you continue" keeps "before you continue"
# as its own (hold) clause, and on commas, colons (not a clock's, "20:00") and spaced dashes.
# (`{comma}`: a language may keep a comma opening a subordinate clause, languages.clause_patterns.)
_SPLIT = (
    r"\s*(?:{comma}|(?<!\d):|:(?!\d)|[()\[\]]|\s-+\s|^-+\s|\s-+$)\s*"
    r"|(?<!how long)\s+(?=(?:but|then|before|unless|and then)\b)"
    # not "wait | until the CI is green": a wait with what it waits for is one clause
    r"|(?<!how long)(?<!\bwait)(?<!\bhold)(?<!\bhold on)(?<!\bhold off)(?<!\bhang on)"
    r"(?<!\bsit tight)\s+(?=until\b)"
)
_CLAUSE_SPLIT = re.compile(_SPLIT.format(comma=","))
_FILLER_WORDS = (
    r"ok(?:ay)?|k|kk|alright|all right|right|well|so|and|but|then|also|now|hey|hi"
    r"|hmm+|um+|uh+|oh|ah|yes|yeah|yep|yup|sure|great|cool|nice|perfect|thanks|thank you|thx"
    r"|ty|fine|got it|understood|makes sense|anyway|anyways|actually|just|please|pls|plz"
    r"|first|btw"
)
_FILLERS: re.Pattern[str] | Gated = re.compile(rf"^(?:(?:{_FILLER_WORDS})\b[\s,!.]*)+")
_EDGE_PUNCT = re.compile(r"^[\s\-.,;:!'\"]+|[\s\-.,;:!'\"]+$")
_WORD = re.compile(r"[a-z]{4,}")
# A clause with no word in it ("?" left of "please?" once "please" is stripped) asks nothing more
# than the clause before it: "Can you continue, please?" is a go.
_NO_WORD = re.compile(r"\W*$")
# Chinese typed in pinyin ("jixu", "jindu ne"): slips.PINYIN, here so English imports no slips.py
# (each word holds "ji": compiled only for a message that does)
_PINYIN = r"\b(?:ji ?xu|jie ?zhe|jin ?du|jin ?zhan|shen ?ji|zhuang ?tai|jian ?cha)\b"

_compiled: dict[str, re.Pattern[str]] = {}


def __getattr__(name: str) -> object:
    """``merge_rules`` (``rule_merge.py``), imported when first asked for: a hook that has no
    rules of the user's to merge does not import it."""
    if name == "merge_rules":
        from taskproto.classify.rule_merge import merge_rules

        return merge_rules
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _compile(pattern: str) -> re.Pattern[str]:
    found = _compiled.get(pattern)
    if found is None:
        # Text is lowercased before matching, so a pattern with no capitals needs no
        # IGNORECASE; skipping it saves case-folding every literal at compile time.
        flags = re.IGNORECASE if pattern != pattern.lower() else 0
        found = re.compile(pattern, flags)
        _compiled[pattern] = found
    return found


def _normalise(text: str) -> str:
    text = text[-MAX_CHARS:]
    text = text.translate(_TRANSLATE).lower()
    text = _CONTROL_CHARS.sub(" ", text)
    text = _MENTIONS.sub(" ", text)
    text = _MARKDOWN.sub(" ", text)
    text = _WORD.sub(_fix_typo, text)
    return _SPACES.sub(" ", text).strip()


def _pinyin(normal: str) -> bool:
    return ("ji" in normal or "zhuang" in normal) and _compile(_PINYIN).search(normal) is not None


def _fix_typo(word: re.Match[str]) -> str:
    return TYPO_FIXES.get(word[0], word[0])


def _clauses(text: str) -> list[str]:
    """Normalised clauses of ``text``, in order, fillers and edge punctuation stripped."""
    codes, lead, normal = languages.detect(_normalise(text))
    return _clauses_of(normal, codes[:lead])


def _clauses_of(normal: str, codes: tuple[str, ...]) -> list[str]:
    """The clauses of normalised text led by the languages ``codes`` (English alone when
    empty)."""
    split, fillers = _CLAUSE_SPLIT, _FILLERS
    if codes:
        split, fillers = languages.clause_patterns(codes, _SPLIT, _FILLER_WORDS)
    out: list[str] = []
    for sentence in _SENTENCE_SPLIT.split(normal):
        for part in split.split(sentence):
            clause = _EDGE_PUNCT.sub("", part)
            clause = fillers.sub("", clause)
            clause = _EDGE_PUNCT.sub("", clause)
            if clause and not _NO_WORD.match(clause):
                out.append(clause[:MAX_CLAUSE_CHARS])
    return out[-MAX_CLAUSES:]


def _match(clause: str, rules: Sequence[Rule], gated: bool = False) -> Rule | None:
    if gated:  # another language: a pattern compiled once a clause holds its words (gates.py)
        return languages.match(clause, rules)
    for rule in rules:
        if _compile(rule.pattern).search(clause):
            return rule
    return None


def classify(text: str, rules: Sequence[Rule] | None = None) -> Classification:
    """Classify one user message. Never raises for a ``str``; always one of INTERRUPTION_TYPES."""
    active = DEFAULT_RULES if rules is None else rules
    codes, lead, normal = languages.detect(_normalise(text))
    if len(normal) <= 40 and languages.may_slip(normal) or len(normal) <= 120 and _pinyin(normal):
        from taskproto.classify import slips

        codes, lead, normal = slips.slipped(codes, lead, normal)
    if codes:
        active = languages.with_rules(active, codes)
        normal = languages.courteous(codes, normal)  # "wenn du magst" holds nothing
    clauses = _clauses_of(normal, codes[:lead])
    if codes and not clauses and "?" not in normal:  # all fillers: "ja", "vale 👍" (an ACK)
        clauses = [normal]
    matches = [_match(c, active, bool(codes)) for c in clauses]
    found = _decide([rule for rule in matches if rule is not None])
    go = found.type == "RESUMPTION" and languages.is_default(codes, found.rule)
    if go and (codes or not _alone(clauses, matches, normal)):
        # a go that says when, on what, or is taken back (English's forms: languages/en.py)
        later = _later(codes or languages.ENGLISH, clauses, matches, found.rule, normal)
        if later is not None:
            return later
    if go and codes:
        # the words beside the go may still hold it, by the model's reading of them alone
        vetoed = languages.veto(codes, normal, _rest(clauses, matches, found.rule, normal, active))
        if vetoed is not None:
            return Classification(*vetoed)
    if codes:
        # the rules' weak guesses in another language get a second opinion (languages/model.py)
        revised = languages.second_opinion(codes, found.rule, found.type, normal, clauses)
        if revised is not None:
            return Classification(*revised)
    return found


def _later(
    codes: tuple[str, ...],
    clauses: Sequence[str],
    matches: Sequence[Rule | None],
    rule: str,
    normal: str,
) -> Classification | None:
    """A hold when the go ``rule`` decided says when or on what condition, in its clause or in a
    clause next to it that says nothing else: "Setz morgen fort.", "On reprend à 14h.", "今晚再
    继续", "CIが通ったら、続けて" (not "Mach weiter, ich schau später drüber": a later time of the
    user's own work); or when the text after its clause takes it back ("Weiter. Ach, doch
    nicht.", "行你继续吧……算了")."""
    at = next(i for i in range(len(matches) - 1, -1, -1) if getattr(matches[i], "name", 0) == rule)
    code = languages.deferred(codes, _sentence_of(normal, clauses, at))
    for near in (at - 1, at + 1):
        # a clause beside the go that is not a go itself ("CIが通ったら", read as a status)
        beside = matches[near] if 0 <= near < len(clauses) else "outside"
        if code is None and beside != "outside" and getattr(beside, "type", "") != "RESUMPTION":
            code = languages.deferred(codes, clauses[near], alone=True)
    if code is None:
        end = normal.rfind(clauses[at])
        if end >= 0:
            code = languages.retracted(codes, normal[end + len(clauses[at]) :])
        if code is None and end > 0 and codes != languages.ENGLISH:  # "hör auf, später weiter"
            from taskproto.classify.languages.safety import resumed_later

            code = resumed_later(codes, normal[:end], clauses[at])
    if code is None:
        return None
    return Classification("OTHER", f"{code.split('-')[0].lower()}-later", LATER_CONFIDENCE)


def _alone(clauses: Sequence[str], matches: Sequence[Rule | None], normal: str) -> bool:
    """Whether a message is its go alone ("continue", "ok, keep going."): one clause, all of it
    the go's words, and no word after it; nothing can hold it, and English's table is not
    imported for it."""
    rule = matches[0] if len(clauses) == 1 else None
    found = _compile(rule.pattern).search(clauses[0]) if rule is not None else None
    if found is None or found.span() != (0, len(clauses[0])):
        return False
    return not any(c.isalnum() for c in normal[normal.rfind(clauses[0]) + len(clauses[0]) :])


def _rest(
    clauses: Sequence[str],
    matches: Sequence[Rule | None],
    rule: str,
    normal: str,
    active: Sequence[Rule],
) -> str:
    """``normal`` without the words the go ``rule`` matched in its (last) clause: what the user
    said beside the go ("" when the go's clause cannot be found in the text)."""
    at = next(i for i in range(len(matches) - 1, -1, -1) if getattr(matches[i], "name", 0) == rule)
    start = normal.rfind(clauses[at])
    found = _compile(next(r.pattern for r in active if r.name == rule)).search(clauses[at])
    if start < 0 or found is None:
        return ""
    return f"{normal[: start + found.start()]} {normal[start + found.end() :]}".strip()


def _sentence_of(normal: str, clauses: Sequence[str], at: int) -> str:
    """Clause ``at`` with the clause before it when only a connective word parts them ("am
    Donnerstag machst du | dann weiter"): one sentence, whose time is the go's."""
    if at == 0:
        return clauses[at]
    start = normal.rfind(clauses[at - 1])
    end = normal.find(clauses[at], start + len(clauses[at - 1])) if start >= 0 else -1
    if end < 0 or any(mark in normal[start + len(clauses[at - 1]) : end] for mark in ",.;!?"):
        return clauses[at]
    return normal[start : end + len(clauses[at])]


def _remark(rule: Rule) -> bool:
    """A language table's rule for a remark that asks nothing and holds nothing (an instruction
    to change something, a warning, an acknowledgement: ``zh-remark``, ``ja-remark``)."""
    return rule.name.endswith("-remark")


def _decide(hits: Sequence[Rule]) -> Classification:
    """The type of a message whose clauses matched ``hits``, in order (see ``classify``)."""
    if not hits:
        return Classification("OTHER", "fallback", FALLBACK_CONFIDENCE)
    decisive_at = next((i for i in range(len(hits) - 1, -1, -1) if hits[i].type != "OTHER"), None)
    if decisive_at is None:
        chosen = hits[-1]
    else:
        chosen = hits[decisive_at]
        if chosen.type == "RESUMPTION":
            # "Keep going. Actually no, stop." - a later hold cancels the go; a remark does not
            # ("続けて。ただしマイグレーションには触らないで": go on, but leave the migrations be)
            later_hold = next(
                (h for h in hits[decisive_at + 1 :] if h.type == "OTHER" and not _remark(h)),
                None,
            )
            if later_hold is not None:
                chosen = later_hold
    confidence = chosen.confidence
    if len({h.type for h in hits}) > 1:
        confidence = round(confidence * MIXED_PENALTY, 3)
    return Classification(chosen.type, chosen.name, confidence)


# The bash `=~` patterns verbatim; POSIX `.` also matches a newline, hence DOTALL.
_SEED_RULES = (
    ("(continue|resume|proceed|keep.*going)", "RESUMPTION"),
    ("(audit|/audit-session)", "AUDIT"),
    ("(what|how|why|explain|clarify)", "QUESTION"),
    ("(status|progress|where.*are.*we)", "STATUS_REQUEST"),
)


def seed_classify(text: str) -> str:
    """The seed protocol's bash classifier, kept as the baseline: case-sensitive, first match."""
    for pattern, label in _SEED_RULES:
        if re.search(pattern, text, re.DOTALL):
            return label
    return "OTHER"


_APPROVAL = (
    r"^(?:i )?approved?\b|\bapprove (?:the|this|it)\b|\blgtm\b|\blooks good to me\b|\bship it\b"
    r"|\bsign(?:ed)? off\b|\b(?:proceed|go ahead) with (?:the )?(?:implementation|plan)\b"
)
# "looks good" alone is feedback; it approves only together with a go ("looks good, proceed").
_SOFT_APPROVAL = r"^(?:the )?(?:plan |it |this |that )?(?:looks|is|sounds) (?:good|great|fine)\b"
_NEGATED_APPROVAL = (
    r"\b(?:not|never|no|don'?t|dont|do not|isn'?t|aren'?t|won'?t|hold off)\b.*"
    r"\b(?:approv\w*|lgtm|ship|good|great|fine|proceed|continue|go ahead|sign)"
)


def is_approval_like(text: str) -> bool:
    """True if ``text`` explicitly approves ("lgtm", "approved", "looks good, proceed"; in the
    other languages "passt, freigegeben", "aprobado", "c'est validé", "承認します", "批准了").

    Questions and negated or held forms are not approvals. The caller only reports this;
    recording an approval is always the user's own ``taskproto approve``.
    """
    codes, lead, normal = languages.detect(_normalise(text))
    clauses = _clauses_of(normal, codes[:lead])
    if not clauses or clauses[-1].endswith("?"):
        return False
    rules = languages.with_rules(DEFAULT_RULES, codes) if codes else DEFAULT_RULES
    hits = [_match(c, rules, bool(codes)) for c in clauses]
    if any(h is not None and h.type == "OTHER" for h in hits):
        return False
    if any(_compile(_NEGATED_APPROVAL).search(c) for c in clauses):
        return False
    if any(_compile(_APPROVAL).search(c) for c in clauses):
        return True
    if codes and languages.approves(codes, clauses):
        return True
    soft = any(_compile(_SOFT_APPROVAL).search(c) for c in clauses)
    return soft and any(h is not None and h.type == "RESUMPTION" for h in hits)
