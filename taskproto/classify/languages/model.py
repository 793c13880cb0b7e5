"""A second opinion for messages in another language than English: a small linear model.

The rules of a language table (``languages/<code>.py``) know the phrasings they were written
from; on messages they have not seen, most of their misses are of a few kinds (a yes/no question
about the work read as a QUESTION, an audit read as OTHER). This model reads the same normalised
text as the rules (character n-grams of its words, its words, word pairs, the last sentence's
words, a Japanese or Chinese phrase's single characters), trained on every language's corpus
by ``scripts/train_interrupt_model.py`` (softmax regression, each type weighed alike;
``model.bin`` holds its weights), and may change the rules' decision in a few cases only
(``revise``). It never makes a go of a hold or of an unmatched short reply it is unsure of,
and never overrides a user's own rule.

Standard library only; ``model.bin`` is read the first time a non-English message needs it,
never for an English one.
"""

from __future__ import annotations

import math
import re
import sys
from array import array
from operator import itemgetter
from pathlib import Path
from zlib import crc32

__all__ = [
    "BUCKETS",
    "CLEAR_GO",
    "SCALE",
    "SURE",
    "TYPES",
    "buckets",
    "features",
    "probabilities",
    "revise",
    "verdict",
    "veto",
    "vetoes",
]

TYPES = ("RESUMPTION", "AUDIT", "QUESTION", "STATUS_REQUEST", "OTHER")
_WEIGHTS = Path(__file__).with_name("model.bin")

# Words: runs of ASCII letters and digits, runs of anything not ASCII (a Japanese or Chinese
# phrase, which has no spaces), and "?" (a question mark is a word of its own).
_TOKENS = re.compile(r"[a-z0-9]+|[^\x00-\x7f\s]+|\?")
_SENTENCES = re.compile(r"[.!?;,:]\s")

# How sure the model must be to change the rules' decision. A message no rule matched, or one
# only the trailing "?" made a question, is the rules' weakest guess; a question word is a
# better one; any other rule is trusted unless the model is very sure. The weakest at 0.5 since
# the thirteenth round (0.4 before): chosen so by --hold-out-batch on the other batches for
# every one of batches 7-15 left out, and the model trained with batch 15 read "Le verrou est
# réentrant ?" as a status request at 0.40 (docs/interruptions.md, "Thirteenth round").
_SURE_WEAK = 0.5
_SURE_QUESTION = 0.75
_SURE_STRONG = 0.85
# A go is costly when wrong (the agent acts on it): the model makes one of a message no rule
# matched, or of one the rules read as a question, status request or audit, only when very sure
# (or sure and clear of a hold: CLEAR_GO). 0.9 until the tenth round: 0.85 together with the
# stricter CLEAR_GO and VETO below made more gos and fewer gos of holds (docs/interruptions.md,
# "Tenth round: the model").
_SURE_GO = 0.85
# The four, in that order (scripts/train_interrupt_model.py --hold-out-batch weighs others).
SURE = (_SURE_WEAK, _SURE_QUESTION, _SURE_STRONG, _SURE_GO)
# A go under _SURE_GO that is clear of a hold: at least this sure of the go, and the message at
# most this likely OTHER (the veto's evidence, reversed). A plain lower go threshold made gos of
# holds; a go with little OTHER in it did not (chosen on batches 7-11 left out in turn, the same
# on each four of them: docs/interruptions.md, "Ninth round"); (0.7, 0.05) since the tenth round,
# chosen on batches 7-12: a go at 0.7-0.85 with 5-10% OTHER in it was as often a hold as a go.
CLEAR_GO = (0.7, 0.05)
# How sure the model must be that the words beside a go the rules found hold it (``veto``): of
# the words beside the go alone, and of the whole message (chosen on batches 7-10 left out in
# turn, docs/interruptions.md "Eighth round"). Without the whole message's, a go with an object
# beside it ("Dá sequência no parser.") was read as a mention; without the words beside the go,
# an idiom the model does not know ("Bleib dran."). The whole message's was 0.9 until the tenth
# round: at 0.85 it holds "领导批了再推进" and "Mach weiter... ach nee, lass, ..." (86-89% OTHER).
VETO = (0.7, 0.85)
_OTHER = TYPES.index("OTHER")
_WEAK_RULES = frozenset({"fallback", "question-mark"})
# the rules that read a question: the trailing "?", a question word (English's and each table's:
# "de-question-word", "fr-question"), a request to explain
_QUESTION_RULES = ("question-mark", "question", "question-word", "question-request")


