"""Issue #45's nineteenth round, the rules for German and French (docs/interruptions.md,
"Nineteenth round: the rules (German and French)"): each rule written for a kind the
twenty-first batch missed, from messages of this round's own in other wordings, with the
near-misses that must stay what they are (holds tested hardest). New messages, none a corpus
row."""

from __future__ import annotations

import pytest

from tests.classify_reads import reads as _check


# 1. The work planned before, now to be done: a go with "as agreed / as planned" (the comma
# before it does not cut the clause)
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Setz das Rate-Limit jetzt um, wie abgesprochen.", "de-go-agreed"),
        ("bau den Export wie besprochen ein", "de-go-agreed"),
        ("Implementier die fehlenden Endpunkte, wie im Plan.", "de-go-agreed"),
        ("wie abgesprochen setz jetzt das Rate-Limit um", "de-go-agreed"),
        ("schreib die Migration fertig, wie wir es besprochen haben", "de-go-agreed"),
        ("dann integrier den Zahlungsdienst so wie vereinbart", "de-go-agreed"),
        ("Ajoute le quota journalier maintenant, comme convenu.", "fr-go-agreed"),
        ("intègre le module de paiement comme on a dit", "fr-go-agreed"),
        ("Implemente les endpoints manquants comme prevu", "fr-go-agreed"),
        ("branche le flux des commandes, comme on l'avait prévu", "fr-go-agreed"),
        ("bon, écris la migration des factures comme discuté", "fr-go-agreed"),
    ],
)
def test_a_go_as_agreed(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... but not denied, put off, on a condition, asked, or a state told "as planned"
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Bau das nicht ein, wie besprochen.", "OTHER"),
        ("Bau das morgen ein, wie besprochen.", "OTHER"),
        ("Bau das wie besprochen ein, sobald Anna den Review gemacht hat.", "OTHER"),
        ("Setz das wie geplant um, aber erst nach dem Meeting.", "OTHER"),
        ("Wie besprochen, warte auf Anna.", "OTHER"),
        ("wie besprochen", "OTHER"),
        ("N'ajoute pas le quota, comme convenu.", "OTHER"),
        ("Ajoute le quota demain, comme convenu.", "OTHER"),
        ("Ajoute le quota comme convenu, une fois que Paul a relu.", "OTHER"),
        ("n'intègre rien comme prévu, attends mon feu vert", "OTHER"),
        ("Tu ajoutes le quota comme prévu ?", "QUESTION"),
    ],
)
def test_as_agreed_held_or_asked_is_no_go(message: str, kind: str) -> None:
    _check(message, kind)


# 2. The task's own work to finish, and a go in urgent slang
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("termine ce que t'avais commencé", "fr-go-own-work"),
        ("finis ce que t'étais en train de faire stp", "fr-go-own-work"),
        ("achève ce que tu as commencé", "fr-go-own-work"),
        ("bon, continue ce que tu faisais", "fr-go-own-work"),
        ("boucle ce sur quoi tu bossais", "fr-go-own-work"),
        ("go go go, le client attend", "fr-go-urgent"),
        ("go go go, la recette est dans une heure", "fr-go-urgent"),
        ("los los los, die Demo ist gleich", "de-go-urgent"),
        ("jetzt zackig weiter", "de-go-urgent"),
        ("los los, die Kundin wartet schon", "de-go-urgent"),
        ("Le client a validé la maquette. En avant pour l'intégration.", "fr-go-forward"),
        ("allez, en route pour l'export des factures", "fr-go-forward"),
        ("cap sur l'import", "fr-go-forward"),
    ],
)
def test_a_go_own_work_or_urgent(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        "finis ce que tu faisais demain",
        "ne finis pas ce que tu avais commencé",
        "termine pas ce que t'as commencé, attends",
        "dépêche-toi de continuer demain",
        "go go go demain matin",
        "los los los, aber erst morgen",
        "nicht zackig weiter, erst warten",
        "en avant pour le paiement demain",
        "pas en avant pour le paiement",
        "le colis est en route pour le client",
    ],
)
def test_own_work_or_urgency_held_is_no_go(message: str) -> None:
    _check(message, "OTHER")


@pytest.mark.parametrize(
    "message",
    ["tu finis ce que tu faisais ?", "los los los?", "go go go ?", "en avant pour le paiement ?"],
)
def test_own_work_or_urgency_asked_is_no_go(message: str) -> None:
    from taskproto.classify.interruptions import classify

    assert classify(message).type != "RESUMPTION", message


