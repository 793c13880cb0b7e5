"""Issue #45's eighteenth round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Eighteenth round: the rules (Spanish and Brazilian Portuguese)"): each
rule written for a kind the twentieth batch missed, read by its form, from messages of the round's
own in other wordings (registers, word orders, verbs, with and without "¿"/"?", without accents),
with the near-misses that must stay what they are, holds hardest. New messages, none a corpus row.
"""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A question said as wondering, doubt or not understanding, about the code or a choice
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("Me pregunto si el parser aguanta ficheros de varios gigas", "es-wonder-question"),
        ("me pregunto cómo escala esto con mil usuarios concurrentes", "es-wonder-question"),
        ("me preguntaba por qué elegiste Redis en vez de memcached", "es-wonder-question"),
        ("no me queda muy claro qué hace el middleware de auth", "es-wonder-question"),
        (
            "No me quedó claro por qué el servicio de cobros llama dos veces a la API",
            "es-wonder-question",
        ),
        ("no tengo claro si el cache se invalida al editar un producto", "es-wonder-question"),
        ("no acabo de entender para que sirve la tabla intermedia", "es-wonder-question"),
        ("no termino de entender cómo se reparte la carga entre workers", "es-wonder-question"),
        ("quisiera entender como se calculan los descuentos", "es-wonder-question"),
        ("me gustaría entender por qué separaste el módulo de pagos", "es-wonder-question"),
        ("tengo curiosidad por saber cómo manejas los reintentos", "es-wonder-question"),
        ("la verdad no pillo el por qué del doble commit en el ORM", "es-wonder-question"),
        ("Fico me perguntando se o Postgres aguenta esse volume de escrita", "pt-wonder-question"),
        ("me pergunto por que você usou um singleton aqui", "pt-wonder-question"),
        ("não ficou claro pra mim o que o padrão observer traz nesse caso", "pt-wonder-question"),
        ("nao ta claro pra mim como o cache e invalidado", "pt-wonder-question"),
        ("queria entender como funciona o cálculo do frete", "pt-wonder-question"),
        ("gostaria de entender pra que serve essa fila", "pt-wonder-question"),
        ("não consegui entender o que esse decorator faz", "pt-wonder-question"),
        ("tô com uma dúvida sobre como o retry do client funciona", "pt-wonder-question"),
        ("cara, não saquei por que o serviço de CEP é chamado duas vezes", "pt-wonder-question"),
    ],
)
def test_a_wondering_or_a_doubt_about_the_code_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


# ... about where the work stands, a status request
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("me pregunto cuánto te falta para terminar el importador", "es-wonder-status"),
        ("tengo curiosidad de saber por dónde vas con el checkout", "es-wonder-status"),
        ("fico me perguntando quanto falta pra você terminar o relatório", "pt-wonder-status"),
        ("queria saber até onde você chegou no checkout", "pt-wonder-status"),
    ],
)
def test_a_wondering_about_the_works_progress_is_a_status_request(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


# ... a doubt on going on or a hold in the same words is no question, and never a go
@pytest.mark.parametrize(
    "message",
    [
        "me pregunto si no deberíamos parar aquí",
        "me pregunto si vale la pena seguir hoy, mejor mañana",
        "no me queda claro si seguir o parar, lo hablamos mañana",
        "no tengo claro si conviene esperar al review",
        "me pergunto se vale a pena continuar hoje",
        "não tá claro se devemos esperar o review",
        "fico me perguntando se não era melhor parar por hoje",
    ],
)
def test_a_doubt_on_going_on_is_no_question_and_no_go(message: str) -> None:
    found = classify(message)
    assert found.type not in {"RESUMPTION", "QUESTION"}, (message, found)


def test_not_knowing_why_said_stays_a_remark() -> None:
    _check("la verdad ni sé por qué el deploy funciona", "OTHER", "es-wonder-remark")


# 2. Asking to go on explaining is a question, not a go: the go word governs the telling
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("sigue explicándome el reparto de módulos, no lo pillé", "es-explain-question"),
        ("continúa con la explicación del flujo de pagos", "es-explain-question"),
        ("sigue contándome cómo funciona el scheduler", "es-explain-question"),
        ("continua explicando lo del cache, que me perdí", "es-explain-question"),
        ("dale, seguí explicándome lo de las colas", "es-explain-question"),
        ("¿puedes seguir con tu explicación de los índices?", "es-explain-question"),
        ("continua me explicando o fluxo de login, não peguei", "pt-explain-question"),
        ("segue explicando a parte do webhook", "pt-explain-question"),
        ("continua a explicação do modelo de dados", "pt-explain-question"),
        ("pode continuar explicando como o cache funciona?", "pt-explain-question"),
        ("segue me contando como você montou o deploy", "pt-explain-question"),
    ],
)
def test_asking_to_go_on_explaining_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


