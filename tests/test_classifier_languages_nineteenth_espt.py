"""Issue #45's nineteenth round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Nineteenth round: the rules (Spanish and Brazilian Portuguese)"): each
rule written for a kind the twenty-first batch missed, read by its form, from messages of the
round's own in other wordings (registers, voseo, chat spelling, word orders, with and without
"¿"/"?", without accents), with the near-misses that must stay what they are, holds hardest. New
messages, none a corpus row.
"""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A go only if a condition is met, opening the clause or after the go's verb, is a hold
@pytest.mark.parametrize(
    "message",
    [
        "si el profe aprueba, ya puedes seguir",
        "si el cliente da el ok, entonces continúa con el deploy",
        "si pasa el build, sigue",
        "Si la jefa lo aprueba puedes continuar con la migración",
        "si alguien de QA confirma, sigue con el release",
        "sigue con el deploy si el build pasa",
        "continua con las facturas si la API responde bien",
        "y si nadie se queja, retoma lo de los cupones",
        "se o build passar pode continuar",
        "se a Ana der o ok, então pode continuar com o deploy",
        "caso o gerente aprove, pode continuar",
        "Se o cliente aprovar o layout, aí você segue",
        "continua com o deploy se o build passar",
        "segue com as migrations se o DBA liberar",
        "e se alguem do financeiro aprovar, prossiga",
    ],
)
def test_a_go_only_if_a_condition_is_met_is_a_hold(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER", (message, found)


# ... but yes ("sí" without its accent), a courtesy, the agent's own check or step, and the
# "whether" of a check stay what they are
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("si, sigue", "RESUMPTION"),
        ("si sigue con el parser", "RESUMPTION"),
        ("si claro, continúa", "RESUMPTION"),
        ("sigue si quieres", "RESUMPTION"),
        ("si todo está bien, continúa", "RESUMPTION"),
        ("revisa si el test pasa y sigue", "RESUMPTION"),
        ("se quiser, pode continuar", "RESUMPTION"),
        ("se você terminar o login, segue com o cadastro", "RESUMPTION"),
        ("se tudo estiver ok, continua", "RESUMPTION"),
        ("olha se o CI passou e continua", "RESUMPTION"),
        ("mira si el lock sigue activo", "AUDIT"),
        ("vê se o lock caiu", "AUDIT"),
        ("o professor aprovou, pode continuar", "RESUMPTION"),
        ("el cliente ya aprobó, sigue", "RESUMPTION"),
    ],
)
def test_yes_a_courtesy_and_an_own_check_stay(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 2. A go after a step, said as what the agent does next
@pytest.mark.parametrize(
    "message",
    [
        "Sube a staging y después sigues con el módulo de pagos.",
        "mergea el PR y después agarra el ticket de login",
        "haz el rebase y luego te pones con los reportes",
        "cierra el PR y ya sigues con lo de los cupones",
        "despliega en QA y luego vas con el módulo de envíos",
        "arregla el test roto y despues continuas con la API",
        "sube los cambios, luego atacas la siguiente tarea",
    ],
)
def test_a_go_after_a_step_is_a_go(message: str) -> None:
    _check(message, "RESUMPTION")


# ... not asked, denied or put off
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("y después sigues con los menús?", "QUESTION"),
        ("sube a staging y mañana sigues con los menús", "OTHER"),
        ("y después no sigues con nada, espera", "OTHER"),
        ("sube a staging y después toma un café", "OTHER"),
    ],
)
def test_a_step_then_a_go_asked_denied_or_put_off_stays(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 3. The task's own work ordered now, as agreed, the rest, or every one without asking
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("monta la cuota diaria ahora, como lo hablamos", "es-go-work"),
        ("haz la integración con Stripe tal como acordamos", "es-go-work"),
        ("implementa ya el panel de admin", "es-go-work"),
        ("Integra la pasarela de pagos, según lo acordado.", "es-go-work"),
        ("desarrolla el buscador como estaba previsto", "es-go-work"),
        ("genial, ahora procesa el resto de las facturas", "es-go-work"),
        ("migra todas las tablas sin preguntarme una por una", "es-go-work"),
        ("faz a integração com o Pix, conforme combinamos", "pt-go-work"),
        ("cria as telas que faltam como combinado", "pt-go-work"),
        ("implementa o relatório do jeito que combinamos", "pt-go-work"),
        ("traduz todas as strings sem me perguntar arquivo por arquivo", "pt-go-work"),
    ],
)
def test_the_works_own_verb_now_or_as_agreed_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... not put off, denied, asked, a change asked, nor "as agreed" said of a thing
@pytest.mark.parametrize(
    "message",
    [
        "implementa ya el reembolso mañana, como quedamos",
        "no implementes todavía el reembolso, como quedamos",
        "¿implemento ya el reembolso, como quedamos?",
        "saca ya esa lógica del controller",
        "el botón va en azul, como quedamos",
        "no hagas nada sin preguntarme",
        "nunca despliegues sin preguntar",
        "implementa os endpoints amanhã, como combinamos",
        "não implementa os endpoints ainda, como combinamos",
        "implementa os endpoints como combinamos?",
        "não faz nada sem me perguntar",
        "nunca sobe pra produção sem perguntar",
    ],
)
def test_the_works_verb_put_off_denied_or_asked_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 4. No need to stop, the formal go after news, and clipped or slang gos
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("no hace falta que pares, va bien", "es-no-need-stop"),
        ("No es necesario que te detengas, todo bien", "es-no-need-stop"),
        ("no tienes que parar por mí", "es-no-need-stop"),
        ("el cliente ya aprobó, así que puede proseguir", "es-go-formal"),
        ("Usted puede continuar con la instalación.", "es-go-formal"),
        ("simbora!", "pt-go-slang"),
        ("partiu", "pt-go-slang"),
        ("vamo nessa", "pt-go-slang"),
        ("bora que bora", "pt-go-slang"),
        ("vambora entao", "pt-go-slang"),
    ],
)
def test_no_need_to_stop_a_formal_and_a_slang_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        "no hace falta que sigas",
        "¿hace falta que pare?",
        "¿puede proseguir el proceso sin el lock?",
        "el proceso puede continuar en segundo plano",
        "no, no puede proseguir",
        "partiu pra onde o servidor?",
        "o layout partiu ao meio no mobile",
    ],
)
def test_a_stop_needed_a_process_and_another_sense_are_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 5. Why a protocol artefact is in a state it should not be is an audit; how it works stays a
# question
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("por qué hay un worktree huérfano de la tarea de envíos?", "es-audit-why"),
        ("¿por qué el lock sigue a mi nombre si ya cerré la sesión?", "es-audit-why"),
        ("por que el journal tiene dos sesiones abiertas a la vez?", "es-audit-why"),
        ("¿Por qué la sesión quedó colgada sin heartbeat?", "es-audit-why"),
        ("por que o journal tem uma sessão aberta sem fechamento?", "pt-audit-why"),
        ("por que o lock continua no meu nome?", "pt-audit-why"),
        ("pq a sessão ficou pendurada sem heartbeat?", "pt-audit-why"),
    ],
)
def test_why_a_protocol_artefact_is_wrong_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    "message",
    [
        "por qué el lock se libera al cerrar la sesión?",
        "¿por qué usamos un journal en vez de una tabla?",
        "¿por qué el journal guarda cada transición como un commit?",
        "por que o lock é liberado quando a sessão fecha?",
        "por que o journal guarda cada transição num commit?",
    ],
)
def test_why_the_protocol_works_so_stays_a_question(message: str) -> None:
    _check(message, "QUESTION")


