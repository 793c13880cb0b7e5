"""Issue #45's twenty-third round, the rules for Spanish and Brazilian Portuguese
(docs/interruptions.md, "Twenty-third round: the rules (Spanish and Brazilian Portuguese)"):
each rule written for a kind the twenty-fifth batch missed, in any language, read by its form,
from messages of the round's own in other wordings (registers, chat spelling, word orders, with
and without "?", without accents), with the near-misses that must stay what they are, holds
hardest. New messages, none a corpus row.
"""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from taskproto.classify.languages import firm
from tests.classify_reads import reads


# 1. An audit of the protocol's state asked as a plain question about what happened to it
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("o crash de ontem deixou a trava presa?", "pt-audit-state-asked"),
        ("aquela trava de segunda ainda vale?", "pt-audit-state-asked"),
        ("sera que a trava ficou presa depois do reboot", "pt-audit-state-asked"),
        ("a sua sessão sobreviveu quando o wifi caiu?", "pt-audit-state-asked"),
        ("tua sessao caiu quando eu fechei o notebook?", "pt-audit-state-asked"),
        ("o pre-commit barrou o .env ou deixou passar?", "pt-audit-state-asked"),
        ("o hook de lint tá valendo no worktree do outro agente?", "pt-audit-state-asked"),
        ("os hooks daqui são os mesmos do checkout principal?", None),
        ("esse claim de sexta ja expirou ou nao", "pt-audit-state-asked"),
        ("o heartbeat da sua sessão morreu?", "pt-audit-state-asked"),
        ("me mostra quem é o dono desse lock", "pt-audit-show-owner"),
        ("diz aí desde quando essa sessão tá aberta", "pt-audit-show-owner"),
        ("mostra pra mim de quem é o worktree wt-5", "pt-audit-show-owner"),
        ("¿el reinicio de anoche dejó el lock pillado?", "es-audit-befallen"),
        ("tu sesion sobrevivio al corte de luz?", "es-audit-befallen"),
        ("¿el pre-commit pilló el binario de 80 MB o se coló?", "es-audit-befallen"),
        ("¿el hook de commits aplica también en tu worktree?", "es-audit-befallen"),
        ("el claim de la semana pasada sigue valiendo o no", "es-audit-befallen"),
    ],
)
def test_a_protocol_objects_state_asked_as_what_befell_it_is_an_audit(
    message: str, rule: str
) -> None:
    reads(message, "AUDIT", rule)


# ... but how it works, why, the app's own session or lock, a design's worth: not those rules
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("como o lock expira sozinho?", "pt-audit-state-asked"),
        ("por que o pre-commit pegou esse arquivo?", "pt-audit-state-asked"),
        ("a sessão do usuário caiu quando o token expirou?", "pt-audit-state-asked"),
        ("vale a pena usar lock otimista na tabela de estoque?", "pt-audit-state-asked"),
        ("o lock do redis ainda vale depois do failover?", "pt-audit-state-asked"),
        ("o app trava quando o lock expira", "pt-audit-state-asked"),
        ("me mostra quem é o dono do pedido no checkout", "pt-audit-show-owner"),
        ("¿cómo se cae la sesión cuando expira?", "es-audit-befallen"),
        ("¿la sesión del usuario se cayó con el deploy?", "es-audit-befallen"),
        ("¿vale la pena un lock por fila aquí?", "es-audit-befallen"),
    ],
)
def test_the_codes_own_objects_or_how_they_work_are_not_those_audits(
    message: str, rule: str
) -> None:
    found = classify(message)
    assert found.rule != rule, (message, found)


