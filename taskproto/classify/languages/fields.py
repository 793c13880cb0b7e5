"""How the clauses of a message in another language than English are cut, and the fields of
its tables (``later``, ``conditions``, ``retractions``, ``approvals``, ``negations``,
``courtesies``: languages/table.py) searched in them. Imported only for a message in one of
those languages; each pattern is compiled the first time a text that holds its words is
searched (``gates.py``), never for a text that cannot match it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from taskproto.classify import gates
from taskproto.classify.gates import Gated
from taskproto.classify.languages import language

_patterns: dict[tuple[str, ...], tuple[re.Pattern[str], Gated]] = {}


def clause_patterns(
    codes: tuple[str, ...], split: str, fillers: str
) -> tuple[re.Pattern[str], Gated]:
    """The clause splitter and the leading-filler pattern for a message led by the languages
    ``codes`` (only those: one language's "mais" (but) is another's "more"): English's
    (``split``, with ``{comma}`` where a comma goes; ``fillers``, one English filler word)
    joined with theirs. The filler pattern is compiled only for a clause that starts with one
    of the words a filler of theirs starts with (``gates.starts``)."""
    found = _patterns.get(codes)
    if found is None:
        tables = [language(code) for code in codes]
        joiners = "|".join(t.joiners for t in tables if t.joiners)
        comma = rf",(?!\s?(?:{joiners})\b)" if joiners else ","
        splitter = "|".join([split.format(comma=comma), *(t.connectives for t in tables)])
        words = "|".join([rf"(?:{fillers})\b", *(t.fillers for t in tables)])
        heads = [gates.starts(text) for text in (fillers, *(t.fillers for t in tables))]
        gate = (tuple(w for h in heads for w in h or ()), ()) if None not in heads else None
        found = (re.compile(splitter), Gated(rf"^(?:(?:{words})[\s,!.]*)+", 0, gate))
        _patterns[codes] = found
    return found


_own: dict[str, Gated] = {}


def _pattern(code: str, field: str) -> Gated | None:
    """Language ``code``'s ``later``, ``conditions``, ``retractions``, ``approvals``,
    ``negations`` or ``courtesies`` pattern, compiled the first time a text that holds its words
    is searched (``gates.py``); None when it has none."""
    key = f"{code} {field}"
    found = _own.get(key)
    if found is None:
        text = getattr(language(code), field)
        if not text:
            return None
        found = _own[key] = gates.gated(text)
    return found


def courteous(codes: tuple[str, ...], normal: str) -> str:
    """``normal`` without the courtesies of ``codes`` ("wenn du magst"), unless nothing is left."""
    for code in codes:
        courtesy = _pattern(code, "courtesies")
        stripped = courtesy.sub(" ", normal) if courtesy is not None else normal
        if stripped != normal and any(c.isalnum() for c in stripped):
            normal = re.sub(r"  +", " ", stripped).strip()
    return normal


# What may be left of a clause that only says when ("明日の朝", "heute abend", "mañana, eh"):
# a particle at most. (A string: compiled when first reached, never for an English message.)
_ONLY_WHEN = r"\W*(?:\w{1,2}\W*)?"
# what may come before it: nothing, or the "but" that French's connectives leave at the start of
# the clause they cut off ("vas-y, mais demain": the go held)
_BUT = ("", "mais ")


def deferred(codes: tuple[str, ...], clause: str, alone: bool = False) -> str | None:
    """The first of the languages ``codes`` whose time, event or condition a go may wait for
    (``later``: "morgen", "am Montag", "à 14h", "après mon call", "今晚"; ``conditions``:
    "sobald", "depois que", "したら") ``clause`` names, or None. With ``alone`` (a clause beside
    the go's), only when the clause says nothing else but the time (it starts with it, and a
    particle at most follows) or opens with the condition (ends with it, in Japanese and
    Chinese: "CIが通ったら", "review完之后")."""
    for code in codes:
        later = _pattern(code, "later")
        found = later.search(clause) if later is not None else None
        if (
            found
            and (
                not alone
                or (
                    clause[: found.start()] in _BUT  # French's "mais" opens a clause of its own
                    and re.fullmatch(_ONLY_WHEN, clause[found.end() :])
                )
            )
        ):
            return code
        condition = _pattern(code, "conditions")
        found = condition.search(clause) if condition is not None else None
        if found and (not alone or found.start() == 0 or found.end() == len(clause)):
            return code
    return None


# A bare no closing the message after a go ("mach weiter, aber nee", "continue, but no", "続けて…
# いや", "继续吧，不"): the go taken back. Not a tag asked ("…, ne?", "…, no?"): it ends in "?". A
# language's "but", and its noes.
_BARE_NO = {
    "en": (r"\sbut\s+", "no|nope|nah"),
    "de": (r"\saber\s+", "nee|nein|noe"),
    "es": (r"\spero\s+", "no"),
    "fr": (r"\smais\s+", "non"),
    "pt-BR": (r"\smas\s+", "nao"),
    "ja": ("でも", "いや|いやいや|だめ|ダメ|やめ|やめて|なし"),
    "zh-Hans": ("但是|不过", "不|不行|不要|别|算了吧"),
}
_bare: dict[str, re.Pattern[str]] = {}


def _bare_no(code: str, tail: str) -> bool:
    words = _BARE_NO.get(code)
    end = tail.rstrip(" .!。…")[-1:]
    if words is None or not end or end not in {no[-1] for no in words[1].split("|")}:
        return False  # not ending in a no: nothing compiled (a go's first message compiles few)
    if code not in _bare:
        but, noes = words
        _bare[code] = re.compile(
            rf"(?:[,.;!、。…]\s*|{but})(?:(?:ah|oh|ach|hm+) )?(?:{noes})\s*[.!。…]*$"
        )
    return _bare[code].search(tail) is not None


def retracted(codes: tuple[str, ...], tail: str) -> str | None:
    """The first of the languages ``codes`` in which ``tail``, the text after a go, takes it
    back ("doch nicht", "en fait non", "mejor no", "deixa pra lá", "やっぱり", "算了", or a bare
    no at its end), or None."""
    for code in codes:
        retraction = _pattern(code, "retractions")
        if (retraction is not None and retraction.search(tail)) or _bare_no(code, tail):
            return code
    return None


def approves(codes: tuple[str, ...], clauses: Sequence[str]) -> bool:
    """Whether a clause explicitly approves in one of the languages ``codes`` ("passt,
    freigegeben", "c'est validé", "承認します") with no negation of its language in it."""
    for clause in clauses:
        for code in codes:
            approval, negation = _pattern(code, "approvals"), _pattern(code, "negations")
            if approval is None or not approval.search(clause):
                continue
            if negation is None or not negation.search(clause):
                return True
    return False
