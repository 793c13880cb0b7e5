"""Issue #45's twentieth round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Twentieth round: the rules (Spanish and Brazilian Portuguese)"): each
rule written for a kind the twenty-second batch missed, in any language, read by its form, from
messages of the round's own in other wordings (registers, voseo, usted, chat spelling, word
orders, with and without "¿"/"?", without accents), with the near-misses that must stay what
they are, holds hardest. New messages, none a corpus row.
"""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads


# 1. A status request asked as when, as a thing to be sent, as "will you have it before …", as
# a bare "done?" or as a percentage
@pytest.mark.parametrize(
    "message",
    [
        "¿Cuándo tendré la primera versión del módulo de reservas?",
        "cuando podre ver un primer borrador del calendario de turnos",
        "cuando tendre algo que pueda enseñar al cliente?",
        "¿Para cuándo estará lista la integración con Stripe?",
        "¿Para cuándo tendrás el informe de ventas?",
        "y la pantalla de login, ¿para cuándo?",
        "oye y para cuando??",
        "para cuándo crees que estará terminado el módulo de stock",
        "¿cuándo me pasas algo que pueda probar del carrito?",
        "cuándo calculas que acabas con los reportes",
        "¿Y cuándo estará desplegado lo del checkout?",
        "¿Lo tendrás listo antes de la demo de mañana?",
        "¿me lo tendrás terminado antes del cierre?",
        "¿llegas a terminarlo antes de las 6?",
        "¿alcanzas a terminarlo antes de las 3?",
        "¿Me puedes enviar un status del módulo de cobros?",
        "¿Podría enviarme un informe del avance de la migración?",
        "¿me puedes pasar un resumen del estado del importador?",
        "dime solo el porcentaje de avance",
        "decime nomás el porcentaje",
        "quando vou ter a primeira versão do módulo de reservas?",
        "qnd vou ter algo pra mostrar pro cliente?",
        "Quando posso esperar um primeiro rascunho da agenda?",
        "quando a gente vai poder testar o checkout?",
        "pra quando fica pronta a integração com o Pix?",
        "e a tela de login, fica pronta quando?",
        "e aí, pra quando??",
        "quando você acha que fica pronto o módulo de estoque",
        "quando tu termina os relatórios?",
        "consegue ter isso antes da loja fechar às 18h?",
        "vai dar tempo de terminar antes da demo de amanhã?",
        "vc consegue terminar isso até sexta?",
        "você fecha isso antes das 15h?",
        "Poderia me enviar um status do módulo de estoque?",
        "poderia me mandar um relatório do andamento da migração?",
        "pode me passar um resumo do estado do importador?",
        "me diz só a porcentagem de progresso",
        "me fala só o percentual",
        "finalizou?",
        "e então, finalizou?",
    ],
)
def test_a_status_asked_as_when_sent_or_before_is_a_status_request(message: str) -> None:
    reads(message, "STATUS_REQUEST")


# ... but when the code does a thing, an obligation, and the state of the app stay questions
@pytest.mark.parametrize(
    "message",
    [
        "¿cuándo se dispara el webhook de pagos?",
        "¿cuándo se usa el índice parcial?",
        "¿cuándo conviene usar un índice parcial?",
        "quando o webhook de pagamento dispara?",
        "quando roda o cron de limpeza?",
        "quando a gente vai ter que migrar pro Postgres 16?",
    ],
)
def test_when_the_code_does_a_thing_stays_a_question(message: str) -> None:
    reads(message, "QUESTION")


# 2. A go as the task's own verb on what is missing, as "deploy it" after an approval, as going
# straight on after a step, or after a check told first
@pytest.mark.parametrize(
    "message",
    [
        "Implementa lo que falta del módulo de turnos por sede",
        "escribe los tests que faltan del importador de CSV",
        "escribí los tests que faltan del carrito",
        "haz las migraciones que faltan para el esquema de clientes",
        "completa los endpoints que quedan pendientes del carrito",
        "agrega las validaciones que faltan en el formulario de alta",
        "implemente lo que resta del flujo de devoluciones",
        "termine usted lo que queda del informe, por favor",
        "ya llegó la aprobación, despliégalo",
        "la aprobación ya pasó, sube a producción",
        "ya aprobaron, súbelo a producción",
        "listo el OK, despliégalo ya",
        "dime solo si la sesión sigue activa y luego ya puedes volver al trabajo",
        "implementa o que falta do módulo de escalas por unidade",
        "escreve os testes que faltam pro importador de CSV",
        "faz as migrations que faltam do esquema de clientes",
        "completa os endpoints que ainda faltam do carrinho",
        "termina você o que falta do relatório, por favor",
        "a aprovação saiu, sobe pra produção",
        "aprovaram, pode fazer o deploy",
        "sobe isso e já emenda no módulo de boletos",
        "faz o merge e já parte pro ticket de login",
        "me avisa se o build passou e aí segue com o deploy",
        "só me confirma se o lock ainda tá com você e depois continua",
    ],
)
def test_a_go_on_what_is_missing_or_after_an_approval_is_a_go(message: str) -> None:
    reads(message, "RESUMPTION")