# ... and a go then "but first tell me why" asks last
@pytest.mark.parametrize(
    "message",
    [
        "sigue, pero antes contame por qué usaste un trie",
        "sigue, pero primero decime qué hace ese flag",
        "sigue, pero decime primero cómo probaste el webhook",
        "continua, mas me diz antes por que o teste falha",
    ],
)
def test_a_go_then_tell_me_why_is_a_question(message: str) -> None:
    assert classify(message).type == "QUESTION", (message, classify(message))


# ... while the task's own work, explaining written into the docs, and a negated telling stay
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("sigue con los tests del carrito", "RESUMPTION"),
        ("sigue explicando los endpoints en el README", "RESUMPTION"),
        ("continua explicando os endpoints no README", "RESUMPTION"),
        ("continua com a doc da API", "RESUMPTION"),
        ("no sigas explicando, ya lo entendí", "OTHER"),
        ("não precisa continuar explicando, já entendi", "OTHER"),
        ("dime por que no, y sigue", "RESUMPTION"),
    ],
)
def test_the_works_own_go_and_a_negated_telling_stay(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 3. A go in clipped, colloquial or loan form: the turn handed over, "y tira", "llévalo hasta
# el final", "shipéalo", "sua vez", "leva até o fim", "pd continuar", "ship it 🚀"
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("listo, ya configuré el token. Te toca", "es-go-free"),
        ("ya está el certificado, te toca a ti", "es-go-free"),
        ("subí las credenciales; ahora es tu turno", "es-go-free"),
        ("me convenciste, hazlo con colas y tira", "es-go-free"),
        ("vale, pues tira", "es-go-free"),
        ("llévalo hasta el final, luego lo miro", "es-go-free"),
        ("shipéalo nomás", "es-go-free"),
        ("pronto, coloquei a variável. Sua vez", "pt-go-free"),
        ("subi o certificado, agora é a tua vez", "pt-go-free"),
        ("leva até o fim, depois eu olho", "pt-go-free"),
        ("pd continuar", "pt-resumption"),
        ("alright, ship it 🚀", "polite-go-ahead"),
        ("lgtm 👍", "polite-go-ahead"),
        ("y después vuelve a la pantalla de cupones", "es-go-onto"),
        ("luego regresa al módulo de envíos", "es-go-onto"),
    ],
)
def test_a_clipped_or_loan_go_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


# ... but not denied, asked, another sense, put off or on a condition
@pytest.mark.parametrize(
    "message",
    [
        "no te toca todavía, espera al review",
        "¿te toca a ti o a Marta?",
        "te toca a ti decidir el nombre",
        "te toca esperar a que termine el CI",
        "no es tu turno, espera a Marta",
        "no tires el contenedor, que lo uso",
        "tira el contenedor viejo y espera",
        "no lo lleves hasta el final todavía",
        "shipéalo mañana",
        "não é sua vez ainda",
        "é sua vez?",
        "ainda não leva até o fim, espera a Ana",
        "don't ship it 🚀",
        "ship it tomorrow 🚀",
        "ship it now? 🚀",
        "ok 👍",
    ],
)
def test_a_clipped_go_denied_asked_or_held_is_no_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", (message, classify(message))