# 3. A judgment asked, and which of two ways the code takes: a question, not where the work
# stands (the model may not make them status requests: languages/firm.py)
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ist es sinnvoll die Bilder im Repo zu halten", "de-judgment-question"),
        ("Wäre es nicht besser, das über eine Queue zu lösen?", "de-judgment-question"),
        ("Macht es Sinn, den Parser zu cachen?", "de-judgment-question"),
        ("lohnt es sich, hier Redis einzusetzen?", "de-judgment-question"),
        (
            "Ist das wirklich eine gute Idee, die PDFs im Request zu rendern?",
            "de-judgment-question",
        ),
        ("Speicherst du die Tokens in Redis oder in Postgres?", "de-either-question"),
        ("Holt der Importer die Kurse per REST oder per gRPC?", "de-either-question"),
        ("Liest der Cron die Preise aus der API oder eher aus dem Cache?", "de-either-question"),
        ("c'est malin de lancer le solveur en synchrone dans la requête ?", "fr-judgment-question"),
        ("Est-ce judicieux de garder les images dans le repo ?", "fr-judgment-question"),
        ("ça vaut le coup de mettre un cache ici ?", "fr-judgment-question"),
        ("ce serait pas mieux de passer par une file ?", "fr-judgment-question"),
        ("tu valides côté client ou côté serveur ?", "fr-either-question"),
        ("le cron prend les tarifs depuis l'API ou depuis le cache ?", "fr-either-question"),
        ("tu charges les jetons depuis Redis ou depuis Postgres ?", "fr-either-question"),
    ],
)
def test_a_judgment_or_an_alternative_asks_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


# ... but where the work stands, asked as done or as an alternative, stays a status request
@pytest.mark.parametrize(
    "message",
    [
        "Ist es fertig?",
        "Ist der Build grün?",
        "Ist der Import schon durch oder noch am Laufen?",
        "c'est fini ?",
        "T'en es au front ou au back ?",
    ],
)
def test_the_work_asked_stays_a_status_request(message: str) -> None:
    _check(message, "STATUS_REQUEST")


# 4. The task's record checked: its integrity, completeness or the state it is marked with
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Prüf mal die Konsistenz des Task-Eintrags für den Export", "de-audit-record"),
        ("Ist der Task als pausiert markiert?", "de-audit-record"),
        ("ist die Aufgabe Export schon als erledigt eingetragen", "de-audit-record"),
        ("Ist der Taskeintrag vollständig?", "de-audit-record"),
        ("Ist der Datensatz der Aufgabe Export komplett?", "de-audit-record"),
        ("schau, ob das Ticket richtig als blockiert gesetzt ist", "de-audit-record"),
        ("vérifie l'intégrité de la fiche de la tâche", "fr-audit-record"),
        ("la tâche est bien marquée comme interrompue ?", "fr-audit-record"),
        ("la tâche export est notée comme terminée ?", "fr-audit-record"),
        ("regarde la cohérence de l'enregistrement de la tâche import", "fr-audit-record"),
        ("l'entrée de la tâche facturation est complète ?", "fr-audit-record"),
    ],
)
def test_the_task_record_checked_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... but not how it works, an order to mark it, an app's record, or the work's completeness
@pytest.mark.parametrize(
    "message",
    [
        "Wie wird ein Task als unterbrochen markiert?",
        "markier den Task als erledigt",
        "Ist der Kunde als inaktiv markiert?",
        "ist die Aufgabe jetzt komplett oder fehlt noch was?",
        "comment une tâche est marquée comme interrompue ?",
        "la commande est marquée comme payée ?",
    ],
)
def test_no_check_of_the_record_is_no_audit(message: str) -> None:
    from taskproto.classify.interruptions import classify

    assert classify(message).type != "AUDIT", message


# 5. An estimate of a thing's end, as a fragment
@pytest.mark.parametrize(
    "message", ["une ETA sur l'import des factures ?", "quelle eta pour la refonte du panier ?"]
)
def test_an_eta_fragment_is_a_status_request(message: str) -> None:
    _check(message, "STATUS_REQUEST", "fr-status-eta-of")