# ... but a go put off, on a condition, denied, asked, a change, or its verb as a fact stays no go
@pytest.mark.parametrize(
    "message",
    [
        "implementa lo que falta del módulo de turnos, pero mañana",
        "implementa lo que falta mañana",
        "no implementes lo que falta todavía",
        "no implementes lo que falta hasta que lo revise",
        "súbelo cuando pase el CI",
        "sube a producción mañana",
        "no lo subas a producción todavía",
        "hazlo más corto",
        "cuando el cliente apruebe, continúa",
        "continúa cuando llegue el feedback del playtest",
        "implementa o que falta do módulo de escalas, mas amanhã",
        "não implementa o que falta ainda",
        "sobe pra produção amanhã",
        "sobe pra produção quando o CI passar",
        "não sobe pra produção ainda",
        "continua só se o cliente aprovar",
        "continua quando chegar o feedback do playtest",
    ],
)
def test_a_go_put_off_on_a_condition_or_denied_is_no_go(message: str) -> None:
    reads(message, "OTHER")


@pytest.mark.parametrize(
    "message",
    [
        "¿implemento lo que falta del módulo de turnos?",
        "¿lo subo a producción?",
        "implemento o que falta do módulo de escalas?",
        "subo pra produção?",
    ],
)
def test_a_go_asked_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type not in ("RESUMPTION", "OTHER"), (message, found)


# 3. An audit of a past protocol event or of a leftover artefact
@pytest.mark.parametrize(
    "message",
    [
        "¿se liberó bien el lock cuando pausaste?",
        "¿el lock se liberó al cerrar la sesión?",
        "¿se borró el worktree cuando terminaste la tarea?",
        "¿quedó liberado el lock cuando se cortó la sesión?",
        "¿el worktree tmp-3 se usa todavía o está muerto?",
        "o lock foi liberado direitinho quando você pausou?",
        "o lock foi liberado quando você fechou a sessão?",
        "o worktree foi apagado quando você terminou a tarefa?",
        "o worktree tmp-3 ainda tá em uso ou tá morto?",
    ],
)
def test_a_past_protocol_event_or_a_leftover_is_an_audit(message: str) -> None:
    reads(message, "AUDIT")


# ... but the code's own memory or a dead function is a question
@pytest.mark.parametrize(
    "message",
    [
        "¿se liberó la memoria cuando cerraste el archivo?",
        "¿la función vieja se usa todavía o está muerta?",
        "a memória foi liberada quando você fechou o arquivo?",
        "a função antiga ainda é usada ou tá morta?",
    ],
)
def test_the_codes_own_release_stays_a_question(message: str) -> None:
    reads(message, "QUESTION")


# 4. A question on the code as a wonder, as a change's content, as how a thing was done, as
# where a thing comes from, in my opinion, as an upgrade's effect, or as what the tool can do
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("me pregunto si deberíamos guardar los tiempos en milisegundos", "es-wonder-should"),
        ("estaba pensando si conviene cachear las respuestas del catálogo", "es-wonder-should"),
        ("me pregunto si deberíamos usar UUIDs en vez de enteros", "es-wonder-should"),
        ("me pregunto si deberíamos seguir con Redis o pasar a Memcached", "es-wonder-should"),
        ("qué cambió ese último commit, dilo en breve", "es-change-asked"),
        ("que cambio el ultimo commit", "es-change-asked"),
        ("dime rápido qué tocó ese PR", "es-change-asked"),
        ("Cuéntame cómo implementaste la caché de sesiones", "es-how-done-asked"),
        ("contame cómo resolviste lo de los duplicados", "es-how-done-asked"),
        ("explícame cómo hiciste la paginación", "es-how-done-asked"),
        ("el N+1 de la lista de pedidos, ¿de dónde viene según tú?", "es-opinion-asked"),
        ("el memory leak, ¿de dónde sale en tu opinión?", "es-opinion-asked"),
        ("por q no usamos un enum aquí", "es-opinion-asked"),
        ("xq falla el test de fechas", "es-opinion-asked"),
        ("¿actualizar Django ahora rompe el cliente de pagos?", "es-effect-asked"),
        ("¿subir a Python 3.12 rompe algo del ORM?", "es-effect-asked"),
        ("¿se puede correr el comando de auditoría fuera de un repo git?", "es-tool-asked"),
        ("¿se puede ejecutar el doctor desde otro directorio?", "es-tool-asked"),
        ("¿puedo usar el comando de auditoría en windows?", "es-tool-asked"),
        ("fico pensando se a gente devia guardar os tempos em milissegundos", "pt-wonder-should"),
        ("tava pensando se compensa cachear as respostas do catálogo", "pt-wonder-should"),
        ("será que a gente devia usar um índice composto?", "pt-wonder-should"),
        ("me pergunto se a gente devia continuar com o Redis ou trocar pro Memcached", None),
        ("o que mudou nesse último commit, fala rapidinho", "pt-change-asked"),
        ("me diz rapidinho o que o último PR mudou", "pt-change-asked"),
        ("Me conta como você implementou o cache de sessão", "pt-how-done-asked"),
        ("me conta como fez a paginação", "pt-how-done-asked"),
        ("o N+1 da listagem de pedidos, de onde vem na sua opinião?", "pt-opinion-asked"),
        ("o memory leak, de onde tá saindo na tua opinião?", "pt-opinion-asked"),
        ("de onde vem esse warning de deprecation", "pt-opinion-asked"),
        ("atualizar o Django agora quebra o client de pagamentos?", "pt-effect-asked"),
        ("subir pro Python 3.12 quebra alguma coisa do ORM?", "pt-effect-asked"),
        ("tem como usar o comando de auditoria no windows?", "pt-tool-asked"),
        ("dá pra executar o doctor fora do repositório?", None),
    ],
)
def test_a_question_on_the_code_by_its_form_is_a_question(message: str, rule: str | None) -> None:
    reads(message, "QUESTION", rule)


