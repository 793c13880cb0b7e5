"""Issue #45's twenty-third round, the safety part (docs/interruptions.md, "Twenty-third round: gos
read where the user held (all languages)"): three kinds of go read where the user held or
stopped, each checked in every language, from messages of this round's own (none a corpus row),
with the near-misses that must stay gos."""

from __future__ import annotations

import pytest

from taskproto.classify import interruptions, languages
from taskproto.classify.languages import safety
from tests.classify_reads import reads as _check


def _normal(message: str) -> tuple[tuple[str, ...], str]:
    codes, _, normal = languages.detect(interruptions._normalise(message))
    return codes, normal


# 1. A go the model proposes where the rules found none, in a message with a stop, keep-off or
# drop order: never a go. The model read each of these as a go before.
@pytest.mark.parametrize(
    "message",
    [
        "Du kannst aufhören, wir werfen den Plan weg.",
        "Kannst aufhören, wir machen das anders.",
        "Du kannst jetzt aufhören, wir verwerfen das.",
        "Hör jetzt auf, irgendwann machen wir weiter.",
    ],
)
def test_a_stop_order_is_no_go_of_the_models(message: str) -> None:
    assert interruptions.classify(message).type != "RESUMPTION", message


# The orders, in every language, the model may not make a go of (``languages.holds``: the check
# the model's go passes), and the same words denied or told, which it may.
@pytest.mark.parametrize(
    "message",
    [
        "Du kannst aufhören, der Ansatz ist gestorben.",
        "Erstmal Pfoten weg vom Billing-Repo, da sitzt Tom dran.",
        "Lass es, wir bauen das neu.",
        "Stopp, das Feature fliegt raus.",
        "Puedes parar, tiramos ese enfoque.",
        "Déjalo, ese módulo lo rehace Luis.",
        "Deja eso, lo vamos a descartar.",
        "Para ya, no hace falta.",
        "Tu peux arrêter, on jette l'approche.",
        "Laisse tomber, quelqu'un d'autre s'en occupe.",
        "Touche pas au repo Y, quelqu'un bosse dessus.",
        "Pode parar, a gente vai jogar fora.",
        "Larga isso, o João tá refazendo.",
        "Deixa quieto o repo X, tem outra pessoa mexendo.",
        "Não mexe no repo de billing, o Pedro está nele.",
        "もうやめて、その方針は捨てる。",
        "そのリポジトリには触らないで、田中さんが作業中。",
        "そこ止めて、別の案でいく。",
        "先别碰支付仓库，小李在改。",
        "别动那个分支，有人在用。",
        "算了，这个思路放弃吧。",
        "停，这个方案不要了。",
    ],
)
def test_stop_keep_off_and_drop_orders_hold_the_models_go(message: str) -> None:
    codes, normal = _normal(message)
    assert codes, message
    assert languages.holds(codes, [normal], normal), message
    assert interruptions.classify(message).type != "RESUMPTION", message


@pytest.mark.parametrize(
    "message",
    [
        "hör nicht auf, läuft doch",
        "hör ned auf, passt scho",
        "ich hör auf zu nerven, mach weiter",
        "sigue, no pares",
        "el test para el parser falla",
        "não larga o profiling que tá rendendo",
        "o teste para o parser quebrou",
        "n'arrête pas, c'est bien parti",
        "reprends là où tu t'étais arrêté",
        "止めないで続けて",
        "残りはまとめてやって",
        "别停，继续",
        "你刚才停在哪就从哪接上",
        "不要停，接着做",
    ],
)
def test_a_stop_denied_or_told_is_no_stop_order(message: str) -> None:
    codes, normal = _normal(message)
    assert not safety.stopped(codes, normal), message


# 2. A stop now and a go later: a hold in every language; a go when the later part is "now".
@pytest.mark.parametrize(
    "message",
    [
        "Quédate ahí, luego seguimos con eso.",
        "Frena aquí, luego continuamos.",
        "Para ahí, luego lo retomamos.",
        "Detente aquí, al rato continuamos.",
        "Para aí, depois a gente retoma.",
        "Pare por agora, mais tarde você segue.",
        "Para aí, logo mais continuamos.",
        "Arrête-toi là, on reprendra plus tard.",
        "Arrête ici, tu continueras tout à l'heure.",
        "Stop là, on continue plus tard.",
        "Hör mal auf, nachher geht's weiter.",
        "Stopp hier, wir setzen später fort.",
        "Hör jetzt auf, irgendwann machen wir weiter.",
        "ここで止めて、あとで再開して。",
        "やめて、後ほど続きをやろう。",
        "一旦ストップ、また今度続けよう。",
        "先停，待会儿再继续。",
        "停一下，晚点接着做。",
        "暂停，回头再继续弄。",
    ],
)
def test_a_stop_now_and_a_go_later_is_a_hold(message: str) -> None:
    _check(message, "OTHER")


@pytest.mark.parametrize(
    "message",
    [
        "weiter, und hör nicht auf",
        "Hör hier auf, dann mach sofort weiter mit dem Test.",
        "ok, du kannst weitermachen",
        "sigue, no pares",
        "vale, ya puedes seguir",
        "Detente, ya puedes seguir.",
        "Para aí, agora continua com o deploy.",
        "继续(continue)",
    ],
)
def test_a_go_now_or_a_stop_lifted_stays_a_go(message: str) -> None:
    _check(message, "RESUMPTION")


@pytest.mark.parametrize(
    ("before", "clause", "held"),
    [
        ("frena aqui, ", "luego continuamos", True),
        ("hor hier auf, ", "wir machen nachher weiter", True),
        ("arrete la, ", "on reprend plus tard", True),
        ("先停, ", "待会儿再继续", True),
        ("今はやめて, ", "あとで続けよう", True),
        ("parate, ", "ahora seguimos", False),  # now
        ("hor hier auf, ", "dann mach sofort weiter", False),  # right away
        ("vale, ", "luego sigue con los tests", False),  # no stop before: "then"
        ("hor nicht auf, ", "spater machen wir weiter", False),  # the stop denied
    ],
)
def test_resumed_later(before: str, clause: str, held: bool) -> None:
    codes, _ = _normal(before + clause)
    assert (safety.resumed_later(codes, before, clause) is not None) is held


# 3. An English go word as a gloss in brackets or quotes after a word of another language: a noun.
@pytest.mark.parametrize(
    "message",
    [
        "简历（resume）接口报错",
        "简历(resume)解析又挂了",
        "El curriculum (resume) no se guarda.",
        "O currículo 'resume' não aparece.",
        "Der Lebenslauf (resume) wird nicht geparst.",
        "Le CV (resume) ne s'affiche plus.",
        "履歴書(resume)がアップロードできない",
        "「continue」ボタンが効かない",
        "El botón (continue) no responde.",
        "继续按钮(proceed)点了没反应",
    ],
)
def test_an_english_go_word_glossing_a_noun_is_no_go(message: str) -> None:
    assert interruptions.classify(message).type != "RESUMPTION", message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("简历(resume)上传", "简历 上传"),
        ("el curriculum (resume) falla", "el curriculum  falla"),
        ("weiter (continue)", "weiter "),
        ("(resume) bitte", "(resume) bitte"),  # no word before it: no gloss
        ("l'api 'proceed' endpoint", "l'api  endpoint"),  # a name quoted: a mention too
    ],
)
def test_unglossed(text: str, expected: str) -> None:
    assert safety.unglossed(text) == expected