# 6. Whether a commit went through the protocol's hooks, or the task is marked right, is an audit
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("el commit de ayer pasó por el hook de pre-commit?", "es-audit-hook-ran"),
        ("¿se saltó el hook de lint en el último push?", "es-audit-hook-ran"),
        ("el hook de commit-msg corrió en el merge?", "es-audit-hook-ran"),
        ("o commit de ontem passou pelo hook de lint?", "pt-audit-hook-ran"),
        ("pulou o hook de pre-push no último push?", "pt-audit-hook-ran"),
        ("¿puedes mirar si la tarea quedó marcada como interrumpida?", "es-audit-marked"),
        ("revisa si la tarea figura como completada", "es-audit-marked"),
        ("confere se a tarefa aparece como concluída", "pt-audit-marked"),
        ("Confirma si el lock se renovó después de la pausa.", "es-audit-verify"),
        ("confirma se o lock foi renovado depois da pausa", "pt-audit-verify"),
    ],
)
def test_whether_a_hook_ran_or_the_task_is_marked_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    "message",
    [
        "¿cómo se salta el hook de lint?",
        "¿por qué el hook de lint tarda tanto?",
        "como eu pulo o hook de lint?",
        "el webhook de pagos corrió dos veces?",
    ],
)
def test_how_a_hook_works_or_a_webhook_is_no_audit(message: str) -> None:
    found = classify(message)
    assert found.type != "AUDIT", (message, found)