# 4. Where the work stands against how the code behaves (how complete the work is; how many a
# thing of the code has, how a thing is stored or computed, whether it is on purpose)
@pytest.mark.parametrize(
    ("message", "kind", "rule"),
    [
        ("¿qué tan completo está el módulo de facturas?", "STATUS_REQUEST", "es-status-complete"),
        ("¿qué tan avanzado va el checkout?", "STATUS_REQUEST", "es-status-complete"),
        ("y cuán terminado lo tienes?", "STATUS_REQUEST", "es-status-complete"),
        ("¿cuántos estados tiene la máquina de pedidos?", "QUESTION", "es-count-asked"),
        ("¿cuántas columnas hay en la tabla de facturas?", "QUESTION", "es-count-asked"),
        ("¿cuántos reintentos admite el cliente HTTP?", "QUESTION", "es-count-asked"),
        ("quantos estados tem a máquina de pedidos?", "QUESTION", "pt-count-asked"),
        ("quantas colunas tem a tabela de notas?", "QUESTION", "pt-count-asked"),
        ("quantos retries o client suporta?", "QUESTION", "pt-count-asked"),
        ("¿las fechas se guardan con zona horaria?", "QUESTION", "es-behaviour-asked"),
        ("los precios se redondean antes del IVA?", "QUESTION", "es-behaviour-asked"),
        ("¿los tokens se cifran con AES?", "QUESTION", "es-behaviour-asked"),
        ("el orden de los pedidos es intencional?", "QUESTION", "es-behaviour-asked"),
        ("¿el 404 del endpoint de facturas es a propósito?", "QUESTION", "es-behaviour-asked"),
        ("as datas são salvas com fuso?", "QUESTION", "pt-behaviour-asked"),
        ("o 404 do endpoint é de propósito?", "QUESTION", "pt-behaviour-asked"),
        ("As senhas tão sendo guardadas com bcrypt?", "QUESTION", "pt-behaviour-asked"),
        ("os preços são arredondados antes do imposto?", "QUESTION", "pt-behaviour-asked"),
        ("esse comportamento do carrinho é intencional?", "QUESTION", "pt-behaviour-asked"),
    ],
)
def test_how_complete_the_work_is_or_what_the_code_has(message: str, kind: str, rule: str) -> None:
    _check(message, kind, rule)


# ... the work's own count (left, done, failing, "ya") and what the agent did stay status
# requests, the protocol's objects an audit
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("¿cuántas pantallas quedan?", "STATUS_REQUEST"),
        ("¿cuántos tests tienes ya?", "STATUS_REQUEST"),
        ("¿cuántos worktrees hay abiertos?", "AUDIT"),
        ("quantos testes ainda faltam?", "STATUS_REQUEST"),
        ("quantos worktrees existem agora?", "AUDIT"),
        ("¿ya guardaste los cambios en la rama?", "STATUS_REQUEST"),
        ("já salvou as migrações no repo?", "STATUS_REQUEST"),
        ("o deploy foi feito com a tag nova?", "STATUS_REQUEST"),
        ("você já gravou os testes com o fixture novo?", "STATUS_REQUEST"),
    ],
)
def test_the_works_count_or_the_protocols_stay(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))