# 2. A status asked as an order to report, "did you get to finish", a passive "done?", a summary
# of the day, "what about X, closed?" or a supposition to confirm
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("me atualiza", "pt-status-update-me"),
        ("me deixa a par aí", "pt-status-update-me"),
        ("me põe a par do checkout", "pt-status-update-me"),
        ("atualiza a gente aí", "pt-status-update-me"),
        ("vc conseguiu acabar a migração dos boletos?", "pt-status-managed"),
        ("deu tempo de subir o fix do frete", "pt-status-got-to-finish"),
        ("os relatórios de caixa já foram gerados?", "pt-status-done-passive"),
        ("o endpoint de busca ja ta pronto?", "pt-status-done-passive"),
        ("a importação dos clientes já foi concluída?", "pt-status-done-passive"),
        ("escreve um resumo do teu dia pro daily", "pt-status-recap-day"),
        ("me faz um resumo rápido da sua tarde", "pt-status-recap-day"),
        ("prepara um relatorio do seu dia pro gerente", "pt-status-recap-day"),
        ("e a tela de login, saiu?", "pt-status-done"),
        ("e o cadastro de fornecedores, fechou?", "pt-status-what-about"),
        ("imagino que vc ainda não mexeu no import de CSV", "pt-status-supposed"),
        ("presumo que o relatório de vendas já tá pronto", "pt-status-supposed"),
        ("aposto que a migração ainda nem começou", "pt-status-supposed"),
        ("ponme al día", "es-status-update-me"),
        ("oye, actualízame", "es-status-update-me"),
        ("ponnos al tanto de lo del carrito", "es-status-update-me"),
        ("¿los reportes de caja ya están generados?", "es-status-done-passive"),
        ("el importador ya quedó listo?", "es-status-done-passive"),
        ("imagino que todavía no empezaste con los recibos", "es-status-supposed"),
        ("supongo que ya terminaste la migración", "es-status-supposed"),
    ],
)
def test_a_status_asked_as_an_order_a_finish_a_passive_or_a_supposition_is_a_status(
    message: str, rule: str
) -> None:
    reads(message, "STATUS_REQUEST", rule)


# ... "chegou a terminar" was an older round's (es-status-managed's twin)
@pytest.mark.parametrize(
    "message",
    [
        "chegou a terminar o fluxo de devolução?",
        "vc chegou a implementar o filtro por data",
        "supongo que todavía no arrancaste con los PDFs, ¿no?",
        "suponho que o cadastro ainda nem começou, né",
    ],
)
def test_a_finish_or_a_supposition_with_its_tag_is_a_status(message: str) -> None:
    reads(message, "STATUS_REQUEST")


# ... but an update of the code, a thought asked, an instruction's tag, the protocol's objects
# or a code question are not those status requests
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("me atualiza o README com o novo comando", "pt-status-update-me"),
        ("chegou a pensar em usar Redis pra fila?", "pt-status-got-to-finish"),
        ("o lock já foi liberado?", "pt-status-done-passive"),
        ("quando a tabela foi criada?", "pt-status-done-passive"),
        ("faz um resumo do módulo de frete", "pt-status-recap-day"),
        ("faz um relatório do dia 12 de vendas", "pt-status-recap-day"),
        ("commits em inglês, fechou?", "pt-status-what-about"),
        ("os testes sempre com pytest, fechou?", "pt-status-what-about"),
        ("suponho que o lock ainda não foi liberado", "pt-status-supposed"),
        ("suponho que ainda estou esperando o deploy", "pt-status-supposed"),
        ("supongo que todavía no es necesario", "es-status-supposed"),
        ("actualízame el README", "es-status-update-me"),
        ("me atualiza quando terminar o import", "pt-status-update-me"),
        ("me deixa a par assim que o deploy sair", "pt-status-update-me"),
        ("ponme al día cuando termines los filtros", "es-status-update-me"),
        ("actualízame si algo se rompe", "es-status-update-me"),
        ("¿el lock ya está liberado?", "es-status-done-passive"),
    ],
)
def test_an_update_of_the_code_or_an_instruction_is_not_those_statuses(
    message: str, rule: str
) -> None:
    found = classify(message)
    assert found.rule != rule, (message, found)


