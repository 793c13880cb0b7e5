"""#45's eighteenth round, the lead's mends by form after the twentieth batch was made data: what
the protocol does whenever an event happens is a question however sure the model is of an audit
(French fr-question-whenever, Chinese zh-question-what-happens, both in languages.firm);
an event that happened, or a check asked, is still read as before."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Est-ce que le verrou est libéré quand la session expire ?", "fr-question-whenever"),
        ("le worktree est supprimé dès que la tâche est fusionnée ?", "fr-question-whenever"),
        ("Le journal est mis à jour chaque fois qu'on fait un commit ?", "fr-question-whenever"),
        ("le hook se déclenche aussi lorsque je fais un rebase ?", "fr-question-whenever"),
        ("worktree 删掉之后 journal 会怎样", "zh-question-what-happens"),
        ("session 结束以后 lock 会怎么样？", "zh-question-what-happens"),
        ("钩子被禁用了的话会发生什么", "zh-question-what-happens"),
    ],
)
def test_what_the_protocol_does_whenever_an_event_happens_is_a_question(
    message: str, rule: str
) -> None:
    found = classify(message)
    assert (found.type, found.rule) == ("QUESTION", rule), found


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # an event that happened, a check asked whether, a state now: not how it works
        (
            "Est-ce que ta session a bien relâché le lock quand t'as crashé tout à l'heure ?",
            "AUDIT",
        ),
        ("Tu peux checker s'il traîne encore un lock de la nuit passée ?", "AUDIT"),
        (
            "tu peux lister les worktrees ouverts et me dire s'ils correspondent bien à la tâche ?",
            "AUDIT",
        ),
        ("Le lock actuel est valable jusqu'à quand ?", "AUDIT"),
        ("锁会不会已经过期了", "AUDIT"),
        ("锁过期了吗？", "AUDIT"),
    ],
)
def test_an_event_that_happened_or_a_check_is_read_as_before(message: str, expected: str) -> None:
    found = classify(message)
    assert found.type == expected, found
    assert found.rule not in ("fr-question-whenever", "zh-question-what-happens"), found


# After the eighteenth round's training messages the model read a step told done as a go, a
# denied "go" as a go, how the code behaves as where the work stands, and a count so far as
# nothing asked: each form is now read whole, and the model does not change its reading
# (languages.firm; "go" denied: languages.holds)
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("我把对账写完了", "OTHER", "zh-told-done"),
        ("我们已经把导出做好了", "OTHER", "zh-told-done"),
        ("你把对账写完了吧？", "OTHER", "zh-told-done"),
        ("日志传给你了", "OTHER", "zh-told-done"),
        ("那个 join 走全表了吗", "QUESTION", "zh-behaviour-question"),
        ("A atualização vai quebrar os testes do Tiago?", "QUESTION", "pt-effect-question"),
        ("用例过了几条", "STATUS_REQUEST", "zh-status-counted"),
        ("迁移脚本跑了几个了", "STATUS_REQUEST", "zh-status-counted"),
    ],
)
def test_a_form_read_whole_is_not_changed_by_the_model(
    message: str, expected: str, rule: str
) -> None:
    found = classify(message)
    assert (found.type, found.rule) == (expected, rule), found


@pytest.mark.parametrize(
    "message",
    ["Tests grün → kein go", "no go for today", "pas de go pour l'instant", "sin go todavía"],
)
def test_go_itself_denied_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the imperative, a go word beside "go", a go after a denied "go" taken back
        ("把对账写完", "RESUMPTION"),
        ("交给你了", "RESUMPTION"),
        ("Good to go, weiter", "RESUMPTION"),
        ("对账写完了吗", "STATUS_REQUEST"),
    ],
)
def test_the_near_forms_are_read_as_before(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# A go verb denied inside its own words, which the retrained model read as a go at 0.86-0.88: a
# negated go (de-go-denied, fr-go-denied, languages/firm.py); the go itself is read as before
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("setz die Arbeit an der neuen Suche nicht fort", "OTHER"),
        ("fahr damit bloß nicht fort", "OTHER"),
        ("va pas jusqu'au bout", "OTHER"),
        ("ne mène pas la migration à terme", "OTHER"),
        ("Setz die Arbeit an der Suche fort", "RESUMPTION"),
        ("va jusqu'au bout", "RESUMPTION"),
        ("mène la migration à terme", "RESUMPTION"),
    ],
)
def test_a_go_verb_denied_inside_its_words_is_no_go(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)
