"""Brazilian Portuguese rules of issue #45's nineteenth round (docs/interruptions.md,
"Nineteenth round: the rules (Spanish and Brazilian Portuguese)"): ``NINETEENTH``, spliced after
the eighteenth round's ``pt_more.BY_KIND`` (why a protocol artefact is wrong, whether a commit
went through a hook, a go as agreed or in slang, what comes next, the app summed up for me, a
status needed or ordered, praise, a permission, a tag after an instruction); and the "se / caso"
of a condition (``IF_HELD``, for the conditions) and the words a comma before does not split
(``JOINERS``), fields of ``pt_br.py``'s table. Text as in ``pt_br.py`` (lowercased, accents
folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# the protocol's objects
_OBJECT = (
    r"locks?|lockfiles?|claims?|sessao|sessoes|heartbeats?|journal|worktrees?|hooks?|task record"
    r"|registro|estado da (?:tarefa|task)|task\.json|pid"
)
# a state of a protocol artefact that should not be: opened and never closed, orphaned, stuck
_ANOMALY = (
    r"sem (?:o |a |seu |sua |nenhum |nenhuma )?(?:fechamento|fechar|encerramento|encerrar|fim"
    r"|liberar|dono|heartbeat|commit)|orfa\w*|orfao|pendurad\w*|duplicad\w*|dessincronizad\w*"
    r"|nao (?:bate|batem|foi (?:liberad|fechad|apagad|removid)[oa]|aparece)|(?:continua|continuam"
    r"|segue|seguem|ainda (?:ta|esta)) (?:abert|ativ|viv|ai|la|no meu nome|no seu nome|travad"
    r"|pres)\w*|corrompid\w*|pela metade|vazi[oa]s?|(?:tem|ha|aparecem) (?:duas|dois|tres|varias"
    r"|varios) (?:locks?|sessoes|worktrees?|claims?|entradas)"
)
# a tú/você imperative of the task's own work (not a change asked: "tira", "move")
_WORK_GO = (
    r"(?:implementa|implemente|faz|faca|cria|crie|monta|monte|constroi|construa|integra|integre"
    r"|desenvolve|desenvolva|programa|processa|processe|migra|migre|termina|termine|conclui"
    r"|conclua|completa|complete|adiciona|adicione|coloca|bota|escreve|escreva|aplica|aplique"
    r"|sobe|suba|conecta|configura|importa|traduz|converte|gera|gere|calcula|calcule)"
)
# as agreed, as planned: "como combinamos", "como tá no plano", "conforme o combinado"
_AS_AGREED = (
    r"(?:(?:(?:bem |tal )?como|do jeito que) (?:a gente )?(?:combinamos|combinado|combinou|falamos"
    r"|conversamos|acertamos|planejamos|planejado|previsto|(?:ta|esta|estava|tava) (?:no plano"
    r"|previsto|combinado|planejado))|conforme (?:o )?(?:combinado|combinamos|plano|planejado"
    r"|previsto|falamos))"
)

NINETEENTH = (
    # why a protocol artefact is in a state it should not be is an audit, not how it works:
    # "por que o journal tem uma sessão aberta sem fechamento?", "por que o lock continua no
    # meu nome?" (not "por que o journal guarda cada transição num commit?")
    Rule(
        "pt-audit-why",
        "AUDIT",
        r"^(?:e )?(?:por que|pq)\b(?=.*\b(?:" + _OBJECT + r")\b).*\b(?:" + _ANOMALY + r")",
        0.85,
    ),
    # whether a commit or push went through the protocol's git hooks: "o último commit passou
    # pelo hook de lint?", "o pre-commit rodou no push?", "pulou o hook?" (not how)
    Rule(
        "pt-audit-hook-ran",
        "AUDIT",
        r"^(?!(?:por que|pq|pra que|para que|como|quando|onde)\b)(?:.*\b(?:passou|passaram|passa)"
        r" (?:pelo|pelos|por algum) (?:[\w-]+ )?hooks?\b|.*\b(?:pulou|pularam|rodou|rodaram"
        r"|executou|disparou) (?:o |os )?(?:[\w-]+ )?hooks?\b|.*\bhooks?\b.*\b(?:rodou|rodaram"
        r"|executou|foi executado|disparou|pulou|foi pulado|falhou|passou)\b).*\?$",
        0.85,
    ),
    # whether the task is marked or recorded right, to be looked at: "consegue ver se a tarefa
    # ficou marcada como interrompida?", "confere se a tarefa aparece como concluída"
    Rule(
        "pt-audit-marked",
        "AUDIT",
        r"^(?:(?:consegue|pode|pd|vc pode|voce pode) )?(?:ve|ver|olha|olhar|confere|conferir|checa"
        r"|checar|verifica|verificar|confirma|confirmar) se (?:a|essa|esta) (?:tarefa|task)\b.*\b"
        r"(?:marcad[oa]|registrad[oa]|aparece|consta|figura|salv[oa])\b",
        0.85,
    ),
    # the task's own work ordered as agreed: "implementa os endpoints que faltam, como tá no
    # plano" (the comma before "como …" does not split: ``pt_br.py``'s joiners), "faz a
    # integração com o Pix conforme combinamos"; every one of them without asking ("faz todas
    # as chaves sem perguntar arquivo por arquivo"). Not denied, asked, put off
    Rule(
        "pt-go-work",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem)\b)(?!.*\?$)(?:(?:e|agora|entao|ai|ok|beleza) )*(?="
        + _WORK_GO
        + r"\b)\w+ (?:.*[\s,]"
        + _AS_AGREED
        + r"[\s.!]*$|.*\bsem (?:me )?(?:perguntar|consultar|pedir (?:permissao|licenca)))\b",
        0.85,
    ),
    # a clipped or slang go, the whole clause: "simbora", "partiu", "vamo nessa", "bora que bora"
    Rule(
        "pt-go-slang",
        "RESUMPTION",
        r"^(?:simbora|vambora|partiu|vamo nessa|bora nessa|bora que bora|vamo que vamo|vamo"
        r" (?:la|pra cima)|pra cima|pode pa|manda brasa)(?: (?:entao|ai|galera|mano|cara))?[!. ]*$",
        0.8,
    ),
    # what comes next, after a step named: "depois dos seeds vem o quê?", "e depois do login, o
    # que vem?" (pt-deferred leaves a clause asking it)
    Rule(
        "pt-status-next",
        "STATUS_REQUEST",
        r"^(?:(?:e|mas) )?(?:depois|apos)\b.*\b(?:vem|e|fica|falta) (?:o que|oq|qual)\s*\?$"
        r"|^(?:(?:e|mas) )?(?:depois|apos)\b.*\b(?:o que|oq|qual) (?:vem|e o proximo|falta)\b.*\?$",
        0.85,
    ),
    # the code's design summed up for me is an explanation asked ("resume pra mim a
    # arquitetura do app em duas linhas", "me resume como funciona o checkout"), not where the
    # work stands (pt-status-summary), nor a log or a text summed up (an instruction), nor a
    # summary written into a file
    Rule(
        "pt-summary-question",
        "QUESTION",
        r"^(?:me resum(?:e|a)|resum(?:e|a) (?:pra|para) (?:mim|gente|a gente|nos))\b(?: (?:em \w+"
        r" (?:linhas?|frases?|palavras|topicos|pontos)|rapidinho|rapido))? (?:como (?:funciona"
        r"|funcionam|(?:ta|esta) (?:montad|feit|organizad|pensad)|se (?:faz|calcula|organiza))"
        r"|(?:o|a|os|as|seu|sua) (?:arquitetura|design|fluxo|funcionamento|logica|estrutura"
        r"|padrao|algoritmo|ideia|abordagem|diferenca|modelagem|esquema)\b)(?!.*\b(?:n[oa]|em)"
        r" (?:readme|docs?|documentacao|wiki|changelog|pr|commit|comentario)\b)",
        0.85,
    ),
    # a status asked for as an order: "me envie um status atualizado da tarefa", "manda um
    # update de como tá" (as a need, "preciso saber em que ponto tá", pt-wonder-status reads)
    Rule(
        "pt-status-order",
        "STATUS_REQUEST",
        r"^(?:me )?(?:envia|envie|manda|mande|passa|passe|da|de)"
        r"(?: (?:pra|para) mim)? (?:um |uma |o |seu |teu )?(?:status|update|relatorio|resumo"
        r"|andamento|informe)\b(?! (?:do|da|de) (?:app|sistema|codigo|banco|api)\b)",
        0.85,
    ),
    # a bare reaction asks for nothing and holds nothing: "eita", "quem diria", "vixe" (not
    # praise before an order: the order may be a go only the model reads)
    Rule(
        "pt-reaction-remark",
        "OTHER",
        r"^(?:eita|vixe|caraca|quem diria|putz)(?: (?:so|nois|ai))?[^\w]*$",
        0.7,
    ),
    # a permission that is no go: "pode escolher a lib de datas que preferir", "pode ignorar os
    # warnings do eslint" (not with a go word in it)
    Rule(
        "pt-permission-remark",
        "OTHER",
        r"^(?!.*\b(?:continua|segue|prossiga|prossegue|retoma|manda ver|vai em frente)\b)"
        r"(?!.*\?$)(?:(?:voce|vc|tu) )?pode (?:escolher|usar|ignorar|decidir|trocar|renomear"
        r"|pular|omitir|tirar|apagar) ",
        0.7,
    ),
)

# "se / caso" (if) of a condition not met, opening the clause or after the go's verb: "se o
# professor aprovar, aí pode continuar", "caso o gerente aprove, pode seguir", "continua com o
# deploy se o build passar" (not the "whether" of a check or a doubt: "valida se o worktree tá
# limpo", "não sei se o teste passa"; nor the agent's own check, "se tudo estiver ok"; a
# courtesy, "se quiser", is taken out before)
_IF_WHO = r"(?:o|a|os|as|um|uma|ninguem|alguem|seu|sua|teu|tua)\b"
IF_HELD = (
    r"|^(?:se|caso) "
    + _IF_WHO
    # (the go's verb in a lookahead: a go's "continua" alone compiles nothing more)
    + r"|(?=.*\b(?:continua|continue|continuar|segue|seguir|prossiga|prossegue|prosseguir"
    r"|retoma|retome) (?:[\w-]+ ){0,5}?(?:se|caso) " + _IF_WHO + r").*\b(?:se|caso) " + _IF_WHO
)
# a comma before these does not split: "implementa os endpoints, como tá no plano" (the start
# of the go's words, not asked), "é só em dev, né?" (a statement asked), "commits em inglês,
# tá?" (a tag, read by ``LAST``)
_TAGS = r"(?:ta|ok|okay|beleza|blz|combinado|fechado|fechou|entendido)"
JOINERS = (
    r"(?:(?:(?:bem |tal )?como|do jeito que) (?:a gente )?(?:combinamos|combinado|combinou|falamos"
    r"|conversamos|acertamos|planejamos|planejado|previsto|(?:ta|esta|estava|tava) (?:no plano"
    r"|previsto|combinado|planejado))|conforme (?:o )?(?:combinado|combinamos|plano|planejado"
    r"|previsto|falamos))(?![^,.;!?]*\?)|(?:ne|neh|ta|ok|okay|beleza|blz|combinado|fechado|fechou"
    r"|entendido)(?=\s*\?)"
    # "…, o que eu falo pra ele?" after a question passed on: its tag (pt_twentysecond.py)
    r"|(?:e )?(?:o que|oq) (?:(?:eu|a gente) )?(?:falo|digo|respondo|conto|falamos|dizemos)"
    r"(?: (?:pra|pro|a|para) [\w-]+)?(?=\s*\?*$)"
    # a question on the code asking the agent's opinion, its topic before the comma: "o memory
    # leak, de onde tá saindo na tua opinião?" is one clause, the opinion's (pt_twentysecond.py)
    r"|(?:de onde|por que|pq|o que|como|qual|onde|quanto)(?=[^,.;!?]*\b(?:na (?:sua|tua)"
    r" opiniao|no (?:seu|teu) entender)\b)"
)

# "e aí" before a go parts two clauses as "e depois" does (a connective of ``pt_br.py``'s table):
# "confirma o journal e aí manda bala na migração" is a check, then the go the last clause asks
# (not "e aí?", asked, nor "caiu e aí o build quebrou", a story told)
AND_THEN = (
    r"|e ai(?= (?:(?:ja|entao|voce|vc|tu) )?(?:manda|segue|continua|prossegue|toca|bora|parte"
    r"|emenda|comeca|volta|pode (?:seguir|continuar|prosseguir|mandar))\b)"
)

# Read after every rule of ``pt_br.py``'s table (its ``LAST``): a tag after an instruction,
# joined to it, asks nothing ("daqui pra frente, commits em inglês, tá?", "combinado?"), where
# no rule read the clause before it ("o build passou, tá?" stays a status request; nor after
# "já" or a question passed on: "o deploy já saiu, tá?"); a bare "tá?" still asks
LAST = (
    Rule(
        "pt-tag-instruction-remark",
        "OTHER",
        r"^(?![^?]*\b(?:ja|perguntou|quer saber)\b)[^?]*, " + _TAGS + r"\s*\?+$",
        0.7,
    ),
)
