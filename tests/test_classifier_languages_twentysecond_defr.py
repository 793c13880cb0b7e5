"""Issue #45's twenty-second round, the rules for German and French (docs/interruptions.md,
"Twenty-second round: the rules (German and French)"): each rule written for a kind the
twenty-fourth batch missed in some language, from messages of this round's own in other
wordings, with the near-misses that must stay what they are (holds tested hardest). New
messages, none a corpus row."""

from __future__ import annotations

import pytest

from tests.classify_reads import reads as _check


# 1. A go in dialect, alone or after a concession or a decision
@pytest.mark.parametrize(
    "message",
    [
        "passt scho, mach weida",
        "basst scho, weida gehts",
        "guad, weida",
        "na dann weida mit de Tests",
        "des passt so, weider",
        "moch weida",
        "Entschieden, wir nehmen Postgres. weida!",
        "jo mei, dann mach ma halt weida mit dem Import",
        "ok weita",
        "weidamacha bitte",
    ],
)
def test_a_go_in_dialect(message: str) -> None:
    _check(message, "RESUMPTION", "de-go-dialect")


# ... never denied in dialect, put off, on a condition, or asked (the worst error)
@pytest.mark.parametrize(
    "message",
    [
        "passt scho, aber ned weida",
        "ned weida",
        "moch ned weida",
        "mach net weida, i schau erst drüber",
        "nimmer weida",
        "weida erst morgen",
        "morgen weida",
        "weida, wenn die CI grün is",
        "moch weida nach dem Meeting",
        "in ner Stunde weida",
        "passt scho, aber erst nach der Mittagspause weida",
    ],
)
def test_a_dialect_go_held_or_denied_is_no_go(message: str) -> None:
    _check(message, "OTHER")


def test_a_dialect_go_asked_is_no_go() -> None:
    _check("weida?", "QUESTION")


# A span of time ahead holds a go: "in ner halben Stunde", "in 'nem Tag", and the user back then
@pytest.mark.parametrize(
    "message",
    [
        "in ner Stunde kannst du weitermachen",
        "in 'ner halben Stunde darfst du weiter",
        "in nem Tag machst du mit dem Export weiter",
        "in ca. 20 Minuten kannst du fortfahren",
        "in zehn Minuten bin ich zurück, dann weiter",
        "in zwei Stunden bin ich wieder da, dann mach weiter",
        "in den nächsten Tagen kannst du loslegen",
        "in ner Viertelstunde darfst du weitermachen",
    ],
)
def test_a_go_after_a_span_of_time_is_held(message: str) -> None:
    _check(message, "OTHER")


@pytest.mark.parametrize(
    "message",
    [
        "mach weiter, die Demo ist in zwei Stunden",
        "mach weiter, in einer Stunde muss es laufen",
    ],
)
def test_a_span_told_as_a_reason_keeps_the_go(message: str) -> None:
    _check(message, "RESUMPTION")


# French: a go on a condition not yet met, somebody else's or an event's, is held
@pytest.mark.parametrize(
    "message",
    [
        "si le client valide la maquette, continue",
        "si les tests passent, enchaîne",
        "si la PO dit oui, alors tu poursuis",
        "s'ils valident le devis, continue",
        "continue si le build passe",
        "reprends l'import si la migration est validée",
        "si quelqu'un relit la PR, vas-y continue",
        "Si ma collègue valide, alors reprends",
    ],
)
def test_a_go_on_a_condition_is_held(message: str) -> None:
    _check(message, "OTHER")


# ... but a courtesy, a need, "please", a "yes" and a concession keep the go
@pytest.mark.parametrize(
    "message",
    [
        "si tu veux, continue",
        "si besoin, continue",
        "si possible, continue",
        "s'il te plaît, continue",
        "si, continue",
        "même si le build est lent, continue",
        "vérifie si le lock est libre puis continue",
        "continue et si le build casse préviens-moi",
        "continue, si le cœur t'en dit",
    ],
)
def test_a_courtesy_or_a_concession_keeps_the_go(message: str) -> None:
    _check(message, "RESUMPTION")


# A go asked about in the indicative is no go: it asks what comes next
@pytest.mark.parametrize(
    "message",
    [
        "et ensuite tu continues ?",
        "bon, vous poursuivez le module facturation ?",
        "là tu enchaînes sur les exports ?",
        "et après ça tu reprends la refonte ?",
        "du coup tu continues sur le back ?",
        "ensuite vous reprenez le parser ?",
    ],
)
def test_a_go_asked_in_the_indicative_is_a_question(message: str) -> None:
    _check(message, "QUESTION", "fr-go-asked-plan")


@pytest.mark.parametrize("message", ["tu continues stp ?", "tu peux continuer ?"])
def test_a_go_requested_is_not_read_as_asked_about(message: str) -> None:
    found = _rule(message)
    assert found != "fr-go-asked-plan", (message, found)


