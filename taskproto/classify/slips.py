"""A go typed with a slip, in a short message: "contnua porfa", "weitr", "つぢけて", "继绪".

A message of at most three words none of which is a go word, one of whose words is one edit
(a letter put in, left out, changed, or two neighbours swapped) from a go word of German,
Spanish, French or Portuguese, is read with that go word instead and in its language; in
Japanese and Chinese, a go word one of whose characters is replaced by one of the same sound
("つぢけて", "继绪", "再会して"), or typed in kana for its kanji ("ぞっこうで"); in Chinese, a go,
progress or audit word typed in pinyin ("jixu", "jindu ne", "shen ji 一下"). Only go words of
five letters or more, and only short messages: a longer message, or a real word near a go word
in a sentence ("continued", "continuo"), is left as it is. Imported only for a message of at
most forty characters, or 120 with a pinyin word (``interruptions.classify``); not a language
table (``languages/``): it reads their go words.
"""

from __future__ import annotations

import re

from taskproto.classify import languages

_WORDS = {word: code for code, words in languages.SLIP_WORDS.items() for word in words.split()}
# Real words one edit from a go word: never read as its slip.
_REAL = frozenset(
    """
    continued continues continuer continuo continuos continuous continual continuar continuas
    continuou continuei continuem continuamos reprend reprendre reprise reprenne poursuit
    poursuivi sigues siguen sigan sigas siga segue segues seguem seguir seguro sigo retomo
    retomar retomei reanudo leiter heiter weiser weiten weites weiters weitere weiterer weiterem
    adelanto adelantar forsetzen retomas retomes retomen reanudas reanudo prosigues prosigo
    """.split()
)
# One character of a go word put for another of the same sound: "つぢけて"/"つずけて" (つづけて),
# "再会して" (再開して); "继绪"/"及续" (继续).
# (Strings: compiled by ``re`` when first reached, never for an English message.)
_SOUNDS = (
    ("ja", r"つ[ぢじず]け", "つづけ"),
    ("ja", r"再会(?=して|しよう|しましょう|で|する|お願い)", "再開"),
    ("zh-Hans", r"(?!继续)[继及既记计纪][续绪序叙蓄]", "继续"),
    # a go word typed in kana, not kanji: "ぞっこうで" (続行で), "さいかいして" (再開して)
    ("ja", r"ぞっこう", "続行"),
    ("ja", r"さいかい(?=して|しよう|しましょう|で|する|お願い|おねがい)", "再開"),
    # a word typed with the IME's wrong character of the same sound: "审记" (审计), "近度" (进度)
    ("zh-Hans", r"审[记纪]", "审计"),
    ("zh-Hans", r"近度", "进度"),
)
# Chinese typed in pinyin without its characters: "jixu", "jixu gan", "jindu ne", "shen ji 一下".
# Only these words (a go, a progress or an audit), and the particles beside them only when one
# of them is there ("ne" alone is nothing). ``interruptions.classify`` reaches this by PINYIN.
PINYIN = r"\b(?:ji ?xu|jie ?zhe|jin ?du|jin ?zhan|shen ?ji|zhuang ?tai|jian ?cha)\b"
_PINYIN_WORDS = {
    "jixu": "继续",
    "jiezhe": "接着",
    "jindu": "进度",
    "jinzhan": "进展",
    "shenji": "审计",
    "zhuangtai": "状态",
    "jiancha": "检查",
}
_PARTICLES = {
    "gan": "干",
    "ne": "呢",
    "ba": "吧",
    "ma": "吗",
    "yixia": "一下",
    "xia": "下",
    # "keyi jixu gan huo le": 可以继续干活了
    "keyi": "可以",
    "huo": "活",
    "le": "了",
    # "jiezhe gan, bie ting": 接着干, 别停 (a go said twice)
    "bie": "别",
    "ting": "停",
    "zuo": "做",
    "xie": "写",
    # "suo de zhuangtai kan yixia": 锁的状态看一下; "jindu zenmeyang": 进度怎么样
    "suo": "锁",
    "de": "的",
    "kan": "看",
    "zenmeyang": "怎么样",
    "zenyang": "怎样",
    "ruhe": "如何",
    # "jixu gan ba, meiwenti": 继续干吧, 没问题 (the words a go is said with)
    "meiwenti": "没问题",
    "xiongdi": "兄弟",
    "a": "啊",
    "ya": "呀",
    "haode": "好的",
    # an "ok" typed before the go ("ok jixu xie ba"), as the tables read it in characters too
    "ok": "ok",
    "okay": "ok",
    "okk": "ok",
    "hao": "好",
    "xing": "行",
    # the twenty-second round's: "jiancha yixia worktree he suo de zhuangtai" (检查一下worktree和
    # 锁的状态), "chayuan paimai nage jindu ruhe" (茶园拍卖那个进度如何)
    "he": "和",
    "gen": "跟",
    "nage": "那个",
    "zhege": "这个",
    "wancheng": "完成",
    "duoshao": "多少",
    "zenme": "怎么",
}
# A word a Chinese message typed in pinyin may leave as it is beside a progress or audit word
# (the topic's name, "chayuan paimai"): a run of pinyin syllables, or a name the rules read in
# English ("worktree", "lock"). Beside a go, every word must be read ("zai jixu" is left alone),
# and a no, a "need" or a later time is never left unread ("bu yong jiancha suo": 不用检查锁).
# (a string: compiled by ``re`` when a pinyin message first holds such a word, not on import)
_SYLLABLES = (
    r"(?:(?:[zcs]h|[bpmfdtnlgkhjqxrzcsyw])?"
    r"(?:i?ang|i?ong|uang|eng|ing|uai|iao|ian|uan|ai|ei|ao|ou|an|en|in|un|ia|ie|iu|ua|uo|ue|ui|er"
    r"|a|o|e|i|u|v))+"
)
_NAMES = frozenset("worktree lock session hook journal task json ci pr build branch".split())
_UNREAD = frozenset("bu buyao buyong bie mei meiyou mingtian houtian deng xian wan shao".split())


