"""Brazilian Portuguese rules of issue #45's seventeenth round (docs/interruptions.md,
"Seventeenth round: the rules (Spanish and Brazilian Portuguese)"), spliced into ``pt_br.py``'s
table: ``ASK`` after ``pt-audit-now`` (a question on the protocol's state now is an audit),
``BEFORE_HOLD`` before ``pt-hold`` (not done yet asked, whether the work got done, the way made
free after news). Text as in ``pt_br.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.state_question import state_question

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
    r"|que) (?:branch|caminho|pasta|commit)\b"
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
    r"|abert[oa]s?|fechad[oa]s?|direito|direitinho|ai|la"
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
        r"|voce|vc|nos|eles|elas|ele|ela|o cliente|os clientes)\b)|(?:ta|esta) liberad[oa]\W*$"
        r"|(?:(?:e|fica) )?(?:contigo|com (?:voce|vc)|tod[oa] (?:seu|sua|teu|tua))\W*$"
        r"|vai fundo\b|(?:pode |ja pode )?voltar? (?:pro|pra|para o|para a|ao)\b(?! (?:mim|gente"
        r"|a gente|nos|voce|vc)\b)|toca (?:o|a|os|as) (?!terror\b)[\w-]+)",
        0.85,
    ),
)
