"""Issue #45's seventeenth round, the rules for German and French (docs/interruptions.md,
"Seventeenth round: the rules (German and French)"): each rule written for a kind the nineteenth
batch missed, from messages of this round's own in other wordings, with the near-misses that must
stay what they are (holds tested hardest). New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. An audit asked as a question about the protocol's present state: who, which, how many,
# where and a now; a terse state asked; the object checked, the verb last.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wie viele Worktrees hängen gerade rum?", "de-audit-which"),
        ("wieviele worktrees gibts grade noch", "de-audit-which"),
        ("Welcher Branch hängt jetzt am Worktree vom Importer?", "de-audit-which"),
        ("Wem gehört der Lock gerade?", "de-audit-which"),
        ("Welche Session hält aktuell den Lock?", "de-audit-which"),
        ("wo liegt die lock-datei gerade und ist die noch gültig?", "de-audit-which"),
        ("Wie viele Worktrees sind noch offen?", "de-audit-which"),
        ("Hooks noch aktiv?", "de-audit-terse"),
        ("lock noch da?", "de-audit-terse"),
        ("der pre-commit-hook überhaupt installiert?", "de-audit-terse"),
        ("Lock-Datei anschauen", "de-audit-terse"),
        ("Bitte kurz die Worktrees nachsehen", "de-audit-terse"),
        ("le verrou de la billetterie appartient à quelle session ?", "fr-audit-which"),
        ("combien de worktrees traînent encore sur la machine ?", "fr-audit-which"),
        ("quelle session tient le verrou en ce moment ?", "fr-audit-which"),
        ("le worktree de l'import pointe sur quelle branche ?", "fr-audit-which"),
        ("c'est qui qui a le verrou là ?", "fr-audit-which"),
        ("le hook pre-push a-t-il tourné sur la branche des factures ?", "fr-audit-which"),
        ("est-ce que le hook de lint a été désactivé ?", "fr-audit-now"),
        ("le hook commit-msg est désactivé ?", "fr-audit-now"),
        ("le verrou est libre pour l'instant ?", "fr-audit-now"),
    ],
)
def test_the_protocols_present_state_asked_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... but how it works, what it may hold, or the app's own sessions, mutexes and hooks is a question
@pytest.mark.parametrize(
    "message",
    [
        "Wie viele Worktrees kann man maximal anlegen?",
        "Wie viele Sessions hat ein User gerade?",
        "Welcher Hook läuft bei jedem Commit?",
        "Wo wird der Lock gespeichert?",
        "Wer hält den Mutex im Worker-Thread gerade?",
        "useEffect-Hook aktiv?",
        "quelle session de l'utilisateur reste active après le logout ?",
        "le hook tourne à chaque commit ?",
        "pourquoi le verrou appartient à la session de la CI ?",
    ],
)
def test_how_it_works_or_the_apps_own_is_a_question(message: str) -> None:
    assert classify(message).type == "QUESTION"


@pytest.mark.parametrize(
    "message",
    [
        "combien de temps le verrou reste actif ?",
        "combien de sessions un verrou peut avoir ?",
        "le webhook de Stripe a-t-il tourné ?",
    ],
)
def test_how_long_how_many_may_or_a_webhook_is_no_audit_of_this_rule(message: str) -> None:
    assert classify(message).rule != "fr-audit-which"


# 2. A go after news that lifts a wait, or a check then a go.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Die Freigabe vom Kunden ist da, du bist dran.", "de-go-handover"),
        ("SDK ist angekommen, jetzt bist du wieder dran", "de-go-handover"),
        ("Token liegt drin, kannst weiterlaufen lassen", "de-go-handover"),
        ("Der Review ist durch. Das Ticket gehört jetzt dir.", "de-go-handover"),
        ("Tests grün → go", "de-go-handover"),
        (
            "erst die Journal-Datei prüfen, danach bitte die Abrechnung fertigstellen",
            "de-go-then",
        ),
        ("Schau in den Worktree, anschließend bitte den Export zu Ende bringen.", "de-go-then"),
        ("la maquette est validée, c'est à toi", "fr-go-handover"),
        ("Le client a signé. À toi de jouer.", "fr-go-handover"),
        ("j'ai fini ma relecture, je te rends la main", "fr-go-handover"),
        ("la migration est passée, du coup à toi", "fr-go-handover"),
        ("Reprise validée : les droits sont en place.", "fr-go-handover"),
        ("envoie la suite du matching, j'ai plus de remarques", "fr-go-handover"),
        ("déroule la suite du plan pour l'opérateur", "fr-go-handover"),
        ("tu peux enchaîner la suite", "fr-go-handover"),
        ("rebranche-toi sur la reconnaissance des emballages", "fr-go-handover"),
        ("replonge-toi dans l'export des factures, la revue est ok", "fr-go-handover"),
        ("check le verrou et après tu finis les e-billets", "fr-go-then"),
        ("vérifie les worktrees et puis vous attaquez l'écran de connexion", "fr-go-then"),
    ],
)
def test_a_go_after_news_or_a_check_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... not negated, not asked, not put off, not waiting, not a thanks or another's turn
@pytest.mark.parametrize(
    "message",
    [
        "Du bist noch nicht dran.",
        "Bist du dran?",
        "Du bist erst morgen dran.",
        "Du bist dran, sobald Anna den PR gemergt hat.",
        "Du bist dran schuld, dass der Build rot ist.",
        "Das gehört dir nicht.",
        "Tests grün → kein go",
        "danach bitte nicht die Abrechnung fertigstellen",
        "Die Abrechnung bitte noch nicht fertigstellen.",
        "danach die Abrechnung fertigstellen? nein, erst mal nicht",
        "Dann morgen die Abrechnung fertigstellen.",
        "merci à toi !",
        "c'est à toi de décider",
        "c'est à toi ?",
        "c'est pas à toi, attends",
        "Reprise autorisée demain seulement.",
        "envoie-moi la suite du log",
        "envoie la suite du log d'erreur",
        "ne déroule pas la suite du plan",
        "déroule la suite demain",
        "check le verrou et après tu ne finis pas les e-billets",
        "check le verrou et après tu finis les e-billets ?",
        "check le verrou et après tu finis les e-billets quand Paul aura relu",
        "repose-toi sur le canapé",
    ],
)
def test_the_same_held_denied_or_asked_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION"


# 3. What is left or works yet of the work is a status request; how the code does a thing, a
# question.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Können Sie mir sagen, welche Schritte der Planung noch ausstehen?", "de-status-left"),
        ("Welche Teile der App laufen schon und welche nicht?", "de-status-left"),
        ("welche endpoints funktionieren schon?", "de-status-left"),
        ("was steht noch aus", "de-status-left"),
        ("sag mal, was noch offen ist", "de-status-left"),
        ("Le PV de réception est-il générable depuis l'appli à ce stade ?", "fr-status-stage"),
        ("on peut déjà tester l'export à ce stade ?", "fr-status-stage"),
        ("l'écran de paiement marche pour l'instant ?", "fr-status-stage"),
    ],
)
def test_what_is_left_or_works_yet_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Welche Browser werden noch unterstützt?", "de-question-word"),
        ("pourquoi l'export plante pour l'instant ?", "fr-question"),
        (
            "le matching des trajets se fait sur le détour en km ou en minutes ?",
            "fr-behaviour-question",
        ),
        ("le score est calculé à partir de quoi ?", "fr-behaviour-question"),
        ("les doublons sont filtrés par quel champ ?", "fr-behaviour-question"),
        ("Die Sortierung nach PLZ ist mir unklar.", "de-unclear-question"),
        ("Mir ist nicht ganz klar, warum du den Cache leerst.", "de-why-question"),
        (
            "mach weiter, aber sag mir vorher noch, weshalb der Parser abstürzt",
            "de-why-question",
        ),
        ("weshalb der Import so lange dauert", "de-why-question"),
    ],
)
def test_how_the_code_does_it_or_what_is_unclear_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Warum nicht, mach weiter.", "RESUMPTION"),
        ("Warum machst du nicht weiter?", "RESUMPTION"),
        ("Das ist mir jetzt klar, danke.", "OTHER"),
        ("le build est fait sur la CI ?", "STATUS_REQUEST"),
    ],
)
def test_a_why_then_a_go_or_a_thing_clear_stays(message: str, kind: str) -> None:
    assert classify(message).type == kind


def test_why_not_alone_is_not_a_why_clause() -> None:
    assert classify("Warum eigentlich nicht.").rule != "de-why-question"


# 4. Nothing further, or the completing verb denied, is a hold, not "mach weiter"
@pytest.mark.parametrize(
    "message",
    [
        "Bitte im README noch einen Abschnitt ergänzen, aber mach erst mal nichts weiter am Code.",
        "mach nix mehr weiter heute",
        "Nichts weitermachen, bis ich zurück bin.",
    ],
)
def test_nothing_further_is_a_hold(message: str) -> None:
    _check(message, "OTHER", "de-nothing-further")


@pytest.mark.parametrize(
    "message",
    [
        "danach bitte nicht die Abrechnung fertigstellen",
        "Die Abrechnung bitte noch nicht fertigstellen.",
        "Den Export keinesfalls heute zu Ende bringen.",
    ],
)
def test_the_completing_verb_denied_is_a_hold(message: str) -> None:
    _check(message, "OTHER", "de-not-done")


def test_the_completing_verb_denied_and_asked_is_a_question() -> None:
    _check("Würdest du das nicht zu Ende bringen?", "QUESTION", "question-mark")


# 5. The app's own session asked is never made an audit by the model's second opinion
def test_the_apps_own_session_stays_a_question_whatever_the_model() -> None:
    _check("Ist die Session des Users nach dem Logout noch aktiv?", "QUESTION", "de-question-how")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # back to the work, said "reviens / revenez à X" as "retourne à X" is (fr-go-onto)
        ("C'est mergé, reviens au parser.", "RESUMPTION"),
        ("Bon, revenez aux exports CSV.", "RESUMPTION"),
        # back to an older state, a line, a place in a file: no go
        ("reviens à la version précédente", "OTHER"),
        ("reviens au commit d'avant", "OTHER"),
        ("reviens au début du fichier", "OTHER"),
        ("reviens à la ligne après chaque champ", "OTHER"),
        # denied, later, asked
        ("ne reviens pas au parser", "OTHER"),
        ("reviens au parser demain", "OTHER"),
    ],
)
def test_come_back_to_the_work_is_a_go(message: str, expected: str) -> None:
    got = classify(message)
    assert got.type == expected, got
    if expected == "RESUMPTION":
        assert got.rule == "fr-go-onto", got