def _one_edit(word: str, go: str) -> bool:
    """Whether ``word`` is ``go`` with one letter put in, left out or changed, or two neighbours
    swapped."""
    if word == go or abs(len(word) - len(go)) > 1:
        return False
    if len(word) == len(go):
        diff = [i for i in range(len(go)) if word[i] != go[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and word[diff[0]] == go[diff[1]]
            and word[diff[1]] == go[diff[0]]
        )
    short, long = (word, go) if len(word) < len(go) else (go, word)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def latin(words: list[str], text: str) -> tuple[str, str] | None:
    """The language of a message whose ``words`` (at most three) hold a go word, or a slip of
    one (and the text with the go word put back); None when they hold neither, or "continue"
    (English too)."""
    if len(words) > 3:
        return None
    for word in words:
        if word in _WORDS:
            # a go word no marker shows ("retome"): its language; "continue" is English too
            return (_WORDS[word], text) if word != "continue" else None
    for word in words:
        if len(word) < 4 or word in _REAL:
            continue
        for go, code in _WORDS.items():
            if _one_edit(word, go):
                return code, re.sub(rf"(?<![\w-]){re.escape(word)}(?![\w-])", go, text, count=1)
    return None


def sounds(text: str) -> tuple[str, str] | None:
    """The language and ``text`` with a go word's same-sound slip put right ("つぢけて",
    "继绪"), in a message of at most twelve characters; None when there is none."""
    if len(text) > 12:
        return None
    for code, slip, go in _SOUNDS:
        fixed = re.sub(slip, go, text, count=1)
        if fixed != text:
            return code, fixed
    return None


def pinyin(text: str) -> str | None:
    """``text`` with its pinyin go, progress or audit word, and the particles beside it, in
    characters ("jindu ne" -> "进度 呢"); None when it has none, or has other Latin words
    ("ji xu the tests" is not Chinese)."""
    found = re.sub(PINYIN, lambda m: _PINYIN_WORDS[m[0].replace(" ", "")], text)
    if found == text:
        return None
    words = re.findall(r"[a-z]+", found)
    others = [word for word in words if word not in _PARTICLES]
    if others and (
        "继续" in found
        or "接着" in found
        or not _UNREAD.isdisjoint(others)
        or not all(w in _NAMES or re.fullmatch(_SYLLABLES, w) for w in others)
    ):
        return None
    found = re.sub(r"[a-z]+", lambda m: _PARTICLES.get(m[0], m[0]), found)
    return re.sub(r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])", "", found)  # "进度呢"


def slipped(codes: tuple[str, ...], lead: int, normal: str) -> tuple[tuple[str, ...], int, str]:
    """``languages.detect``'s answer (``codes``, ``lead``, ``normal``) for a message of at most
    forty characters; for one of at most three words with a go word typed with a slip ("contnua
    porfa", "weitr", "つぢけて", "继绪"), or a go word no marker shows ("retome"), the go word's
    language first and the text with the go word put right."""
    chinese = pinyin(normal)
    if chinese is not None:
        return ("zh-Hans", *(c for c in codes if c != "zh-Hans")), 1, chinese
    if normal.isascii() or not languages._cjk(normal):
        found = latin(normal.translate(languages._NOT_WORDS).split(), normal)
    else:
        found = sounds(normal)
    if found is None or (found[1] == normal and codes):
        return codes, lead, normal  # no slip, or a go word whose language is already seen
    code, fixed = found
    return (code, *(c for c in codes if c != code)), 1, fixed
