"""Issue #45's fifteenth round, the rules for German, Spanish, French and Portuguese
(docs/interruptions.md, "Fifteenth round: the rules (German, Spanish, French, Brazilian
Portuguese)"): families by form, read from the seventeenth batch's misses, each with other ways a
speaker says the same thing and the variants that must stay what they are. New messages, none a
corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A go after praise or a decision: the next piece named "now", or the task's verb alone.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Die Migration hat gut geklappt. Implementieren!", "de-go-onto"),
        ("Schema passt, jetzt noch die Validierung einbauen.", "de-go-onto"),
        ("Der Entwurf gefällt mir, jetzt bitte den Importer angehen.", "de-go-onto"),
        ("Klingt gut, mach jetzt mit dem Importer.", "de-go-onto"),
        ("Ok, die Farben lassen wir so, mach jetzt die Legende.", "de-go-onto"),
        ("La cliente a dit oui pour l'export CSV, tu peux l'implémenter.", "fr-go-onto"),
        ("Le chef a validé le schéma, lance l'implémentation.", "fr-go-onto"),
        ("Dale a tope con el refactor del login.", "es-resumption"),
        ("Bueno, a tope con la migración de usuarios.", "es-go-onto"),
    ],
)
def test_a_go_after_a_decision_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... but denied, asked, put off or waiting for a condition, it is not one
@pytest.mark.parametrize(
    "message",
    [
        "Nicht umsetzen.",
        "Jetzt bitte nicht den Export umsetzen.",
        "Jetzt den Export umsetzen?",
        "Morgen umsetzen.",
        "Erst nach dem Review umsetzen.",
        "Umsetzen, sobald der Kunde zustimmt.",
        "Wir sollten das jetzt umsetzen, oder?",
        "Was heißt umsetzen hier?",
        "Mach jetzt die Kantenliste nicht.",
        "Le client a validé, mais tu ne peux pas le coder avant lundi.",
        "Le client n'a pas encore validé, ne lance pas l'implem.",
        "Tu peux le coder quand le client aura validé.",
        "Tu peux le coder ?",
        "Le client a dit oui pour le champ ISBN.",
        "No vayas a tope con el refactor todavía.",
        "La CPU está a tope con el build.",
        "Depois que o CI passar, segue com o consumer.",
        "Segue com o consumer depois que eu voltar.",
        "Segue depois que o Pedro aprovar o PR.",
    ],
)
def test_a_go_denied_asked_or_waiting_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION"


# A condition already met ("depois que reiniciei") does not hold the go after it.
def test_a_condition_met_in_the_past_does_not_hold_the_go() -> None:
    _check(
        "O build voltou a passar depois que atualizei o node, segue com a tela de login.",
        "RESUMPTION",
        "pt-resumption",
    )


# 2. A stop denied is a go; a step denied "again", "any more", "by no means" is a warning (OTHER,
# a remark: neither a go nor a hold of the go before it).
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Bleib nicht stehen, der Export fehlt noch.", "de-dont-stop"),
        ("Jetzt nicht stehen bleiben, gleich ist es geschafft.", "de-dont-stop"),
        ("Nicht trödeln, die Demo ist um drei.", "de-dont-stop"),
        ("Arrête de tergiverser et termine le formulaire d'inscription.", "fr-nudge"),
        ("Arrêtez de perdre du temps et terminez le module d'export.", "fr-nudge"),
    ],
)
def test_a_stop_denied_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        "Bitte nicht mehr den Cache löschen, das kostet Zeit.",
        "Den Worker bloß nicht neu starten.",
        "Auf keinen Fall wieder den Branch force-pushen.",
        "Den Scheduler bitte nicht wieder anwerfen, die Queue ist voll.",
        "Die Migration nicht nochmal laufen lassen, die Tabelle ist schon umgebaut.",
    ],
)
def test_a_step_denied_again_is_a_warning_not_a_go(message: str) -> None:
    _check(message, "OTHER", "de-warning-remark")


@pytest.mark.parametrize(
    "message",
    [
        "Arrête de tergiverser.",
        "Arrête de coder et termine le rapport.",
        "Der Prozess darf nicht stehen bleiben, wenn der Lock fehlt.",
    ],
)
def test_a_stop_without_a_go_or_said_of_the_code_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION"


# ... a warning after a go does not take the go back; a negated stop is not a warning
@pytest.mark.parametrize(
    "message",
    [
        "Mach weiter, aber nicht wieder den Cache löschen.",
        "Du musst nicht mehr auf mich warten, mach weiter.",
        "Bloß nicht aufhören, mach weiter mit dem Export.",
    ],
)
def test_a_warning_beside_a_go_leaves_the_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# 3. Where the work stands vs how the code behaves.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wann kann ich mir die neue Suche ansehen?", "de-status-where"),
        ("Wann können wir uns das Login-Formular anschauen?", "de-status-where"),
        ("Status beim Export?", "de-status-terse"),
        ("Contame por dónde vas con el importador.", "es-status-work"),
        ("Dime en qué andas, porfa.", "es-status-work"),
        ("¿La rama del login ya tiene dos aprobaciones o sigue en borrador?", "es-status-yesno"),
        ("¿Se compiló bien el instalador o hubo algún error?", "es-status-yesno"),
        ("E a tela de login, avançou?", "pt-status-done"),
        ("O importador já funciona?", "pt-status-done"),
    ],
)
def test_where_the_work_stands_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Le verrou est réentrant ?", "fr-property-question"),
        ("Ce cache est thread-safe ?", "fr-property-question"),
        ("Le parseur est idempotent ?", "fr-property-question"),
        ("La fonction de tri est récursive ?", "fr-property-question"),
        ("Tu es sûr que le cache marche avec deux workers ?", "fr-property-question"),
    ],
)
def test_a_property_of_the_code_asked_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


# ... but the work's own state asked the same way is not a question of this rule
@pytest.mark.parametrize(
    "message",
    [
        "Le déploiement est fini ?",
        "La PR est mergée ?",
        "Le build est stable ?",
        "Le test est passant ?",
        "T'es sûr que le build est passé ?",
    ],
)
def test_the_works_state_asked_is_not_a_property_question(message: str) -> None:
    assert classify(message).rule != "fr-property-question"


# 4. Not knowing why, said, asks nothing.
@pytest.mark.parametrize(
    "message",
    [
        "No sé por qué falla el test de pagos.",
        "Sinceramente no tengo idea de por qué el worker se reinicia.",
        "ni idea de por qué el cache se invalida",
    ],
)
def test_not_knowing_why_said_is_a_remark(message: str) -> None:
    _check(message, "OTHER", "es-wonder-remark")


@pytest.mark.parametrize(
    "message",
    [
        "No sé por qué falla el test, ¿me lo explicas?",
        "¿No sabes por qué falla el test?",
    ],
)
def test_not_knowing_why_asked_is_a_question(message: str) -> None:
    assert classify(message).type == "QUESTION"