# ... but the work's own changes, how the work went, and an audit asked stay what they are
@pytest.mark.parametrize(
    ("message", "kind"),
    [
        ("¿qué cambiaste en el último commit?", "STATUS_REQUEST"),
        ("cuéntame cómo vas con la caché", "STATUS_REQUEST"),
        ("cuéntame cómo avanzaste hoy", "STATUS_REQUEST"),
        ("me pregunto si ya terminaste", "STATUS_REQUEST"),
        ("corre el comando de auditoría", "AUDIT"),
        ("o que você mudou no último commit?", "STATUS_REQUEST"),
        ("me conta como tá indo o cache", "STATUS_REQUEST"),
        ("me conta como avançou hoje", "STATUS_REQUEST"),
        ("roda o comando de auditoria", "AUDIT"),
        ("dá pra rodar uma auditoria agora?", "AUDIT"),
    ],
)
def test_the_works_own_changes_and_an_audit_stay(message: str, kind: str) -> None:
    reads(message, kind)


# 5. Never a go: keep waiting, a doubt on stopping or going on, a go word as a noun, a work verb
# denied (after a go, a limit on it: the go stands)
@pytest.mark.parametrize(
    "message",
    [
        "llegó la aprobación, pero de la oficina equivocada, así que sigue esperando",
        "así que sigue esperando",
        "continúa en espera hasta que te avise",
        "sigue esperando el OK del cliente",
        "quédate quieto de momento",
        "sigue sin tocar nada",
        "me pregunto si no deberíamos parar aquí",
        "me pregunto si no deberiamos parar y revisar el diseño",
        "no sé si vale la pena seguir con este enfoque",
        "me pregunto si vale la pena seguir con esto",
        "la continuidad del servicio se cayó",
        "la continuación del proyecto depende del presupuesto",
        "la reanudación de los pedidos fue lenta",
        "no toques nada más",
        "nunca despliegues en viernes",
        "a aprovação chegou, mas da área errada, então continua esperando",
        "então continua esperando",
        "segue aguardando o ok do cliente",
        "fica quieto por enquanto",
        "me pergunto se não devíamos parar por aqui",
        "será que vale a pena continuar com isso",
        "não sei se vale a pena continuar assim",
        "A continuidade do serviço caiu.",
        "a continuação do projeto foi adiada",
        "a retomada das vendas foi fraca esse mês",
        "não mexe em mais nada",
        "nunca faz deploy na sexta",
    ],
)
def test_waiting_a_doubt_a_noun_and_a_denied_verb_are_no_go(message: str) -> None:
    reads(message, "OTHER")


@pytest.mark.parametrize(
    "message",
    [
        "sigue esperando? no, ya puedes seguir",
        "sigue trabajando",
        "sigue, pero no toques las tablas de auditoría",
        "continua esperando? não, pode seguir",
        "continua trabalhando",
        "foi engano meu, continua de boa",
    ],
)
def test_a_go_beside_them_stays_a_go(message: str) -> None:
    reads(message, "RESUMPTION")


# A clock time's colon does not split a clause ("a las 18:30"): the clause before it is read
# whole, not its minutes as a clause of their own that only asks ("30?")
@pytest.mark.parametrize(
    ("message", "kind", "rule"),
    [
        (
            "¿alcanzas a tenerlo listo antes de que cierre la oficina a las 18:30?",
            "STATUS_REQUEST",
            "es-status-before",
        ),
        ("¿llegas a terminarlo antes de las 19:15?", "STATUS_REQUEST", "es-status-before"),
        ("consegue ter isso antes das 17:45?", "STATUS_REQUEST", "pt-status-before"),
        ("sigue a las 15:30", "OTHER", "es-later"),
        ("continue at 14:00", "OTHER", "en-later"),
        ("nota: sigue con el parser", "RESUMPTION", None),
    ],
)
def test_a_clock_times_colon_does_not_split(message: str, kind: str, rule: str | None) -> None:
    reads(message, kind, rule)
