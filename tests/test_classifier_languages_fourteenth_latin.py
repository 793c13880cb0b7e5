"""Issue #45's fourteenth round, the rules for German, Spanish, French and Portuguese
(docs/interruptions.md, "Fourteenth round: the rules (German, Spanish, French, Brazilian
Portuguese (and English for one shared form))"): families by form, read from the fifteenth and
sixteenth batches' misses, each with other ways a speaker says the same thing and the variants
that must stay what they are. New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A go after "wait until X": the go waits for an event, so it is a hold (OTHER).
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Warte, bis die CI grün ist, dann mach weiter.", "de-later"),
        ("Wartet, bis der Merge durch ist, dann weiter mit den Tests.", "de-later"),
        ("Warte kurz, bis Tom das Schema freigibt, dann setz fort.", "de-later"),
        ("Warten Sie bitte, bis der Kunde zugestimmt hat, dann fahren Sie fort.", "de-later"),
        ("espera a que termine el CI y luego sigue", "es-later"),
        ("Espera a que Ana apruebe el PR, después continúa.", "es-later"),
        ("Attends que la CI soit verte, puis continue.", "fr-later"),
        ("Attendez la fin du déploiement, puis reprenez.", "fr-later"),
        ("Attends un peu que Marc valide, ensuite continue.", "fr-later"),
        ("Espera o CI passar e depois continua.", "pt-later"),
        ("Aguarde até o deploy terminar e então prossiga.", "pt-later"),
    ],
)
def test_a_go_after_waiting_for_an_event_is_held(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


# ... but the agent's own step first, or "until" said of the work itself, is still a go
@pytest.mark.parametrize(
    "message",
    [
        "Prüf die Logs, dann mach weiter.",
        "Schau erst, ob der Build grün ist, dann mach weiter.",
        "Mach weiter, bis alles grün ist.",
        "Bis jetzt gut, mach weiter.",
        "Revisa los logs y luego sigue.",
        "Vérifie les logs, puis continue.",
        "Confere os logs e depois continua.",
    ],
)
def test_a_step_of_the_agents_own_before_the_go_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# 2. German: the go said as a noun and denied ("Weitermachen ist nicht ...") is a negated go.
@pytest.mark.parametrize(
    "message",
    [
        "Weitermachen ist nicht, der Build ist seit deinem Commit rot.",
        "Weiterarbeiten ist gerade nicht drin, der Server brennt.",
        "Fortfahren kommt nicht in Frage, erst reden wir.",
        "Weiter machen is nich, die Tests sind kaputt.",
    ],
)
def test_a_german_go_said_as_a_noun_and_denied_is_not_a_go(message: str) -> None:
    _check(message, "OTHER", "de-negated-resumption")


def test_a_german_go_said_as_a_noun_and_allowed_is_a_go() -> None:
    assert classify("Weitermachen ist okay, danke.").type == "RESUMPTION"


# 3. Portuguese: a yes/no question about the work named before it ("E a X, saiu?") or whether it
# ships today asks for its status.
@pytest.mark.parametrize(
    "message",
    [
        "E os testes de integração, passaram todos?",
        "A tela de cadastro, terminaram?",
        "E a migração dos clientes, rodou certinho?",
        "o build de hoje, passou?",
        "o hotfix sai ainda hoje?",
        "A tela nova fica pronta amanhã?",
        "E o PR, sai hoje?",
    ],
)
def test_a_portuguese_yes_no_question_about_the_work_asks_its_status(message: str) -> None:
    _check(message, "STATUS_REQUEST", "pt-status-done")


# ... not a question about how the code behaves, nor "did you get it?"
@pytest.mark.parametrize(
    "message",
    [
        "o parser sai da função quando acha erro?",
        "Eu mudei o layout, entendeu?",
    ],
)
def test_a_portuguese_question_about_behaviour_is_not_the_status_rule(message: str) -> None:
    assert classify(message).rule != "pt-status-done"


# 4. A go said with an idiom the tables lacked, as a clause of its own after a remark: German
# "ab zum nächsten X", "nimm dir X vor", "schieß los"; French "déroule", "repars".
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Gut, ab zur nächsten Aufgabe.", "de-go-onto"),
        ("Der Login sieht gut aus, nimm dir jetzt die Registrierung vor.", "de-go-onto"),
        ("Nimm dir als Nächstes den CSV-Export vor.", "de-go-onto"),
        ("Alles klar, schieß los.", "de-go-onto"),
        ("Schieß los mit den Migrationen.", "de-go-onto"),
        ("Le plan me va, déroule.", "fr-go-onto"),
        ("Bon, c'est réparé, repars.", "fr-go-onto"),
        ("Le plan me va, vous pouvez repartir.", "fr-go-onto"),
    ],
)
def test_a_go_said_with_a_new_idiom_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... and not when negated or asked
@pytest.mark.parametrize(
    "message",
    [
        "Nimm dir nicht den Export vor.",
        "Schieß los, was hast du gefunden?",
        "Ne repars pas tout de suite.",
        "Déroule ?",
    ],
)
def test_the_new_idioms_negated_or_asked_are_not_gos(message: str) -> None:
    assert classify(message).type != "RESUMPTION"
