"""Issue #45's twelfth round, the rules for German, Spanish, French and Portuguese
(docs/interruptions.md, "Twelfth round: the rules (German, Spanish, French, Brazilian
Portuguese)"): families by form, read from the fourteenth batch's misses, each with other ways a
speaker says the same thing and the variants that must stay what they are. New messages, none a
corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A go said with a verb or idiom the tables lacked, as a clause of its own: after a remark,
# a step or a question it is still the last request.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Geh jetzt zum nächsten Punkt über.", "de-go-onto"),
        ("Passt so, geh zur nächsten Aufgabe.", "de-go-onto"),
        ("Nimm die Arbeit an der Exportfunktion wieder auf.", "de-resumption"),
        ("Was soll das Warten? Schreib den Importer fertig.", "de-go-onto"),
        ("Ich schau mir die Logs selbst an, du machst einfach weiter.", "de-go-onto"),
        ("Vale, avanza con la migración de los usuarios.", "es-go-onto"),
        ("Haz el commit y pasa a la siguiente historia del backlog.", "es-go-onto"),
        ("Listo lo del CSS, pasa a la próxima tarea.", "es-go-onto"),
        ("Merci pour l'explication, tu peux y retourner.", "fr-go-onto"),
        ("Retourne au module de facturation.", "fr-go-onto"),
        ("Beau boulot sur le parseur, garde le cap.", "fr-go-onto"),
        ("A rede voltou, roda o resto da migração.", "pt-rest"),
        ("Beleza, rode o resto dos testes.", "pt-rest"),
    ],
)
def test_a_go_said_with_a_new_verb_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... and not when negated, asked, or said of something else
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Geh nicht zum nächsten Schritt über.", "OTHER"),
        ("No avances con eso todavía.", "OTHER"),
        ("Ne retourne pas au module de facturation.", "OTHER"),
        ("Não volta pro módulo de boletos.", "OTHER"),
    ],
)
def test_the_new_go_verbs_negated_are_not_gos(message: str, kind: str) -> None:
    assert classify(message).type == kind


# 2. A stop said as "you can stop with X", and a go negated at the end of a remark: holds.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Pode parar com a refatoração do checkout.", "pt-hold"),
        ("Você pode parar com esses logs, já vi o bastante.", "pt-hold"),
        ("O módulo de PIX tá congelado, não volta nele.", "pt-negated-resumption"),
        ("Não volte pra tarefa do relatório hoje.", "pt-negated-resumption"),
    ],
)
def test_a_stop_or_a_negated_return_is_a_hold(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


# a go after an event, in a clause of its own after "mais seulement": a hold
@pytest.mark.parametrize(
    "message",
    [
        "Tu peux reprendre, mais seulement après le déploiement de demain matin.",
        "Continue, mais uniquement après la migration de la base.",
        "Reprends, mais pas avant la fin du gel des merges.",
    ],
)
def test_a_go_held_until_an_event_is_a_hold(message: str) -> None:
    found = classify(message)
    assert (found.type, found.rule) == ("OTHER", "fr-later"), found


# 3. A question with no "?": a question word after a preposition or a topic, chat shorthand.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("¿De dónde viene el valor por defecto del retry?", "es-question"),
        ("¿Con quién se comunica el worker de colas?", "es-question"),
        ("y el Dockerfile por qué usa dos etapas", "es-question"),
        ("qué diferencia hay entre un mutex y un semáforo aquí", "es-question"),
        ("que ventajas tiene usar gRPC para esto", "es-question"),
        ("o q faz esse middleware de auth", "pt-question"),
        ("cara o q significa esse 0x20 no header", "pt-question"),
    ],
)
def test_a_question_without_a_question_mark_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


def test_not_knowing_why_is_not_a_question() -> None:
    assert classify("la verdad ni sé por qué el deploy funciona").type == "OTHER"


# 4. Where the work stands, asked by where it stopped, when it is ready, or as an instruction.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Wann kann ich den Branch testen?", "de-status-where"),
        ("Wann können wir das Feature abnehmen?", "de-status-where"),
        ("¿En qué te quedaste ayer con el parser?", "es-status-how"),
        ("¿Dónde te has quedado con la migración?", "es-status-how"),
        ("Donne-moi l'état d'avancement du module de paie.", "fr-status-tell"),
        ("Fais-moi un point sur la migration.", "fr-status-terse"),
        ("Parou em que parte do refactor?", "pt-status-yesno"),
        ("Onde você parou com a integração do PIX?", "pt-status-how"),
        # "enquanto" and "tava" show Portuguese now: the message was read as English
        ("Enquanto eu tava fora, andou bastante?", "pt-status-yesno"),
        ("E aí, andou alguma coisa?", "pt-status-yesno"),
    ],
)
def test_where_the_work_stopped_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


def test_when_can_i_change_a_setting_is_not_a_status_request() -> None:
    assert classify("Wann kann ich den Cache leeren?").type == "QUESTION"


# 5. A check of the protocol said with an idiom or a hunting verb: an audit.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Dale una revisada a los locks antes de seguir.", "es-audit-verify"),
        ("Échale un vistazo al journal, algo no cuadra.", "es-audit-verify"),
        ("Traque les worktrees orphelins.", "fr-audit-verify"),
        ("Cherche les verrous que personne n'a libérés.", "fr-audit-verify"),
    ],
)
def test_a_check_of_the_protocol_said_with_an_idiom_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# 6. A go asked politely ("would you finish X?") is a go; negated or held to a time it is not.
@pytest.mark.parametrize(
    ("message", "kind", "rule"),
    [
        ("Könntest du den Importer fertig machen?", "RESUMPTION", "de-go-onto"),
        ("Magst du die Migration bitte zu Ende bringen?", "RESUMPTION", "de-go-onto"),
        ("Würdest du den Bericht fertigstellen?", "RESUMPTION", "de-go-onto"),
        ("Kannst du das bis morgen fertig machen?", "OTHER", "de-later"),
        ("Würdest du das nicht zu Ende bringen?", "QUESTION", "question-mark"),
    ],
)
def test_a_go_asked_politely_is_a_go(message: str, kind: str, rule: str) -> None:
    _check(message, kind, rule)


# 7. "Interrupt what you are doing": a stop, said with the verb itself.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Unterbrich kurz, ich muss was prüfen.", "de-hold"),
        ("Interrumpe lo que estás haciendo.", "es-hold"),
        ("Interromps la migration, s'il te plaît.", "fr-hold"),
        ("Interrompa o deploy agora.", "pt-hold"),
    ],
)
def test_interrupt_is_a_hold(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)
