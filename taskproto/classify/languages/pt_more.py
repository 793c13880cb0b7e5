"""Brazilian Portuguese rules of issue #45's seventeenth and eighteenth rounds
(docs/interruptions.md, "Seventeenth round: the rules (Spanish and Brazilian Portuguese)" and
"Eighteenth round: the rules (Spanish and Brazilian Portuguese)"), spliced into ``pt_br.py``'s
table: ``ASK`` after ``pt-audit-now`` (a question on the protocol's state now is an audit),
``BEFORE_HOLD`` then ``BY_KIND`` before ``pt-hold`` (not done yet asked, whether the work got
done, the way made free after news; then the eighteenth round's kinds: going on explaining
asked, a go verb meaning follow, a state asked with "continua / segue", the lock said "trava",
how many the code has, wondering or doubt asked, a greeting asked). Text as in ``pt_br.py``
(lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import pt_kinds, pt_twentieth, pt_twentysecond
from taskproto.classify.languages.state_question import state_question
from taskproto.classify.languages.table import WORK

# pt-audit-ask: a question on the protocol's state now, not opened by why, how, when, where,
# what (but "que worktrees…?"), and without words of how it works or of the code's own
_ASK_NOT_HOW = (
    r"por que|pq|pra que|para que|como|quando|onde|o que|que(?! (?:locks?|worktrees?|sessoes"
    r"|sessao|hooks?|branch|entradas?)\b)|qual (?:e )?a (?:diferencia|diferenca|vantagem|ideia)"
)
# (what happens if, by default; the app's own sessions, hooks, locks; the work's own tests)
_ASK_NOT_STATE = (
    r"se (?:o|a|os|as|um|uma|alguem|der|cair|falhar|morrer|eu|voce|vc)|si (?:el|la)|o que acontece"
    r"|que acontece|automaticamente|sozinh[oa]|entendi|por padrao|normalmente|em geral|sempre"
    r"|toda vez|mutex|semaforos?|webhooks?|usuari[oa]s?|clientes?|login|navegador|react|redis"
    r"|postgres|banco(?: de dados)?|tabelas?|linhas?|testes?|tests?|build|ci|pipeline|logout"
    r"|cookies?|php|jwt|tokens?|oauth|sso|carrinho|checkout"
)
# who holds it, how many there are, which branch it is on
_ASK_WHO = (
    r"(?:quem|de quem) (?:tem|ta|esta|e|sao|segura|pegou|ficou)\b"
    r"|quant[oa]s (?:[\w-]+ ){0,3}?(?:existem|existe|tem|ha|estao|tao|ficaram|sobraram|seguem"
    r"|continuam|abert[oa]s|ativ[oa]s|pendurad[oa]s|travad[oa]s)\b|(?:pra|para|em|de|a) (?:qual"
    r"|que) (?:branch|caminho|pasta|commit)\b|^(?:qual|quais|que) (?:worktree|lock|sessao"
    r"|sessoes|branch|claim)s? (?:e|sao|pertence\w*|corresponde\w*) (?:d[oa]s?|a|ao)\b"
)
# its state now: still, active, installed, alive, expired, points to, matches, coherent, missing
# ("continua" not opening the clause, where it is a go)
_ASK_STATE = (
    r"ainda|(?<=\w )(?:continua|continuam|segue|seguem) (?:ativ|abert|instalad|valid|pres|travad"
    r"|la\b|ai\b|no nome|com\b|viv)|ativ\w*|desativ\w*|instalad\w*|desinstalad\w*|viv[oa]s?"
    r"|mort[oa]s?|zumbis?|travad[oa]s?|pendurad[oa]s?|orfa\w*|orfao\w*|expir\w*|vencid[oa]s?"
    r"|venceu|aponta\w*|corresponde\w*|bate|batem|cert[oa]s?|errad[oa]s?|corret[oa]s?"
    r"|incorret[oa]s?|coerente\w*|incoerente\w*|consistente\w*|inconsistente\w*|faltando|falta"
    r"|faltam|existe|existem|sumiu|sumiram|apagad[oa]s?|perdid[oa]s?|quebrad[oa]s?|corrompid[oa]s?"
    r"|complet[oa]s?|incomplet[oa]s?|no (?:seu|teu|meu|nosso) nome|no nome|liberad[oa]s?"
    r"|abert[oa]s?|fechad[oa]s?|direito|direitinho|ai|la|reaproveitad[oa]s?|reutilizad[oa]s?"
    r"|reusad[oa]s?|nov[oa]s?|pres[oa]s?|(?:e|eh|sao) (?:seus?|suas?|teus?|tuas?|de (?:vc|voce))"
)
# the protocol's objects
_ASK_OBJECT = (
    r"locks?|lockfiles?|claims?|sessao|sessoes|heartbeats?|journal|worktrees?|hooks?|task record"
    r"|registro|estado da (?:tarefa|task)|task\.json|pid"
)

ASK = (
    # any question on the present state of the protocol's objects (the lock, its file, holder
    # and PID; the session and its heartbeat; the journal and its entries; a worktree and its
    # branch; the hooks; the task's record): "quem tá com o lock?", "a sessão ainda tá viva?",
    # "o worktree aponta pra qual branch?", "o lock expirou?". Not how it works (why, how, when,
    # what happens if, by default), nor the code's own locks, sessions, hooks
    # (not work still running ("tá rodando"), but "tá faltando", "continua sendo" (states))
    state_question(
        "pt-audit-ask",
        _ASK_NOT_HOW,
        _ASK_NOT_STATE,
        _ASK_WHO,
        _ASK_STATE,
        _ASK_OBJECT,
        r"(?!faltando\b|sendo\b)\w+(?:ando|endo|indo)",
    ),
)

BEFORE_HOLD = (
    # not done yet, asked: "ainda não terminou o orçamento (não)?", "ainda não ficou pronto o
    # deploy?" (a status request; said, "ainda não" is a hold)
    Rule(
        "pt-status-notyet",
        "STATUS_REQUEST",
        r"^(?:ainda nao|nao) (?:(?:se|o|a|os|as|te) )?(?:termin|acab|conclu|complet|fech|sub"
        r"|push|merge|deploy|corrig|arrum|migr|import|comec|rod|pass|funcion|finaliz)\w*"
        r"(?:ou|eu|iu|aram|eram|iram)\b.*\?$"
        r"|^(?:ainda nao|nao) (?:(?:esta|estao|ta|tao|ficou|ficaram) )?(?:pront|feit|terminad"
        r"|finalizad)[oa]s?\b.*\?$",
        0.85,
    ),
    # whether the work got done, asked by the time or the chance it had, what is left or works
    # of it, or anything ready ("deu tempo de terminar X?", "chegou a terminar X?", "quais
    # endpoints ainda faltam?", "tem algo pronto pra mostrar?"); not a thing understood
    # ("conseguiu entender por que falha?") nor what happens if ("o que acontece se faltar…?")
    Rule(
        "pt-status-managed",
        "STATUS_REQUEST",
        r"^(?:e )?(?:ja )?deu tempo (?:de|pra|para)\b.*\?$"
        r"|^(?:e )?(?:ja )?(?:(?:voce|vc) )?(?:conseguiu|chegou a|deu conta de) (?:terminar|acabar"
        r"|concluir|fechar|subir|mergear|fazer o deploy|migrar|importar|fazer|testar|arrumar"
        r"|corrigir|integrar|avancar|finalizar)\b.*\?$"
        r"|^(?:que|quais|quant[oa]s) (?:(?!(?:se|si|quando|acontece|fazemos|faco)\b)[\w-]+ ){1,4}?"
        r"(?:ainda )?(?:faltam|falta|restam|resta)\b"
        r"|^(?:que|quais) (?:(?!(?:se|quando)\b)[\w-]+ ){1,4}?ja (?:funcionam|funciona|rodam"
        r"|roda)\b"
        r"|^(?:e )?(?:ja )?(?:tem|ha) (?:algo|alguma coisa) (?:pront[oa]|feit[oa]|funcionando)\b"
        r"|^(?:(?:e )?(?:o|a|os|as) [\w.-]+(?: [\w.-]+){5,8} )ja (?:funciona|funcionam|roda|rodam"
        r"|compila|compilam)\s*\?$",
        0.85,
    ),
    # the way made free, said after the news that lifted the wait: "a homologação passou, tá
    # liberado pro checkout", "é contigo", "vai fundo no relatório", "pode voltar pra frota",
    # "toca o aviso de cookies": a clause of its own, not denied, not asked, not back to a person
    Rule(
        "pt-go-free",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem)\b)(?!.*\?$)(?:(?:e|entao|agora|ai|ok|beleza|pronto|ja) )*(?:"
        r"(?:(?:ta|esta) )?liberad[oa] (?:pra|pro|pros|pras|para)\b(?! (?:mim|gente|a gente"
        r"|voce|vc|nos|eles|elas|ele|ela|o cliente|os clientes)\b)|(?:ta|esta) liberad[oa][^\w]*$"
        r"|(?:(?:e|fica) )?(?:contigo|com (?:voce|vc)|tod[oa] (?:seu|sua|teu|tua))[^\w]*$"
        r"|vai fundo\b|(?:pode |ja pode )?voltar? (?:pro|pra|para o|para a|ao)\b(?! (?:mim|gente"
        # not back to an older version, a revert ("volta pra versão anterior", the twenty-third
        # round's)
        r"|a gente|nos|voce|vc|versao|versoes|commit|release|tag|backup"
        r"|[\w-]+ (?:anterior|antig[oa]|de ontem))\b)|toca (?:o|a|os|as) (?!terror\b)[\w-]+"
        # the turn handed over, a clipped go: "coloquei a variável. Sua vez", "agora é tua vez",
        # "leva até o fim, depois eu olho"
        r"|(?:(?:e|agora e) )?(?:a )?(?:sua|tua) vez[^\w]*$|leva (?:isso |isso ai |tudo )?ate o"
        r" (?:fim|final)\b)",
        0.85,
    ),
)

_GO = r"(?:continua|continue|continuar|segue|siga|seguir|prossegue|prossiga)"
# (a hold or a doubt on going on, in the same words: "me pergunto se não era melhor parar")
_NOT_HOLD = (
    r"(?!.*\b(?:deveriamos|devemos|deveria|devia|melhor|vale a pena|seguir|segue|sigo|seguimos"
    r"|continuar|continua|continuo|continuamos|parar|paro|paramos|esperar|espero|esperamos"
    r"|pausar|deixar pra)\b)"
)
# wondering, doubt, not understanding, a wish to understand ...
_WONDER = (
    r"^(?:(?:sinceramente|olha|cara|mano|po|tipo|eu|agora) )*(?:(?:eu )?(?:me pergunto|fico me"
    r" perguntando|fiquei me perguntando|to me perguntando|tou me perguntando|estou me"
    r" perguntando|me perguntei)|(?:tenho|to com|tou com|estou com|fiquei com|me bateu) (?:uma )?"
    r"(?:duvida|curiosidade)|fiquei curios[oa]|nao (?:ficou|ta|esta|fica|tava|estava)(?: muito"
    r"| bem| tao| totalmente| nada)? clar[oa](?: pra mim| para mim)?|nao (?:entendi|entendo"
    r"|peguei|saquei|captei|pesquei|consegui entender|to entendendo|estou entendendo)(?: bem"
    r"| direito| muito bem| ainda)?|(?:queria|quero|gostaria de|preciso) (?:entender|saber"
    r"|compreender)(?: melhor| direito| bem)?)(?: (?:de|sobre))?(?: saber)?"
)
# ... then what is asked
_ASKED = r" (?:se|como|por que|pq|o que|que|qual|quais|quant[oa]s?|onde|quando|pra que|o|a|os|as)\b"

# The eighteenth round's forms, by kind (docs/interruptions.md, "Eighteenth round: the rules
# (Spanish and Brazilian Portuguese)"), spliced after ``BEFORE_HOLD``.
BY_KIND = (
    # asked to go on explaining: the go word governs the telling, not the task's work
    # ("continua me explicando o fluxo de pagamento", "segue explicando a parte do webhook",
    # "continua a explicação"); not explaining written into the docs
    Rule(
        "pt-explain-question",
        "QUESTION",
        # (the go word in a lookahead, the telling matched: a go compiles nothing more)
        r"^(?:(?:ok|beleza|pronto|entao|e|agora|bom|ta|po|cara) )*(?:(?:pode|pd|vc pode|voce pode"
        r"|consegue) )?(?="
        + _GO
        + r")\w+ (?:(?:me|nos) )?(?:com )?(?:(?:a|sua|tua|essa) )?(?:explicando|contando"
        r"|detalhando|esclarecendo|descrevendo|explicacao)\b"
        r"(?!.* n(?:o|a|os|as) (?:readme|docs?|documentacao|comentarios?|wiki|changelog|pr)\b)",
        0.85,
    ),
    # "segue o padrão do projeto", "siga a convenção de nomes": follow, not a go
    Rule(
        "pt-follow-remark",
        "OTHER",
        r"^(?:(?:e|mas|so|sempre|melhor|pfv|por favor) )*(?="
        + _GO
        + r")\w+ (?:(?:sempre|tambem) )?(?:o|a|os|as|nosso|nossa|nossos|nossas|meu|minha)"
        r" (?:mesm[oa]s? )?(?:padrao|padroes|convenc(?:ao|oes)|estilo|guia|regras?|normas?|exemplo"
        r"|formato|nomenclatura|lint|linter|style ?guide)\b",
        0.8,
    ),
    # a state asked with "continua / segue": "tem um hook de testes… continua instalado?", "segue
    # ativo o lock?": the protocol's state now, not a go
    Rule(
        "pt-still-audit",
        "AUDIT",
        r"^(?:(?:e|mas|ou|entao) )?(?=continua |continuam |segue |seguem )\w+ (?:(?:instal|ativ"
        r"|registr|configur|carreg|pendur|trav)ad[oa]s?|ativ[oa]s?|viv[oa]s?|orfa[os]?|ai|la|de pe"
        r"|no (?:seu|teu|meu) nome)\b(?!.*\b(?:" + WORK + r")\b)[^?]*\?$",
        0.85,
    ),
    # ... and of the work or its trouble: "o build continua ativo?", "continua quebrado o login?":
    # a status request, never a go
    Rule(
        "pt-still-status",
        "STATUS_REQUEST",
        r"^(?:(?:e|mas|ou|entao) )?(?=continua |continuam |segue |seguem )\w+ (?:(?:ativ|pendur"
        r"|trav|quebr|bloque)ad[oa]s?|ativ[oa]s?|viv[oa]s?|caid[oa]s?|pendentes?|vermelh[oa]s?"
        r"|em (?:draft|revisao|fila)|igual)\b[^?]*\?$",
        0.85,
    ),
    # "checa a trava, acho que ficou presa": the lock, said "trava", checked
    Rule(
        "pt-check-lock",
        "AUDIT",
        r"^(?:(?:consegue|pode|pd|vc pode|voce pode) )?(?:checa|checar|chequeia|confere|conferir"
        r"|confira|verifica|verificar|verifique|olha|ve|da uma (?:olhada|conferida|checada)) (?:n?a"
        r"|n?essa|n?aquela) trava\b",
        0.85,
    ),
    # how many a thing of the code has is a question, not the work's count: "quantos estados tem
    # a máquina de pedidos?" (not what is left, done, failing, nor asked with "já"; nor the
    # protocol's objects, an audit's)
    Rule(
        "pt-count-asked",
        "QUESTION",
        r"^(?!.*\b(?:locks?|worktrees?|sessao|sessoes|claims?|hooks?|journal)\b)"
        r"quant[oa]s (?:[\w-]+ ){1,3}?(?:tem|ha|existem|suporta|suportam|aguenta|aguentam|cabem"
        r"|possui|possuem)\b(?!.*\b(?:falta|faltam|resta|restam|sobra|sobram|falhando|quebrad[oa]s"
        r"|ainda|ja|agora|feit[oa]s|pront[oa]s|terminad[oa]s|migrad[oa]s|pendentes?)\b).*\?$",
        0.85,
    ),
    # how the code behaves, asked yes or no: a thing stored, computed or sent some way, or done
    # on purpose ("as datas tão sendo salvas com timezone?", "o 404 é de propósito?"): a
    # question, not where the work stands (not of the work's build, CI, tests, nor "you")
    Rule(
        "pt-behaviour-asked",
        "QUESTION",
        r"^(?!.*\b(?:" + WORK + r"|voce|vc|tu|ja|ainda)\b)(?:.*\b(?:e|sao|ta|tao|esta|estao|foi)"
        r" (?:de proposito|proposital|intencional|esperado|by design)\b|.*\b(?:e|sao|ta|tao|esta"
        r"|estao|foi|foram|fica|ficam)(?: sendo)? (?:salv|armazen|grav|guard|calcul|valid|ger"
        r"|envi|arredond|cache|criptograf|serializ|normaliz|ordenad|filtr)(?:\w*(?:ad|id)|)[oa]s?"
        r" (?:com|em|no|na|nos|nas|pelo|pela|por|como|antes|depois|via|usando)\b).*\?$",
        0.85,
    ),
    # wondering about where the work stands: "fico me perguntando quanto falta"
    Rule(
        "pt-wonder-status",
        "STATUS_REQUEST",
        _WONDER + _NOT_HOLD + r".*\b(?:quanto (?:te |lhe |nos )?(?:falta|resta)|ate onde (?:voce"
        r" |vc )?(?:chegou|foi)|em que pe|como (?:ta|esta) indo|se (?:voce |vc )?ja (?:terminou"
        r"|acabou)|em que (?:ponto|estado|etapa|fase) (?:ta|esta|tao|estao|anda|andam|vai|vao))\b",
        0.8,
    ),
    # wondering, doubt or not understanding about the code or a choice is a question ("me
    # pergunto se o Postgres aguenta…", "não ficou claro o que o padrão observer traz"); the
    # model may read the protocol's state in it; a doubt on going on or a hold is not
    Rule("pt-wonder-question", "QUESTION", _WONDER + _ASKED + _NOT_HOLD, 0.8),
    # a greeting asked, no request: "Bom dia! Tudo certo por aí?" (the fillers leave "por aí?"),
    # "oi, tudo bem?"
    Rule(
        "pt-greeting-remark",
        "OTHER",
        r"^(?:(?:e ai|eai|opa|oi|ola|fala|bom dia|boa tarde|boa noite)[^\w]+)*(?:tudo (?:certo|bem"
        r"|bom|tranquilo|joia|beleza|em paz|na paz|ok)[^\w]+)?(?:por ai|por la|do (?:seu|teu) lado)"
        r"[^\w]*$|^(?:e ai|eai|opa|oi|ola)[^\w]+tudo (?:bem|bom|certo)[^\w]*$",
        0.7,
    ),
)

# The eighteenth round's forms, then the nineteenth's (``pt_kinds.py``), the twentieth's and
# the twenty-first's (``pt_twentieth.py``), the twenty-second's and
# the twenty-third's (``pt_twentysecond.py``):
# spliced after ``BEFORE_HOLD``.
KINDS = (
    *BY_KIND,
    *pt_kinds.NINETEENTH,
    *pt_twentieth.TWENTIETH,
    *pt_twentieth.TWENTYFIRST,
    *pt_twentysecond.TWENTYSECOND,
    *pt_twentysecond.TWENTYTHIRD,
)
