"""Spanish rules of issue #45's seventeenth and eighteenth rounds (docs/interruptions.md,
"Seventeenth round: the rules (Spanish and Brazilian Portuguese)" and "Eighteenth round: the
rules (Spanish and Brazilian Portuguese)"), spliced into ``es.py``'s table: ``ASK`` after
``es-audit-now`` (a question on the protocol's state now is an audit), ``BEFORE_HOLD`` then
``BY_KIND`` before ``es-hold`` (not done yet asked, whether the work got done, the way made free
after news; then the eighteenth round's kinds: going on explaining asked, a go verb meaning
follow, a state asked with "sigue", wondering or doubt asked, how complete the work is, how many
the code has). Text as in ``es.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import es_kinds, es_twentieth, es_twentysecond
from taskproto.classify.languages.state_question import state_question
from taskproto.classify.languages.table import WORK

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
    r"|commit)\b|^(?:cual|cuales|que) (?:worktree|lock|sesion|rama|claim)(?:s|es)? (?:es|son"
    r"|pertenece\w*|corresponde\w*) (?:de|a)\b"
)
# its state now: still, active, installed, alive, expired, points to, matches, coherent, missing
_ASK_STATE = (
    r"sigue(?! con\b)|siguen(?! con\b)|todavia|aun|activ\w*|desactiv\w*|instalad\w*|desinstalad\w*"
    r"|viv[oa]s?|muert[oa]s?|zombi\w*|colgad[oa]s?|huerfan\w*|caduc\w*|expir\w*|apunta\w*"
    r"|corresponde\w*|coincide\w*|cuadra\w*|correct\w*|incorrect\w*|bien|mal|coherente\w*"
    r"|incoherente\w*|consistente\w*|inconsistente\w*|(?<!hace )falta\w*|existe\w*|borrad\w*"
    r"|perdid\w*|rot[oa]s?|corrupt\w*|complet[oa]s?|incomplet[oa]s?|a (?:tu|mi|su|nuestro) nombre"
    r"|tuy[oa]s?|nuestr[oa]s?|liberad[oa]s?|abiert[oa]s?|cerrad[oa]s?|atascad[oa]s?|trabad[oa]s?"
    r"|pegad[oa]s?|ahi|reutilizad[oa]s?|reusad[oa]s?|nuev[oa]s?"
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
        r"|y) )*(?:(?:tienes |hay )?via libre\b|(?:es|queda) (?:todo |toda )?tuy[oa][^\w]*$"
        r"|tod[oa] tuy[oa][^\w]*$|(?:(?:estas|esta) )?liberad[oa] (?:para|pa)\b(?! (?:mi|nosotros"
        r"|el cliente|los clientes)\b)"
        # the turn handed over, a clipped go, a loan: "ya puse la variable. Te toca", "es tu
        # turno", "hazlo con WebSockets y tira", "llévalo hasta el final", "shipéalo"
        r"|(?:ahora |y )?te toca(?: a ti)?[^\w]*$|(?:ahora |ya )?(?:es )?tu turno[^\w]*$"
        r"|(?:.*\by |^)tira(?: nomas| ya)?[^\w]*$|(?:llevalo|llevala|llevalos|llevalas)"
        r" (?:hasta|al) (?:el )?final\b|shipp?ea(?:lo|la)?(?: nomas| ya)?[^\w]*$)",
        0.85,
    ),
)

_GO = r"(?:sigue|segui|siga|sigan|seguir|continua|continue|continuen|continuar|prosigue)"
# (a hold or a doubt on going on, in the same words: "me pregunto si no deberíamos parar aquí")
_NOT_HOLD = (
    r"(?!.*\b(?:deberiamos|debemos|deberia|deberias|habria que|hay que|conviene|vale la pena"
    r"|mejor|seguir|seguimos|sigamos|sigo|sigas|continuar|continuamos|continuo|continues|parar"
    r"|paramos|paro|pares|esperar|esperamos|espero|esperes|pausar|dejarlo|lo dejamos)\b)"
)
# wondering, doubt, not understanding, a wish to understand ...
_WONDER = (
    r"^(?:(?:la verdad|sinceramente|pues|yo|oye|mira|ahora|igual) )*(?:(?:(?:me|nos) )?(?:pregunto"
    r"|preguntaba|estoy preguntando|quede pensando)|tengo (?:la )?(?:duda|curiosidad)"
    r"|(?:me )?da curiosidad|no (?:me )?(?:queda|quedo|esta|quedaba|termina de quedar|acaba de"
    r" quedar)(?: muy| del todo| nada| bien| tan)? clar[oa](?: para mi)?|no tengo(?: muy| nada"
    r"| del todo| tan)? clar[oa]|no (?:acabo|termino|llego|alcanzo|logro|consigo) (?:de |a )?"
    r"(?:entender|comprender|pillar|ver|captar)|(?:quisiera|quiero|me gustaria|necesito|queria)"
    r" (?:entender|comprender|saber)(?: mejor| bien| un poco)?|no (?:pillo|capto|cacho|pille"
    r"|capte|cache))(?: (?:de|por|en))?(?: saber)?"
)
# ... then what is asked
_ASKED = (
    r" (?:si|como|por que|que|cual|cuales|cuant[oa]s?|donde|cuando|para que|quien|el|la|los|las"
    r"|lo)\b"
)

# The eighteenth round's forms, by kind (docs/interruptions.md, "Eighteenth round: the rules
# (Spanish and Brazilian Portuguese)"), spliced after ``BEFORE_HOLD``.
BY_KIND = (
    # asked to go on explaining: the go word governs the telling, not the task's work ("sigue
    # explicándome el reparto de módulos, no lo pillé", "continúa con la explicación", "seguí
    # contándome cómo funciona el scheduler"); not explaining written into the docs
    Rule(
        "es-explain-question",
        "QUESTION",
        # (the go word in a lookahead, the telling matched: a go compiles nothing more)
        r"^(?:(?:dale|bueno|ya|pues|y|porfa|ahora|venga|vale|ok|si|entonces) )*(?:(?:puedes"
        r"|podes|podrias|podria) )?(?="
        + _GO
        + r")\w+ (?:(?:me|nos) )?(?:con )?(?:(?:la|tu|esa|lo de la) )?(?:explicando|contando"
        r"|diciendo|aclarando|detallando|describiendo|explicandome|contandome|diciendome"
        r"|aclarandome|explicandonos|contandonos|explicacion)\b"
        r"(?!.* en (?:el|la|los|las) (?:readme|doc\w*|comentarios?|wiki|changelog|pr)\b)",
        0.85,
    ),
    # "sigue el patrón del proyecto", "seguí la convención de nombres": follow, not a go
    Rule(
        "es-follow-remark",
        "OTHER",
        r"^(?:(?:y|pero|tu|vos|solo|siempre|mejor|porfa) )*(?="
        + _GO
        + r")\w+ (?:(?:siempre|tambien|igual) )?(?:el|la|los|las|nuestro|nuestra|nuestros|nuestras"
        r"|mi|mis) (?:mism[oa]s? )?(?:patron|patrones|convencion(?:es)?|estilo|guia|guias|reglas?"
        r"|normas?|ejemplo|lineamientos?|estandar(?:es)?|formato|nomenclatura|linter|lint|pautas?"
        r"|style ?guide)\b",
        0.8,
    ),
    # a state asked with "sigue": "… tengo un hook de tests… ¿sigue instalado?", "¿sigue vivo el
    # heartbeat?", "¿siguen ahí los locks?": the protocol's state now, not a go
    Rule(
        "es-still-audit",
        "AUDIT",
        r"^(?:(?:y|pero|o|entonces) )?(?=sigue |siguen )\w+ (?:(?:todavia|aun) )?(?:(?:instal|activ"
        r"|registr|configur|carg|tom|colg)ad[oa]s?|activ[oa]s?|viv[oa]s?|huerfan[oa]s?|vigentes?"
        r"|ahi|en pie|a (?:tu|mi|su) nombre)\b(?!.*\b(?:" + WORK + r")\b)[^?]*\?$",
        0.85,
    ),
    # ... and of the work (a build, the CI, a PR) or its trouble: "¿sigue activo el build de la
    # noche?", "¿sigue roto el login?": a status request, never a go
    Rule(
        "es-still-status",
        "STATUS_REQUEST",
        r"^(?:(?:y|pero|o|entonces) )?(?=sigue |siguen )\w+ (?:(?:todavia|aun) )?(?:(?:activ"
        r"|colg|bloque|atasc|trab|romp)ad[oa]s?|activ[oa]s?|viv[oa]s?|rot[oa]s?|caid[oa]s?"
        r"|pendientes?|en (?:rojo|verde|draft|borrador|revision|cola)|igual)\b[^?]*\?$",
        0.85,
    ),
    # how complete the work is: "¿qué tan avanzado está el checkout?", "¿cuán completo va el
    # módulo?" (where the task's work stands, not how the code behaves)
    Rule(
        "es-status-complete",
        "STATUS_REQUEST",
        r"^(?:y )?(?:que tan|cuan) (?:complet|avanzad|adelantad|terminad|acabad|list|hech)[oa]s?"
        r" (?:esta|estan|va|van|lo tienes|la tienes|lo llevas|la llevas|quedo|quedaron)\b",
        0.85,
    ),
    # how many a thing of the code has is a question, not the work's count: "¿cuántos estados
    # tiene la máquina de pedidos?", "cuántas columnas hay en la tabla de facturas?" (not what
    # is left, done, failing, nor asked with "ya": "¿cuántos tests tienes ya?"; nor the
    # protocol's objects, an audit's)
    Rule(
        "es-count-asked",
        "QUESTION",
        r"^(?!.*\b(?:locks?|worktrees?|sesion(?:es)?|claims?|hooks?|journal)\b)"
        r"cuant[oa]s (?:[\w-]+ ){1,3}?(?:tiene|tienen|hay|existen|soporta|soportan|aguanta"
        r"|aguantan|admite|admiten|caben)\b(?!.*\b(?:queda|quedan|falta|faltan|resta|restan"
        r"|llevas|fallan|fallando|siguen|ya|todavia|aun|ahora|hech[oa]s|terminad[oa]s|listo"
        r"|list[oa]s|migrad[oa]s|cubiert[oa]s|pendientes?)\b).*\?$",
        0.85,
    ),
    # how the code behaves, asked yes or no: a thing stored, computed or sent some way, or done
    # on purpose ("¿las fechas se guardan con zona horaria?", "¿el 404 es a propósito?"): a
    # question, not where the work stands (not of the work's build, CI, tests, nor "you")
    Rule(
        "es-behaviour-asked",
        "QUESTION",
        r"^(?!.*\b(?:" + WORK + r"|te|tu|has|hiciste|ya|todavia|aun)\b)(?:.*\b(?:es|son|esta"
        r"|estan|fue) (?:a proposito|intencional|adrede|esperado|por diseno)\b|.*\b(?:se )?(?:guard"
        r"|almacen|calcul|valid|gener|envi|redonde|cache|cifr|hashe|serializ|normaliz|ordena"
        r"|filtr)\w*(?:a|an|e|en|ad[oa]s?) (?:con|en|por|como|antes|despues|via|usando|desde"
        r"|del lado)\b).*\?$",
        0.85,
    ),
    # wondering about where the work stands: "me pregunto cuánto te falta"
    Rule(
        "es-wonder-status",
        "STATUS_REQUEST",
        _WONDER + _NOT_HOLD + r".*\b(?:cuanto (?:te |le |nos )?(?:falta|queda)|hasta donde"
        r" (?:llegaste|has llegado)|por donde vas|como vas|si ya (?:terminaste|acabaste"
        r"|esta list[oa])|en (?:que|cual) (?:punto|estado|fase|etapa) (?:esta|estan|va|van|anda"
        r"|andan))\b",
        0.8,
    ),
    # wondering, doubt or not understanding about the code or a choice is a question ("me
    # pregunto si Postgres aguanta…", "no me queda claro qué aporta el patrón repositorio",
    # "no termino de entender cómo…"); the model may read the protocol's state in it (an
    # audit); a doubt on going on or a hold in the same words is not
    Rule("es-wonder-question", "QUESTION", _WONDER + _ASKED + _NOT_HOLD, 0.8),
)

# The eighteenth round's forms, then the nineteenth's (``es_kinds.py``), the twentieth's and
# the twenty-first's (``es_twentieth.py``), the twenty-second's (``es_twentysecond.py``): spliced
# after ``BEFORE_HOLD``.
KINDS = (
    *BY_KIND,
    *es_kinds.NINETEENTH,
    *es_twentieth.TWENTIETH,
    *es_twentieth.TWENTYFIRST,
    *es_twentysecond.TWENTYSECOND,
    *es_twentysecond.TWENTYTHIRD,
)
