"""Issue #45's eighteenth round, the rules for German and French (docs/interruptions.md,
"Eighteenth round: the rules (German and French)"): each rule written for a kind the twentieth
batch missed, from messages of this round's own in other wordings, with the near-misses that must
stay what they are (holds tested hardest). New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A question said as wondering, doubt or not understanding: about the code a question, about
# the protocol's present state an audit, about where the work stands a status request.
@pytest.mark.parametrize(
    ("message", "kind", "rule"),
    [
        ("frag mich grad ob die Regex auch Umlaute frisst", "QUESTION", "de-wonder-question"),
        (
            "Ich frage mich, ob der Retry-Decorator auch bei Timeouts greift",
            "QUESTION",
            "de-wonder-question",
        ),
        (
            "keine Ahnung, ob das Caching hier überhaupt was bringt",
            "QUESTION",
            "de-wonder-question",
        ),
        (
            "Mir ist nicht klar, was das Factory-Pattern hier bringt",
            "QUESTION",
            "de-wonder-alone-question",
        ),
        (
            "bin mir nicht sicher, ob der Mapper mit null umgehen kann",
            "QUESTION",
            "de-wonder-question",
        ),
        (
            "Mich würde interessieren, ob die Queue die Reihenfolge garantiert.",
            "QUESTION",
            "de-wonder-question",
        ),
        ("Mir ist unklar, wozu der zweite Adapter da ist", "QUESTION", "de-wonder-alone-question"),
        ("ich frag mich, ob der Lock überhaupt noch gehalten wird", "AUDIT", "de-wonder-audit"),
        ("Ich frage mich ob der Worktree vom Export noch existiert", "AUDIT", "de-wonder-audit"),
        ("keine Ahnung, ob die Hooks gerade aktiv sind", "AUDIT", "de-wonder-audit"),
        (
            "Mich würde interessieren, ob die Migration schon durch ist",
            "STATUS_REQUEST",
            "de-wonder-status",
        ),
        ("frag mich, ob du mit dem Import schon fertig bist", "STATUS_REQUEST", "de-wonder-status"),
        ("je me demande si la regex gère les accents", "QUESTION", "fr-wonder-question"),
        (
            "c'est pas clair pour moi ce que le pattern factory apporte ici",
            "QUESTION",
            "fr-wonder-question",
        ),
        ("je suis pas sûr que le mapper gère les null", "QUESTION", "fr-wonder-question"),
        ("aucune idée si le cache sert à quelque chose ici", "QUESTION", "fr-wonder-question"),
        (
            "J'aimerais comprendre comment la logique de retry est construite.",
            "QUESTION",
            "fr-wonder-question",
        ),
        ("j'ai pas tout saisi", "QUESTION", "fr-wonder-alone-question"),
        ("je me demande si le verrou est encore tenu", "AUDIT", "fr-wonder-audit"),
        ("je sais pas trop si le hook de lint est installé", "AUDIT", "fr-wonder-audit"),
        ("je me demande où t'en es avec l'import", "STATUS_REQUEST", "fr-wonder-status"),
        ("j'aimerais savoir si la migration est déjà finie", "STATUS_REQUEST", "fr-wonder-status"),
    ],
)
def test_a_wondering_asks(message: str, kind: str, rule: str) -> None:
    _check(message, kind, rule)


# ... but a wish of ours, a hold, an answer, a bug told with "no idea why", the user's own liking
@pytest.mark.parametrize(
    "message",
    [
        "Ich frag mich, ob wir hier nicht lieber aufhören sollten",
        "ich frage mich, ob wir das nicht morgen machen",
        "Ich frag mich, ob du nicht aufhören solltest",
        "keine Ahnung",
        "bin mir nicht sicher",
        "weiß nicht",
        "Der Export hängt, keine Ahnung warum.",
        "Ich weiß nicht, ob mir das Farbschema gefällt.",
        "je me demande si on devrait pas s'arrêter là",
        "je me demande si tu devrais pas faire une pause",
        "aucune idée",
        "je sais pas",
        "Le build plante depuis ce matin, aucune idée pourquoi.",
        "je sais pas si j'aime cette couleur",
    ],
)
def test_a_wish_a_hold_or_an_answer_is_no_wondering(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", found
    assert "wonder" not in found.rule, found


# 2. Asking to go on explaining is a question, not the task's go (the model never makes it one).
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("mach mit der Erklärung weiter", "de-explain-question"),
        ("Fahr mit deiner Erklärung zum Routing fort", "de-explain-question"),
        ("weiter erklären bitte", "de-explain-question"),
        ("Setz deine Erklärung zum Caching fort, ich hab's noch nicht.", "de-explain-question"),
        ("erzähl weiter, wie das Sharding funktioniert", "de-explain-question"),
        ("continue ton explication sur le routage", "fr-explain-question"),
        ("continue à m'expliquer pourquoi tu as séparé le service", "fr-explain-question"),
        ("poursuis l'explication du cache stp", "fr-explain-question"),
        ("reprends ton explication sur le sharding, j'ai décroché", "fr-explain-question"),
        ("continue d'expliquer le découpage", "fr-explain-question"),
    ],
)
def test_going_on_explaining_is_a_question(message: str, rule: str) -> None:
    found = classify(message)
    assert found.type == "QUESTION", found
    assert found.rule in (rule, "fr-wonder-alone-question"), found


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Erklärung passt, mach weiter", "RESUMPTION"),
        ("Danke für die Erklärung und mach mit der Pipeline weiter.", "RESUMPTION"),
        ("mach nicht mit der Erklärung weiter", "OTHER"),
        ("mach mit der Erklärung morgen weiter", "OTHER"),
        ("merci pour l'explication, continue", "RESUMPTION"),
        ("continue et explique-moi après", "RESUMPTION"),
        ("ne continue pas ton explication", "OTHER"),
        ("continue ton explication demain", "OTHER"),
    ],
)
def test_an_explanation_done_then_a_go_or_denied_stays(message: str, kind: str) -> None:
    assert classify(message).type == kind


# 3. A go in clipped, slang or full form: "na dann mal hopp", "weitermachn", "bau sie ein",
# "va jusqu'au bout", "importe-les"; a separable go with a long object ("setz … fort").
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("na los, hopp", "de-go-slang"),
        ("hopp hopp, die Rechnungen schreiben sich nicht von allein", "de-go-slang"),
        ("also dann yalla", "de-go-slang"),
        ("Die Sounds sind da, bau sie ein.", "de-go-slang"),
        ("Freigabe ist durch, importier sie jetzt ein", "de-go-slang"),
        ("weitermachn, ich guck nachher drüber", "de-resumption"),
        ("Pause vorbei, setz die Arbeit an der neuen Suche fort", "de-resumption"),
        ("va jusqu'au bout de l'export, je regarde après", "fr-go-end"),
        ("mène le refacto à terme, je relis ensuite", "fr-go-end"),
        ("allez, va au bout", "fr-go-end"),
        ("La compta a validé les montants. Intègre-les.", "fr-go-end"),
        ("les nouvelles traductions sont arrivées, importe-les", "fr-go-end"),
    ],
)
def test_a_clipped_or_slang_go_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... not asked, negated, put off, an instruction to change something, a break that goes on
@pytest.mark.parametrize(
    "message",
    [
        "hopp?",
        "zack zack, aber erst morgen",
        "nicht so hopp hopp bitte",
        "bau sie nicht ein",
        "Bau sie morgen ein.",
        "setz die Arbeit an der neuen Suche nicht fort",
        "weitermachn morgen",
        "weitermachn? nein, noch nicht",
        "Pause",
        "Pause um drei",
        "Pause ist vorbei, aber fass den Code noch nicht an",
        "Kaffeepause ist vorbei, aber fass den Code noch nicht an",
        "va pas jusqu'au bout",
        "va jusqu'au bout demain",
        "va jusqu'au bout ?",
        "importe-les demain",
        "importe-les ?",
        "ne les importe pas",
        "ajoute-les",
        "renomme-la",
        "pause finie ?",
        "la pause n'est pas finie",
    ],
)
def test_the_same_asked_denied_or_put_off_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


# 4. Where the work stands against how the code behaves: an estimate of the end is a status
# request; the user's own setup told is a remark, not a status request.
@pytest.mark.parametrize(
    "message",
    ["estimation pour la fin ?", "une estimation rapide stp", "Estimation avant livraison ?"],
)
def test_an_estimate_of_the_end_is_a_status_request(message: str) -> None:
    _check(message, "STATUS_REQUEST", "fr-status-eta")


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("les tests e2e passent chez moi", "fr-own-remark"),
        ("le build est hyper lent sur ma machine", "fr-own-remark"),
        ("bei mir laufen die Tests durch", "de-own-remark"),
        ("Bei mir ist der Build grün", "de-own-remark"),
        ("auf meinem Rechner klappt der Login", "de-own-remark"),
    ],
)
def test_the_users_own_setup_told_is_a_remark(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Bei mir läuft alles, mach weiter", "RESUMPTION"),
        ("chez moi ça passe, continue", "RESUMPTION"),
        ("Tests sind grün bei mir → go", "RESUMPTION"),
        ("les tests passent chez toi ?", "STATUS_REQUEST"),
    ],
)
def test_a_go_or_a_question_beside_the_own_setup_stays(message: str, kind: str) -> None:
    assert classify(message).type == kind


# 5. An audit of the protocol's present state said short: which worktree goes with which task,
# what the journal records, the hooks' runs reviewed, a session new or reused, and who holds
# the lock with the persons asked after it.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Welcher Worktree gehört zum Task Rechnungslauf?", "de-audit-belongs"),
        ("Welche Session ist dem Task Export zugewiesen?", "de-audit-belongs"),
        ("quel worktree est associé à la tâche facturation ?", "fr-audit-belongs"),
        ("Steht im Journal, dass du den Rollback gemacht hast?", "de-audit-journal"),
        ("wurde der abbruch im journal protokolliert?", "de-audit-journal"),
        ("c'est noté dans le journal que t'as annulé la migration ?", "fr-audit-journal"),
        ("est-ce que c'est inscrit au journal que la tâche est bloquée", "fr-audit-journal"),
        ("passe en revue les exécutions des hooks avant de commencer", "fr-audit-review"),
        ("épluche le journal de la tâche import", "fr-audit-review"),
        ("la session est neuve ou réutilisée ?", "fr-audit-now"),
        ("Wer hält gerade den Lock, du oder der Cron?", "de-audit-now"),
        ("qui tient le verrou, toi ou le cron ?", "fr-audit-now"),
    ],
)
def test_the_protocols_state_said_short_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    "message",
    [
        "Welche Session gehört zum User nach dem Login?",
        "pourquoi c'est noté dans le journal ?",
        "Warum steht das im Journal?",
        "Wird im Journal vermerkt, wenn ein Lock abläuft?",
        "quel composant est associé à la session utilisateur ?",
    ],
)
def test_the_apps_own_or_why_is_no_audit_of_these_rules(message: str) -> None:
    found = classify(message)
    assert found.rule not in ("de-audit-belongs", "fr-audit-belongs", "fr-audit-journal"), found
    assert found.rule != "de-audit-journal", found


# 6. Never a go: "keep using" (a go word meaning still), a stop denied inside a wondering
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("benutz bitte weiter die alte API", "de-keep-remark"),
        ("nutz weiter den alten Client", "de-keep-remark"),
        ("continue d'appeler le vieux client", "fr-keep-remark"),
        ("continue à utiliser l'ancienne API", "fr-keep-remark"),
    ],
)
def test_keep_using_is_no_go(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    "message",
    [
        "mach weiter und benutz weiter die alte API",
        "continue, et garde l'ancien nom",
        "continue d'écrire les tests",
    ],
)
def test_a_go_beside_keep_using_stays_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


def test_a_stop_denied_inside_a_wondering_is_no_go() -> None:
    assert classify("Ich frag mich, ob du nicht aufhören solltest").type == "OTHER"
    assert classify("Hör nicht auf!").type == "RESUMPTION"


# 7. How the protocol finds a thing out is a question, however sure the model is of an audit
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wie stellt der Doctor fest, dass eine Session tot ist?", "de-question-detect"),
        ("Woran erkennt das Audit einen verwaisten Worktree?", "de-question-detect"),
        ("comment le doctor sait qu'un worktree est orphelin ?", "fr-question-detect"),
        ("à quoi l'audit voit qu'un verrou est mort ?", "fr-question-detect"),
    ],
)
def test_how_the_protocol_finds_it_out_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


def test_which_lock_is_active_now_stays_an_audit() -> None:
    _check("Welcher Lock ist gerade aktiv?", "AUDIT", "de-audit-which")
