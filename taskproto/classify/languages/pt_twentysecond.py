"""Brazilian Portuguese rules of issue #45's twenty-second round (docs/interruptions.md,
"Twenty-second round: the rules (Spanish and Brazilian Portuguese)"): ``TWENTYSECOND``, spliced
after the twenty-first round's ``pt_twentieth.TWENTYFIRST`` (that module had no room left for
them). By kind, not by wording: a go in slang ("dá-lhe"); a status asked as what the agent has in
hand, as a recap, as what works and what is left, passed on for somebody else, or of a ticket; a
protocol object's age asked; a complaint, praise and a failure told since when are remarks, a
doubt or a wish to understand is a question. Text as in ``pt_br.py`` (lowercased, accents
folded)."""

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