# 3. An audit asked casually: whose a protocol object is, how old it is
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ich seh ne index.lock in .git, ist das deine?", "de-audit-whose"),
        ("da liegt ein Lock im Repo, ist der von dir?", "de-audit-whose"),
        ("gehört die Lockdatei etwa dir?", "de-audit-whose"),
        ("der worktree unter /tmp, ist das deiner", "de-audit-whose"),
        ("wie alt ist die Lockdatei?", "de-audit-age"),
        ("von wann ist der Lock?", "de-audit-age"),
        ("aus wann ist der Lock im Repo?", "de-audit-age"),
        ("y a un verrou dans .git, c'est le tien ?", "fr-audit-whose"),
        ("ce worktree dans /tmp c'est bien le tien", "fr-audit-whose"),
        ("ce worktree, c'est toi qui l'as laissé", "fr-audit-whose"),
        ("ce lock t'appartient ?", "fr-audit-whose"),
        ("il date de quand ce lock ?", "fr-audit-age"),
        ("le verrou a quel âge", "fr-audit-age"),
        ("depuis quand le verrou est posé ?", "fr-audit-age"),
        ("les claims datent de quand ?", "fr-audit-age"),
    ],
)
def test_whose_or_how_old_a_protocol_object_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    "message",
    [
        "ist das deine Meinung?",
        "wie alt ist die Datenbank-Session eines Users?",
        "c'est le tien, ce script ?",
        "la maquette est validée, c'est à toi",
        "il date de quand ce ticket ?",
        "le mutex de l'api, il date de quand ?",
    ],
)
def test_not_a_protocol_object_is_no_casual_audit(message: str) -> None:
    assert _rule(message) not in {"de-audit-whose", "de-audit-age", "fr-audit-whose"}
    assert _rule(message) != "fr-audit-age"


# 2. A recap of what the agent changed is a status request
@pytest.mark.parametrize(
    "message",
    [
        "mach mal ne Zusammenfassung von allem, was du bisher geändert hast",
        "gib mir ne Liste, was du heute gemacht hast",
        "Fass bitte deine bisherigen Änderungen zusammen",
        "kurzer Rückblick auf deine Commits bis jetzt, bitte",
        "eine Übersicht über eure Arbeit bisher wäre gut",
    ],
)
def test_a_recap_of_the_work_is_a_status_request(message: str) -> None:
    _check(message, "STATUS_REQUEST", "de-status-recap")


@pytest.mark.parametrize(
    "message",
    ["mach mal ne Zusammenfassung vom RFC", "fass den Artikel zusammen"],
)
def test_a_summary_of_a_text_is_no_recap(message: str) -> None:
    assert _rule(message) != "de-status-recap"


def test_a_go_on_what_was_begun_is_still_a_go() -> None:
    _check("mach weiter, was du angefangen hast", "RESUMPTION")


# 4. An indirect question is a question; a complaint and a fact about the code are remarks
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ich hab Zweifel, ob die Zeitzone richtig behandelt wird", "de-doubt-question"),
        ("hab da so meine Zweifel, dass der Cache invalidiert wird", "de-doubt-question"),
        ("ich zweifle daran, dass der Retry greift", "de-doubt-question"),
        ("ich möchte die Logik hinter dem Cache verstehen", "de-doubt-question"),
        ("ich will den Algorithmus für die Rabatte nachvollziehen", "de-doubt-question"),
        ("j'ai un doute que le fuseau soit bien géré", "fr-doubt-question"),
        ("j'ai des doutes si l'arrondi est correct", "fr-doubt-question"),
        ("je doute que le cache soit invalidé", "fr-doubt-question"),
        ("je voudrais comprendre la logique du cache", "fr-doubt-question"),
        ("j'aimerais bien piger le calcul des remises", "fr-doubt-question"),
        ("j'aimerais mieux comprendre la table de jointure", "fr-doubt-question"),
    ],
)
def test_a_doubt_or_a_wish_to_understand_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        "Pas maintenant, j'ai un doute sur le schéma.",
        "attends, j'ai un doute",
        "Stopp, ich hab Zweifel an dem Plan.",
    ],
)
def test_a_hold_with_its_doubt_stays_a_hold(message: str) -> None:
    _check(message, "OTHER")


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("mich nervt, dass du kunde und customer im selben Modell mischst", "de-complaint-remark"),
        ("es stört mich, dass du die Tests so benennst", "de-complaint-remark"),
        ("ça m'agace que tu mélanges client et customer", "fr-complaint-remark"),
        ("ce qui me gêne c'est les noms en franglais", "fr-complaint-remark"),
        ("die Methode continueImport() wird nirgends verwendet", "de-code-fact-remark"),
        ("die Variable resumeToken wird nie gesetzt.", "de-code-fact-remark"),
        ("Der Handler weiterLeiten ist nie erreicht worden", "de-code-fact-remark"),
        ("la fonction reprendreApresCoupure() n'est jamais appelée", "fr-code-fact-remark"),
        ("la méthode `continueUpload` n'est appelée nulle part", "fr-code-fact-remark"),
        ("le paramètre resumeFrom n'est plus utilisé", "fr-code-fact-remark"),
    ],
)
def test_a_complaint_or_a_fact_about_the_code_is_a_remark(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("wird die Funktion weiterMachen() überhaupt aufgerufen?", "QUESTION"),
        ("der Lock wird nie freigegeben, schau mal nach", "AUDIT"),
        ("mich nervt, dass du fragst, mach einfach weiter", "RESUMPTION"),
        ("ça m'agace que tu t'arrêtes, continue", "RESUMPTION"),
        ("merci pour l'explication, maintenant enchaîne sur les tests", "RESUMPTION"),
        ("danke für die Erklärung, jetzt weiter mit dem Treiber", "RESUMPTION"),
    ],
)
def test_near_misses_of_the_remarks(message: str, expected: str) -> None:
    _check(message, expected)


def _rule(message: str) -> str:
    from taskproto.classify.interruptions import classify

    return classify(message).rule
