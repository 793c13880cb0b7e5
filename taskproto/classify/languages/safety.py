"""Gos read where the user held or stopped (issue #45, the twenty-third round's safety part).

Three kinds, each checked the same way in every language and none growing with the corpus:

- a stop, keep-off or drop order in a message (``STOPS``: "hör auf", "Finger weg", "déjalo",
  "laisse tomber", "não mexe", "触らないで", "别动"), not denied ("hör nicht auf", "不要停"): the
  model (``model.py``) may not make a go of it where the rules found none (``stopped``);
- a stop now and a go later ("arrête là, on reprend plus tard", "先停，等会儿再继续"): the go is a
  hold unless its clause says "now" (``resumed_later``);
- an English go word as a gloss in brackets or quotes after a word of another language
  ("简历(resume)", "Lebenslauf (resume)"): a noun, taken out before the rules read the message
  (``unglossed``).

Imported only for a message in one of those languages that needs it; each pattern compiled the
first time it is searched. See docs/interruptions.md, "Twenty-third round: gos read where the
user held".
"""

from __future__ import annotations

import re

from taskproto.classify.languages import GLOSSED

# The text is accent-folded ("hör" is "hor", "déjalo" is "dejalo"): the patterns are too.
# "para" is also Spanish's and Portuguese's "for": a stop only alone or before "there", "here",
# "now", "already" ("para ahí", "para já"), at a clause's start.
_PARA = (
    r"(?:^|[,.;!?] |\b(?:ok|vale|bueno|pues|entao|ta) )(?:para|pare)(?=\s*$|[,.;!]"
    r"| (?:ahi|aqui|ai|ja|ya|ahora|agora|por (?:ahora|agora|aqui|hoy|hoje))\b)"
)
# A stop (pause) order by language: what a go later may follow (``resumed_later``).
PAUSES = {
    "de": r"(?<!ich )\b(?:hor|hort)\b(?: \w+){0,3} auf\b|\baufhoren\b|\bstopp?\b"
    r"|\bhalt (?:\w+ )?an\b|\bschluss (?:fur|machen)\b",
    "es": _PARA + r"|\b(?:puedes|podes|hay que) parar\b|\bparate\b|\bdetente\b|\bfrena\b"
    r"|\bquedate ahi\b",
    # the imperative, not "j'arrête", "tu t'es arrêté"
    "fr": r"(?<!j')(?<!t')(?<!m')(?<!s')\barrete(?:-toi|z)?\b(?! pas\b)"
    r"|\b(?:peux|pouvez) (?:t'|vous )?arreter\b|^stop\b|\bstop(?: la| ici)?$",
    "pt-BR": _PARA + r"|\b(?:pode|podes) parar\b|\bpare\b(?! de)|\bsegura ai\b",
    # the imperative, not "止めてる" (is stopping), nor "まとめて" (together)
    "ja": r"やめて(?![るたいま])|(?<!ま)止めて(?![るたいま])|中断して|ストップ",
    # the order, not a stop told ("你刚才停在哪"): at a clause's start, "first", "for a moment"
    "zh-Hans": r"(?:^|[,.;!] )停|先停|停一下|停下来|停手|暂停",
}
# A keep-off or drop order: with a pause, what the model may not make a go of (``stopped``).
_KEEP_OFF = {
    "de": r"\blass (?:es|das|die finger)\b|\b(?:finger|pfoten|hande) weg\b|\bverwerfen\b",
    "es": r"\bdejalo\b|\bdeja eso\b|\bno (?:lo )?toques\b|\bolvidalo\b",
    "fr": r"\blaissez? tomber\b|\btouchez? pas\b|\bne touchez?\b|\bpas touche\b",
    "pt-BR": r"\blarga\b|\bdeixa (?:quieto|pra la|isso)\b|\b(?:nao|nem) (?:mexe|toca|encosta)\b",
    "ja": r"触らないで|さわらないで|いじらないで|手を出さないで",
    "zh-Hans": r"别动|别碰|先别碰|不要碰|不要动|算了",
}
# The denials that make a stop or a keep-off a go ("hör nicht auf", "hör ned auf", "não larga",
# "别停"), in the few words before it or inside it; and French's auxiliaries that make it a stop
# told ("là où tu t'étais arrêté").
_DENIED = {
    "de": r"\b(?:nicht|nich|ned|net|nit|nod|nie|nimmer|kein)\b",
    "es": r"\b(?:no|nunca|sin)\b",
    "fr": r"\b(?:ne|sans|jamais|etais|etait|est|es|suis|ai|as|avais|avait)\b|\bn'",
    "pt-BR": r"\b(?:nao|nunca|sem)\b",
    "zh-Hans": r"别|不|没|甭",
}
# A go's clause that says when: later (a hold), or now (a go). Later's are words, looked for as
# such before their pattern is compiled: every go after a clause of its own reaches them (a hook's
# first message compiles no more patterns for it).
_LATER = {
    "de": ("spater", "nachher", "morgen", "irgendwann", "ein andermal"),
    "es": ("luego", "despues", "mas tarde", "al rato", "manana", "otro dia"),
    "fr": ("plus tard", "tout a l'heure", "demain", "une autre fois"),
    "pt-BR": ("depois", "mais tarde", "logo mais", "amanha", "outra hora"),
    "ja": ("後で", "あとで", "後ほど", "のちほど", "また今度", "明日"),
    "zh-Hans": ("等会", "待会", "一会儿", "回头", "晚点", "以后", "明天", "改天"),
}
_NOW = {
    "de": r"\b(?:jetzt|sofort|direkt|gleich)\b",
    "es": r"\b(?:ahora|ya|enseguida|en seguida|de inmediato)\b",
    "fr": r"\b(?:maintenant|tout de suite|direct|immediatement)\b",
    "pt-BR": r"\b(?:agora|ja|imediatamente)\b",
    "ja": r"今すぐ|すぐ|今から",
    "zh-Hans": r"马上|现在|立刻|立即",
}
# An English go word alone in brackets or quotes right after a word: a gloss of that word.
_WORDS = "|".join(GLOSSED)
_GLOSS = rf"(?<=[^\W\d_])\s?(?:\((?:{_WORDS})\)|'(?:{_WORDS})')"

