"""Issue #45's twenty-third round, the rules for German and French (docs/interruptions.md,
"Twenty-third round: the rules (German and French)"): each rule written for a kind the
twenty-fifth batch missed in some language, from messages of this round's own in other
wordings, with the near-misses that must stay what they are (holds tested hardest). New
messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


def _rule(message: str) -> str:
    return classify(message).rule


# 3. A go after a step of the agent's own: the base branch brought in first
@pytest.mark.parametrize(
    "message",
    [
        "nach dem Merge von main bitte direkt weiter mit den Migrationen",
        "nach dem Merge mit develop machst du weiter",
        "nach dem Einmergen von origin/master einfach weitermachen",
        "nach dem Reinmergen von trunk gleich weiter",
    ],
)
def test_a_go_after_bringing_in_the_base_branch(message: str) -> None:
    _check(message, "RESUMPTION", "de-go-after-step")


# ... not someone else's merge, nor one not named, nor denied, asked or put off (the worst error)
@pytest.mark.parametrize(
    "message",
    [
        "nach dem Merge von Jonas' PR weiter",
        "nach dem Merge weiter mit dem Export",
        "nach dem Merge von main noch nicht weiter",
        "nach dem Review weiter mit dem Export",
        "nach dem Merge von main weiter, aber erst morgen",
    ],
)
def test_a_go_after_somebody_elses_step_is_held(message: str) -> None:
    _check(message, "OTHER")


def test_a_go_after_the_base_branch_asked_is_no_go() -> None:
    _check("nach dem Merge von main weiter?", "QUESTION")


# A go in Swiss German, alone, asked as "can you" or after a concession
@pytest.mark.parametrize(
    "message",
    [
        "chasch jetz wiitermache mit de Rächnige",
        "chönntsch bitte wiiterschaffe am Login",
        "mach wiiter mit em Export, merci vielmal",
        "guet so, gang wiiter mit de Tests",
        "jetz wiiter mit em Parser bitte",
        "Chasch du wiitermache?",
    ],
)
def test_a_go_in_swiss_german(message: str) -> None:
    _check(message, "RESUMPTION", "de-go-swiss")


# ... never denied in any dialect, put off or "not yet" (the worst error: "mach ned weiter" and
# "nöd wiiter" were gos before this round)
@pytest.mark.parametrize(
    "message",
    [
        "mach nöd wiiter",
        "nöd wiitermache bitte",
        "chasch no nöd wiitermache",
        "nonig wiiter, ich lueg zerscht",
        "mach nümme wiiter",
        "mach ned weiter",
        "ned weiter",
        "bitte net weiter machen, i schau erst",
        "nimmer weiter",
        "wiiter erst morn",
        "wiiter nach em Zmittag",
        "morn chasch wiitermache",
        "spöter chasch wiitermache",
        "chasch am Fritig wiitermache",
        # taken back in the dialect, or only later in a clause of its own
        "mach wiiter. nei, doch nöd",
        "moch weida. naa, doch ned",
        "gang wiiter, nei wart",
        "mach wiiter, aber erst am Mäntig",
        "jetz wiiter, aber erst um 3",
        "mach weiter, aber frühestens am Donnerstag",
    ],
)
def test_a_swiss_or_dialect_go_denied_or_put_off_is_no_go(message: str) -> None:
    _check(message, "OTHER")


# A go to the next step named, after a fact or alone
@pytest.mark.parametrize(
    "message",
    [
        "geh weiter zu Schritt 4",
        "geh zu Punkt 3 über",
        "spring zum nächsten Ticket",
        "wechsle zu Schritt 6",
        "bei mir ist alles grün, geh zu Schritt 7 über",
    ],
)
def test_a_go_to_the_next_step(message: str) -> None:
    _check(message, "RESUMPTION", "de-go-to-step")


@pytest.mark.parametrize(
    "message",
    [
        "geh noch nicht zu Schritt 4",
        "geh morgen zu Schritt 4 über",
        "geh erst nach dem Review zu Schritt 4",
        "spring nicht zum nächsten Ticket",
    ],
)
def test_a_go_to_the_next_step_denied_or_put_off_is_no_go(message: str) -> None:
    _check(message, "OTHER")


def test_a_later_part_of_the_work_named_keeps_the_go() -> None:
    _check("mach weiter, aber erst am Ende die Tests", "RESUMPTION")


def test_a_go_to_the_next_step_asked_is_no_go() -> None:
    assert classify("geh zu Schritt 4?").type != "RESUMPTION"


def test_the_older_go_onto_keeps_its_form() -> None:
    _check("Geh bitte zum nächsten Abschnitt über.", "RESUMPTION", "de-go-onto")


# 1. The state of a protocol object asked, yes or no: an audit
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Gilt der Claim von letzter Woche noch?", "de-audit-state-asked"),
        ("Greift der pre-commit auch in meinem Worktree?", "de-audit-state-asked"),
        ("Hat der Commit-Hook die große Datei abgefangen?", "de-audit-state-asked"),
        ("Hängt die Sperre nach dem Absturz von vorhin noch?", "de-audit-state-asked"),
        ("Sind die Hooks bei dir und bei mir identisch?", "de-audit-state-asked"),
        ("Steckt die Lockdatei vom kill gestern im Repo", "de-audit-state-asked"),
        ("le claim de la semaine dernière est toujours valable ?", "fr-audit-state-asked"),
        ("ta session a survécu à la coupure wifi ?", "fr-audit-state-asked"),
        ("le hook de pre-push tourne aussi dans mon worktree ?", "fr-audit-state-asked"),
        ("le pre-commit a bloqué le binaire de 60 Mo ?", "fr-audit-state-asked"),
        ("les hooks de ton worktree et du mien sont identiques ?", "fr-audit-state-asked"),
        ("le verrou est resté coincé après le crash ?", "fr-audit-state-asked"),
    ],
)
def test_a_protocol_objects_state_asked_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... not how the protocol works, not the app's, not the work on it
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Ist das Journal eigentlich append-only?", "QUESTION"),
        ("Läuft der Hook auch beim Rebase oder nur beim Commit?", "QUESTION"),
        ("Bleibt der Lock erhalten, wenn ich den Rechner neu starte?", "QUESTION"),
        ("Ist der Hook-Test schon grün?", "STATUS_REQUEST"),
        ("les journaux sont en append-only ?", "QUESTION"),
        ("il part où le message d'erreur quand le hook plante ?", "QUESTION"),
        ("t'as déjà écrit le hook de pre-push ?", "STATUS_REQUEST"),
    ],
)
def test_how_the_protocol_works_or_the_work_on_it_is_no_audit(message: str, expected: str) -> None:
    _check(message, expected)


@pytest.mark.parametrize(
    "message",
    [
        "Ist die User-Session nach dem Logout noch gültig?",
        "la session utilisateur est toujours valable après un logout ?",
        "le hook s'exécute toujours avant le push ?",
    ],
)
def test_the_apps_session_or_a_rule_of_the_hook_is_no_state_asked(message: str) -> None:
    assert _rule(message) not in {"de-audit-state-asked", "fr-audit-state-asked"}


# 2. Where the work stands asked as an order to report
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("bring mich mal auf den aktuellen Stand", "de-status-order"),
        ("brief mich kurz", "de-status-order"),
        ("listest du mir die restlichen Baustellen auf", "de-status-order"),
        ("zähl mir die offenen Punkte auf", "de-status-order"),
        ("gib mir nen Rückblick auf deinen Tag", "de-status-order"),
        ("mets-moi au jus", "fr-status-order"),
        ("remets-moi à jour sur l'import", "fr-status-order"),
        ("file-moi un topo de ta matinée", "fr-status-order"),
        ("balance-moi un petit bilan avant que je file", "fr-status-order"),
        ("liste-moi ce qui reste à faire", "fr-status-order"),
        ("envoie-moi un compte rendu de ton avancement", "fr-status-order"),
    ],
)
def test_an_order_to_report_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    "message",
    [
        "liste die offenen Punkte im README auf",
        "bring den Branch auf den neuesten Stand",
        "tiens-moi au courant quand t'as fini",
        "fais-moi un résumé de la doc de l'API",
    ],
)
def test_a_task_or_a_report_later_is_no_order_to_report(message: str) -> None:
    assert _rule(message) not in {"de-status-order", "fr-status-order"}


@pytest.mark.parametrize(
    "message",
    [
        "mach weiter und halt mich auf dem Laufenden",
        "continue et tiens-moi au courant",
        "continue avant que je file",
    ],
)
def test_a_go_with_a_report_or_a_deadline_is_still_a_go(message: str) -> None:
    _check(message, "RESUMPTION")


# the user's own leaving is a deadline, not a hold; a wait for what the user does still holds
@pytest.mark.parametrize(
    "message",
    [
        "ne continue pas avant que je parte",
        "attends avant que j'aie relu",
        "continue, mais pas avant que j'aie relu la PR",
    ],
)
def test_a_go_before_the_user_acts_is_held(message: str) -> None:
    _check(message, "OTHER")


# Where the work stands, supposed for the agent to confirm
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ich nehme an, der Export ist noch nicht fertig", "de-status-supposed"),
        ("ich vermute mal, du hast mit den Rechnungen noch nicht angefangen", "de-status-supposed"),
        ("ich schätze, die Migration läuft schon", "de-status-supposed"),
        ("vermutlich bist du mit dem Parser schon durch", "de-status-supposed"),
        ("du hast die Tests wohl noch nicht angefasst", "de-status-supposed"),
        ("je suppose que t'as pas encore touché aux relances", "fr-status-supposed"),
        ("j'imagine que le module paie est déjà fini", "fr-status-supposed"),
        ("je présume que vous avez pas encore commencé les tests e2e", "fr-status-supposed"),
        ("je parie que t'as toujours pas fini l'export", "fr-status-supposed"),
        ("t'as sûrement déjà bouclé la page de login", "fr-status-supposed"),
    ],
)
def test_a_supposition_on_the_work_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("ich glaube, die Tests sind flaky", "OTHER"),
        ("ich nehme an, du kannst jetzt weitermachen", "RESUMPTION"),
        ("ich vermute, du bist schon fertig, mach mit dem Nächsten weiter", "RESUMPTION"),
        ("j'imagine que c'est plus simple avec un set", "OTHER"),
    ],
)
def test_a_supposition_that_is_no_status(message: str, expected: str) -> None:
    _check(message, expected)


@pytest.mark.parametrize(
    "message",
    [
        "ich vermute, der Lock ist noch nicht freigegeben",
        "je suppose que le verrou est toujours là",
    ],
)
def test_a_supposition_on_the_protocol_is_no_status_of_the_work(message: str) -> None:
    assert _rule(message) not in {"de-status-supposed", "fr-status-supposed"}


# 4. Why, abbreviated, and what a thing the agent named is: the code's question
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("pq tu as choisi sqlite pour les sessions", "fr-question-why-short"),
        ("pkoi un singleton ici", "fr-question-why-short"),
        ("et pq tu passes par redux", "fr-question-why-short"),
        ("prq t'as mis 3 retries", "fr-question-why-short"),
        ("c'est quoi ce pattern dont tu parles ?", "fr-question-mentioned"),
        ("c'est quoi le outbox que t'as mentionné", "fr-question-mentioned"),
        ("tu veux dire quoi par backpressure ?", "fr-question-mentioned"),
        ("was ist dieses Fencing, von dem du geredet hast?", "de-question-mentioned"),
        ("was bedeutet der Begriff, den du vorhin genannt hast?", "de-question-mentioned"),
        ("was meinst du eigentlich mit Backpressure?", "de-question-mentioned"),
    ],
)
def test_why_abbreviated_or_what_was_named_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("pk pas, continue", "RESUMPTION"),
        ("was ist mit dem Export, den du erwähnt hast?", "STATUS_REQUEST"),
        ("c'est quoi l'avancement dont tu parles ?", "STATUS_REQUEST"),
        # a question on the code's content, not a status; a prohibition told, a remark
        ("hast du für die Beträge BigDecimal genommen?", "QUESTION"),
        ("die Lib ist AGPL, die können wir nicht nehmen", "OTHER"),
        ("ce module est sous GPL, on peut pas le prendre", "OTHER"),
    ],
)
def test_near_misses_of_the_questions(message: str, expected: str) -> None:
    _check(message, expected)
