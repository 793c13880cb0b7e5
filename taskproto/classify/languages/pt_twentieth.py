"""Brazilian Portuguese rules of issue #45's twentieth round (docs/interruptions.md, "Twentieth
round: the rules (Spanish and Brazilian Portuguese)"): ``TWENTIETH``, spliced after the
nineteenth round's ``pt_kinds.NINETEENTH``. By kind, not by wording: a status asked as when, as
a thing to be sent, as "will you have it before"; a go as the task's own verb on what is
missing, as "deploy it", or as going straight on to the next piece; an audit of a past protocol
event or a leftover artefact; a question on the code said as a wonder, as a change's content,
as how a thing was done, as where a thing comes from, as an upgrade's effect or as what the tool
can do; never a go: "keep waiting", a work verb denied, a doubt on stopping or going on, a go
word as a noun. Text as in ``pt_br.py`` (lowercased, accents folded). The twenty-first round's
``TWENTYFIRST`` is at the end (docs/interruptions.md, "Twenty-first round: the rules (Spanish and
Brazilian Portuguese)")."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.pt_kinds import _WORK_GO

# the protocol's objects
_OBJECT = r"locks?|lockfiles?|claims?|worktrees?|sessao|sessoes|heartbeats?|journal|hooks?"
# wondering or thinking aloud, then "se": "me pergunto se", "fico pensando se", "não sei se"
_WONDER_IF = (
    r"^(?:(?:sinceramente|olha|cara|mano|po|tipo|eu|agora|bom) )*(?:(?:eu )?(?:me pergunto"
    r"|fico me perguntando|fiquei me perguntando|to me perguntando|estou me perguntando"
    r"|fico pensando|fiquei pensando|to pensando|tou pensando|estou pensando|tava pensando"
    r"|estava pensando|nao sei) se|sera que) (?:nao )?(?:(?:a gente|nos|voce|vc) )?"
)
# should, worth, better: what the wonder weighs
_SHOULD = (
    r"(?:deveria|deveriamos|devia|deviamos|devemos|vale a pena|valeria a pena|compensa"
    r"|compensaria|seria melhor|e melhor|era melhor|faz sentido|faria sentido)"
)
# stopping, waiting or going on: a doubt about the work itself, not about the code (not
# "seguir com o Redis ou trocar pro Memcached", a choice of the design's)
_STOP_OR_GO = (
    r"(?:parar|pausar|dar uma pausa|segurar|esperar|aguardar|desistir|largar|deixar (?:isso )?"
    r"(?:pra|para) depois|(?:continuar|seguir|prosseguir)(?=\s*$| (?:assim|aqui|em frente|igual"
    r"|com (?:isso|isto|esse|essa|este|esta|o plano|a tarefa|o trabalho))\b))"
)
# the readiness of a piece of work
_READY = r"(?:pront|terminad|feit|acabad|disponivel|no ar|em producao)"

TWENTIETH = (
    # keep waiting, keep still: the go word governs the waiting, a hold ("… então continua
    # esperando", "segue aguardando o ok", "fica quieto por enquanto")
    Rule(
        "pt-keep-waiting",
        "OTHER",
        r"^(?:(?:entao|ai|e|por enquanto|por ora|enquanto isso|voce|vc|so) )*(?:continua|continue"
        r"|segue|siga|fica|fique) (?:(?:ai|assim|quieto|quieta|um pouco|por enquanto|mais um"
        r" pouco) )?(?:esperando|aguardando|parad[oa]|quiet[oa]|em espera|no aguardo|pausad[oa]"
        r"|em pausa|sem mexer|sem fazer nada)\b",
        0.85,
    ),
    # a work verb denied ("não implementa o que falta ainda", "nem faz o deploy"): never a go,
    # nothing asked; after a go, a limit on it, not a hold (a remark: "continua, mas não mexe
    # nas migrations" goes on)
    Rule(
        "pt-work-denied-remark",
        "OTHER",
        r"^(?:(?:e|mas|por enquanto|por ora|ainda|pfv|por favor) )*(?:nao|nunca|nem) (?:me )?"
        r"(?:implementa|implemente|faz|faca|escreve|escreva|mexe|mexa|sobe|suba|deploya|mergeia"
        r"|mergea|migra|migre|termina|termine|completa|complete|comeca|comece|coloca|coloque"
        r"|adiciona|adicione|commita|integra|integre|cria|crie|monta|monte|aplica|aplique)\b",
        0.85,
    ),
    # a doubt on stopping or going on asks nothing and holds nothing: "me pergunto se não
    # devíamos parar por aqui", "será que vale a pena continuar com isso" (a doubt on the code
    # is a question, pt-wonder-should)
    Rule(
        "pt-doubt-go-remark",
        "OTHER",
        _WONDER_IF + _SHOULD + r"(?: nao)? (?:(?:ja|aqui|agora) )?" + _STOP_OR_GO + r"\b",
        0.8,
    ),
    # a wonder on what the code should be is a question, with or without "?": "fico pensando se
    # a gente devia guardar os tempos em milissegundos", "será que compensa um índice?"
    Rule(
        "pt-wonder-should",
        "QUESTION",
        _WONDER_IF + _SHOULD + r"\b(?!.*\b" + _STOP_OR_GO + r"\b)",
        0.8,
    ),
    # a status asked as when: when I get it, when it is ready, when you finish ("quando vou ter
    # a primeira versão?", "quando posso esperar um rascunho?", "pra quando fica pronta a
    # integração?", "e a tela, fica pronta quando?"); not when the code does a thing ("quando
    # o lock é liberado?"), nor an obligation ("quando a gente vai ter que migrar?")
    Rule(
        "pt-status-when",
        "STATUS_REQUEST",
        r"^(?:e )?(?:pra |para )?(?:quando|qnd|qdo) (?:(?:voce|vc|tu) )?(?:(?:acha|calcula"
        r"|estima) que )?(?:(?:eu|a gente|nos|voce|vc) )?(?:(?:vou|vamos|vai|posso|podemos|consigo"
        r"|consegue)(?: poder)? (?:ter|ver|receber|esperar|testar)\b(?! que\b)|(?:me |nos )?"
        r"(?:passa|manda|entrega|termina|acaba|fecha)\b|(?:fica|ficam|vai ficar|vao ficar"
        r"|estara|estarao) " + _READY + r")|^(?:e )?(?:pra|para) quando\s*\?*$"
        r"|^(?:fica|ficam|vai ficar|sai|saem|termina|entrega) (?:" + _READY + r"\w* )?quando\b",
        0.85,
    ),
    # a status asked as "will you have it before …": "consegue ter isso antes da loja fechar?",
    # "vai dar tempo de terminar antes da demo?", "você entrega isso até sexta?"
    Rule(
        "pt-status-before",
        "STATUS_REQUEST",
        r"^(?:(?:voce|vc|tu) )?(?:consegue|conseguiria|da|vai dar tempo|da tempo) (?:de |pra"
        r" |para )?(?:ter|terminar|entregar|acabar|fechar|concluir) (?:isso |tudo |o \w+ |a \w+ )?"
        r"(?:" + _READY + r"\w* )?(?:antes|ate)\b"
        r"|^(?:(?:voce|vc|tu) )?(?:entrega|termina|fecha|acaba|conclui) (?:isso|tudo|o \w+|a \w+)"
        r" (?:antes|ate)\b.*\?$",
        0.85,
    ),
    # a status asked to be sent ("poderia me enviar um status do módulo de cobrança?",
    # "consegue me passar o andamento do importador?") or as its percentage ("me diz só a
    # porcentagem"); not a state of the app ("o status do servidor")
    Rule(
        "pt-status-send",
        "STATUS_REQUEST",
        # (the verb and its "me" spelled out, so "pode continuar" opens none of its words)
        r"^(?:(?:poderia|podia|pode|consegue|da pra) (?:me enviar|me mandar|me passar|enviar"
        r"|mandar|passar)|(?:voce|vc) (?:poderia|pode|consegue) (?:me enviar|me mandar"
        r"|me passar))(?: (?:pra|para) mim)? (?:um|uma|o|seu|teu) (?:status|update|resumo|relatorio"
        r"|andamento|informe|posicao)\b(?! (?:do|da|de) (?:app|sistema|codigo|banco|api"
        r"|servidor)\b)|^(?:so |me |so me )?(?:diz|fala|passa) (?:so a|so o|apenas a|a|o)"
        r" (?:porcentagem|percentual)(?: (?:de )?(?:progresso|andamento|conclusao|feito))?\s*$",
        0.85,
    ),
    # the task's own work ordered on what is missing: "implementa o que falta do módulo",
    # "escreve os testes que faltam pro importador" (not denied, asked, nor put off)
    Rule(
        "pt-go-missing",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem)\b)(?!.*\?$)(?:(?:e|agora|entao|ai|ok|beleza|ja) )*(?="
        + _WORK_GO
        + r"\b)\w+ (?:(?:voce|vc|tu|tambem|ja) )?(?:o que (?:ainda )?(?:falta|faltam|resta"
        r"|restam|ficou faltando)|(?:o|a|os|as) (?:[\w.-]+ ){1,3}?que (?:ainda )?(?:falta"
        r"|faltam|resta|restam|ficaram faltando))\b",
        0.85,
    ),
    # "deploy it", the clause whole, after a decision or an approval: "a aprovação saiu, sobe
    # pra produção", "aprovaram, pode fazer o deploy", "deploya isso" (not asked, not a change)
    Rule(
        "pt-go-deploy",
        "RESUMPTION",
        r"^(?:(?:e|agora|entao|ai|ja|pode|bora) )*(?:(?:sobe|suba|subir|deploya|deployar|manda"
        r"|mande|mandar) (?:isso |tudo |ele |ela )?(?:pra|para|pro|em) (?:producao|prod"
        r"|homolog|homologacao|staging)|(?:sobe|suba|deploya) (?:isso|tudo)|(?:faz|faca|fazer)"
        r" o deploy)(?: (?:ja|agora|entao))?[\s.!]*$",
        0.85,
    ),
    # going straight on to the next piece after a step: "sobe isso e já emenda no módulo de
    # boletos", "faz o merge e já parte pro ticket", "e já engata na tela de login"
    Rule(
        "pt-go-straight",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem)\b)(?!.*\?$)(?:.*\b(?:e|ja|depois|dai|ai) )?(?:ja )?(?:emenda"
        r"|emende|engata|engate|pula|pule|parte|segue direto|vai direto|passa direto)(?: direto)?"
        r" (?:n[oa]s?|pr[oa]s?|para (?:o|a|os|as))\b",
        0.85,
    ),
    # what a change did is the code's question, not where the work stands: "o que mudou nesse
    # último commit, fala rapidinho", "me diz o que o PR de ontem alterou" (not "o que você
    # mudou", the work's)
    Rule(
        "pt-change-asked",
        "QUESTION",
        r"^(?:(?:me )?(?:diz|fala|conta|explica|resume) (?:(?:rapidinho|rapido|resumidamente"
        r"|em uma linha) )?)?o que (?:que )?(?:mudou|mudaram|muda|mexeu|alterou|introduziu"
        r"|quebrou|corrigiu|trouxe)(?: exatamente)? (?:n[oa]|nesse|neste|nessa|nesta|esse|este"
        r"|essa|esta|o|a|seu|teu) ?(?:ultimo |penultimo |primeiro )?(?:commit|pr|merge|diff"
        r"|patch|rebase|pull request)\b|^(?:(?:me )?(?:diz|fala|conta|explica) (?:(?:rapidinho"
        r"|rapido|resumidamente) )?)?o que (?:o|a|esse|este|essa|esta|seu|teu) (?:ultimo"
        r" |penultimo )?(?:commit|pr|merge|diff|patch|rebase) (?:[\w-]+ ){0,3}?(?:mudou|alterou"
        r"|mexeu|introduziu|quebrou|corrigiu|trouxe)\b",
        0.85,
    ),
    # how a thing was done, told me, is the design's question: "me conta como você implementou
    # o cache", "me explica como resolveu o N+1" (not how the work goes: "como tá indo")
    Rule(
        "pt-how-done-asked",
        "QUESTION",
        r"^(?:me )?(?:conta|explica|diz|fala)(?: (?:pra mim|pra gente))? como (?:(?:voce|vc|tu)"
        r" )?(?:(?:o|a|os|as) )?(?!(?:avanc|progred|termin|acab|cheg|fic)\w*\b)(?:\w+(?:ou|eu|iu)"
        r"|fez|fizeram|fizemos|trouxe|pos)\b",
        0.85,
    ),
    # where a thing comes from, or asked in my opinion: "de onde tá vindo essa query
    # repetida?", "o N+1, de onde vem na sua opinião?"
    Rule(
        "pt-opinion-asked",
        "QUESTION",
        r"^(?:e )?de onde (?:(?:ta|esta|tao|estao) )?(?:vem|vindo|sai|saindo|surge|surgiu|veio"
        r"|aparece)\b|^(?=.*\b(?:na sua opiniao|na tua opiniao|no seu entender|no teu entender)\b)"
        # its topic before a comma ("o memory leak, de onde …?", joined: ``pt_kinds.JOINERS``)
        r"(?:[^,?]{1,60}, )?(?:de onde|por que|pq|o que|como|qual|onde|quanto)\b",
        0.85,
    ),
    # what an upgrade or a change would do, asked with the change as its subject: "atualizar o
    # Django agora quebra o client de pagamentos?", "migrar pro Node 20 afeta os workers?"
    Rule(
        "pt-effect-asked",
        "QUESTION",
        r"^(?!.*\b(?:" + _OBJECT + r")\b)(?:e )?(?:se )?(?:atualizar|subir|migrar|trocar|mudar"
        r"|remover|tirar|apagar|renomear|mover|ativar|desativar|baixar|fazer (?:o )?upgrade)\b.*"
        r"\b(?:quebra|quebraria|vai quebrar|afeta|afetaria|vai afetar|muda|mudaria|estraga"
        r"|zoa)\b.*\?$",
        0.85,
    ),
    # whether the tool can run somewhere, asked: "dá pra rodar o comando de auditoria fora de
    # um repositório git?" (what the tool can do, not an audit asked: "dá pra rodar uma
    # auditoria agora?" stays one)
    Rule(
        "pt-tool-asked",
        "QUESTION",
        r"^(?:da pra|e possivel|tem como|consigo|posso|a gente consegue|funciona) (?:rodar"
        r"|executar|usar|chamar) (?:o|a|os) (?:comando|ferramenta|script|cli|auditoria|audit"
        r"|doctor)\b.*\b(?:fora d|sem |dentro d|em outr|em qualquer|num |numa |no windows"
        r"|no mac|via |pelo|pela|em paralelo|remotamente)",
        0.85,
    ),
    # a past protocol event audited: whether a lock was released, a worktree removed when the
    # agent paused or a session ended ("o lock foi liberado direitinho quando você pausou?");
    # a leftover artefact alive or dead ("o worktree tmp-2 ainda tá em uso ou tá morto?")
    Rule(
        "pt-audit-past",
        "AUDIT",
        r"^(?!(?:por que|pq|pra que|como|onde)\b)(?=.*\b(?:" + _OBJECT + r")\b)(?:.*\b(?:foi|foram"
        r"|ficou|ficaram) (?:liberad|apagad|fechad|removid|limpad|criad|registrad|renovad)[oa]s?"
        r"\b.*\b(?:quando|ao|depois que|apos)\b|.*\b(?:(?:ainda )?(?:ta|esta) em uso|(?:ainda )?e"
        r" usad[oa]|serve|(?:ta|esta) viv[oa])\b.*\bou\b.*\b(?:mort[oa]|abandonad[oa]|orfa[oa]?"
        r"|lixo|pode apagar|da pra apagar|sobrando)).*\?$",
        0.85,
    ),
    # a go word as a noun in a fact told: "a continuidade do serviço caiu", "a retomada das
    # vendas foi fraca": a remark, never a go
    Rule(
        "pt-go-noun-remark",
        "OTHER",
        r"^(?:a|o|nossa|nosso|essa|esse|esta|este) (?:continuidade|continuacao|retomada"
        r"|sequencia|prosseguimento)\b(?!.*\?$)",
        0.75,
    ),
)

# Issue #45's twenty-first round (docs/interruptions.md, "Twenty-first round: the rules (Spanish
# and Brazilian Portuguese)"): ``TWENTYFIRST``, spliced after ``TWENTIETH``. By kind: a go asked
# politely, on the same pattern or the rest, or a part taken in charge; a status asked as what
# time or as reaching the end; a hold asked as a question; a feeling told; who holds the lock
# (with its typos); a doubt on a fact of the code.
_GO_VERB = r"(?:continuar|seguir|prosseguir|retomar|tocar)"
# what a go word may govern that is no go: a waiting, a stillness, an explaining ("continuar
# esperando", "seguir explicando")
_NOT_GO = (
    r"(?! (?:esperando|aguardando|em espera|no aguardo|parad[oa]|quiet[oa]|em pausa"
    r"|sem fazer nada|\w+(?:ando|endo|indo))\b)"
)
# the pattern or the model the work follows: "esse mesmo modelo", "o mesmo padrão"
_SAME = (
    r"(?:esse|este|o|aquele|nesse|neste|no|naquele) mesmo (?:modelo|padrao|esquema|formato|jeito"
    r"|estilo|criterio|metodo|tratamento|molde)"
)

TWENTYFIRST = (
    # a hold asked as a question is a hold ("consegue parar um minutinho?", "dá pra esperar o
    # CI passar?", "você se importa de continuar esperando?"): never a go, nor a status asked
    # (not "parar de perguntar", a nudge to go on; "pode parar" is pt-hold's)
    Rule(
        "pt-hold-asked",
        "OTHER",
        r"^(?:(?:e|ei|pfv|por favor|voce|vc|tu) )*(?:consegue|conseguiria|da pra|daria pra"
        r"|poderia|podia|se importa de|se importaria de|(?:voce|vc) se importa(?:ria)? de)"
        r" (?:(?:so|um pouco|agora|ja) )?(?:parar|pausar|segurar|esperar|aguardar|dar uma pausa"
        r"|ficar quiet[oa]|(?:continuar|seguir) (?:esperando|aguardando|em espera|parad[oa]"
        r"|quiet[oa]))\b(?! de\b)",
        0.85,
    ),
    # a go asked politely is a go: "você se importaria de continuar com isso?", "se importa de
    # seguir com os testes?" (not denied, not the waiting or the explaining it governs)
    Rule(
        "pt-go-polite",
        "RESUMPTION",
        r"^(?:(?:e|entao|ai|pfv|por favor) )*(?:(?:voce|vc|tu) )?(?:se importa|se importaria"
        r"|importa|importaria|faria a gentileza|pode fazer a gentileza) de "
        + _GO_VERB
        + r"\b"
        + _NOT_GO,
        0.85,
    ),
    # the task's work on the rest, on the same pattern, or done the same to the next part:
    # "escreve o resto dos estados seguindo esse modelo", "aplica o mesmo padrão nos relatórios",
    # "faz o mesmo com os boletos" (not denied nor asked)
    Rule(
        "pt-go-same",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem)\b)(?!.*\?$)(?:(?:e|agora|entao|ai|ok|beleza|ja) )*(?="
        + _WORK_GO
        + r"\b)\w+ (?:(?:voce|vc|tu|tambem|ja|agora) )?(?:(?:todo )?o (?:resto|restante)"
        r"|(?:os|as) (?:demais|outr[oa]s restantes)|o mesmo (?:com|pra|para|pro|nos|nas|no|na"
        r"|em)\b|"
        + _SAME
        + r" (?:a|ao|aos|as|nos|nas|no|na|em|pra|pro|para|com)\b|.*\b(?:(?:seguindo"
        r"|com|conforme|usando) )?" + _SAME + r")\b",
        0.85,
    ),
    # a part of the work taken in charge: "deixa a API e cuida agora do frontend", "se
    # encarrega das notificações" (not "cuida de me avisar", an errand)
    Rule(
        "pt-go-take-charge",
        "RESUMPTION",
        r"^(?!.*\b(?:nao|nunca|nem)\b)(?!.*\?$)(?:.*\be )?(?:(?:agora|ja|entao|ai|voce|vc) )*"
        r"(?:(?:cuida|cuide|se encarrega|se encarregue) (?:(?:agora|ja|voce|vc|tu) )?(?:do|da|dos"
        r"|das)|(?:assume|assuma) (?:(?:agora|ja|voce|vc|tu) )?(?:o|a|os|as))\b",
        0.85,
    ),
    # a status asked as what time: "que horas vc acha que fecha isso?", "que horas termina?"
    # (not when the code does a thing: "que horas o cron roda?", nor a shop: "que horas fecha
    # a loja?")
    Rule(
        "pt-status-what-time",
        "STATUS_REQUEST",
        r"^(?:e )?(?:(?:a|la pelas) )?(?:que|q|qual) horas? (?:(?:voce|vc|tu) )?(?:(?:acha|calcula"
        r"|estima) que )?(?:(?:voce|vc|tu|a gente) )?(?:(?:vai|vao) )?(?:fecha|fechar|termina"
        r"|terminar|acaba|acabar|entrega|entregar|conclui|concluir|fica pront|ficar pront|sai"
        r"|sair)\w*(?: (?:isso|isto|tudo|ai|essa parte|esse trabalho|essa tarefa))?\s*\?*$",
        0.85,
    ),
    # how far the work got: "e o bot da agenda, chegou no fim?" (asked)
    Rule(
        "pt-status-reached-end",
        "STATUS_REQUEST",
        r"^(?:e )?(?:ja )?(?:chegou|chegaram|chegamos|ja chegou) (?:ja )?(?:no|ao|ate o) (?:fim"
        r"|final)\b.*\?$",
        0.85,
    ),
    # who holds the lock, typos and all: "quem tá com o lok agora, vc?" (a check of the
    # protocol's state, not how the code locks: "quem libera o lock no código?")
    Rule(
        "pt-audit-who-holds",
        "AUDIT",
        r"^(?:e )?(?:quem|com quem) (?:(?:ta|esta|tem|segura|ficou|fica|e dono)(?: com)?"
        r"|(?:ta|esta|ficou|fica)) (?:(?:agora|ai) )?(?:o )?(?:lock|lok|lokc|lcok|lck|claim"
        r"|cadeado)\b(?!.*\b(?:codigo|app|aplicacao|redis|banco)\b)",
        0.85,
    ),
    # a feeling told asks nothing: "aff, algo não tá batendo", "hmm, isso tá com cheiro estranho"
    Rule(
        "pt-feeling-remark",
        "OTHER",
        r"^(?:(?:af+|aff+|ai|puts|putz|hm+|m{2,}|ixi|eita|sei la|po|pff+) )*(?:algo|isso|tem algo"
        r"|tem alguma coisa|alguma coisa) (?:nao (?:ta|esta) (?:batendo|fechando|certo|legal)"
        r"|nao me (?:convence|cheira bem)|(?:ta|esta) (?:estranh|esquisit|cheirando)\w*"
        r"|(?:ta|esta) com cheiro)\b(?!.*\?$)",
        0.8,
    ),
    # a bare pronoun asked after what was asked is its tag, not a question of its own: "quem tá
    # com o lock agora, vc?" (the clause before decides)
    Rule("pt-pronoun-tag-remark", "OTHER", r"^(?:e )?(?:voce|vc|tu|ele|ela|eu)\s*\?+$", 0.7),
    # a doubt on a fact of the code, asked: "tem certeza que o BIC é opcional?"
    Rule(
        "pt-doubt-fact",
        "QUESTION",
        r"^(?:(?:e|mas) )*(?:(?:voce|vc|tu) )?(?:tem|ta|esta) (?:certeza|segur[oa]) (?:de )?que\b",
        0.85,
    ),
)
