"""Issue #45's sixteenth round, the rules for German and French (docs/interruptions.md,
"Sixteenth round: the rules (German, French)"): families by form, read from the eighteenth
batch's misses, each with other ways a speaker says the same thing and the variants that must
stay what they are. New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A yes/no or who question on a protocol object's state now is an audit.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Ist der Lock vom Importer noch gehalten?", "de-audit-now"),
        ("Ist der pre-push Hook überhaupt installiert?", "de-audit-now"),
        ("Hast du die Session nach dem Absturz wieder freigegeben?", "de-audit-now"),
        ("Gibt es den Worktree für den Export-Branch noch oder ist der weg?", "de-audit-now"),
        ("Wer hält gerade den Lock auf der Rechnungs-Task?", "de-audit-now"),
        ("Sind die alten Sessions von gestern noch offen?", "de-audit-now"),
        ("Laeuft die Sitzung noch oder ist sie beim Reboot gestorben?", "de-audit-now"),
        ("ist das journal von heute morgen korrupt?", "de-audit-now"),
        ("le verrou est encore à toi ou quelqu'un l'a repris ?", "fr-audit-now"),
        ("est-ce que le hook pre-commit est bien installé", "fr-audit-now"),
        ("La session de cette nuit est toujours ouverte ?", "fr-audit-now"),
        ("qui tient le verrou sur la tâche export ?", "fr-audit-now"),
        ("t'es sur que le lock a ete libere apres le plantage ?", "fr-audit-now"),
        ("le worktree du ticket 12 existe toujours ?", "fr-audit-now"),
        ("est ce que la fiche de la tâche agenda est a jour", "fr-audit-now"),
    ],
)
def test_the_protocols_state_asked_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... but how the protocol works, a property, or the app's own locks, sessions and hooks is a
# question of the code
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Ist der Lock reentrant?", "de-question-how"),
        ("Ist die Session des Users nach dem Logout noch aktiv?", "de-question-how"),
        ("Ist der useEffect-Hook noch aktiv nach dem Unmount?", "de-question-how"),
        ("Bleibt die Session im Browser nach einem Reload offen?", "de-question-how"),
        ("Wann läuft der Lock ab?", "de-question-word"),
        ("Wer hält den Mutex im Worker-Thread?", "de-question-word"),
        ("Est-ce que le verrou est libéré quand la session expire ?", "fr-question-whenever"),
        ("Le verrou est atomique ?", "fr-property-question"),
        ("La session de l'utilisateur est encore active après le logout ?", "fr-question-how"),
        ("Quand est-ce que le verrou est libéré ?", "fr-question"),
        ("qui tient le mutex dans le thread de rendu ?", "fr-question"),
    ],
)
def test_how_the_protocol_works_or_the_apps_locks_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        "Läuft der Hook bei jedem Commit oder nur beim Push?",
        "Wird der Lock automatisch freigegeben, wenn der Prozess stirbt?",
        "Le mutex du cache est toujours pris si le thread plante ?",
        "Ist es sicher, den alten Worktree zu löschen?",
        "Pourquoi le verrou est stocké dans le repo ?",
        "Le hook tourne à chaque commit ou seulement au push ?",
        "Est-ce qu'on peut supprimer le vieux worktree sans risque ?",
    ],
)
def test_a_question_on_the_design_is_no_audit(message: str) -> None:
    assert classify(message).type == "QUESTION"


# 2. A go, but first a question or a check: what is asked first decides.
@pytest.mark.parametrize(
    ("message", "kind", "rule"),
    [
        ("mach weiter, aber erklär mir vorher wie der Cache invalidiert wird", "QUESTION", "de"),
        ("mach weiter, aber sag mir erst was der Parser mit leeren Zeilen tut", "QUESTION", "de"),
        ("Weiter so, aber zuerst sag mir warum der Import so langsam ist", "QUESTION", "de"),
        ("mach weiter, aber zuerst prüf, ob der Lock noch uns gehört", "AUDIT", "de"),
        ("Mach ruhig weiter, aber erst mal check den Worktree", "AUDIT", "de"),
        ("mach weiter, aber sag mir vorher ob die Session noch läuft", "AUDIT", "de"),
        ("continue, mais d'abord explique-moi comment marche le cache", "QUESTION", "fr"),
        ("ok continue mais avant dis moi pourquoi le build est si lent", "QUESTION", "fr"),
        ("vas-y, mais explique-moi d'abord le choix du parser", "QUESTION", "fr"),
        ("continue, mais avant tout contrôle le journal", "AUDIT", "fr"),
        ("vas-y, mais vérifie d'abord que le worktree existe", "AUDIT", "fr"),
    ],
)
def test_a_go_but_first_a_question_or_check_is_what_is_asked(
    message: str, kind: str, rule: str
) -> None:
    found = classify(message)
    first = {"QUESTION": "question-first", "AUDIT": "audit-first"}[kind]
    assert (found.type, found.rule) == (kind, f"{rule}-{first}"), found


# ... while a check then the go, or a go with a warning or a hold first, stays what it was
@pytest.mark.parametrize(
    "message",
    [
        "Erst den Lock prüfen, dann weiter.",
        "Schau kurz in den Worktree, danach bitte direkt weiter mit dem Export.",
        "Mach weiter, aber sag mir vorher Bescheid, bevor du pushst.",
        "vérifie le journal, puis continue avec l'export",
    ],
)
def test_a_check_then_the_go_is_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


@pytest.mark.parametrize(
    "message",
    [
        "continue, mais d'abord attends que j'aie relu la PR",
        "ne continue pas, attends mon feu vert",
        "continue demain, mais d'abord repose-toi",
        "Mach nicht weiter, erklär mir erst den Plan.",
        "Warte, sag mir zuerst, was du vorhast.",
    ],
)
def test_a_hold_before_a_question_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION"


# 3. German gos by form: re-entering where the work stopped; a go after a step, the go last.
@pytest.mark.parametrize(
    "message",
    [
        "Du warst beim CSV-Export stehen geblieben, da bitte wieder einsteigen.",
        "Steig wieder beim Parser ein.",
        "Genau da bitte wieder ansetzen.",
        "Schau kurz in den Worktree, danach bitte direkt weiter mit dem Export.",
        "Tests laufen lassen, anschließend gleich weiter mit der Doku.",
    ],
)
def test_reentering_or_going_on_after_a_step_is_a_go(message: str) -> None:
    _check(message, "RESUMPTION", "de-go-reenter")


@pytest.mark.parametrize(
    "message",
    [
        "Da bitte noch nicht wieder einsteigen.",
        "Da erst morgen wieder einsteigen.",
        "Steig da nicht wieder ein.",
        "Danach bitte nicht weiter, ich will erst drüberschauen.",
        "Danach weiter, sobald der Kunde zugestimmt hat.",
        "Dann weiter morgen früh.",
        "Steigst du da wieder ein?",
        "Da bitte wieder einsteigen? Nein, lass erst mal.",
        "Danach weiter? Lieber nicht.",
    ],
)
def test_reentering_denied_put_off_or_asked_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION"


# 4. A why asked of the code (abfangen is no anfangen), and the work's progress
@pytest.mark.parametrize(
    "message",
    [
        "wieso baust du da einen eigenen Parser statt die Lib zu nehmen",
        "warum fängst du den Timeout einfach ab und machst nix",
        "weshalb setzt ihr den Retry auf null",
    ],
)
def test_a_why_asked_of_the_code_is_a_question(message: str) -> None:
    _check(message, "QUESTION", "de-question-first")


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Geht's voran mit dem Export?", "de-status-told"),
        ("Und, geht es gut voran beim Parser?", "de-status-told"),
        ("Sag mal was du bis jetzt am Importer umgesetzt hast.", "de-status-told"),
        ("T'as avancé depuis tout à l'heure sur l'export ?", "fr-status-yesno"),
        ("t'as avance depuis tout a l'heure ou tu bloques ?", "fr-status-yesno"),
    ],
)
def test_the_works_progress_asked_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    "message",
    ["Continue tout à l'heure.", "tu reprendras tout à l'heure", "Reprends demain, pas avant."],
)
def test_a_go_put_off_till_later_is_still_held(message: str) -> None:
    assert classify(message).type == "OTHER"


# 5. French remarks that ask nothing: a judgement of the work, a reviewer to add
@pytest.mark.parametrize(
    "message",
    [
        "franchement c'est pas top ce que t'as fait sur le menu",
        "honnêtement c'est moyen ce que vous avez fait sur la page d'accueil",
        "ajoute Marc comme relecteur sur la PR de l'import",
        "rajoute-moi Inès en reviewer sur la PR des factures",
    ],
)
def test_a_judgement_or_a_reviewer_to_add_is_a_remark(message: str) -> None:
    _check(message, "OTHER", "fr-feedback-remark")


def test_a_judgement_then_a_go_is_a_go() -> None:
    found = classify("c'est pas terrible ce que t'as fait sur le CSS, reprends-le et continue")
    assert found.type == "RESUMPTION"