_compiled: dict[str, re.Pattern[str]] = {}


def _re(key: str, pattern: str) -> re.Pattern[str]:
    found = _compiled.get(key)
    if found is None:
        found = _compiled[key] = re.compile(pattern)
    return found


def _search(table: dict[str, str], code: str, text: str) -> re.Match[str] | None:
    pattern = table.get(code)
    return _re(f"{id(table)} {code}", pattern).search(text) if pattern else None


def _ordered(table: dict[str, str], code: str, text: str, inside: bool = True) -> bool:
    """Whether ``text`` holds an order of ``table`` in language ``code`` that no word in the
    few before it (nor, with ``inside``, in it) denies."""
    pattern = table.get(code)
    for found in _re(f"{id(table)} {code}", pattern).finditer(text) if pattern else ():
        parts = (text[max(0, found.start() - 12) : found.start()], found[0] if inside else "")
        if not any(_search(_DENIED, code, part) for part in parts):
            return True
    return False


def _paused(code: str, text: str) -> bool:
    """Whether ``text`` orders a stop in language ``code``, not denied ("hör nicht auf")."""
    return _ordered(PAUSES, code, text)


def stopped(codes: tuple[str, ...], normal: str) -> bool:
    """Whether ``normal`` orders a stop, a keep-off or a drop in one of ``codes`` ("não mexe" is
    one, "não larga" is not): the model may not make a go of it (it is asked only where the
    rules found no go)."""
    return any(
        _paused(code, normal) or _ordered(_KEEP_OFF, code, normal, inside=False) for code in codes
    )


def resumed_later(codes: tuple[str, ...], before: str, clause: str) -> str | None:
    """The first of ``codes`` in which ``before``, the text before a go's ``clause``, orders a
    stop and ``clause`` says the go is for later and not now ("hör hier auf, wir machen später
    weiter"), or None."""
    for code in codes:
        if not any(word in clause for word in _LATER.get(code, ())):
            continue  # no later word: nothing compiled
        edge = "" if code in ("ja", "zh-Hans") else r"\b"  # no spaces between their words
        later = _re(f"later {code}", rf"{edge}(?:{'|'.join(_LATER[code])}){edge}")
        if later.search(clause) and not _search(_NOW, code, clause) and _paused(code, before):
            return code
    return None


def unglossed(normal: str) -> str:
    """``normal`` without an English go word glossing the word before it ("简历(resume)")."""
    return _re("gloss", _GLOSS).sub(" ", normal)
