"""Brazilian Portuguese interruption rules. Text is lowercased with accents folded ("não" ->
"nao", "sessão" -> "sessao"). Same order as the English table. "continue" is also English."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import pt_kinds, pt_more
from taskproto.classify.languages.table import WORK, Language

_W = r"[\w'.-]+ "
# "segue" and "continua" are gos, but not "segue sem funcionar" / "continua quebrado" (still):
# those never start a clause, and a go must.
VERB = (
    r"(?:continua\b|continue\b|continuar\b|continuem\b|segue\b(?! (?:sem|sendo|\w+ando|\w+endo)\b)"
    r"|siga\b|seguir\b|prossiga\b|prossegue\b|prosseguir\b|retoma(?:r)?\b|retome\b"
    r"|vai em frente|vai la\b|manda ver|manda bala|bora\b|pode mandar|toca(?:r)? (?:o barco"
    r"|pra frente)|volta(?:r)? (?:pra|para a|pro|ao|para o) (?:task|tarefa|trabalho|codigo)"
    r"|maos a obra|passa(?:r)? (?:pra|pro|para a|para o|ao|a) proxim[oa] [\w-]+|bola pra frente"
    r"|passa(?:r)? (?:pra|pro|para a|para o|ao|a) (?:item|ponto|passo|etapa|parte|fase|tarefa"
    r"|task|ticket) [\w-]+|volta(?:r)? a (?:trabalhar|codar|programar|mexer n[oa])\b"
    r"|comeca\b|comece\b|comecar\b|vamo que vamo|sinal verde|vamos la\b|bora continuar"
    # keep going, in the progressive: "vai tocando o resto", "pode ir adiantando"
    r"|(?:vai|vao|va|ir|pode ir|vai indo) (?:tocando|adiantando|fazendo|seguindo|avancando"
    r"|andando|mandando)\b|dar? sequencia\b|segue o baile\b"
    # formal and encouraging: "dê continuidade ao relatório", "vai até o fim com o relatório"
    r"|\bd(?:e|a|ar|em) continuidade (?:a|ao|aos|as|na|no|nos|nas)\b|\bvai ate o fim\b"
    r"|^toca (?:ai|em frente)\W*$|^toca o resto\b"
    r"|(?:termina|termine|finaliza|finalize|conclui|conclua) (?:o|a|os|as)\b(?!.*\?$))"
)
# A bare acknowledgement of one or two words ("sim", "beleza 👍", "show!"):
# a message every word of which is a filler is read whole by the rules; with a "?" it asks.
ACK = (
    r"(?:sim|beleza|blz|show|ta|ta bom|ta certo|ok|valeu|fechou|fechado|certo|combinado"
    r"|perfeito|massa|joia)"
)
_NEG_VERB = (
    r"(?:continua|continue|continuar|continuem|segue|siga|seguir|prossiga|prossegue|avanca"
    r"|avance|retoma|retome|vai em frente|va em frente|vai fundo|d(?:e|a|ar|em) continuidade"
    r"|volta|volte|voltar|retomar|prosseguir|avancar)\b"
)
_PROTOCOL = (
    r"(?:locks?|worktrees?|journal|sessao|task\.json|estado da (?:task|tarefa)|arquivo de estado"
    r"|protocolo|branch(?:es)?|transic\w+|invariantes?)"
)
_AUDIT_NOUN = (
    r"(?:auditoria|audit|doctor|checagem de (?:consistencia|integridade)|sanity check|health check"
    r"|check)"
)

RULES = (
    # a go held until a check of the protocol's state, or a run of the audit: what is asked is
    # the check ("Não continua enquanto não rodar o doctor"): AUDIT
    Rule(
        "pt-audit-until",
        "AUDIT",
        r"\b(?:enquanto (?:voce |vc )?nao|ate (?:que )?(?:voce |vc )?)\b(?:(?=.*\b(?:verific"
        r"|confer|chec|revis|valid|audit|olh)\w*).*\b(?:lock|worktree|journal|sessao|task\.json"
        r"|protocolo|estado)|.*\b(?:audit|doctor))",
        0.85,
    ),
    # a yes/no or how-many question on the protocol's own state now, read before a clause that
    # says when ("depois da queda de luz o lock foi recuperado?"): "o worktree da branch X ainda
    # existe?", "quantos worktrees existem agora?", "o lock foi liberado?" (not how it works:
    # "quantos worktrees o taskproto aguenta?", "quando o lock é liberado?")
    Rule(
        "pt-audit-now",
        "AUDIT",
        # (the state in a lookahead, the noun matched: a go's "continua" compiles nothing more)
        r"^(?!(?:por que|pq|pra que|para que|como|quando|onde)\b)(?:(?=.*\b(?:ainda"
        r" (?:existe|existem|(?:ta|esta|tao|estao) (?:ai|la|abert[oa]s?|ativ[oa]s?|pres[oa]s?"
        r"|no nome|com (?:voce|vc|a gente|outr\w+)))|foi (?:recuperad|liberad|restaurad|apagad"
        r"|removid|reinstalad)[oa]|foram (?:recuperad|liberad|restaurad|apagad|removid"
        r"|reinstalad)[oa]s|(?:continua|continuam|seguem|segue) (?:atualizad|instalad|ativ"
        r"|valid)[oa]s?|(?:ta|esta) no nome d[eo])\b)(?!.*\b\w+(?:ando|endo|indo)\b)"
        r".*\b(?:locks?|worktrees?|journal|sessao|sessoes|task\.json|claims?|lockfile"
        r"|hooks? (?:de )?(?:git|commit-msg|pre-commit|pre-push|post-\w+))\b"
        r"|quant[oa]s (?:locks?|worktrees?|sessoes|claims?) (?:existem|tem|ha|(?:estao|tao)"
        r" abert[oa]s)\b).*\?$",
        0.85,
    ),
    *pt_more.ASK,
    Rule(
        "pt-dont-stop",
        "RESUMPTION",
        r"^nao (?:para|pare|parar|pausa|pause|espera|espere)\b(?! de\b)"
        r"|^nao (?:precisa|precisas|tem que|tens que) (?:me |nos |mais )?(?:esperar|parar"
        r"|aguardar)\b",
        0.9,
    ),
    Rule(
        "pt-deferred",
        "OTHER",
        rf"\b{VERB}.*\b(?:amanha|mais tarde|outro dia|segunda|depois d[oa] (?:review|revisao|ci"
        r"|merge|almoco)|so (?:quando|depois|se)|quando (?:eu voltar|terminar|passar|estiver)"
        r"|a tarde|de tarde|hoje a noite|de noite"
        r"|(?:quando|assim que|depois que) (?:[\w.-]+ ){0,4}?(?:estiver|estiverem"
        r"|tiver|tiverem|terminar|passar|ficar|for|acabar|voltar)\b)"
        rf"|\b(?:amanha|mais tarde)\b.*\b{VERB}|^depois d[oa]s? [\w.-]+$"
        r"|^(?:so )?(?:depois que|assim que) (?:[\w.-]+ ){0,4}?(?:estiver|estiverem|tiver|tiverem"
        r"|terminar|passar|ficar|for|acabar|voltar)\b"
        # a clause of its own that says when: "Prossiga só depois do meu ok"
        r"|^(?:mas )?(?:so )?(?:depois|apos) d[oa]s? (?![^?]*\b(?:o que|oq|qual)\b[^?]*\?$)"
        r"|^(?:mas )?(?:so )?(?:quando(?! (?:\w+ )?(?:acha|calcula) que)|assim que)\b(?!.*\?$)",
        0.9,
    ),
    Rule(
        "pt-nudge",
        "RESUMPTION",
        r"^(?:para|pare) de (?:perguntar|esperar|enrolar|hesitar)\b.*"
        + VERB
        + r"|^por que (?:voce |vc )?nao (?:continua|segue)\b",
        0.8,
    ),
    Rule(
        "pt-negated-resumption",
        "OTHER",
        rf"\b(?:nao|nunca|nem) (?:{_W}){{0,2}}?{_NEG_VERB}"
        rf"|^(?:espera )?(?:antes de|ate que|ate)\b.*\b{VERB}",
        0.9,
    ),
    *pt_more.BEFORE_HOLD,  # the seventeenth round's forms (pt_more.py)
    *pt_more.KINDS,  # the eighteenth and nineteenth rounds'
    Rule(
        "pt-hold",
        "OTHER",
        r"^(?:espera|espere|perai|pera|calma|(?:so )?um (?:minuto|momento|segundo|pouco)"
        r"|para\b(?! (?:que|o|a|os|as|um|uma|isso|esse|essa|mim|voce|pro|pra)\b)|pare|parar|stop"
        r"|pausa|da uma pausa|ainda nao|agora nao|segura (?:ai|a onda)|nao ainda|interrompe"
        # "pode parar com os testes de carga", "pode esperar?" (not "pode parar de perguntar")
        r"|interrompa|(?:fica|fique|fiquem) (?:em )?(?:stand-?by|espera|pausa)|(?:(?:voce|vc) )?"
        r"pode(?:s)? (?:parar|esperar|aguardar)(?! de (?:perguntar|esperar|enrolar|hesitar)))\b",
        0.8,
    ),
    Rule(
        "pt-status-how",
        "STATUS_REQUEST",
        r"^como (?:estamos|esta|estao|vai|vao|anda|andam|ta|tao|vai indo|ta indo|esta indo)\b"
        r"|^como (?:ficou|ficaram|foi|foram|andou)\s*\??$"
        # how a piece of work went: "Como foi o CI?", "Como ficou o deploy?"
        rf"|^como (?:ficou|ficaram|foi|foram|saiu|sairam|rodou|rodaram) (?:o |a |os |as )?{WORK}\b"
        r"|^em que (?:pe|estado|etapa|fase|passo|ponto)\b"
        r"|^(?:ate )?onde (?:voce|vc|a gente|nos|estamos)\b"
        r"|^(?:no|em) que (?:voce|vc) (?:esta|ta) trabalhando\b"
        r"|^(?:o que|que) (?:voce|vc) (?:esta|ta) fazendo\b"
        # "Seguimos dentro do prazo?" asks about the schedule, not for a go
        r"|^(?:seguimos|continuamos|estamos|tamo|tamos) (?:bem |ainda )?(?:dentro do|no|em)"
        r" (?:prazo|cronograma|tempo|planejado)\b",
        0.9,
    ),
    Rule(
        "pt-status-done",
        "STATUS_REQUEST",
        r"^(?:o que|que|quanto) (?:ainda )?(?:falta|resta|esta pendente|ta pendente)\b"
        r"|^o que (?:voce|vc|a gente|voces|vcs) (?:ja )?(?:fez|concluiu|terminou|mudou|fizeram"
        r"|conseguiu|completou)\b|^(?:ja )?foi\s*\??$|^ja \S+(?:ou|eu|iu)\b.*\?$"
        # after the work named ("E a meia-entrada, saiu?"), a past verb alone asks if it is done
        r"|^(?!(?:entendeu|viu|sacou|percebeu|gostou|ouviu|lembrou|pegou|captou|concordou)\b)"
        r"\S+(?:ou|eu|iu|aram|eram|iram)(?: (?:tudo|todos|todas|ja|certinho|direitinho))?\s*\?$"
        # the work ready today: "o app sai hoje?", "a versão nova fica pronta amanhã?"
        r"|^(?:(?:e )?(?:o|a|os|as) [\w.-]+(?: [\w.-]+){0,4} )?(?:sai|saem|fica pront[oa]s?|ficam"
        r" pront[oa]s|entra|entram|vai (?:sair|ficar pront[oa]|pro ar)) (?:ainda )?(?:hoje|amanha"
        r"|essa semana|esta semana)\b.*\?$"
        r"|^(?:o|a|os|as) [\w.-]+(?: [\w.-]+){0,3} ja (?:foi|\S+(?:ou|eu|iu|aram|eram|iram))\b"
        r"|^(?:ja )?(?:terminou|acabou|deu (?:o )?(?:push|merge|deploy)|fez (?:o )?(?:push|merge"
        r"|deploy)|passou|passaram)\b"
        r"|^(?:o|a|os|as) [\w.-]+(?: [\w.-]+){0,3} (?:ja )?(?:(?:esta|estao|ta|tao) )?"
        r"(?:pront[oa]s?|terminou|terminaram|passou|passaram|acabou|conclui[dr]o|finalizad[oa])\b"
        r"|^quant[oa]s? (?:tempo|falta|mais)\b|^quant[oa]s? (?:[\w-]+ ){0,3}?(?:ainda|falta"
        r"|faltam|falhando|resta|restam)\b"
        # whether it works now: "o formulário já funciona?"
        r"|^(?:(?:e )?(?:o|a|os|as) [\w.-]+(?: [\w.-]+){0,4} )?ja (?:funciona|funcionam|roda|rodam"
        r"|compila|compilam)\s*\?$",
        0.85,
    ),
    # the status asked as an instruction: "me põe a par", "me deixa a par do deploy"
    Rule(
        "pt-status-tell",
        "STATUS_REQUEST",
        r"^(?:me |nos )?(?:poe|coloca|deixa|bota)(?: (?:me|nos))? a par\b",
        0.85,
    ),
    Rule(
        "pt-status-terse",
        "STATUS_REQUEST",
        # "resume" is "summarise" in Portuguese, read before the English "resume"
        r"^(?:me )?resum(?:e|a|ir)(?: (?:pra|para) (?:mim|gente))? (?:o que|tudo o que|onde|o "
        r"(?:progresso|andamento|status)|como)\b|^(?:status|progresso|andamento|eta)"
        r"(?: (?:pfv|por favor|pls|do [\w-]+|da [\w-]+))*\s*\?*$"
        r"|^(?:um |uma )?(?:update|atualizacao|resumo|relatorio)(?: rapid[oa])?\b"
        r"|^qual (?:e )?(?:o )?(?:status|estado|andamento|progresso|proximo passo)\b"
        r"|^qual (?:e )?(?:o |a )?(?:percentual|porcentagem|%) (?:de |do |da )?(?:conclusao"
        r"|concluido|andamento|progresso|avanco|pronto|feito)\b"
        r"|^(?:tem|teve|houve) (?:algum |alguma )?(?:progresso|avanco|novidade)"
        r"|^(?:tem |alguma |algum )?(?:novidades?|atualizac\w+|updates?)\b"
        r"|^(?:me )?(?:da|manda|passa)(?: pra mim)? (?:[\w-]+ ){0,3}?(?:resumo|status|update"
        r"|andamento|progresso|relatorio)\b|^resum[ea] (?:o |a )?(?:seu |teu )?(?:progresso"
        r"|andamento|trabalho|status)\b",
        0.85,
    ),
    Rule(
        "pt-status-work",
        "STATUS_REQUEST",
        rf"^(?:o |a |os |as )?{WORK}\b.*\b(?:passou|passaram|terminou|rodou|falhou|verdes?"
        r"|vermelhos?|pront[oa]s?|mergead[oa]s?|quebrad[oa]s?)\b"
        r"|\b(?:ta|esta|tao|estao) (?:\w+ )?(?:travad[oa]s?|empacad[oa]s?|bloquead[oa]s?)\b"
        r"|^travou\b|^(?:e agora|o que vem)\b|^(?:algum|alguma|tem|teve) (?:avanco|novidade"
        r"|noticia|progresso)|^me (?:conta|fala|diz) (?:o que|onde|ate onde|como(?! (?:funciona"
        r"|funcionam|e que|se faz|se usa|faco|faz pra|fazer)\b))\b"
        r"|^(?:ja )?(?:acabou|terminou)\s*\??$|^empacou\b"
        r"|^(?:(?:ta|esta) )?quase (?:acabando|pronto"
        r"|terminando)\b|^qual (?:e )?a proxima\b|^(?:no|em) que (?:voce|vc) (?:ta|esta)\b"
        r"|^quais (?:sao )?as novidades\b|^(?:e )?(?:os|as|o|a) [\w-]+,? como (?:estao|esta|tao"
        r"|ta|ficou)\b|parcial\b|^o que (?:voce|vc) conseguiu\b"
        rf"|^(?:o |a )?{WORK}\b.*\b(?:feito|deu (?:algum )?retorno|disse)\b|^todos os {WORK}\b",
        0.85,
    ),
    Rule(
        "pt-audit-verb",
        "AUDIT",
        rf"\b(?:faz|faca|fazer|roda|rodar|executa|executar|realiza|passa|da)\b.*\b{_AUDIT_NOUN}\b"
        r"|^(?:(?:uma|um|outra|nova) )?(?:audita|auditar|auditoria|audit)\b(?!-?(?:log|trail))",
        0.9,
    ),
    Rule(
        "pt-audit-verify",
        "AUDIT",
        r"^(?:consegue |pode |voce pode )?(?:verifica|verificar|verifique|confere|conferir|confira"
        r"|compara|ve se|checa|checar|cheque|valida|validar|garante|garanta|inspeciona|olha se"
        r"|olha|confirma"
        rf"|da uma (?:olhada|conferida|checada|verificada))\b.*"
        rf"\b{_PROTOCOL}\b"
        r"|^(?:esta|estao|ta|tao|o|a|os|as|tudo)\b(?=.*\b(?:tudo|locks?|worktrees?|journal"
        r"|task\.json|sessao|protocolo|estado)\b).*\b(?:consistentes?|corret[oa]s?|em sync"
        r"|sincronizad[oa]s?|integr[oa]s?|valid[oa]s?|limp[oa]s?)\b"
        r"|\bviol(?:ou|amos|ado|acao|acoes)\b.*\bprotocolo\b",
        0.85,
    ),
    Rule(
        "pt-audit-protocol",
        "AUDIT",
        r"\bde acordo com o protocolo|\bconforme o protocolo|violac\w+ (?:de|do) protocolo"
        r"|^(?:o |a |os |as )?(?:estado|lock|worktree|journal)\b.*\b(?:ainda )?(?:(?:ta|esta)"
        r" )?(?:corret[oa]s?|limp[oa]s?|consistentes?|valid[oa]s?|sincronizad[oa]s?)\b.*\?$"
        r"|^(?:um |uma )?(?:sanity check|health check|checagem)\b|\borfaos?\b"
        r"|\bprotocolo foi violado|desvios? do protocolo",
        0.85,
    ),
    # a question about the protocol's state now, not its design ("O lock ainda é nosso?")
    Rule(
        "pt-audit-state",
        "AUDIT",
        r"^(?!(?:por que|pq|pra que|para que|como|quando|quem|qual|quais|que|o que)\b)"
        r"(?=.*\b(?:locks?|worktrees?|journal|sessao|task\.json|protocolo|claims?)\b).*\b(?:ainda"
        r" (?:e|ta|esta) (?:nosso|nossa|valid[oa]|ativ[oa])|nosso|nossa|valid[oa]|ativ[oa]|expirou"
        r"|orfa\w*|orfao\w*|limp[oa]s?|sincronizad\w*|batem|bate|conferem|segurando|com o (?:lock"
        r"|claim)|sobrou|sobraram|velh[oa]s?|quebramos|quebrou|violamos|violou|corrompid\w*"
        r"|corret[oa]s?|consistentes?)\b.*\?$",
        0.8,
    ),
    # a yes/no question about the work's progress ("O build ainda tá rodando?", "Avançou?")
    Rule(
        "pt-status-yesno",
        "STATUS_REQUEST",
        r"^(?:(?:o|a|os|as) )?[\w.-]+(?: [\w.-]+)? (?:ainda )?(?:ta|esta|tao|estao) (?:rodando"
        r"|falhando|quebrando|buildando|passando|vermelh\w*|verde\w*)\b|^(?:(?:o|a|os|as) )?[\w.-]+"
        r"(?: [\w.-]+)? (?:voltou|voltaram) a (?:passar|funcionar|rodar)\b|^(?:ja )?(?:avanc|comec"
        r"|termin|acab|sub|push|merge|deploy|compil|funcion|rod|abr|integr|coloc|corrig|arrum"
        r"|consegu|rol|pass|fech|resolv|reproduz|test|sa)\w*"
        r"(?:ou|eu|iu|amos|emos|imos|aram|eram|iram)\b.*\?$|^(?:(?:o|a|os|as) )?[\w.-]+"
        r"(?: [\w.-]+){0,2} (?:ja )?(?:funcionou|funcionaram|deu certo|quebrou)\b.*\?$"
        r"|^(?:ja )?deu certo\b.*\?$|^quando (?:(?:voce|vc|a gente) )?(?:termina|acaba|fica pronto"
        r"|vai terminar|vai ficar"
        r" pronto|sai)\b|^(?:ta|esta) (?:trabalhando|mexendo|fazendo) (?:em|no|na|o) (?:que|qual)\b"
        r"|^(?:ta|esta) (?:avancando|andando|indo) bem\b|^qua(?:is|l) (?:[\w-]+ ){0,2}?(?:ainda )?"
        r"(?:faltam|falta|restam|sobram)\b"
        # where the work stopped, how far it went: "Parou em qual arquivo?", "andou bastante?"
        r"|^(?:(?:voce|vc) )?parou (?:\w+ )?(?:em|no|na) (?:qual|que)\b"
        r"|^(?:onde|em que) (?:voce |vc )?parou\b"
        r"|^(?:e )?(?:ja )?(?:andou|avancou|progrediu) (?:bastante|muito|algo|alguma coisa)\W*\?$"
        r"|^o que (?:(?:voce|vc) )?(?:tem|ja tem|conseguiu) ate agora\b",
        0.8,
    ),
    Rule(
        "pt-question",
        "QUESTION",
        r"^(?:por que|pq|pra que|para que|qual|quais|onde|quando|quem|cade)\b"
        r"|^(?:o que|que|como|quanto)\b.*\?$|^como (?:funciona|e que)\b"
        r"|^(?:explica|me explica|explique|esclarece|descreve|detalha)\b"
        r"|^(?:mano |cara |vei |po )?o q (?:faz|e|eh|significa|rola|acontece)\b"
        r"|\b(?:pode|poderia|consegue) (?:me |nos )?(?:explicar|esclarecer|descrever|dizer"
        r"|contar)\b|^nao (?:entendi|entendo)\b(?! nada\W*$)|^(?:uma |outra )?(?:duvida|pergunta)\b"
        # "me diz por que ...", "me ajuda a entender ..."
        r"|^(?:me )?(?:diz|diga|fala|conta)(?:-me)? (?:antes |primeiro )?(?:por que|pq|como|o que"
        r"|qual|quais|onde|pra que"
        r"|para que)\b|^(?:me )?ajud[ae](?:-me)? a (?:entender|compreender|sacar)\b",
        0.85,
    ),
    Rule(
        "pt-resumption",
        "RESUMPTION",
        r"^(?:(?:ok|beleza|sim|pronto|entao|e|agora|bom|valeu|perfeito|ta|bora|vamos) )*"
        + VERB
        + r"|\b(?:pode|pd|podes|voce pode|vc pode|consegue|e depois|depois|entao|por favor|bora|e"
        r"|(?:e )?ai)"
        rf" (?:ja |agora )?{VERB}",
        0.9,
    ),
    Rule(
        "pt-go-ahead",
        "RESUMPTION",
        r"^(?:aprovado|aprovada|pode ir|vai|vamos(?: nessa| la)?|proxima etapa|proximo passo)"
        r"\s*[!.]*$",
        0.8,
    ),
    # "resume"/"resuma" is "summarise": what was done is a status request (pt-status-terse),
    # anything else an instruction (a remark: it does not take back a go before it), never the
    # English "resume"
    Rule(
        "pt-status-summary",
        "STATUS_REQUEST",
        r"^(?:me |nos )?resum(?:e|a|ir)\b(?: (?:pra|para) (?:mim|gente|a gente))?"
        r"(?: (?:rapidinho|rapido|em (?:\w+ )?(?:linhas?|frases?|pontos|topicos)))?"
        r" (?:tudo )?(?:o que|que|como|onde|ate onde) (?:\w+ ){0,3}?(?:fez|fizemos|feito|fizeram"
        r"|andou|avancou|mudou|terminou|concluiu|ta|esta|falta|resta|ficou pendente)\b"
        r"|^(?:me |nos )?resum(?:e|a)\b(?: (?:pra|para) (?:mim|gente|a gente))? (?:o|a|seu|teu"
        r"|meu) (?:dia|progresso|andamento|status|trabalho de hoje)\b",
        0.85,
    ),
    Rule(
        "pt-summary-remark",
        "OTHER",
        r"^(?:me |nos )?resum(?:e|a|am|ir|ao)\b(?: (?:pra|para) (?:mim|gente|a gente|o \w+|a \w+))?"
        r"(?: em)? (?:o|a|os|as|esse|essa|esses|essas|este|esta|estes|estas|isso|isto|aquilo|um"
        r"|uma|uns|umas|meu|minha|meus|minhas|seu|sua|seus|suas|tudo|toda|todo|todos|todas|cada"
        r"|\d+)\b",
        0.75,
    ),
    # a tag after what was said ("…, visse?", "…, né?") and a task for some day ("um dia a gente
    # precisa documentar isso", its "um" cut as a filler) ask nothing and hold nothing
    Rule(
        "pt-tag-remark",
        "OTHER",
        r"^(?:visse|viu|ne|neh|ouviu|hein|sacou|entendeu|entendido)\s*\?+$"
        r"|^(?:(?:um|algum|qualquer) )?dia (?:a gente|nos|eu|voce|vc|tem que|temos que"
        r"|precisamos|vamos)\b(?!.*\?$)",
        0.7,
    ),
    # a bare acknowledgement (ACK) asks nothing and holds nothing: OTHER, which the model does
    # not override (a remark: after a go, it would not take the go back)
    Rule("pt-remark", "OTHER", rf"^(?:{ACK}[^\w?]*){{1,2}}$", 0.7),
    # a question about what a change will do ("O rebase vai sobrescrever as migrations da Ana?",
    # "As URLs vão ficar iguais depois da migração?"): a question, not a status request (the
    # protocol's own state is an audit's)
    Rule(
        "pt-effect-question",
        "QUESTION",
        r"^(?=.*\b(?:rebase|merge|migracao|upgrade|atualizacao|deploy|refactor\w*|refatora\w*"
        r"|release)\b)(?!.*\b(?:locks?|worktrees?|journal|task\.json)\b)"
        r".*\b(?:vai|vao) (?:sobrescrever|apagar|quebrar|mudar|ficar|manter|perder"
        r"|continuar iguais|continuar igual|remover)\b.*\?$",
        0.85,
    ),
    # "parte pro X", "volta pro X" (not to a version), "ir em frente", "mete bronca no X": not asked
    Rule(
        "pt-go-onto",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca)\b)(?!.*\?$)(?:(?:e|depois|entao|agora|ai|ok|beleza) )*(?:"
        r"parte (?:pro|pra|para o|para a|para os|para as)\b|volta (?:pro|pra|para o|para a|ao)\b"
        r"(?! (?:versao|versoes|commit|release|tag|backup|[\w-]+ (?:anterior|antig[oa]))\b)"
        r"|(?:pode )?(?:ir|seguir) em frente\b|mete (?:bronca|ficha|marcha|o pe) (?:no|na|nos|nas"
        r"|em|com)\b|manda (?:brasa|ver|bala)\b|vai com (?:o|a|os|as)\b(?! calma\b))",
        0.85,
    ),
    # a mention, not a request: a progress indicator named in a statement, a bug
    # ("O spinner de progresso gira pra sempre"): a remark, which the model does not override
    Rule(
        "pt-mention-remark",
        "OTHER",
        r"^(?!.*\?$)(?:o|a|um|uma|esse|essa|este|esta|nosso|nossa)"
        r" (?:spinner|barra de (?:progresso|carregamento)|indicador de (?:progresso|carregamento)"
        r"|loader|progress ?bar)\b",
        0.7,
    ),
    # the rest the same way: "faz o resto do mesmo jeito" (a rule of its own, not in VERB)
    Rule(
        "pt-rest",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca)\b)(?:[\w-]+ ){0,2}?(?:faz|faca|completa|toca|roda|rode)"
        r" (?:(?:tambem|todo) )*o resto\b(?!.*\?$)",
        0.85,
    ),
)

LANGUAGE = Language(
    code="pt-BR",
    rules=(*RULES, *pt_kinds.LAST),
    fillers=(
        r"(?:ok(?:ay)?|sim|beleza|blz|valeu|obrigad[oa]|pronto|perfeito|otimo|tudo certo"
        r"|tudo bem|certo|bom|entao|e|agora|ta bom|ta certo|ta(?=\s*[,.!]|\s*$)|tranquilo|show"
        r"|legal|massa|fechou|fechado|combinado|joia|e ai|primeiro|antes"
        r"|ah|eh|hum|po|poxa|olha(?! (?:se|o|a|os|as|no|na|nos|nas)\b)|por favor|pfv|pf|mas)\b"
    ),
    joiners=pt_kinds.JOINERS,
    connectives=(
        # not "antes ou depois do pagamento" (a question's choice), nor a question's last words
        # saying after what ("quantas sessões ficaram abertas depois do crash?")
        r"(?<!\bou)\s+(?=(?:mas|porem|depois(?! d[oa]s? [^,.;:!?]*\?\s*$)|e depois|e entao"
        r"|antes de|ate que" + pt_kinds.AND_THEN + r")\b)"
    ),
    later=(
        r"\b(?:amanha|depois de amanha|mais tarde|daqui a pouco|hoje a (?:tarde|noite)"
        r"|de (?:tarde|noite)|a noite|semana que vem|segunda|quando eu (?:voltar|disser|mandar)"
        r"|depois que eu|depois d[oa]s? (?:meu|minha|meus|minhas|nosso|nossa)\b"
        r"|depois d[oa] (?:almoco|reuniao|call|daily|standup|review|meeting|janta|jantar))\b"
        # by form: a weekday, a clock time, a span, "depois de/após" + a noun (not "disso")
        r"|\b(?:(?:segunda|terca|quarta|quinta|sexta)(?:-| )feira|sabado|domingo|fim de semana)\b"
        r"|\b(?:na|nesta|essa|proxima|ate) (?:segunda|terca|quarta|quinta|sexta)\b"
        r"|\bas (?:\d{1,2}|duas|tres|quatro|cinco|seis|sete|oito|nove|dez|onze|doze)\b|\ba uma\b"
        r"|\b\d{1,2} ?h(?:\d{2})?\b|\bmeio-?dia\b|\b(?:daqui a|em) (?:\d+|uma|um|duas|dois|meia)"
        r" ?(?:minutos?|min|horas?|h|dias?)\b|\b(?:depois d(?:e|o|a|os|as)|apos(?: o| a| os| as)?)"
        r" (?!(?:isso|amanha|tudo)\b)[\w-]+"
    ),
    conditions=(
        # a clause that waits for an event: "espera o CI passar e depois continua"
        r"^(?:espera|espere|aguarda|aguarde) (?:que\b|(?:ate )?(?:o|a|os|as) [\w.-]+"
        r"(?: [\w.-]+){0,4}? \w+(?:ar|er|ir)\b)|"
        # "só volta pro código se o build passar" (only if)
        r"\b(?:quando|assim que|logo que|depois que|ate que|uma vez que|(?<!fala )(?<!diz )so se"
        r"|so (?!(?:me )?(?:fala|diz|avisa|conta|confirma)\b)(?:[\w-]+ ){1,6}?se(?= (?:o|a|os|as"
        r"|um|uma|tudo|\w+(?:ar|er|ir))\b))\b(?! (?:quiser"
        r"|puder|estiver pront[oa]|achar melhor|der)\b)"
        # the agent's own step ("quando você terminar o login, segue com o cadastro")
        r"(?! (?:voce|vc|tu) (?:terminar|acabar|concluir|finalizar|tiver (?:terminado|acabado"
        r"|concluido|finalizado))\b)"
        # not one already met: "voltou pro verde depois que reiniciei o runner, segue com X"
        r"(?<!depois que)|\bdepois que (?!(?:eu |a gente )?\w+(?:ei|ou|amos|aram|eram|iram)\b)"
        + pt_kinds.IF_HELD
    ),
    retractions=(
        r"(?:^|[\s,.!;])(?:deixa pra la|deixa para la|esquece(?: isso)?|melhor nao|pensando bem"
        r"|na verdade nao|nao,? (?:espera|pera|para)|ah nao|nao nao)\b"
    ),
    approvals=r"\b(?:aprovad[oa]s?|aprovo|sinal verde|luz verde|lgtm)\b",
    negations=r"\b(?:nao|nunca|sem|ainda nao)\b",
    courtesies=(
        r"(?:^|(?<=[\s,;:.!?]))(?:(?:quando|se|assim que) (?:voce |vc |tu |o senhor |a senhora )?"
        r"(?:quiser|puder|preferir|achar melhor|estiver pront[oa])|quando (?:der|for possivel)"
        r"|se (?:der|possivel)|no (?:seu|teu) (?:tempo|ritmo)|sem pressa)(?=\s*(?:$|[,.!?;:]))"
    ),
)
