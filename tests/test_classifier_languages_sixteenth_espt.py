"""Issue #45's sixteenth round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Sixteenth round: the rules (Spanish, Brazilian Portuguese)"): families by
form, read from the eighteenth batch's misses, each with other ways a speaker says the same thing
and the variants that must stay what they are. New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A yes/no or how-many question on the protocol's own state now is an audit: a step the agent
# took on the lock or a worktree, the git hooks still there, the task's record in a state.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("¿Liberaste el lock?", "es-audit-now"),
        ("¿Ya soltaste el lock de la tarea de facturas?", "es-audit-now"),
        ("oye, ¿borraste el worktree viejo o sigue ahí?", "es-audit-now"),
        ("¿Sigue el hook pre-push o lo quitaron?", "es-audit-now"),
        ("¿El hook commit-msg sigue instalado en este clon?", "es-audit-now"),
        ("¿Los hooks de git siguen activos?", "es-audit-now"),
        ("el task record esta bien?", "es-audit-now"),
        ("¿Está completa la entrada del journal de ayer?", "es-audit-now"),
        ("¿El journal está actualizado o le faltan los últimos commits?", "es-audit-now"),
        ("o worktree da branch feature/boleto ainda existe?", "pt-audit-now"),
        ("o lock ainda tá com você?", "pt-audit-now"),
        ("quantos worktrees existem agora?", "pt-audit-now"),
        ("quantas sessões estão abertas agora nessa tarefa?", "pt-audit-now"),
        ("depois do reboot o lock foi liberado direitinho?", "pt-audit-now"),
        ("os hooks de git continuam instalados?", "pt-audit-now"),
        ("o lock tá no nome de outra pessoa?", "pt-audit-now"),
    ],
)
def test_a_question_on_the_protocols_state_now_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... but how the protocol works, why it did something, the code's own locks and hooks, or the
# work still running, are not
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("¿Por qué borraste el worktree?", "QUESTION"),
        ("¿Cómo libero el lock?", "QUESTION"),
        ("¿Cuándo se actualiza el journal?", "QUESTION"),
        ("¿Para qué sirve el journal?", "QUESTION"),
        ("¿El hook pre-push corre en cada commit o solo al hacer push?", "QUESTION"),
        ("¿Liberaste el mutex del carrito?", "QUESTION"),
        ("¿El hook pre-commit sigue fallando?", "QUESTION"),
        ("quantos worktrees o taskproto aguenta?", "QUESTION"),
        ("quando o lock é liberado?", "QUESTION"),
        ("por que o worktree ainda existe?", "QUESTION"),
        ("o lock do carrinho foi implementado?", "QUESTION"),
    ],
)
def test_how_the_protocol_works_or_the_codes_lock_is_no_audit(message: str, kind: str) -> None:
    found = classify(message)
    assert found.type == kind, found
    assert found.rule not in ("es-audit-now", "pt-audit-now"), found


# 2. A go, but first X: what is asked first decides; X first, then the go, is a go.
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Sigue, pero antes explícame por qué falla el test de precios.", "QUESTION"),
        ("Sigue, pero antes cuéntame cómo funciona el heartbeat.", "QUESTION"),
        ("Continúa, pero primero comprueba que el lock sigue siendo nuestro.", "AUDIT"),
        ("Pode seguir, mas antes me diz como funciona o heartbeat.", "QUESTION"),
        ("Segue, mas antes me conta como funciona o heartbeat.", "QUESTION"),
        ("Continua, mas primeiro verifica se o lock ainda é nosso.", "AUDIT"),
        ("Revisa el journal y después sigue.", "RESUMPTION"),
        ("Confere o journal e depois continua.", "RESUMPTION"),
    ],
)
def test_a_go_but_first_x_is_what_is_asked_first(message: str, kind: str) -> None:
    assert classify(message).type == kind


# ... and how a thing works asked with "cuéntame / me conta como" is a question; how the work
# went, asked the same way, stays a status request
@pytest.mark.parametrize(
    ("message", "kind", "rule"),
    [
        ("Cuéntame cómo funciona el heartbeat.", "QUESTION", "es-question"),
        ("me conta como funciona o heartbeat", "QUESTION", "pt-question"),
        ("cuéntame cómo va el deploy", "STATUS_REQUEST", "es-status-work"),
        ("me conta como foi o deploy", "STATUS_REQUEST", "pt-status-work"),
        ("me diz como tá o build", "STATUS_REQUEST", "pt-status-work"),
    ],
)
def test_tell_me_how_it_works_is_a_question(message: str, kind: str, rule: str) -> None:
    _check(message, kind, rule)


# 3. An approval, then "proceda con": a go ...
@pytest.mark.parametrize(
    "message",
    [
        "Aprobado por el cliente, proceda con la migración de usuarios.",
        "Visto bueno del jefe, procedan con el despliegue.",
        "Ya firmó el área legal, así que procede con el cambio de esquema.",
    ],
)
def test_an_approval_then_proceed_is_a_go(message: str) -> None:
    _check(message, "RESUMPTION", "es-resumption")


# ... but denied, put off, or "procede de" (comes from), it is not one
@pytest.mark.parametrize(
    "message",
    [
        "No proceda con el despliegue todavía.",
        "Aprobado, pero no procedas hasta el lunes.",
        "Proceda con el despliegue mañana.",
        "El error procede del parser de fechas.",
        "¿Procedo con el despliegue?",
    ],
)
def test_proceed_denied_put_off_or_said_of_the_code_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION"


# 4. A go denied by "no need to": "ni hace falta retomar X", "nem precisa retomar X" is no go;
# "no hace falta que sigas esperando" (no need to keep waiting) still is one
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Ni hace falta retomar el refactor, lo tiramos.", "es-negated-resumption"),
        ("No hace falta que sigas con el parser, lo borramos.", "es-negated-resumption"),
        ("No es necesario que continúes con los informes.", "es-negated-resumption"),
        ("nem precisa retomar o refactor, vamos descartar", "pt-negated-resumption"),
        ("não precisa nem retomar, já era", "pt-negated-resumption"),
        ("Não precisa prosseguir com a importação, o cliente desistiu.", "pt-negated-resumption"),
    ],
)
def test_no_need_to_go_on_is_no_go(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    "message",
    [
        "No hace falta que sigas esperando, dale con el deploy.",
        "nem precisa parar, continua",
        "Não precisa esperar o CI, segue com o parser.",
    ],
)
def test_no_need_to_wait_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


# 5. A hold with a tag question after it ("…, visse?") stays a hold; a go with one stays a go
@pytest.mark.parametrize(
    "message",
    [
        "não é pra seguir ainda não, viu?",
        "Não continua com o deploy ainda, visse?",
        "Nem pensa em retomar a migração, né?",
    ],
)
def test_a_hold_with_a_tag_is_a_hold(message: str) -> None:
    assert classify(message).type == "OTHER"


def test_a_go_with_a_tag_is_a_go() -> None:
    assert classify("continua com o parser, viu?").type == "RESUMPTION"


# 6. What is left, and how much is done, asked: status requests
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("resume em uma linha o que falta", "pt-status-summary"),
        ("Resume em uma frase o que ainda resta.", "pt-status-summary"),
        ("Resúmeme en una línea lo que falta.", "es-status-terse"),
        ("Qual o percentual de conclusão do app de entregas?", "pt-status-terse"),
        ("Qual é a porcentagem de andamento da migração?", "pt-status-terse"),
        ("¿Cuál es el porcentaje de avance?", "es-status-how"),
    ],
)
def test_what_is_left_and_how_much_is_done_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


# ... a percentage of something else asks about the code
def test_a_percentage_of_something_else_is_a_question() -> None:
    assert classify("qual o percentual de cobertura que a gente exige?").type == "QUESTION"


# 7. News, an observation passed on, a task for some day: remarks that ask nothing
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Para que lo sepas: mañana cambian la VPN.", "es-news-remark"),
        ("Pa que sepas, el viernes no hay deploys.", "es-news-remark"),
        ("Acabo de ver que el endpoint de pagos está duplicado.", "es-news-remark"),
        ("Me acabo de dar cuenta de que el README tiene dos índices.", "es-news-remark"),
        ("Algún día hay que documentar esta API.", "es-news-remark"),
        ("um dia a gente precisa migrar esse banco", "pt-tag-remark"),
        ("algum dia temos que limpar esse código", "pt-tag-remark"),
    ],
)
def test_news_and_observations_are_remarks(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


# ... but asked, or followed by a question or a go, they are that
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("¿Para qué sirve el flag --force?", "QUESTION"),
        ("Para que lo sepas, el CI está rojo. ¿Por qué falla el lint?", "QUESTION"),
        ("Acabo de ver que el endpoint está duplicado, sigue con el parser.", "RESUMPTION"),
        ("Para que lo sepas: mañana cambian la VPN. Sigue con los tests.", "RESUMPTION"),
    ],
)
def test_a_remark_leaves_a_question_or_a_go_beside_it(message: str, kind: str) -> None:
    assert classify(message).type == kind


# 8. A question on what a pattern brings, and a trigger word quoted in a remark
def test_what_a_pattern_brings_is_a_question() -> None:
    found = classify("¿Qué aporta el patrón Observer en el módulo de alertas?")
    assert found.type == "QUESTION"


def test_a_quoted_trigger_word_is_no_request() -> None:
    found = classify('El botón dice "resume" en vez de "continuar", queda fatal.')
    assert found.type == "OTHER"