# 7. What comes next after a step, and a status said as a need or an order, are status requests
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("después de los seeds qué viene?", "es-status-next"),
        ("y después del login, ¿qué toca?", None),
        ("después del login qué toca?", "es-status-next"),
        ("depois dos testes vem o que?", "pt-status-next"),
        ("e depois do deploy, qual é o próximo?", None),
        ("necesito saber en qué punto está el mapa antes de la reunión", "es-wonder-status"),
        ("quisiera saber en qué fase está el importador", "es-wonder-status"),
        ("mándame un status actualizado de la tarea", "es-status-order"),
        ("¿me pasas un resumen rápido?", "es-status-order"),
        ("preciso saber em que ponto tá o relatório", "pt-wonder-status"),
        ("Por favor, me envie um status atualizado", "pt-status-order"),
        ("queria saber em que etapa tá o módulo de estoque antes da call", "pt-wonder-status"),
    ],
)
def test_what_comes_next_and_a_status_needed_are_status_requests(
    message: str, rule: str | None
) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("después de los seeds, sigue", "OTHER"),
        ("después del almuerzo sigue", "OTHER"),
        ("depois dos seeds continua", "OTHER"),
        ("depois do almoço continua", "OTHER"),
        ("necesito saber programar mejor", "OTHER"),
    ],
)
def test_a_go_after_a_time_stays_held_and_a_need_is_no_status(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 8. The code's design summed up for me is a question; the work summed up a status request; a
# text summed up an instruction
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("resúmeme la arquitectura del backend en dos líneas", "es-summary-question"),
        ("¿me resumes cómo funciona el checkout?", "es-summary-question"),
        ("resumime el flujo de login", "es-summary-question"),
        ("Resume pra mim a arquitetura do app em duas linhas", "pt-summary-question"),
        ("me resume como funciona o checkout", "pt-summary-question"),
        ("me resuma o fluxo de pagamento", "pt-summary-question"),
    ],
)
def test_the_design_summed_up_for_me_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("resúmeme lo que hiciste hoy", "STATUS_REQUEST"),
        ("resume tu progreso", "STATUS_REQUEST"),
        ("me resume o que você fez hoje", "STATUS_REQUEST"),
        ("resume el README en tres líneas", "OTHER"),
        ("resume o README em três linhas", "OTHER"),
        ("resume a descrição no PR em duas linhas", "OTHER"),
    ],
)
def test_the_work_or_a_text_summed_up_stays(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 9. A tag: after a statement it asks; after an instruction it asks nothing
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("ese CORS abierto es solo en dev, ¿verdad?", "QUESTION"),
        ("esse endpoint é só pra admin, né?", "QUESTION"),
        ("o cache expira em uma hora, certo?", "QUESTION"),
        ("el build ya pasó, ¿verdad?", "STATUS_REQUEST"),
        ("o build passou, né?", "STATUS_REQUEST"),
        ("a partir de ahora, commits en inglés, ¿vale?", "OTHER"),
        ("de ahora en adelante los PR en español, ¿de acuerdo?", "OTHER"),
        ("commits em inglês daqui pra frente, combinado?", "OTHER"),
        ("Daqui pra frente, nada de console.log, tá?", "OTHER"),
        ("continua, né?", "RESUMPTION"),
        ("pode continuar, tá?", "RESUMPTION"),
        ("sigue, ¿vale?", "RESUMPTION"),
    ],
)
def test_a_tag_after_a_statement_asks_after_an_instruction_not(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


def test_as_agreed_asked_after_a_go_is_not_joined_to_it() -> None:
    found = classify("sigue, ¿como quedamos?")
    assert found.type != "RESUMPTION", found


# 10. Never a go: a bare reaction, understood said, a permission
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("anda, mira tú", "es-reaction-remark"),
        ("anda ya, mira vos", "es-reaction-remark"),
        ("quem diria", "pt-reaction-remark"),
        ("eita, quem diria", "pt-reaction-remark"),
        ("ya, ya me quedó claro lo de los impuestos", "es-understood-remark"),
        ("vale, lo pillé", "es-understood-remark"),
        ("puedes elegir la librería que prefieras", "es-permission-remark"),
        ("podés ignorar los warnings del linter", "es-permission-remark"),
        ("pode escolher a lib que preferir", "pt-permission-remark"),
        ("pode ignorar os warnings do eslint", "pt-permission-remark"),
    ],
)
def test_a_reaction_understood_or_a_permission_is_no_go(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("anda, sigue", "RESUMPTION"),
        ("puedes elegir la librería que prefieras y sigue", "RESUMPTION"),
        ("pode escolher a lib e segue com o resto", "RESUMPTION"),
        ("puedes elegir, pero no sigas todavía", "OTHER"),
        ("¿puedo elegir la librería?", "QUESTION"),
        ("posso escolher a lib?", "QUESTION"),
        ("no me quedó claro qué hace el middleware", "QUESTION"),
        # praise before an order is left to the model: the order may be its go
        ("qué bien quedó la tabla, ahora haz la exportación", "RESUMPTION"),
    ],
)
def test_a_go_beside_them_and_a_question_stay(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))
