"""Issue #45's tenth round, the rules (docs/interruptions.md, "Tenth round: the rules"): families
by form, each with a go and the negated, later, conditional or asked variants that must stay
what they are. New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify


# French "repartir sur / se remettre sur / se relancer sur / retourner sur" + the work is a go; a
# negation, a later time or a condition holds it, asking whether the agent does is not a go, and
# the same verbs said of code or of a git branch are not one.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("C'est mergé, repars sur le parser.", "RESUMPTION"),
        ("Repartez sur l'export CSV.", "RESUMPTION"),
        ("J'ai mis à jour le .env, remets-toi sur l'import des cours.", "RESUMPTION"),
        ("Relance-toi sur le ticket 42.", "RESUMPTION"),
        ("Retourne sur le parser.", "RESUMPTION"),
        ("Ne repars pas sur le parser.", "OTHER"),
        ("Ne te remets pas sur l'import.", "OTHER"),
        ("Repars sur le parser demain.", "OTHER"),
        ("Repartez sur le parser après la revue.", "OTHER"),
        ("Repars sur le parser quand la CI est verte.", "OTHER"),
        ("Le build repart sur une base propre.", "OTHER"),
        ("La fonction retourne sur la sortie standard une erreur.", "OTHER"),
        ("Retournez sur la branche main.", "OTHER"),
    ],
)
def test_french_back_onto_the_work_is_a_go(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


@pytest.mark.parametrize("message", ["Tu repars sur le parser ?", "Tu te remets sur l'import ?"])
def test_asking_whether_the_agent_goes_back_onto_the_work_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


# A summary (the noun) of the work done is a status request in every language; a summary of a
# document is a task, and a go beside a summary declined is still a go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Résumé de ce que tu as fait ce matin ?", "STATUS_REQUEST"),
        ("Je veux bien un petit résumé de ta matinée.", "STATUS_REQUEST"),
        ("Fais un résumé du README.", "OTHER"),
        ("Ne me fais pas de résumé de ce qui est fait, continue.", "RESUMPTION"),
        ("Eine Zusammenfassung deiner Arbeit bitte.", "STATUS_REQUEST"),
        ("Schreib eine Zusammenfassung der RFC in die README.", "OTHER"),
        ("昨日の作業のまとめお願い", "STATUS_REQUEST"),
        ("README のサマリーを書いて", "OTHER"),
        ("发个今天工作的总结", "STATUS_REQUEST"),
        ("帮我总结一下这篇文章", "OTHER"),
        ("把 summary 写进 README", "OTHER"),
        ("别给我进展的总结了，继续吧", "RESUMPTION"),
    ],
)
def test_a_summary_of_the_work_is_a_status_request(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# When one language clearly leads, the words a neighbour shares ("para", "que", "espera") do not
# let the neighbour's table decide: "¿Para cuándo…?" was read by Portuguese's hold. A short
# message whose one word two languages share still tries every table.
@pytest.mark.parametrize(
    ("message", "expected", "table"),
    [
        ("¿Para cuándo crees que estará listo el parser?", "STATUS_REQUEST", "es"),
        ("Pra quando você acha que o parser fica pronto?", "STATUS_REQUEST", "pt"),
        ("Espera, todavía no terminé de revisar el PR.", "OTHER", "es"),
        ("Espera, ainda não terminei de revisar.", "OTHER", "pt"),
        ("leg los", "RESUMPTION", "de"),
        ("sigue", "RESUMPTION", "es"),
    ],
)
def test_the_table_of_the_language_the_message_is_in_decides(
    message: str, expected: str, table: str
) -> None:
    got = classify(message)
    assert (got.type, got.rule.split("-")[0]) == (expected, table), got


# Encouragement and a formal go name the work to keep at: German "bleib am Ball", "gib Gas",
# Portuguese "dê continuidade ao …", "vai até o fim". Negated, later or conditional they hold;
# "Não dê continuidade ao relatório." was read as a go by the model before.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Klasse gemacht mit dem Caching, bleib am Ball.", "RESUMPTION"),
        ("Gib Gas, nur noch das Elm-Modul fehlt!", "RESUMPTION"),
        ("Bleib nicht am Ball, wir stoppen.", "OTHER"),
        ("Gib morgen Gas.", "OTHER"),
        ("Gib Gas, wenn die Tests grün sind.", "OTHER"),
        ("Dê continuidade ao relatório, por favor.", "RESUMPTION"),
        ("Vai até o fim com o relatório.", "RESUMPTION"),
        ("Não dê continuidade ao relatório.", "OTHER"),
        ("Dê continuidade ao relatório amanhã.", "OTHER"),
        ("A continuidade do serviço caiu.", "OTHER"),
    ],
)
def test_encouragement_and_a_formal_go_are_gos(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Japanese "じゃあ再開で" (then, resume): a go after a connective that opens the clause; a later
# time, a question or a condition keeps it what it is.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("おっけー、じゃあ再開で", "RESUMPTION"),
        ("では再開で", "RESUMPTION"),
        ("じゃあ明日再開で", "OTHER"),
        ("じゃあ再開で大丈夫？", "QUESTION"),
        ("じゃあ再開はまだ", "OTHER"),
        ("CIが通ったら、じゃあ再開で", "OTHER"),
    ],
)
def test_japanese_then_resume_is_a_go(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# A problem stated without a question ("…, no entiendo nada") is a remark, not a question; not
# understanding something named, or asking outright, is still a question, and a go after it a go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("El build pasa en mi máquina pero en staging revienta, no entiendo nada", "OTHER"),
        ("O deploy passa em staging mas em produção cai, não entendo nada.", "OTHER"),
        ("No entiendo por qué falla el test en CI.", "QUESTION"),
        ("Não entendi por que o build quebrou.", "QUESTION"),
        ("No entiendo nada, ¿me lo explicas?", "QUESTION"),
        ("No entiendo nada, sigue.", "RESUMPTION"),
    ],
)
def test_a_problem_stated_without_a_question_is_not_a_question(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Found when the model was retrained with the eleventh round's training messages (14t): the
# Japanese negated go written in kana ("つづけないで", or a slip of it, "つぢけないで") matched no
# rule, and the model read it as a go at 88% (over the tenth round's 0.85). The negation's form
# holds in kana as in kanji; the go in kana stays a go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("つづけないで", "OTHER"),
        ("つぢけないで", "OTHER"),
        ("すすめないで", "OTHER"),
        ("まだつづけないでね", "OTHER"),
        ("さいかいしないで", "OTHER"),
        ("つづけるな", "OTHER"),
        ("つづけて", "RESUMPTION"),
        ("つづけないでって言ったけど、もういいよ続けて", "RESUMPTION"),
    ],
)
def test_a_japanese_negated_go_in_kana_holds(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# The clear go (model.CLEAR_GO: a go under the plain threshold, with little OTHER in the message)
# weighs how little the message reads as OTHER, which says nothing of one that asks: a question
# is never OTHER. So a message the rules read as a question is made a go only at the plain
# threshold ("じゃあ再開で大丈夫？" asks whether to go: 72% go, 0.3% OTHER).
@pytest.mark.parametrize("message", ["じゃあ再開で大丈夫？", "じゃあ再開でいいかな？"])
def test_the_clear_go_does_not_make_a_go_of_a_question(message: str) -> None:
    assert classify(message).type == "QUESTION", classify(message)
