"""Issue #45's twenty-first round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Twenty-first round: the rules (Spanish and Brazilian Portuguese)"): each
rule written for a kind the twenty-third batch missed, in any language, read by its form, from
messages of the round's own in other wordings (registers, usted, voseo, chat spelling, word
orders, with and without "¿"/"?", without accents, typos), with the near-misses that must stay
what they are, holds hardest. New messages, none a corpus row.
"""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads


# 1. A go after an instruction, an understanding or a wait: asked politely, on the same pattern
# or the rest, with "now" at its end, a part taken in charge, an audit first and the go last
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("¿te molestaría seguir con los tests?", "es-go-polite"),
        ("¿Serías tan amable de seguir con la migración?", "es-go-polite"),
        ("te importaria seguir con eso", "es-go-polite"),
        ("¿Le importaría continuar con la instalación?", "es-go-polite"),
        ("oye, ¿os importaría retomar lo de las facturas?", "es-go-polite"),
        ("aplica el mismo criterio al módulo de envíos", "es-go-same"),
        ("vale, entendido. Haz lo mismo con los reportes", "es-go-same"),
        ("escribe los handlers siguiendo el mismo esquema", "es-go-same"),
        ("perfecto, ahora aplica ese mismo cambio a las notas de crédito", "es-go-same"),
        ("vale, entendido, entonces implementa la paginación ya", "es-go-now"),
        ("bueno, monta los filtros de una vez", "es-go-now"),
        ("deja la API como está y encárgate ahora del frontend", "es-go-take-charge"),
        ("ocúpate de las notificaciones push", "es-go-take-charge"),
        ("ya está claro, hazte cargo del importador", "es-go-take-charge"),
        ("você se importaria de continuar com isso?", "pt-go-polite"),
        ("se importa de seguir com os testes?", "pt-go-polite"),
        ("vc se importaria de retomar o módulo de frete", "pt-go-polite"),
        ("beleza, entendi. Então aplica o mesmo padrão nos relatórios", "pt-go-same"),
        ("escreve o restante dos handlers seguindo esse padrão", "pt-go-same"),
        ("faz o mesmo com os boletos", "pt-go-same"),
        ("implementa as outras telas no mesmo esquema", "pt-go-same"),
        ("deixa a API como tá e cuida agora do frontend", "pt-go-take-charge"),
        ("se encarrega das notificações", "pt-go-take-charge"),
        ("ok, agora assume o módulo de estoque", "pt-go-take-charge"),
    ],
)
def test_a_go_after_an_instruction_or_an_understanding_is_a_go(message: str, rule: str) -> None:
    reads(message, "RESUMPTION", rule)


# (read by the go's own rule, no longer by the model's second opinion of the whole)
@pytest.mark.parametrize(
    "message",
    [
        "verifica o lock e aí segue com os relatórios",
        "checa o journal e aí continua com o parser",
        "confirma o lock e aí manda bala nos relatórios",
        "olha o journal e aí pode continuar",
    ],
)
def test_an_audit_first_and_a_go_after_e_ai_is_a_go(message: str) -> None:
    reads(message, "RESUMPTION", "pt-resumption")


# ... but the same words held, denied, asked, put off, an errand, or a story stay no go
@pytest.mark.parametrize(
    "message",
    [
        "¿te importaría seguir esperando?",
        "¿te importaría no seguir?",
        "¿te importaría seguir mañana?",
        "¿aplico el mismo patrón a los pedidos?",
        "no apliques el mismo patrón a los pedidos",
        "implementa la paginación mañana",
        "ya no implementes nada",
        "ocúpate de avisarme cuando termines",
        "el mismo patrón se repite en los pedidos",
        "vc se importa de continuar esperando?",
        "se importa de não continuar?",
        "você se importaria de continuar amanhã?",
        "aplica o mesmo padrão nos relatórios?",
        "não aplica o mesmo padrão nos relatórios",
        "escreve o resto amanhã",
        "o resto do código tá uma bagunça",
        "cuida de me avisar quando terminar",
        "não cuida do frontend ainda",
        "o lock caiu e aí o build quebrou",
        "confere o lock e aí continua amanhã",
    ],
)
def test_a_go_held_denied_asked_or_put_off_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 2. A status asked as what time or as whether the work reached its end
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("¿a qué hora crees que lo tienes?", "es-status-what-time"),
        ("a que hora terminas eso", "es-status-what-time"),
        ("¿para qué hora estará?", "es-status-what-time"),
        ("y a q hora lo tendremos", "es-status-what-time"),
        ("y el bot de reservas, ¿llegó al final?", "es-status-reached-end"),
        ("¿ya llegaste al final?", "es-status-reached-end"),
        ("que horas vc acha que fecha isso?", "pt-status-what-time"),
        ("que horas você termina?", "pt-status-what-time"),
        ("e que hora fica pronto", "pt-status-what-time"),
        ("qual hora vc acha que vai terminar isso?", "pt-status-what-time"),
        ("e o bot da agenda, chegou no fim?", "pt-status-reached-end"),
        ("já chegou no final?", "pt-status-reached-end"),
    ],
)
def test_a_status_asked_as_what_time_or_the_end_reached_is_a_status(
    message: str, rule: str
) -> None:
    reads(message, "STATUS_REQUEST", rule)