def features(normal: str) -> list[str]:
    """The model's features of a message's normalised (and accent-folded) text."""
    tokens = _TOKENS.findall(normal)
    out: list[str] = []
    for token in tokens:
        out.append("w:" + token)
        padded = "<" + token + ">"
        for size in (2, 3, 4):
            out.extend(padded[i : i + size] for i in range(len(padded) - size + 1))
        if len(token) > 1 and not token.isascii():
            # a Japanese or Chinese phrase's single characters: 吗, 停, 别, 完 each say much
            out.extend("u:" + char for char in token)
    out.extend(f"b:{a} {b}" for a, b in zip(tokens, tokens[1:], strict=False))
    if tokens:
        out.append("last:" + tokens[-1])
    sentences = [s for s in _SENTENCES.split(normal) if s.strip()]
    if len(sentences) > 1:
        out.extend("L:" + token for token in _TOKENS.findall(sentences[-1]))
    return out


# The weights: one row of five 16-bit integers (``SCALE`` times the real weights, little-endian)
# per bucket, a feature's bucket being the CRC-32 of its UTF-8 text modulo BUCKETS. Read with one
# ``frombytes``: no parsing, so a first non-English message pays well under a millisecond for it.
BUCKETS = 1 << 16
SCALE = 1000
_ZERO_ROW = BUCKETS * 5 + 5  # after the rows and the biases
_loaded: dict[str, array[int]] = {}


def _load() -> array[int]:
    # made whole before it is shared: two threads' first messages each read a complete table
    weights = array("h")
    weights.frombytes(_WEIGHTS.read_bytes())
    if sys.byteorder == "big":
        weights.byteswap()
    weights.extend((0, 0, 0, 0, 0))  # a row of zeros, _ZERO_ROW
    _loaded["weights"] = weights
    return weights


def _rows(normal: str) -> list[int]:
    """The weight row of each feature of normalised text, once per use."""
    return [code % BUCKETS for code in map(crc32, map(str.encode, features(normal)))]


def buckets(normal: str) -> dict[int, int]:
    """How often each weight row is used by the features of normalised text."""
    counts: dict[int, int] = {}
    for row in _rows(normal):
        counts[row] = counts.get(row, 0) + 1
    return counts