# 3. A go after a decision, a break or a fact, formal or in slang
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("decidido: sem Kafka, cron mesmo. pode tocar", "pt-go-may-play"),
        ("beleza, pode tocar o barco", "pt-go-may-play"),
        ("Senhores, após reunião optamos pelo Postgres. Favor prosseguir.", "pt-go-formal"),
        ("solicito que dê prosseguimento à integração", "pt-go-formal"),
        ("pode dar sequência no cadastro", "pt-go-formal"),
        ("chega de papo, volta a codar o checkout", "pt-go-back-to"),
        ("acabou o café, volta a trabalhar no frete", "pt-go-back-to"),
        ("pronto, volta a mexer nos relatórios", "pt-go-back-to"),
        ("mete bronca no importador", "pt-go-onto"),
        ("beleza, mete bronca", "pt-go-slang-more"),
        ("senta a pua nas notificações", "pt-go-slang-more"),
        ("desce a lenha no parser de XML", "pt-go-slang-more"),
        ("se terminó el recreo, a chambear con los filtros", "es-go-to-work"),
        ("venga, a currar", "es-go-to-work"),
        ("ya está decidido, a laburar otra vez", "es-go-to-work"),
        ("los tests pasan en CI, pasa al paso 4", "es-go-next-step"),
        ("vale, salta a la siguiente fase", "es-go-next-step"),
        ("ahora avanza hasta la fase 3", "es-go-next-step"),
    ],
)
def test_a_go_after_a_decision_a_break_or_a_fact_is_a_go(message: str, rule: str) -> None:
    reads(message, "RESUMPTION", rule)


# ... but denied, asked, on a later time or a condition, a revert or a change, it is no go
@pytest.mark.parametrize(
    "message",
    [
        "pode tocar?",
        "não pode tocar ainda",
        "pode tocar no lock?",
        "pode tocar amanhã",
        "favor não dar continuidade",
        "favor dar continuidade após aprovação do cliente",
        "devo dar continuidade?",
        "volta pro commit de ontem",
        "pode dar continuidade amanhã de manhã",
        "volta pra versão anterior",
        "volta a usar o Redis antigo",
        "não volta a mexer no checkout",
        "volta a calcular o frete?",
        "volta a codar depois do almoço",
        "mete bronca não",
        "ainda não mete bronca",
        "manda brasa nos testes?",
        "a currar mañana",
        "a chambear no",
        "¿a currar?",
        "todavía no, a currar luego",
        "no pases al paso 4",
        "¿paso al paso 4?",
        "pasa al paso 4 cuando pase el CI",
        "avanza al paso 5 si los tests pasan",
        "salta al punto 3 si el cliente lo aprueba",
        "avanza con el checkout si los tests pasan",
        "a currar si pasa el CI",
        "pode tocar se o CI passar",
        "volta a calcular o frete se o cliente aprovar",
        "favor dar continuidade se o teste passar",
        "senta a pua nos relatórios se a Ana liberar",
        "Prezado, favor aguardar antes de dar continuidade.",
        "solicito que não dê continuidade",
        "pode tocar. pensando bem, espera",
        "se acabó el descanso, pero no sigas todavía",
        "chega de enrolação, mas espera o CI antes de voltar a calcular",
    ],
)
def test_such_a_go_held_denied_or_asked_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 4. A question on the code asking the agent's opinion, its topic before a comma
@pytest.mark.parametrize(
    "message",
    [
        "o deadlock dos pedidos, por que acontece na sua opinião?",
        "a lentidão do relatório, de onde vem no teu entender?",
    ],
)
def test_an_opinion_asked_after_its_topic_is_a_question(message: str) -> None:
    reads(message, "QUESTION", "pt-opinion-asked")


# A status asked by its form is never made a go by the model, nor a question
@pytest.mark.parametrize(
    "rule",
    [
        "es-status-what-time",
        "pt-status-what-time",
        "pt-status-update-me",
        "pt-status-got-to-finish",
        "pt-status-done-passive",
        "pt-status-recap-day",
        "pt-status-what-about",
        "pt-status-supposed",
        "es-status-update-me",
        "es-status-done-passive",
        "es-status-supposed",
    ],
)
def test_the_model_makes_no_go_nor_question_of_these_statuses(rule: str) -> None:
    assert firm.kept(rule, "RESUMPTION", 2)
    assert firm.kept(rule, "QUESTION", 1)
