"""Issue #45's twentieth round, the rules for German and French (docs/interruptions.md,
"Twentieth round: the rules (German and French)"): each rule written for a kind the
twenty-second batch missed in some language, from messages of this round's own in other wordings,
with the near-misses that must stay what they are (holds tested hardest). New messages, none a
corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A status asked as when the user gets a piece of the work, as one to be sent, as a bare
# "done?", as the state of a piece of the work or as a percentage
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wann kann ich mit der ersten Version vom Tarifrechner rechnen?", "de-status-when"),
        ("wann krieg ich den ersten Stand vom Importer?", "de-status-when"),
        ("wann kann ich ungefähr mit nem Prototyp der Buchung rechnen", "de-status-when"),
        ("Ab wann kann ich die Beta vom Kalender erwarten?", "de-status-when"),
        ("wann bekomme ich denn den Entwurf fuer die Startseite", "de-status-when"),
        ("Bis wann ist das Mahnwesen fertig?", "de-status-when"),
        ("kannst du mir einen Status zum Mahnlauf schicken?", "de-status-send"),
        ("Könntest du mir kurz nen Zwischenstand zur Suche senden", "de-status-send"),
        ("und, fertig?", "de-status-bare"),
        ("na, schon gemerged?", "de-status-bare"),
        (
            "Quand est-ce que je peux compter sur une première version du calcul des primes ?",
            "fr-status-when",
        ),
        ("je peux espérer une première maquette de l'agenda pour quand ?", "fr-status-when"),
        ("quand est-ce que j'aurai le premier jet de l'export comptable", "fr-status-when"),
        ("quand est-ce qu'on aura la demo du planning ?", "fr-status-when"),
        ("c'est prévu pour quand ?", "fr-status-when"),
        ("tu pourrais m'envoyer un point sur le module de facturation ?", "fr-status-send"),
        ("Pouvez-vous me faire un bref compte rendu sur l'import ?", "fr-status-send"),
        ("donne-moi juste le pourcentage d'avancement", "fr-status-send"),
        ("alors, fini ?", "fr-status-bare"),
        ("déjà mergé ?", "fr-status-bare"),
        (
            "Was muss noch passieren, bevor du den Export ausliefern kannst?",
            "de-status-still-needed",
        ),
        ("was fehlt dir denn noch, damit du mergen kannst", "de-status-still-needed"),
        (
            "Qu'est-ce qui doit encore se passer avant que tu puisses livrer l'export ?",
            "fr-status-still-needed",
        ),
        ("qu'est-ce qu'il te faut encore pour merger la branche ?", "fr-status-still-needed"),
        ("Quel est l'état actuel de la migration des comptes ?", "fr-status-state-of"),
        ("quel est l'etat d'avancement du module de paie ?", "fr-status-state-of"),
    ],
)
def test_a_status_asked_by_when_sent_or_bare(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


# ... but not when the user may act, the code's behaviour, a status code, or the protocol's state
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Wann bekomme ich eine Fehlermeldung, wenn das Feld leer ist?", "QUESTION"),
        ("kannst du mir den Status-Code erklären?", "QUESTION"),
        ("quel est l'état du verrou ?", "QUESTION"),
        ("continue, quand on aura la release", "OTHER"),
        ("Was muss passieren, damit der Lock freigegeben wird?", "QUESTION"),
    ],
)
def test_when_of_no_work_is_no_status(message: str, kind: str) -> None:
    _check(message, kind)


def test_the_lock_state_sent_is_no_status_rule() -> None:
    assert classify("tu peux m'envoyer l'état du verrou ?").rule != "fr-status-send"


# 2. A go after a decision or an approval, as the task's own verb: ship it, do what is missing,
# do what was planned, back onto a piece of the work, back to work after a question
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Die Freigabe ist durch, deploy es.", "de-go-ship"),
        ("ok, merge es jetzt", "de-go-ship"),
        ("Abnahme ist da. Liefer es aus", "de-go-ship"),
        ("schreib die fehlenden Tests für den ETL-Job", "de-go-missing"),
        ("bau den Rest vom Export", "de-go-missing"),
        ("implementier alles, was noch fehlt", "de-go-missing"),
        ("dann ergänz die restlichen Felder im Formular", "de-go-missing"),
        (
            "Sag mir kurz, ob der Lock noch da ist, dann kannst du wieder an die Arbeit",
            "de-go-back",
        ),
        ("zurück an die Arbeit", "de-go-back"),
        ("mach das, was du geplant hattest", "de-go-planned"),
        ("la validation est passée, déploie-le", "fr-go-ship"),
        ("livre-la maintenant", "fr-go-ship"),
        ("Implémente ce qui manque de la planification par zone.", "fr-go-missing"),
        ("écris les tests qui manquent pour l'ETL", "fr-go-missing"),
        ("code les écrans restants", "fr-go-missing"),
        ("ajoute ce qu'il manque au formulaire", "fr-go-missing"),
        ("Fais ce qui était prévu pour le tableau de bord.", "fr-go-planned"),
        ("fais ce que t'avais prévu sur les exports", "fr-go-planned"),
        ("bon, attaque ce qu'on avait decide pour la recherche", "fr-go-planned"),
        ("la démo est passée, reviens sur l'écran de paiement", "fr-go-back-onto"),
        ("retourne sur l'import des adhérents", "fr-go-back-onto"),
        ("du coup reviens sur le tri des factures", "fr-go-back-onto"),
        (
            "dis-moi si la session tourne encore, et après reprends où t'en étais",
            "fr-go-after-that",
        ),
        ("regarde le journal, et après tu reprends", "fr-go-after-that"),
    ],
)
def test_a_go_as_the_tasks_own_verb(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... but not denied, put off, on a condition, asked, or on an answer or a version
@pytest.mark.parametrize(
    "message",
    [
        "deploy es nicht",
        "deploy es morgen",
        "deploy es, wenn die CI grün ist",
        "schreib die fehlenden Tests nicht",
        "schreib die fehlenden Tests nach dem Meeting",
        "die fehlenden Tests sind das Problem",
        "du kannst noch nicht wieder an die Arbeit",
        "ne le déploie pas",
        "déploie-le demain",
        "n'écris pas les tests qui manquent",
        "écris les tests qui manquent demain",
        "les tests qui manquent sont dans le ticket",
        "fais ce que tu veux",
        "ne fais pas ce qui était prévu",
        "reviens à la version précédente du parser",
        "reviens sur ce que tu as dit",
        "ne reviens pas sur l'écran de paiement",
        "et après, reprends demain",
    ],
)
def test_a_go_held_is_no_go(message: str) -> None:
    _check(message, "OTHER")


@pytest.mark.parametrize(
    "message",
    [
        "deployst du es?",
        "schreibst du die fehlenden Tests?",
        "tu le déploies ?",
        "tu écris les tests qui manquent ?",
        "et après tu reprends ?",
        "reviens sur ta dernière réponse, je comprends pas",
        "déploie-le quand la CI est verte",
    ],
)
def test_a_go_asked_or_on_a_condition_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", message


# 3. An audit about a past protocol event, and one said to "du"
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wurde der Lock sauber freigegeben, als du pausiert hast?", "de-audit-past"),
        ("Ist der post-checkout-Hook gelaufen, als du den Branch angelegt hast?", "de-audit-past"),
        ("hat der pre-commit-hook beim letzten commit eigentlich gegriffen?", "de-audit-past"),
        ("Wurde der Worktree nach dem Merge entfernt?", "de-audit-past"),
        ("Jetzt prüfst du den Lock", "de-audit-you"),
        ("zuerst auditierst du den ganzen Branch", "de-audit-you"),
        ("Le verrou a bien été relâché quand tu t'es arrêté ?", "fr-audit-past"),
        (
            "le hook pre-commit s'est bien déclenché quand t'as fait le dernier commit ?",
            "fr-audit-past",
        ),
        ("la session a ete fermee correctement quand vous avez quitte ?", "fr-audit-past"),
        ("le worktree a été supprimé proprement au moment où t'as fini ?", "fr-audit-past"),
    ],
)
def test_a_past_protocol_event_asked_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... but how it works whenever the event happens, the app's own, or why, are questions
@pytest.mark.parametrize(
    "message",
    [
        "Wird der Lock freigegeben, wenn die Session abläuft?",
        "Wurde die Session des Users beim Logout beendet?",
        "Warum wurde der Lock nicht freigegeben, als du pausiert hast?",
        "le verrou est libéré quand la session expire ?",
        "le verrou est libéré quand tu mets en pause ?",
        "pourquoi le verrou a pas été libéré quand t'as crashé ?",
    ],
)
def test_how_it_works_or_why_is_a_question(message: str) -> None:
    _check(message, "QUESTION")


# 4. A question on the code: a wonder whether "we should", what a command or an upgrade does, a
# threshold of the protocol, where a thing comes from "in your opinion", what a change changed
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Ich frage mich, ob wir die Preise nicht lieber in Cent speichern sollten",
            "de-wonder-should-question",
        ),
        (
            "ich frag mich ob man den Cache besser pro Mandant anlegen sollte",
            "de-wonder-should-question",
        ),
        ("Löscht git worktree prune auch den Lock?", "de-command-question"),
        ("räumt der doctor auch verwaiste Worktrees weg?", "de-command-question"),
        (
            "Wie lange darf der Heartbeat ausbleiben, bevor die Session als tot gilt?",
            "de-threshold-question",
        ),
        (
            "je me demande si on devrait pas stocker les durées en millisecondes",
            "fr-wonder-should-question",
        ),
        (
            "je me demandais si on ferait pas mieux de paginer cote serveur",
            "fr-wonder-should-question",
        ),
        ("est-ce que passer à Spring Boot 3 casse le client mobile ?", "fr-command-question"),
        ("Est-ce que git gc supprime aussi les worktrees orphelins ?", "fr-command-question"),
        ("la mise a jour de Postgres ecrase les index ?", "fr-command-question"),
        (
            "Combien de temps un lock peut rester pris avant d'être considéré comme périmé ?",
            "fr-threshold-question",
        ),
        ("au bout de combien de temps une session doit expirer ?", "fr-threshold-question"),
        (
            "La lenteur sur la page des commandes, elle vient d'où selon toi ?",
            "fr-opinion-question",
        ),
        ("d'où sort ce warning ?", "fr-opinion-question"),
        ("le timeout sur l'export, c'est le proxy à ton avis ?", "fr-opinion-question"),
        ("qu'est-ce qu'il a changé ce dernier commit, dis-le en deux mots", "fr-change-question"),
        ("qu'est-ce que la PR de Paul a modifié dans le routing", "fr-change-question"),
    ],
)
def test_a_question_on_the_code(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


# ... but a wonder on stopping or going on is no question, a command's effect now is the
# protocol's state, the work's progress "in your opinion" and what you changed are status requests
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("ich frag mich, ob wir nicht lieber aufhören sollten", "OTHER"),
        ("ich frage mich, ob wir besser morgen weitermachen sollten", "OTHER"),
        ("je me demande si on devrait pas arrêter là", "OTHER"),
        ("t'as fini quand à ton avis ?", "STATUS_REQUEST"),
        ("qu'est-ce que t'as changé ?", "STATUS_REQUEST"),
        ("Wie lange brauchst du denn noch für den Export?", "STATUS_REQUEST"),
        ("combien de temps il te faut encore ?", "STATUS_REQUEST"),
    ],
)
def test_near_misses_of_the_code_question(message: str, kind: str) -> None:
    _check(message, kind)


@pytest.mark.parametrize(
    "message",
    ["Löscht git worktree prune gerade den Lock?", "le cron tue encore la session ?"],
)
def test_a_command_now_is_no_command_question(message: str) -> None:
    assert classify(message).rule not in {"de-command-question", "fr-command-question"}


# 5. Never a go: a wait kept up, a go taken back, an order to mark the task
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        (
            "Die Freigabe kam, aber von der falschen Abteilung, also weiter warten",
            "de-hold-waiting",
        ),
        ("wir müssen weiterhin abwarten", "de-hold-waiting"),
        ("Ok. Dann weiter die Füße stillhalten und weiter warten", "de-hold-waiting"),
        ("mach weiter... nee, doch weiter warten", "de-hold-waiting"),
        (
            "la validation est arrivée mais du mauvais service, donc continue d'attendre",
            "fr-hold-waiting",
        ),
        ("continue à attendre le retour de Paul", "fr-hold-waiting"),
        ("on continue d'attendre la recette", "fr-hold-waiting"),
        ("continue a patienter stp", "fr-hold-waiting"),
        ("markier den Task als erledigt", "de-mark-remark"),
        ("setz die Aufgabe auf blockiert", "de-mark-remark"),
        ("marque la tâche comme terminée", "fr-mark-remark"),
        ("passe la tâche en bloquée", "fr-mark-remark"),
    ],
)
def test_a_wait_kept_up_or_a_mark_is_no_go(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    "message",
    [
        "vas-y... enfin non, laisse-moi d'abord relire",
        "continue. enfin non, attends",
        "reprends, enfin non, pas maintenant",
        "la validation est arrivée, mais pas la bonne, donc on attend encore",
        "continue une fois que les retours du playtest seront arrivés",
        "La continuité du service est tombée.",
        "mach weiter... ach nee, lass mich erst lokal testen",
        "mach weiter, sobald das Feedback vom Playtest da ist",
    ],
)
def test_a_go_taken_back_or_held_is_no_go(message: str) -> None:
    _check(message, "OTHER")


# ... and not waiting any longer is a go
@pytest.mark.parametrize(
    "message",
    [
        "mach weiter, ohne zu warten",
        "du musst nicht weiter warten, mach weiter",
        "warte nicht weiter, leg los",
        "ne continue pas d'attendre, vas-y",
    ],
)
def test_no_more_waiting_is_a_go(message: str) -> None:
    _check(message, "RESUMPTION")


# the relative clause after "alles," is the object of the verb before it, not a question
def test_everything_you_did_told_stays_a_status_request() -> None:
    _check("sag mir alles, was du heute gemacht hast", "STATUS_REQUEST")
    _check("Zuerst auditierst du alles, was du gestern geändert hast.", "AUDIT", "de-audit-you")
