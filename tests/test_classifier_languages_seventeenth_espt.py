"""Issue #45's seventeenth round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Seventeenth round: the rules (Spanish and Brazilian Portuguese)"): each
rule written for a kind the nineteenth batch missed, read by its form, with other ways a speaker
says the same thing and the variants that must stay what they are. New messages, none a corpus
row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A question on the present state of the protocol's objects is an audit: the lock (its file,
# holder, PID, expiry), the session (its heartbeat), the journal (its entries), a worktree (its
# branch), the hooks, the task's record; asked with or without "¿", by who, how many, which branch.
@pytest.mark.parametrize(
    "message",
    [
        "¿el lock de la tarea de nóminas sigue a tu nombre?",
        "¿Quién tiene ahora el lock de facturación?",
        "oye, de quién es el claim de la tarea de envíos?",
        "el lockfile todavía existe o ya se borró?",
        "¿La sesión del agente sigue viva o se quedó zombi?",
        "¿Los hooks del repo están instalados?",
        "¿están activados los hooks de taskproto en este clon?",
        "¿a qué rama apunta el worktree de la tarea de envíos?",
        "¿Faltan entradas en el journal desde el corte de luz?",
        "¿el pid del lock corresponde a un proceso vivo?",
        "el lock caduco o no?",
        "¿la sesión de anoche terminó bien?",
        "¿Cuántos worktrees hay abiertos ahora mismo?",
        "¿el registro de la tarea es coherente con la rama?",
        "¿quedó algún lock abierto después del corte?",
        "¿los hooks del repo siguen siendo los de la plantilla?",
    ],
)
def test_es_a_question_on_the_protocols_state_is_an_audit(message: str) -> None:
    _check(message, "AUDIT", "es-audit-ask")


@pytest.mark.parametrize(
    "message",
    [
        "o lock da tarefa de boletos ainda tá no seu nome?",
        "quem tá segurando o lock agora?",
        "de quem é o lock da tarefa de frete?",
        "a sessão do agente ainda tá viva ou virou zumbi?",
        "os hooks do repo estão instalados?",
        "os hooks do taskproto tão ativos nesse clone?",
        "o worktree da tarefa aponta pra qual branch?",
        "o pid do lock ainda é de um processo vivo?",
        "a sessão de ontem terminou direito?",
        "o estado da tarefa tá certo?",
        "o lock da tarefa expirou?",
        "o lockfile da tarefa de frete sumiu?",
        "quantas sessões ficaram abertas depois do crash?",
        "tá faltando entrada no journal depois da queda de luz?",
        "o registro da tarefa tá coerente com a branch?",
        "o lock ainda continua sendo seu?",
    ],
)
def test_pt_a_question_on_the_protocols_state_is_an_audit(message: str) -> None:
    _check(message, "AUDIT", "pt-audit-ask")


# ... but how the protocol works (why, how, when, what happens if, by default, how many it can
# take), the code's own sessions, hooks and locks, and a thing asked "is it needed" are not
@pytest.mark.parametrize(
    "message",
    [
        "¿cómo funciona el heartbeat de la sesión?",
        "¿cuándo caduca el lock?",
        "¿por qué el journal guarda los pasos en refs?",
        "¿qué pasa con el lock si el agente se cae?",
        "¿el lock se libera automáticamente al terminar?",
        "¿el lock expira por defecto a la hora?",
        "¿cuántos worktrees soporta taskproto?",
        "¿la sesión del usuario caduca a los 30 minutos?",
        "¿el hook useEffect sigue activo tras desmontar?",
        "¿el webhook de Stripe está activado en producción?",
        "¿el mutex del inventario sigue bloqueado si falla el pago?",
        "¿hace falta el lock para leer el journal?",
        "como funciona o heartbeat da sessão?",
        "quando o lock expira?",
        "o que acontece com o lock se o agente cair?",
        "o lock é liberado automaticamente no fim?",
        "quantos worktrees o taskproto aguenta?",
        "a sessão do usuário ainda expira em 30 minutos?",
        "o webhook do Stripe tá ativo em produção?",
        "entendi certo que o hook ainda bloqueia o push?",
    ],
)
def test_how_the_protocol_works_or_the_codes_own_is_no_audit(message: str) -> None:
    found = classify(message)
    assert found.type != "AUDIT" and found.rule not in {"es-audit-ask", "pt-audit-ask"}, (
        message,
        found,
    )


# 2. The way made free after the news that lifted the wait is a go: "it's yours", "vía libre",
# "tá liberado pro X", "vai fundo", "pode voltar pro X", "toca o X"
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("firmaron el contrato, vía libre con las reservas", "es-go-free"),
        ("Tienes vía libre", "es-go-free"),
        ("el cliente ya pagó: es todo tuyo", "es-go-free"),
        ("QA dio el visto bueno, estás liberado para el checkout", "es-go-free"),
        ("a homologação passou, tá liberado pro checkout", "pt-go-free"),
        ("pronto, liberado pras notas fiscais", "pt-go-free"),
        ("jurídico aprovou, vai fundo no módulo de reservas", "pt-go-free"),
        ("a janela acabou, pode voltar pro deploy", "pt-go-free"),
        ("o design foi aprovado, é contigo", "pt-go-free"),
        ("o jurídico liberou, toca o aviso de cookies", "pt-go-free"),
    ],
)
def test_the_way_made_free_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... but not denied, asked, held after, back to a person, or said of someone else
@pytest.mark.parametrize(
    "message",
    [
        "todavía no hay vía libre con las reservas",
        "no tienes vía libre hasta que firme legal",
        "¿tengo vía libre con las reservas?",
        "el contrato es tuyo, pero no sigas hasta que lo firme legal",
        "estás liberado para el checkout, pero espera a que pase el CI",
        "ainda não tá liberado pro checkout",
        "tá liberado pro checkout?",
        "tá liberado pro checkout, mas espera o CI passar",
        "nem vai fundo nisso agora",
        "não vai fundo no refactor ainda",
        "quando terminar, pode voltar pra mim com o relatório",
        "é contigo?",
        "o acesso tá liberado pro time de suporte",
        "o botão 'tá liberado' não aparece no app",
    ],
)
def test_the_way_denied_asked_or_held_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", (message, classify(message))


# 3. A condition that is the agent's own step, said in its person, is no wait: "cuando termines
# X, sigue con Y", "cuando tengas X listo, …", "quando você terminar X, segue com Y"
@pytest.mark.parametrize(
    "message",
    [
        "cuando tengas el parser listo, sigue con el exportador",
        "cuando termines el login, continúa con el registro",
        "en cuanto acabes las migraciones, sigue con los seeds",
        "una vez que hayas terminado el login, continúa con el perfil",
        "quando você terminar o login, segue com o cadastro",
        "assim que você acabar o login, continua com o perfil",
    ],
)
def test_a_go_after_the_agents_own_step_is_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", (message, classify(message))


# ... while an event, someone else's ok or the work's own state still hold the go
@pytest.mark.parametrize(
    "message",
    [
        "cuando llegue el SDK, sigue con la pasarela",
        "cuando tengas el ok de legal, sigue con las cookies",
        "cuando tengas el visto bueno de Marta, sigue con el perfil",
        "cuando el login esté listo, sigue con el perfil",
        "cuando termine el CI, sigue con el perfil",
        "cuando el cliente tenga las credenciales, continúa",
        "cuando termines el login, no sigas con el perfil",
        "quando o SDK chegar, segue com a integração",
        "quando você tiver o ok da Marta, continua com o perfil",
        "quando o login terminar, continua com o perfil",
        "quando o cliente mandar as credenciais, continua",
        "quando você terminar o login, não segue com o perfil ainda",
    ],
)
def test_a_go_after_an_event_or_someone_elses_ok_is_held(message: str) -> None:
    assert classify(message).type == "OTHER", (message, classify(message))


# 4. Whether the task's work got done, asked: not yet, by the time or the chance it had, what is
# left or works of it, anything ready to show
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("¿todavía no terminaste el presupuesto?", "es-status-notyet"),
        ("¿aún no está listo el deploy?", "es-status-notyet"),
        ("¿te ha dado tiempo a terminar la carga de socios?", "es-status-managed"),
        ("¿te dio tiempo de subir los cambios del carrito?", "es-status-managed"),
        ("¿alcanzaste a terminar el módulo de pagos?", "es-status-managed"),
        ("¿llegaste a acabar las migraciones?", "es-status-managed"),
        ("¿pudiste terminar el exportador?", "es-status-managed"),
        ("¿qué pantallas del admin te quedan por hacer?", "es-status-managed"),
        ("¿qué partes del checkout funcionan ya?", "es-status-managed"),
        ("¿hay algo listo para enseñar al cliente mañana?", "es-status-managed"),
        ("ainda não acabou o deploy?", "pt-status-notyet"),
        ("ué, ainda não terminou a planilha não?", "pt-status-notyet"),
        ("deu tempo de terminar a carga dos sócios?", "pt-status-managed"),
        ("chegou a terminar as migrações?", "pt-status-managed"),
        ("quais telas do admin ainda faltam?", "pt-status-managed"),
        ("que partes do checkout já funcionam?", "pt-status-managed"),
        ("tem algo pronto pra eu mostrar pro cliente amanhã?", "pt-status-managed"),
        ("o cadastro de sócios pela tela do celular já funciona?", "pt-status-managed"),
    ],
)
def test_whether_the_work_got_done_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


# ... but "not yet" said is a hold, a thing understood or how it behaves is a question
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("todavía no, espera", "OTHER"),
        ("todavía no terminaste, así que espera", "OTHER"),
        ("ainda não, segura aí", "OTHER"),
        ("ainda não terminou, então espera", "OTHER"),
        ("¿pudiste entender por qué falla el parser?", "QUESTION"),
        ("¿qué pasa si queda un pedido sin pagar?", "QUESTION"),
        ("¿el scraper respeta el robots.txt?", "QUESTION"),
        ("o scraper respeita o robots.txt?", "QUESTION"),
    ],
)
def test_not_yet_said_or_how_it_behaves_is_no_status_request(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 5. A question's choice of before or after, or its last words saying after what, is not a clause
# of its own that says when (a hold's form): "é bloqueada antes ou depois do pagamento?" asks
@pytest.mark.parametrize(
    "message",
    [
        "¿la reserva se bloquea antes o después del pago?",
        "¿el descuento se aplica antes o después del IVA?",
        "a vaga é reservada antes ou depois do pagamento?",
        "o desconto entra antes ou depois do frete?",
    ],
)
def test_before_or_after_asked_is_no_time(message: str) -> None:
    found = classify(message)
    assert found.type != "OTHER" and found.rule not in {"es-deferred", "pt-deferred"}, found


def test_a_go_then_after_what_still_holds() -> None:
    assert classify("continua depois do almoço?").type == "OTHER"
    assert classify("sigue después del almuerzo").type == "OTHER"
    assert classify("faz o login e depois segue com o perfil").type == "RESUMPTION"


@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        # how it works, asked of a protocol object: a question the model does not make an audit
        # (the model retrained on batch "17t" read the first three as audits at 0.51-0.85)
        ("¿Cuándo se actualiza el journal?", "QUESTION", "es-question-how"),
        ("¿hace falta el lock para leer el journal?", "QUESTION", "es-question-how"),
        ("¿El hook pre-commit sigue fallando?", "QUESTION", "es-question-how"),
        ("¿Cómo se renueva el heartbeat de la sesión?", "QUESTION", "es-question-how"),
        # its state now stays an audit
        ("¿El worktree sigue ahí?", "AUDIT", "es-audit-ask"),
        ("¿Sigue llegando el heartbeat?", "AUDIT", None),
        ("¿El journal está guardando los claims? Revísalo.", "AUDIT", None),
        # a why with a check asked beside it: the check
        (
            "¿por qué el worktree está en detached HEAD? debería estar en main, revísalo",
            "AUDIT",
            None,
        ),
    ],
)
def test_how_a_protocol_object_works_is_a_question_the_model_keeps(
    message: str, expected: str, rule: str | None
) -> None:
    got = classify(message)
    assert got.type == expected, got
    if rule is not None:
        assert got.rule == rule, got