# 6. A remark that asks nothing: a fault told, a state told "as planned" (not a go, not a
# question, not a status request)
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Das SQL, das du gerade generiert hast, hat einen Syntaxfehler.", "de-fault-remark"),
        ("der Parser wirft wieder Exceptions", "de-fault-remark"),
        ("die Query hat immer noch einen Fehler im Join", "de-fault-remark"),
        ("Le SQL que tu viens de générer a une erreur de syntaxe.", "fr-fault-remark"),
        ("le parseur lève encore des exceptions", "fr-fault-remark"),
        ("ta requête contient deux fautes dans le join", "fr-fault-remark"),
        ("Der Export läuft, wie geplant.", "de-state-agreed-remark"),
        ("das Deployment lief wie besprochen", "de-state-agreed-remark"),
        ("L'import tourne, comme prévu.", "fr-state-agreed-remark"),
        ("le déploiement s'est passé comme prévu", "fr-state-agreed-remark"),
    ],
)
def test_a_remark_asks_nothing(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


# ... but asked, or a why, stays a question; a go beside it is still a go
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Hat das SQL einen Fehler?", "QUESTION"),
        ("warum hat das SQL einen Fehler", "QUESTION"),
        ("pourquoi le SQL a une erreur", "QUESTION"),
        ("il y a une erreur ?", "QUESTION"),
        ("ça avance comme prévu ?", "STATUS_REQUEST"),
        ("continue, le code a encore des warnings mais c'est pas grave", "RESUMPTION"),
        ("mach weiter, die Tests haben aber noch zwei Fehler", "RESUMPTION"),
    ],
)
def test_a_fault_asked_or_beside_a_go(message: str, kind: str) -> None:
    _check(message, kind)


# 7. The code summed up, and a question said as an order to tell: a question
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Fass mir die Architektur der App in zwei Zeilen zusammen.", "de-summary-question"),
        ("fass mal kurz den Ablauf vom Checkout zusammen", "de-summary-question"),
        ("Résume-moi l'architecture de l'appli en deux lignes.", "fr-summary-question"),
        ("synthétise le fonctionnement du module de paiement", "fr-summary-question"),
        (
            "Sag mir, ob es einen Fall gibt, wo Doppelbuchungen passieren können.",
            "de-tell-question",
        ),
        ("verrat mir mal, ob der Webhook doppelt feuern kann", "de-tell-question"),
    ],
)
def test_the_code_summed_up_or_told_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


# ... but the work summed up or told stays a status request, the protocol's state an audit
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Fass deinen Fortschritt zusammen", "STATUS_REQUEST"),
        ("résume-moi ce que t'as fait ce matin", "STATUS_REQUEST"),
        ("résume-moi l'avancement", "STATUS_REQUEST"),
        ("sag mir, was du bisher gemacht hast", "STATUS_REQUEST"),
        ("sag mir, ob der Lock noch gehalten wird", "AUDIT"),
    ],
)
def test_the_work_summed_up_stays_a_status_request(message: str, kind: str) -> None:
    _check(message, kind)


# 8. A go after a step of the agent's own work: "after the rebase" is no time waited for
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("nach dem Commit machst du weiter", "de-go-after-step"),
        ("nach dem Squash direkt weiter mit dem Importer", "de-go-after-step"),
        ("Nach dem Refactoring bitte gleich weiter", "de-go-after-step"),
        ("Nach dem Rebase, weiter mit den Filtern.", "de-resumption"),
        ("après le rebase continue avec l'export", "fr-go-after-step"),
        ("après le nettoyage tu enchaînes sur les factures", "fr-go-after-step"),
        ("après le commit, reprends le module panier", "fr-resumption"),
    ],
)
def test_a_go_after_an_own_step(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... but someone else's step, a meeting, a time, a denial still hold it, and asked it asks
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("nach dem Rebase von Jonas weiter mit den Filtern", "OTHER"),
        ("Nach dem Meeting weiter mit den Filtern.", "OTHER"),
        ("nach dem Rebase morgen weiter", "OTHER"),
        ("nach dem Rebase nicht weiter", "OTHER"),
        ("nach dem Commit noch nicht weitermachen", "OTHER"),
        ("après le rebase par Paul continue", "OTHER"),
        ("après la réunion continue avec l'export", "OTHER"),
        ("après le déj, continue", "OTHER"),
        ("après le rebase continue demain", "OTHER"),
        ("après le commit ne continue pas", "OTHER"),
        ("Nach dem Rebase weiter?", "QUESTION"),
    ],
)
def test_after_a_step_held_is_no_go(message: str, kind: str) -> None:
    _check(message, kind)