# ... but the time the code does a thing stays a question
@pytest.mark.parametrize(
    "message",
    [
        "¿a qué hora corre el cron?",
        "¿a qué hora se cierra la sesión del usuario?",
        "que horas o cron roda?",
    ],
)
def test_the_time_the_code_does_a_thing_is_no_status(message: str) -> None:
    reads(message, "QUESTION")


# 3. Not asked at all: a hold asked as a question, a go verb denied after "can"/"must", a feeling
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("¿puedes parar un momento?", "es-hold-asked"),
        ("¿te importaría parar un momento?", "es-hold-asked"),
        ("¿puedes esperar a que termine el CI?", "es-hold-asked"),
        ("¿podrías pararte un segundo?", "es-hold-asked"),
        ("podes esperar un rato?", "es-hold-asked"),
        ("¿le importaría seguir a la espera?", "es-hold-asked"),
        ("no puede proseguir", "es-negated-can-go"),
        ("no, no puede proseguir", "es-negated-can-go"),
        ("ya no podemos retomar eso hoy", None),
        ("nunca se puede continuar sin el OK", None),
        ("consegue parar um minutinho?", "pt-hold-asked"),
        ("dá pra esperar o CI passar?", "pt-hold-asked"),
        ("poderia aguardar um pouco?", "pt-hold-asked"),
        ("pode esperar um pouco?", "pt-hold"),
        ("vc pode aguardar o CI?", "pt-hold"),
        ("vc se importa de continuar esperando?", "pt-hold-asked"),
        ("uf, algo no me cuadra", "es-feeling-remark"),
        ("mmm esto me huele raro", "es-feeling-remark"),
        ("aff, algo não tá batendo", "pt-feeling-remark"),
        ("hmm, isso tá estranho", "pt-feeling-remark"),
    ],
)
def test_a_hold_asked_a_go_denied_or_a_feeling_is_other(message: str, rule: str | None) -> None:
    reads(message, "OTHER", rule)


# ... but a nudge to stop asking goes on, and a feeling asked is asked
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("¿puedes parar de preguntar y seguir?", "RESUMPTION"),
        ("pode parar de perguntar e continuar?", "RESUMPTION"),
        ("algo no me cuadra, ¿revisaste el lock?", "AUDIT"),
    ],
)
def test_a_nudge_goes_on_and_a_question_after_a_feeling_asks(message: str, expected: str) -> None:
    reads(message, expected)


# 4. A doubt on a fact of the code is a question, with or without "?"
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("estás seguro de que el BIC es opcional", "es-doubt-fact"),
        ("¿está usted segura de que el IVA se redondea por línea?", None),
        ("tem certeza que o BIC é opcional", "pt-doubt-fact"),
        ("vc tem certeza de que o ICMS entra na base?", "pt-doubt-fact"),
    ],
)
def test_a_doubt_on_a_fact_is_a_question(message: str, rule: str | None) -> None:
    reads(message, "QUESTION", rule)


# 5. Who holds the lock, typos and all, is an audit; how the code locks stays a question
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("quien tiene el lok", "es-audit-who-holds"),
        ("y quién tiene ahora el lck", "es-audit-who-holds"),
        ("de quien es el lcok", "es-audit-who-holds"),
        ("quem ta com o lock", "pt-audit-who-holds"),
        ("quem tá com o lok agora", "pt-audit-who-holds"),
        ("e com quem ficou o claim", "pt-audit-who-holds"),
    ],
)
def test_who_holds_the_lock_is_an_audit(message: str, rule: str) -> None:
    reads(message, "AUDIT", rule)


@pytest.mark.parametrize(
    "message", ["¿quién libera el lock en el código?", "quem libera o lock no código?"]
)
def test_how_the_code_locks_stays_a_question(message: str) -> None:
    reads(message, "QUESTION")


# a bare pronoun asked after the question is its tag: the clause before decides
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("quién tiene el lok ahora, ¿tú?", "AUDIT", "es-audit-who-holds"),
        ("¿quién tiene el lock de pagos, vos?", "AUDIT", None),
        ("quem tá com o lok agora, vc?", "AUDIT", "pt-audit-who-holds"),
        ("e com quem ficou o claim, você?", "AUDIT", "pt-audit-who-holds"),
    ],
)
def test_a_pronoun_tag_leaves_the_question_before(
    message: str, expected: str, rule: str | None
) -> None:
    reads(message, expected, rule)