def probabilities(normal: str) -> list[float]:
    """The model's probability of each of TYPES for normalised text."""
    weights = _loaded.get("weights")
    if weights is None:
        weights = _load()
    rows = _rows(normal)
    counts = dict.fromkeys(rows, 0)
    for row in rows:
        counts[row] += 1
    # a row's offset once per use, and the zero row twice (itemgetter of one offset returns no
    # tuple); each type's sum is then one C-level gather and sum over a shifted view
    gather = itemgetter(*[row * 5 for row in rows], _ZERO_ROW, _ZERO_ROW)
    view = memoryview(weights)
    norm = 1.0 / math.sqrt(sum(c * c for c in counts.values()) or 1)
    bias = weights[BUCKETS * 5 : BUCKETS * 5 + 5]  # the biases, after the rows
    scores = [bias[k] + sum(gather(view[k:])) * norm for k in range(5)]
    top = max(scores)
    exps = [math.exp((s - top) / SCALE) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def revise(rule: str, rule_type: str, normal: str) -> tuple[str, float] | None:
    """The model's type and probability for a message the default rule ``rule`` (or the
    fallback) gave ``rule_type``, if it should replace the rules' decision; else None.

    A go the rules found stands (the model is not asked). A hold may become an audit, a
    question or a status request (an audit that starts with "before you go on"), never a go.
    """
    if rule_type == "RESUMPTION":
        return None
    return verdict(rule, rule_type, probabilities(normal), asks=normal.endswith("?"))


def verdict(
    rule: str,
    rule_type: str,
    probs: list[float],
    sure: tuple[float, ...] = SURE,
    asks: bool = False,
    clear: tuple[float, float] = CLEAR_GO,
) -> tuple[str, float] | None:
    """``revise`` for the model's probabilities ``probs``, with the thresholds ``sure`` (as
    SURE: a weak rule's, a question word's, any other rule's, a go's) and ``clear`` (as
    CLEAR_GO); ``asks``: the message ends with "?"."""
    if rule_type == "RESUMPTION":
        return None
    # a message the rules read as a question (by its "?" or a question word), or as asking for
    # a status or an audit with a "?" at its end, asks something: the model picks among the
    # types that ask, never OTHER (no message of the corpora labelled OTHER ends with "?", and
    # "这个缓存是怎么失效的" is a question without one)
    asking = rule.endswith(_QUESTION_RULES) or (asks and rule_type != "OTHER")
    kinds = range(4) if asking else range(5)
    best = max(kinds, key=probs.__getitem__)
    found, likely = TYPES[best], probs[best]
    if found == rule_type:
        return None
    weak, question, strong, go = sure
    if found == "RESUMPTION":
        allowed = rule == "fallback" or rule_type != "OTHER"
        # the clear go weighs how little OTHER the message reads, which tells a go from a hold,
        # not from a message that asks (a question is never OTHER: "じゃあ再開で大丈夫？" asks
        # whether to go) nor from a status request or an audit a rule read by its form ("昨日の
        # 作業のまとめお願い": a summary of the work, 74% go): those only at the plain threshold
        clear_go = rule_type == "OTHER" and not asking
        clear_go = clear_go and likely >= clear[0] and probs[_OTHER] <= clear[1]
        sure_go = likely >= go or clear_go
        return (found, likely) if allowed and sure_go else None
    if rule_type == "OTHER" and rule != "fallback" and found != "AUDIT":
        return None  # a hold or a negated go stays one, unless it holds for an audit
    if rule_type == "AUDIT" and found == "STATUS_REQUEST":
        # an audit rule read the protocol's state ("Le verrou est encore à nous ?"), which the
        # model takes for the work's: of batches 7-11 left out, no audit of the rules' that the
        # model read as a status request was one (docs/interruptions.md, "Ninth round")
        return None
    if rule in _WEAK_RULES:
        need = weak
    elif rule.endswith("question") or rule == "question-word":
        # a question is an audit only when the model is very sure: "帮我理解一下锁的设计" asks to
        # understand the lock, which no check of it answers (docs/interruptions.md, "Fourteenth
        # round")
        need = strong if found == "AUDIT" else question
    else:
        need = strong
    return (found, likely) if likely >= need else None


def veto(normal: str, rest: str) -> float | None:
    """The model's probability that a message (its normalised text ``normal``) the rules read
    as a go is OTHER, when the words beside the go (``rest``: ``normal`` without the go's own
    words) hold it: a condition, a later time, a retraction, a mention (``vetoes``); else None."""
    whole = probabilities(normal)
    if whole[_OTHER] < VETO[1]:
        return None
    return vetoes(whole, probabilities(rest))


def vetoes(whole: list[float], rest: list[float], sure: tuple[float, float] = VETO) -> float | None:
    """``veto`` for the model's probabilities of the message (``whole``) and of the words beside
    its go (``rest``), with the thresholds ``sure`` (as VETO)."""
    if rest[_OTHER] >= sure[0] and whole[_OTHER] >= sure[1]:
        return whole[_OTHER]
    return None