# 5. An audit of the protocol's present state said short or as an order: "¿sigue instalado?",
# which worktree belongs to a task, a session new or reused, "checa a trava"
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("tengo un hook de lint en el repo... ¿sigue instalado?", "es-still-audit"),
        ("¿sigue vivo el heartbeat de la sesión?", "es-still-audit"),
        ("y siguen ahí los locks de ayer?", "es-still-audit"),
        ("sigue activado?", "es-still-audit"),
        ("el claim de la tarea de envíos, ¿sigue a tu nombre?", "es-still-audit"),
        ("tem um hook de testes aqui... continua instalado?", "pt-still-audit"),
        ("tem um worktree velho ali... segue vivo?", "pt-still-audit"),
        ("¿cuál worktree es de la tarea de envíos?", "es-audit-ask"),
        ("¿la sesión es nueva o reutilizada?", "es-audit-ask"),
        ("qual worktree é da tarefa de frete?", "pt-audit-ask"),
        ("essa sessão é nova ou reaproveitada?", "pt-audit-ask"),
        ("checa a trava, acho que travou", "pt-check-lock"),
        ("dá uma olhada na trava da tarefa de boletos", "pt-check-lock"),
        ("confere essa trava antes de começar", "pt-check-lock"),
    ],
)
def test_the_protocols_state_said_short_or_as_an_order_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


# ... not the work still running, the app's own freezing, nor a go
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("¿sigue corriendo el build?", "STATUS_REQUEST"),
        ("¿sigue activo el build de la noche?", "STATUS_REQUEST"),
        ("¿sigue roto el login?", "STATUS_REQUEST"),
        ("continua quebrado o checkout?", "STATUS_REQUEST"),
        ("o app trava quando abro o carrinho", "OTHER"),
        ("sigue con la sesión de pruebas", "RESUMPTION"),
        ("segue com o hook de testes", "RESUMPTION"),
    ],
)
def test_the_work_still_running_or_the_apps_own_is_no_audit(message: str, kind: str) -> None:
    found = classify(message)
    assert found.type == kind and found.rule not in {"es-still-audit", "pt-still-audit"}, found


# 6. Never a go: a go verb meaning follow, a condition not met ("solo … si", "só … se")
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("sigue el patrón del resto de controladores", "es-follow-remark"),
        ("seguí la convención de nombres del repo", "es-follow-remark"),
        ("sigan las reglas del linter, porfa", "es-follow-remark"),
        ("prefiero espacios, pero sigue siempre el mismo formato de commits", "es-follow-remark"),
        ("segue o padrão do projeto", "pt-follow-remark"),
        ("siga a convenção de nomes do time", "pt-follow-remark"),
        ("prefiro aspas simples, mas segue sempre o guia de estilo", "pt-follow-remark"),
    ],
)
def test_a_go_verb_meaning_follow_is_no_go(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    "message",
    [
        "solo sigue con el deploy si el build nocturno pasa",
        "sólo retoma la migración si Marta da el ok",
        "continúa únicamente si los tests de carga salen bien",
        "só volta pro relatório se o deploy noturno passar",
        "só continua a migração se a Ana aprovar",
        "você só continua se o CI noturno passar",
        "pode retomar o importador só se o cliente mandar a planilha",
    ],
)
def test_a_go_only_if_a_condition_is_held(message: str) -> None:
    assert classify(message).type == "OTHER", (message, classify(message))


# ... while "continue with the pattern" and a plain "just go on" stay gos
@pytest.mark.parametrize(
    "message",
    [
        "sigue con el patrón que empezaste en el módulo de pagos",
        "segue com o padrão que você começou no checkout",
        "solo sigue, ya está todo listo",
        "só continua, tá tudo certo",
        "beleza, segue o baile com o relatório",
    ],
)
def test_continuing_with_a_pattern_or_just_going_on_is_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", (message, classify(message))


# A greeting asked is small talk, not a status request; "tudo certo com X?" still asks
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("Boa tarde! Tudo certo por aí?", "OTHER"),
        ("oi! tudo bem do seu lado?", "OTHER"),
        ("Tudo tranquilo por aí? Aqui choveu muito", "OTHER"),
        ("tudo certo por aqui, pode seguir", "RESUMPTION"),
        ("tudo certo com o deploy?", "STATUS_REQUEST"),
    ],
)
def test_a_greeting_asked_is_small_talk(message: str, kind: str) -> None:
    assert classify(message).type == kind, (message, classify(message))
