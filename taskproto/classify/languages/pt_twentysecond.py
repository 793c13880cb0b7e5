"""Brazilian Portuguese rules of issue #45's twenty-second round (docs/interruptions.md,
"Twenty-second round: the rules (Spanish and Brazilian Portuguese)"): ``TWENTYSECOND``, spliced
after the twenty-first round's ``pt_twentieth.TWENTYFIRST`` (that module had no room left for
them). By kind, not by wording: a go in slang ("dá-lhe"); a status asked as what the agent has in
hand, as a recap, as what works and what is left, passed on for somebody else, or of a ticket; a
protocol object's age asked; a complaint, praise and a failure told since when are remarks, a
doubt or a wish to understand is a question. And the twenty-third round's, ``TWENTYTHIRD``
(spliced after it): audits, status requests and gos by kind (see its comment). Text as in
``pt_br.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.table import WORK

# the protocol's objects
_OBJECT = r"locks?|lockfiles?|claims?|worktrees?|sessao|sessoes|heartbeats?|journal|task record"
_YOU = r"^(?:(?:e|ei|entao|ai) )*(?:(?:voce|vc|tu) )?"
# a ticket's id: a word with a digit ("vid-88", "#45", "45")
_ID = r"[\w#.-]*\d[\w#.-]*"
# stopping, waiting or going on: a doubt on them is no question on the code
_STOP_OR_GO = r"seguir|continuar|parar|esperar|prosseguir|tocar"

# whose a protocol object is, asked casually ("esse index.lock no .git é seu?", "o worktree wt-3
# é teu ou de outro agente?"): pt-audit-ask reads it (``pt_more.py``), and the model may not make
# it a question or a status in one clause (``firm.FORMS``; the model trained without the
# twenty-fourth batch read its "é seu?" as a question)
WHOSE = (
    r"^(?!(?:como|por que|pq|pra que|para que)\b)(?=.*\b(?:" + _OBJECT + r")\b).*\b(?:e|eh|sao"
    r"|ta|esta) (?:mesmo )?(?:seus?|suas?|teus?|tuas?|de (?:vc|voce))\b"
)

TWENTYSECOND = (
    # a go in slang on its object: "dá-lhe nos filtros", "taca-lhe pau no parser", "pisa fundo
    # nos relatórios" (not denied, not asked; a later time is held by the go's time)
    Rule(
        "pt-go-slang-onto",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem|ainda)\b)(?!.*\?$)(?:(?:e|ja|agora|entao|beleza|blz|ok|pronto"
        r"|fechou|fechado|show) )*(?:da-?lhe|taca(?:-lhe)? pau|mete (?:bala|ficha)|pisa fundo)"
        r"(?: (?:n[oa]s?|em|com)\b|[\s.!]*$)",
        0.85,
    ),
    # what the agent has in hand now: "o que vc tem em mãos agora?", "tá com o que na mão?",
    # "em que vc tá trabalhando agora?" (not "o que vc tá fazendo com o lock?", a reproach)
    Rule(
        "pt-status-in-hand",
        "STATUS_REQUEST",
        _YOU + r"(?:(?:o que|oq|q|que) (?:(?:voce|vc|tu) )?(?:tem|tens|ta com|esta com)"
        r" (?:agora )?(?:em maos|na mao|nas maos|em mao)"
        r"|(?:(?:voce|vc|tu) )?(?:ta|esta) com o que (?:agora )?(?:em maos|na mao|nas maos)"
        r"|(?:em|no) (?:que|q) (?:(?:voce|vc|tu) )?(?:ta|esta|anda) (?:mexendo|trabalhando"
        r"|metid[oa]|focad[oa]|ocupad[oa])(?: (?:agora|neste momento|no momento))?\s*\?*$)",
        0.85,
    ),
    # a recap of the work: "faz um recap do que mudou", "me dá um apanhado do que vc fez hoje",
    # "um recap rapidinho", "recapitula o que vc fez" (not of the code: "um resumo do módulo")
    Rule(
        "pt-status-recap",
        "STATUS_REQUEST",
        r"^(?:(?:me|nos) )?(?:(?:faz|faca|fazer|me faz|me da|da|manda|me manda|quero|preciso de)"
        r" )?(?:um |uma )?(?:recap|recapitulacao|apanhado|resumao|resumo|panorama)(?: (?:rapid\w*"
        r"|geral|breve))?(?: (?:pra mim|pra gente))? (?:de |d[oa]s? )(?:tudo )?(?:o que|oq|que)"
        r" (?:(?:voce|vc|tu|a gente|nos|ja) )*(?:fez|fizemos|fizeram|mudou|mudaram|mudamos|rolou"
        r"|andou|avancou|mexeu|alterou|foi feito|foi|implementou|entregou|terminou|tem)\b"
        r"|^(?:(?:me|nos) )?(?:(?:faz|faca|me faz|me da|da|manda|me manda) )?(?:um |uma )?(?:recap"
        r"|recapitulacao|apanhado)(?: (?:rapid\w*|geral|breve|pfv|pf|por favor|ai))*\s*\?*$"
        r"|^recapitula(?: (?:pra mim|pra gente|ai))? (?:tudo|o que|oq)\b",
        0.85,
    ),
    # what works and what is left, asked together: "o que já funciona e o que falta?", "da
    # lista, o que tá pronto e o que não tá?" (not what the code does in a case: "o que
    # funciona e o que não no Safari?")
    Rule(
        "pt-status-done-left",
        "STATUS_REQUEST",
        r"^(?:(?:e|disso|da lista|dos \w+|das \w+) )*(?:o que|oq|quais?) (?:[\w-]+ ){0,2}?(?:ja )?"
        r"(?:funciona|funcionam|ta|esta|estao|tao|roda|rodam|ficou|ficaram|foi|foram|anda|andam)"
        r"\b.*\be (?:o que|oq|quais?) (?:(?:ainda|ja) )*(?:nao\s*\??$|falta|faltam|ta faltando"
        r"|resta|restam|fica|ficam|ficou pendente|ta pendente|esta pendente|segue pendente"
        r"|nao (?:ta|esta|tao|estao|funciona|funcionam|roda|rodam)\b)",
        0.85,
    ),
    # how the work goes, asked for somebody else: "o gerente perguntou como tá, o que eu falo
    # pra ele?", "a cliente quer saber do andamento" (the tag "o que eu falo?" is joined to it:
    # ``pt_kinds.JOINERS``); not how a thing will work ("como vai funcionar")
    Rule(
        "pt-status-passed-on",
        "STATUS_REQUEST",
        r"\b(?:pergunta|perguntou|perguntaram|perguntando|quer saber|querem saber|queria saber)"
        r" (?:(?:de novo|ja|aqui) )?(?:como (?:ta|esta|estamos|tamo|anda|andam|vai|vao|vamos|tao"
        r"|estao|anda)\b(?! (?:a|de)\b| \w+(?:ar|er|ir)\b)|d[oa] (?:andamento|progresso|status"
        r"|prazo)\b|(?:quanto|o que) falta\b|quando (?:fica|sai|termina|vai ficar)\b)",
        0.85,
    ),
    # a ticket's status, a fragment: "status do ticket VID-90?", "andamento da tarefa 12", "e o
    # chamado 4411?" (not a state field told: "o status do ticket não atualiza")
    Rule(
        "pt-status-ticket",
        "STATUS_REQUEST",
        r"^(?:e )?(?:(?:o|a) )?(?:status|estado|andamento|situacao|progresso|novidades?) (?:d[oa]"
        r"|de) (?:ticket|card|issue|tarefa|task|story|historia|chamado|bug|pr|demanda|epico) "
        + _ID
        + r"(?: (?:pfv|pf|por favor|ai))?\s*\?*$|^(?:e )?(?:o|a) (?:ticket|card|issue|tarefa|task"
        r"|chamado|demanda|story|historia) " + _ID + r"\s*\?+$",
        0.85,
    ),
    # the age of a protocol object, asked: "de quando é esse arquivo de lock?", "o lock é de
    # quando?", "há quanto tempo esse lock tá aí?" (not "desde quando a gente usa lock?")
    Rule(
        "pt-audit-age",
        "AUDIT",
        r"^(?:e )?(?:de quando|desde quando|ha quanto tempo|faz quanto tempo|qual a idade d[oa]s?)"
        r" (?:(?:e|sao|ta|esta|existe|existem|foi criado|foi criada) )?(?:(?:o|a|os|as|esse|essa"
        r"|este|esta|seu|sua) )?(?:[\w.-]+ )?(?:arquivo de lock|" + _OBJECT + r")\b.*\?$"
        r"|^(?:e )?(?:o|a|esse|essa|este|esta) (?:[\w.-]+ )?(?:arquivo de lock|" + _OBJECT + r")"
        r" (?:e|eh|sao|ta ai|esta ai|existe) (?:de|desde) quando\b",
        0.85,
    ),
    # a complaint told asks nothing: "me incomoda que vc misture socio e member", "não curto
    # como vc nomeia as branches" (asked, it asks)
    Rule(
        "pt-complaint-remark",
        "OTHER",
        r"^(?:(?:sinceramente|olha|ai|aff|po|e) )*(?:(?:me|nos) (?:incomoda|incomodam|irrita"
        r"|irritam|incomodou|irritou|da (?:agonia|nervoso|aflicao)|deixa (?:nervos[oa]"
        r"|incomodad[oa]|bolad[oa]))|nao (?:curto|gosto|gostei|curti)(?: nada)?|acho (?:feio"
        r"|estranho|ruim|confuso|esquisito)) (?:que|como|de|d[oa]s?|o|a|os|as|isso|esse|essa|vc"
        r"|voce)\b"
        r"(?!.*\?$)",
        0.8,
    ),
    # an explanation praised, alone in its clause: "ótima a explicação do mutex, valeu", "muito
    # clara a explicação"; not thanks or any thing praised ("valeu pela explicação, … avança no
    # fix": a go the model reads in the clause after, which a remark would hide from it)
    Rule(
        "pt-praise-remark",
        "OTHER",
        r"^(?:(?:(?:muito|super|bem|que) )?(?:otim[oa]|excelente|clarissim[oa]|clar[oa]|top"
        r"|sensacional|incrivel|massa|util) )?(?:a|o|sua|seu|essa|esse) (?:explicacao|resposta"
        r"|analise|solucao|esclarecimento)"
        r"(?: (?:d[oa]s?|sobre|com) [\w. -]+)?$",
        0.75,
    ),
    # a failure of the work told since when: "o CI tá vermelho na main desde ontem", "os testes
    # falham desde o merge" (a report, not the work's state asked)
    Rule(
        "pt-failing-since-remark",
        "OTHER",
        r"^(?:o |a |os |as )?(?:[\w.-]+ )?" + WORK + r"\b(?: [\w.-]+){0,3}? (?:(?:ta|esta|tao"
        r"|estao|segue|seguem|continua|continuam|ficou|ficaram) (?:vermelh[oa]s?|quebrad[oa]s?"
        r"|falhando|caid[oa]s?|fora do ar|travad[oa]s?)|falha|falham|quebra|quebram)\b"
        r".*\bdesde\b(?!.*\?$)",
        0.8,
    ),
    # a doubt, or a wish to understand, is a question, with or without "?": "tenho dúvida se o
    # fuso horário tá certo", "não ficou claro como o cache invalida", "queria entender a lógica
    # da tabela pivô" (not a doubt on going on: "tô na dúvida se continuo")
    Rule(
        "pt-doubt-question",
        "QUESTION",
        r"^(?!.*\b(?:" + _STOP_OR_GO + r"|continuo|sigo|paro)\b)(?:(?:sinceramente|olha|mas|e"
        r"|eu|ainda) )*(?:(?:tenho|to com|estou com|fiquei com|fiquei na|to na|estou na|bateu)"
        r" (?:uma |umas |a |minhas )?duvidas? (?:se|sobre|de|d[oa]s?|com|em|quanto a) (?:se|como"
        r"|o que|qual|quais|por que|quando|onde|o|a|os|as)?|nao (?:ficou|ta|esta|tenho|ficou muito)"
        r" (?:muito |bem |tao )?clar[oa] (?:se|como|o que|qual|por que|quando|onde|pra mim)"
        r"|(?:queria|gostaria de|quero|preciso) (?:entender|compreender) (?:bem |melhor )?(?:se"
        r"|como|o que|qual|por que|quando|onde|a|o|os|as))\b",
        0.8,
    ),
)

# The twenty-third round's (docs/interruptions.md, "Twenty-third round: the rules (Spanish and
# Brazilian Portuguese)"), spliced after ``TWENTYSECOND``: an audit of a protocol object asked as a
# plain question on what happened to it, or its owner asked as an order; a status asked as an
# order to report, "did you get to finish", a passive "already done?", a summary of the day,
# "what about X, closed?" or a supposition to confirm; a go after a decision or a break, formal or
# in slang.

# the protocol's objects; "trava" only as a noun, after a word that makes it one ("a trava", not
# "o app trava")
_HELD = (
    r"(?:locks?|lockfiles?|claims?|worktrees?|sessao|sessoes|heartbeats?|journal|task record"
    r"|hooks?|pre-commit|precommit|(?:a|as|essa|essas|esta|aquela|sua|tua|minha|nossa|da|na"
    r"|nessa|dessa) travas?)"
)
# the code's own sessions, hooks, locks: not the protocol's ("a sessão do usuário caiu?")
_APP = (
    r"usuarios?|clientes?|login|redis|banco|app|aplicacao|jwt|cookies?|tokens?|webhooks?|mutex"
    r"|react|postgres|mysql|navegador|browser|pagamentos?|checkout"
)
# what happened to it, or whether it still holds
_BEFALLEN = (
    r"ainda (?:vale|valem|existe|existem|funciona|serve|segura)|(?:ta|esta|tao|estao|continua"
    r"|segue) (?:de pe|valendo|ativ[oa]s?|viv[oa]s?|ai|la|aplicad[oa]s?|rodando|pres[oa]s?"
    r"|travad[oa]s?)|pres[oa]s?|travad[oa]s?|caiu|cairam|morreu|morreram|sobreviveu"
    r"|sobreviveram|vale(?! a pena)|valem|pegou|pegaram|barrou|barraram|bloqueou|passou batido"
    r"|deixou passar|rodou|rodaram|disparou|dispararam|se aplica|expirou|expirad[oa]s?|venceu"
    r"|vencid[oa]s?|(?:e|sao) (?:o|a|os|as) mesm[oa]s?"
)
# a work verb, done: "criadas", "feito", "migrados"
_MADE = r"(?:\w+ad[oa]s?|\w+id[oa]s?|feit[oa]s?|pront[oa]s?|escrit[oa]s?|post[oa]s?)"
# a report asked now, not when a thing happens ("me atualiza quando terminar")
_NOW = r"(?!.*\b(?:quando|assim que|logo que|depois|se|caso)\b)"
# a go not denied, asked, nor on a condition ("favor dar continuidade se o teste passar")
_FREE = r"(?!.*\b(?:nao|nunca|nem|se|caso)\b)(?!.*\?$)"
_THE = r"(?:o|a|os|as|aquel[ea]s?|esse|essa|esses|essas|seu|sua|nosso|nossa)"

TWENTYTHIRD = (
    # a protocol object's state, asked as what happened to it: "o kill -9 deixou a trava
    # presa?", "esse lock de ontem ainda vale?", "sua sessão caiu quando a VPN caiu?", "o
    # pre-commit pegou o arquivo gigante?", "o hook tá valendo no seu worktree?" (not how it
    # works, why, or the app's own session or lock)
    Rule(
        "pt-audit-state-asked",
        "AUDIT",
        r"^(?!(?:por que|pq|pra que|para que|como|quando|onde|qual|quais|o que)\b)"
        r"(?!.*\b(?:" + _APP + r")\b)(?=.*\b" + _HELD + r"\b)"
        r"(?=.*\?$|.*\bou nao\s*$|sera que\b).*\b(?:" + _BEFALLEN + r")\b",
        0.85,
    ),
    # who owns a protocol object and since when, as an order: "me mostra quem é o dono do
    # lock", "diz aí desde quando essa sessão tá aberta" (not the app's)
    Rule(
        "pt-audit-show-owner",
        "AUDIT",
        r"^(?!.*\b(?:" + _APP + r")\b)(?=.*\b" + _HELD + r"\b)(?:(?:me|pra mim) )?(?:mostra"
        r"|mostre|diz|diga|fala|fale|conta|passa|informa|informe|lista|descobre|ve)"
        r" (?:(?:pra mim|ai|rapidinho) )*(?:quem|de quem|o dono|a dona|desde quando"
        r"|ha quanto tempo|qual (?:agente|sessao))\b",
        0.85,
    ),
    # an order to report: "me atualiza aí", "me deixa a par", "me põe a par do checkout",
    # "atualiza a gente" (not an update of the code, "me atualiza o README", nor one asked for
    # later, "me atualiza quando terminar")
    Rule(
        "pt-status-update-me",
        "STATUS_REQUEST",
        r"^"
        + _NOW
        + r"(?:(?:ei|entao|ai|pfv|pf|por favor|rapidinho) )*(?:me|nos|a gente) (?:atualiza|atualize"
        r"|atualizem|deixa a par|deixe a par|poe a par|ponha a par|coloca a par|bota a par"
        r"|situa|situe)(?=$|[\s,.!?])(?! (?:o|a|os|as|esse|essa|esses|essas|isso|este|esta"
        r"|meu|minha)\b)"
        r"|^" + _NOW + r"(?:atualiza|atualize) (?:a gente"
        r"|nos|eu)\b",
        0.85,
    ),
    # "did you get to finish": "chegou a terminar o estorno?", "conseguiu acabar a migração?",
    # "deu tempo de subir o fix?" (not whether it thought of a thing: "chegou a pensar em X?")
    Rule(
        "pt-status-got-to-finish",
        "STATUS_REQUEST",
        r"^(?:(?:e|ai|entao|ei) )*(?:(?:voce|vc|tu) )?(?:ja )?(?:chegou a|chegaste a|conseguiu"
        r"|conseguiste|deu (?:pra|para|tempo de)|rolou de) (?:(?:ja|pelo menos|mesmo) )?"
        r"(?:terminar|acabar|concluir|finalizar|fechar|entregar|implementar|comecar|mexer|fazer"
        r"|subir|migrar|rodar|testar|escrever|corrigir|resolver|integrar|publicar)\b",
        0.85,
    ),
    # a piece of work asked done, in the passive: "as tabelas de lote já foram criadas?", "o
    # endpoint de busca já tá pronto?" (the protocol's objects are audits)
    Rule(
        "pt-status-done-passive",
        "STATUS_REQUEST",
        r"^(?!.*\b" + _HELD + r"\b)(?:(?:e|ai) )?" + _THE + r" [^?]*?\bja (?:foi|foram"
        r"|ta|tao|esta|estao|ficou|ficaram) (?:tod[oa]s? )?" + _MADE + r"\s*\?+$",
        0.85,
    ),
    # a summary of the day or of the work, for a meeting: "faz um resumo do seu dia pra eu
    # colar no standup", "manda um resumo pra daily" (not of the code: "um resumo do módulo")
    Rule(
        "pt-status-recap-day",
        "STATUS_REQUEST",
        r"^(?:(?:me|nos) )?(?:faz|faca|fazer|me faz|me da|da|de|manda|mande|escreve|escreva"
        r"|prepara|prepare|monta|monte|gera|gere|me passa|passa|quero|preciso de)"
        r" (?:(?:pra mim|pra gente|ai) )?(?:um |uma )?(?:resumo|resumao|recap|apanhado|relatorio"
        r"|status|balanco)(?: (?:rapid\w*|curt\w*|breve|geral))? (?:d[oa] (?:seu|teu|sua|tua"
        r"|nosso|nossa) (?:dia|manha|tarde|noite|semana|sprint|trabalho)|d[oa] (?:dia|manha"
        r"|tarde|semana|sprint|trabalho)(?! \d)|de hoje|pr[oa] (?:standup|stand-up|daily"
        r"|reuniao|weekly|chefe|gerente))\b",
        0.85,
    ),
    # "what about X, closed?": "e as passagens de barco, fechou?" (a bare noun's, not an
    # instruction's tag: "commits em inglês, fechou?")
    Rule(
        "pt-status-what-about",
        "STATUS_REQUEST",
        r"^" + _THE + r" [\w-]+(?: d[eoa]s? [\w-]+)*, (?:ja )?(?:fechou|foi|saiu"
        r"|terminou|rolou|deu certo|ficou pront[oa]|ta pront[oa]|andou|resolveu|finalizou"
        r"|concluiu|subiu)\s*\?+$",
        0.85,
    ),
    # a supposition to confirm: "suponho que a emissão de recibo ainda nem começou, né",
    # "imagino que vc ainda não mexeu no import" (not the protocol's objects)
    Rule(
        "pt-status-supposed",
        "STATUS_REQUEST",
        r"^(?:(?:e|mas|entao|bom) )*(?:eu )?(?:suponho|imagino|presumo|aposto|chuto|deduzo)"
        r" que\b(?!.*\b"
        + _HELD
        + r"\b).*\b(?:ainda|ja|nem)\b.*\b(?:(?!(?:estou|vou|sou|dou|tou)\b)\w{2,}(?:ou|eu|iu)|fez"
        r"|pront[oa]s?|feit[oa]s?|pela metade|parad[oa]s?)\b",
        0.8,
    ),
    # a go after a decision, the verb alone: "decidi: sem Redis. pode tocar", "pode tocar o
    # barco" (not asked, denied, or on an object: "pode tocar no lock?")
    Rule(
        "pt-go-may-play",
        "RESUMPTION",
        r"^(?:(?:entao|agora|ja|bom|pronto|beleza|blz|ok) )*(?:pode|podes|pd|podem) (?:ir )?"
        r"(?:tocar|tocar o barco|tocar em frente|tocar pra frente|seguir em frente)[\s.!]*$",
        0.85,
    ),
    # a formal go: "Favor dar continuidade.", "solicito que dê prosseguimento", "pode dar
    # sequência ao cadastro" (not denied; a later time or a condition holds it)
    Rule(
        "pt-go-formal",
        "RESUMPTION",
        r"^" + _FREE + r"(?:(?:favor|gentileza|por gentileza|solicito que"
        r"|solicitamos que|peco que|pedimos que|pode|podem|poderia|poderiam|queira|queiram) )?"
        r"(?:dar|de|deem|daria) (?:continuidade|prosseguimento|sequencia|seguimento|andamento)\b"
        r"|^" + _FREE + r"(?:favor|gentileza|por gentileza) (?:prosseguir"
        r"|seguir|continuar|retomar)\b",
        0.85,
    ),
    # back to the work after a break or stalling: "volta a calcular o frete", "volta pro
    # trabalho" (not back to an old version, nor a change: "volta pra versão anterior", "volta
    # a usar o Redis")
    Rule(
        "pt-go-back-to",
        "RESUMPTION",
        r"^" + _FREE + r"(?:(?:bora|agora|entao|pronto|ja|vai) )*(?:volta"
        r"|volte|voltem|retorna|retorne) (?:a|pra|para) (?:(?:calcular|implementar|codar"
        r"|programar|trabalhar|mexer|escrever|fazer|migrar|testar|integrar|montar|desenvolver"
        r"|construir|refatorar|corrigir|processar|importar|ajustar|criar|terminar|focar)\b"
        r"|(?:o|a) (?:trabalho|tarefa|task|batente|labuta|implementacao|migracao|feature)\b)",
        0.85,
    ),
    # a go in slang, alone or on its object: "senta a pua nos relatórios", "desce a lenha no
    # parser", "mete bronca" alone (on its object, "mete bronca no X", it is pt-go-onto's); not
    # denied, asked or held by "ainda"
    Rule(
        "pt-go-slang-more",
        "RESUMPTION",
        r"^(?!.*\bainda\b)" + _FREE + r"(?:(?:e|ja|agora|entao|beleza|blz|ok|pronto"
        r"|show|bora) )*(?:(?:senta a pua|desce a lenha|bota pra quebrar)(?: (?:n[oa]s?|em|com)\b"
        r"|[\s.!]*$)|(?:mete bronca|manda brasa)[\s.!]*$)",
        0.85,
    ),
)
