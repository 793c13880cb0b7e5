"""Spanish rules of issue #45's seventeenth round (docs/interruptions.md, "Seventeenth round:
the rules (Spanish and Brazilian Portuguese)"), spliced into ``es.py``'s table: ``ASK`` after
``es-audit-now`` (a question on the protocol's state now is an audit), ``BEFORE_HOLD`` before
``es-hold`` (not done yet asked, whether the work got done, the way made free after news).
Text as in ``es.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.state_question import state_question

# es-audit-ask: a question on the protocol's state now, not opened by why, how, when, where, what
# (but "¿qué worktrees…?"), and without words of how it works or of the code's own
_ASK_NOT_HOW = (
    r"por que|para que|como|cuando|donde|que(?! (?:locks?|worktrees?|sesion(?:es)?|hooks?|rama"
    r"|entradas?)\b)|cual(?:es)? (?:es|son) (?:el|la|los|las) (?:diferencia|ventaja|objetivo"
    r"|sentido)"
)
# (what happens if, by default; the app's own sessions, hooks, locks; the work's own tests)
_ASK_NOT_STATE = (
    r"si (?:el|la|los|las|se|un|una|alguien|falla|cae|muere|hay|cierro|cierras)|se (?:o|a|os|as)"
    r"|que pasa|que ocurre|que acontece|automaticamente|entendi|por defecto|normalmente|en general"
    r"|siempre|cada vez|mutex|semaforos?|webhooks?|usuari[oa]s?|clientes?|login|navegador|react"
    r"|redis|postgres|base de datos|tablas?|filas?|tests?|build|ci|pipeline|logout|cookies?|php"
    r"|jwt|tokens?|oauth|sso|carrito|checkout"
)
# who holds it, how many there are, which branch it is on
_ASK_WHO = (
    r"(?:quien(?:es)?|de quien) (?:tiene|tienen|es|son|sostiene|retiene|agarro|tomo)\b"
    r"|cuant[oa]s (?:[\w-]+ ){0,3}?(?:hay|quedan|siguen|existen|tiene|tienes|estan|abiert[oa]s"
    r"|activ[oa]s|colgad[oa]s|huerfan[oa]s)\b|(?:a|en|de) (?:que|cual) (?:rama|branch|ruta|carpeta"
    r"|commit)\b"
)
# its state now: still, active, installed, alive, expired, points to, matches, coherent, missing
_ASK_STATE = (
    r"sigue(?! con\b)|siguen(?! con\b)|todavia|aun|activ\w*|desactiv\w*|instalad\w*|desinstalad\w*"
    r"|viv[oa]s?|muert[oa]s?|zombi\w*|colgad[oa]s?|huerfan\w*|caduc\w*|expir\w*|apunta\w*"
    r"|corresponde\w*|coincide\w*|cuadra\w*|correct\w*|incorrect\w*|bien|mal|coherente\w*"
    r"|incoherente\w*|consistente\w*|inconsistente\w*|(?<!hace )falta\w*|existe\w*|borrad\w*"
    r"|perdid\w*|rot[oa]s?|corrupt\w*|complet[oa]s?|incomplet[oa]s?|a (?:tu|mi|su|nuestro) nombre"
    r"|tuy[oa]s?|nuestr[oa]s?|liberad[oa]s?|abiert[oa]s?|cerrad[oa]s?|atascad[oa]s?|trabad[oa]s?"
    r"|pegad[oa]s?|ahi"
)
# the protocol's objects
_ASK_OBJECT = (
    r"locks?|lockfiles?|claims?|sesion(?:es)?|heartbeats?|journal|worktrees?|hooks?|task record"
    r"|registro|estado de la tarea|task\.json|pid"
)

ASK = (
    # any question on the present state of the protocol's objects (the lock, its file, holder
    # and PID; the session and its heartbeat; the journal and its entries; a worktree and its
    # branch; the hooks; the task's record): "¿Quién tiene el lock?", "¿La sesión sigue viva?",
    # "¿A qué rama apunta el worktree?", "¿Faltan entradas en el journal?". Not how it works
    # (why, how, when, what happens if, by default), nor the code's own locks, sessions, hooks
    # (not work still running ("sigue fallando"), but "siguen siendo" (still are))
    state_question(
        "es-audit-ask",
        _ASK_NOT_HOW,
        _ASK_NOT_STATE,
        _ASK_WHO,
        _ASK_STATE,
        _ASK_OBJECT,
        r"(?!siendo\b)\w+(?:ando|iendo)",
    ),
    # how it works, asked of a protocol object: when, why, how, whether it is needed, or a run
    # still failing ("¿Cuándo se actualiza el journal?", "¿hace falta el lock para leer el
    # journal?", "¿El hook pre-commit sigue fallando?"): the code's question, which no check of
    # the protocol answers (the model does not make an audit of it: languages.firm); not
    # "¿Sigue llegando el heartbeat?" or "¿El journal está guardando …?" (its state: audits)
    Rule(
        "es-question-how",
        "QUESTION",
        r"^(?:(?:por que|para que|como|cuando|donde)\b|(?=.*\b(?:hace falta|sigue[n]? (?:fallando"
        r"|petando|tardando|corriendo|ejecutandose|creandose))\b))(?=.*\b(?:"
        + _ASK_OBJECT
        + r")\b).*\?$",
        0.85,
    ),
)

BEFORE_HOLD = (
    # not done yet, asked: "¿Todavía no terminaste el presupuesto?", "¿aún no está listo el
    # deploy?" (a status request; said, "todavía no" is a hold)
    Rule(
        "es-status-notyet",
        "STATUS_REQUEST",
        r"^(?:todavia|aun) no (?:(?:has|han|habeis|hemos|se|lo|la|los|las|te) )?(?:termin|acab"
        r"|complet|cerr|sub|pushe|merge|despleg|arregl|migr|import|probast|empez|comenz)\w*"
        r"(?:aste|iste|aron|ieron|ado|ido|o|io|as|an|a)\b.*\?$"
        r"|^(?:todavia|aun) no (?:esta|estan) (?:list|hech|terminad|acabad)[oa]s?\b.*\?$",
        0.85,
    ),
    # whether the work got done, asked by the time or the chance it had, what is left or works
    # of it, or anything ready ("¿Te dio tiempo a terminar X?", "¿Pudiste acabar X?", "¿Qué
    # endpoints te quedan por hacer?", "¿Hay algo listo para enseñar?"); not a thing understood
    # ("¿Pudiste entender por qué falla?") nor what happens if ("¿Qué pasa si queda un lock?")
    Rule(
        "es-status-managed",
        "STATUS_REQUEST",
        r"^(?:ya )?(?:te |le |os |les )?(?:ha dado|han dado|dio|dieron|da|dara) (?:el )?tiempo"
        r" (?:a|de|para)\b.*\?$"
        r"|^(?:ya )?(?:pudiste|has podido|alcanzaste a|llegaste a|conseguiste|has conseguido"
        r"|lograste|has logrado) (?:terminar|acabar|completar|cerrar|subir|mergear|desplegar"
        r"|migrar|importar|hacer|probar|arreglar|montar|integrar|avanzar)\b.*\?$"
        r"|^(?:que|cuales|cuant[oa]s) (?:(?!(?:si|se|cuando|pasa|ocurre|hacemos|hago|harias)\b)"
        r"[\w-]+ ){1,4}?(?:te |nos |le |os )?(?:quedan|queda|faltan|falta) (?:por|para)? ?"
        r"(?:hacer|terminar|acabar|migrar|cerrar|implementar)?\b"
        r"|^(?:que|cuales) (?:(?!(?:si|se|cuando)\b)[\w-]+ ){1,4}?(?:funcionan|funciona|andan"
        r"|anda) ya\b"
        r"|^(?:y )?(?:ya )?(?:hay|tienes|tenes) algo (?:list|hech|terminad)[oa]\b"
        r"|^(?:(?:y )?(?:el|la|los|las) [\w.-]+(?: [\w.-]+){0,8} )?ya (?:funciona|funcionan"
        r"|anda|andan|compila|jala)\s*\?$",
        0.85,
    ),
    # the way made free, said after the news that lifted the wait: "firmaron el contrato, vía
    # libre con las reservas", "es todo tuyo", "estás liberado para el checkout": a clause of its
    # own, not denied, not asked
    Rule(
        "es-go-free",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|todavia|aun)\b)(?!.*\?$)(?:(?:ya|pues|ahora|venga|bueno|si|listo"
        r"|y) )*(?:(?:tienes |hay )?via libre\b|(?:es|queda) (?:todo |toda )?tuy[oa]\W*$"
        r"|tod[oa] tuy[oa]\W*$|(?:(?:estas|esta) )?liberad[oa] (?:para|pa)\b(?! (?:mi|nosotros"
        r"|el cliente|los clientes)\b))",
        0.85,
    ),
)
