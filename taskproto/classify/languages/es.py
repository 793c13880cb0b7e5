"""Spanish interruption rules. Text is lowercased with accents folded ("continúa" -> "continua",
"auditoría" -> "auditoria"); opening "¿" and "¡" are gone. Same order as the English table."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import es_kinds, es_more
from taskproto.classify.languages.table import WORK, Language

_W = r"[\w'.-]+ "
# "sigue" is a go, but not "sigue siendo / sin / fallando" (is still).
VERB = (
    r"(?:sigue(?:le)?\b(?! (?:sin|siendo|estando|roto|rota|fallando|rompiendo|colgad[oa])\b)"
    r"|segui(?:le|lo|la)?\b|siga\b"
    r"|seguir\b|sigamos\b|continua(?:le)?\b|continue\b|continuen\b|continuar\b|continuemos\b"
    r"|prosigue\b|prosiga\b|proseguir\b|retoma(?:r)?\b|reanuda(?:r)?\b|adelante\b"
    # "proceda con el despliegue" (formal), not "el error procede del parser" (comes from)
    # ("procede" reaches the rules as "proceed": English's typo fixes run first)
    r"|(?:proced(?:e|a|an|amos)|proceed)\b(?! (?:de|del)\b)|dale\b(?![^\w?]*$)"
    r"|vuelve (?:a la tarea|al trabajo|a lo tuyo|a trabajar|a lo que estabas|al codigo|a darle)"
    r"|empieza\b|empezar\b|comienza\b|comenzar\b|arranca\b|arrancar\b|a darle\b|a seguir\b"
    r"|seguimos\b|continuamos\b|luz verde"
    r"|volver (?:a la tarea|al trabajo)|manos a la obra|a trabajar\b"
    # "métele a los tests", "ponte con el parser", "échale ganas", "termina los tests"
    r"|metele (?:a|al|con)\b|ponte (?:con|a)\b|echale (?:ganas|a|al)\b|retoma(?:lo|la)\b"
    r"|de vuelta (?:al trabajo|a la tarea|al codigo)"
    r"|(?:termina|acaba|finaliza)(?:le)? (?:el|la|los|las|lo|con)\b(?!.*\?$))"
)
# A bare acknowledgement of one or two words ("sí", "vale 👍", "dale!"):
# a message every word of which is a filler is read whole by the rules; with a "?" it asks.
ACK = r"(?:si|sip|vale|dale|ok(?:ey)?|claro|bueno|perfecto|de acuerdo|entendido|genial)"
_NEG_VERB = (
    r"(?:sigas|sigan|siga|seguir|sigamos|continues|continue|continuen|continuar|continuemos"
    r"|prosigas|prosiga|avances|avancemos|retomes|retomar|arranques|empieces|procedas|procedan"
    r"|proceda|proceder|proceed|reanudes|reanudar)\b"
)
_PROTOCOL = (
    r"(?:locks?|worktrees?|journal|sesion|task\.json|estado de la tarea|archivo de estado"
    r"|protocolo|ramas?|branch(?:es)?|transicion(?:es)?|invariantes?)"
)
_AUDIT_NOUN = (
    r"(?:auditoria|audit|doctor|chequeo de (?:consistencia|integridad)|sanity check|health check"
    r"|control de (?:consistencia|integridad))"
)
RULES = (
    Rule(
        "es-dont-stop",
        "RESUMPTION",
        r"^no (?:te )?(?:pares|detengas|frenes|esperes|pauses|aflojes|rindas|desanimes)\b",
        0.9,
    ),
    Rule(
        "es-deferred",
        "OTHER",
        rf"\b{VERB}.*\b(?:manana|mas tarde|otro dia|el lunes|despues del? (?:review|revision|ci"
        r"|merge|almuerzo)|solo cuando|cuando (?:termine|vuelva|pase|este)|esta tarde|en la tarde"
        r"|esta noche|luego de)"
        rf"|\b(?:manana|mas tarde|esta tarde|en la tarde)\b.*\b{VERB}"
        # a clause of its own that says when: "Sigue, pero primero espera a que termine el CI"
        r"|^despues de(?:l| la| los| las)? [\w.-]+(?![^?]*\b(?:que|cual)\b[^?]*\?$)"
        r"|^(?:solo |y )?(?:cuando(?! (?:tendr|podr)e| (?:crees|calculas) que)|en cuanto"
        r"|una vez que|despues de que|apenas)\b(?!.*\?$)|^(?:primero )?espera a que\b",
        0.9,
    ),
    Rule(
        "es-nudge",
        "RESUMPTION",
        r"^(?:deja|para|parale) de (?:preguntar|esperar|consultar|pedir permiso)\b.*"
        + VERB
        + r"|^por que no (?:sigues|continuas)\b",
        0.8,
    ),
    Rule(
        "es-negated-resumption",
        "OTHER",
        rf"\b(?:no|nunca|jamas|ni) (?:{_W}){{0,2}}?{_NEG_VERB}"
        rf"|\b(?:no|ni) (?:hace falta|es necesario|necesitas|tienes que|hay que) (?:que )?"
        rf"(?:{_W})?{_NEG_VERB}(?! (?:esperando|preguntando|consultando|pidiendo|parad[oa])\b)"
        rf"|^(?:espera )?(?:antes de|hasta que|hasta)\b.*\b{VERB}",
        0.9,
    ),
    *es_more.BEFORE_HOLD,  # the seventeenth round's forms (es_more.py)
    *es_more.KINDS,  # the eighteenth and nineteenth rounds'
    Rule(
        "es-hold",
        "OTHER",
        r"^(?:espera(?:te)?|esperen|un (?:momento|segundo|minuto)|momento"
        r"|para(?:te)?\b(?! (?:que|quien|cuando|donde|el|la|los|las|un|una|esto|eso|mi|tu|su|de)\b)"
        r"|alto|detente|deten|stop|pausa|interrumpe|interrumpa|interrumpan"
        r"|todavia no|aun no|no todavia|quiet[oa]|frena|tranqui"
        r"|(?:quedate|quedese|quedaos|mantente|estate) (?:en )?(?:stand-?by|espera|pausa))\b",
        0.8,
    ),
    # a yes/no question on the protocol's own state, by a step the agent took on it, its git
    # hooks still there, or its record in a state ("¿Liberaste el lock?", "¿Sigue el hook
    # commit-msg?", "¿El task record está bien?"); not how it works ("¿Cuándo se borra el lock?")
    Rule(
        "es-audit-now",
        "AUDIT",
        r"^(?!(?:por que|para que|como|cuando|donde)\b)(?:(?:.*\b)?(?:liberaste|soltaste"
        r"|renovaste|devolviste|desbloqueaste|borraste|eliminaste|limpiaste|quitaste|cerraste)"
        r" (?:ya )?(?:el |la |los |las |tu |tus |ese |esa )?(?:locks?|claims?|lockfiles?"
        r"|worktrees?|sesion(?:es)?)\b"
        # (the state in a lookahead, the noun matched: a go's "sigue" compiles nothing more)
        r"|(?=.*\b(?:sigue|siguen|todavia|aun|instalad[oa]s?|activ[oa]s?|borr\w+|elimin\w+"
        r"|quit\w+|desactiv\w+|(?:se lo|se los|lo|los) (?:cargo|cargaron))\b)"
        r"(?!.*\b\w+(?:ando|iendo)\b).*\b(?:hooks? (?:de )?(?:git )?(?:commit-msg|pre-commit"
        r"|pre-push|post-\w+|prepare-commit-msg|de git|del protocolo|de taskproto)"
        r"|(?:commit-msg|pre-commit|pre-push|post-\w+) hooks?)"
        r"|(?=.*\b(?:(?:esta|estan) bien\s*\?$|(?:esta|estan|quedo|quedaron|sigue|siguen)"
        r" (?:complet|actualizad|al dia|corrupt|danad|rot)))"
        r".*\b(?:task record|registro de (?:la )?tarea|journal|lockfile|archivo de lock"
        r"|task\.json))\b.*\?$",
        0.85,
    ),
    *es_more.ASK,
    # news or an observation passed on asks nothing: "Para que lo sepas: mañana cambian la VPN",
    # "Acabo de ver que el endpoint está duplicado", "Algún día hay que documentar esto"
    Rule(
        "es-news-remark",
        "OTHER",
        r"^(?:para que (?:lo )?(?:sepas|sepan|sepais|sepa)|pa que (?:lo )?sepas|para tu"
        r" (?:info(?:rmacion)?|conocimiento)|fyi|te aviso que|aviso que|(?:me )?acabo de (?:ver"
        r"|notar|darme cuenta(?: de)?|dar cuenta(?: de)?|descubrir|enterarme(?: de)?) que"
        r"|algun dia (?:hay que"
        r"|tenemos que|habra que|deberiamos)|un dia de estos (?:hay que|tenemos que))\b(?!.*\?$)",
        0.7,
    ),
    Rule(
        "es-status-how",
        "STATUS_REQUEST",
        r"^cual es (?:el|tu|su) (?:estado|status|progreso|avance|siguiente paso)\b|^que sigue\b"
        r"|^cual es el (?:porcentaje|%) (?:de )?(?:avance|progreso|lo hecho|completado)\b"
        r"|^(?:como|que tal) (?:vamos|van|avanzas|avanza|vas|andamos|anda|andas|estamos|esta"
        r"|estan|progresa|va\b(?! a\b))|^que tal\s*\??$|^que tal (?:va|van|vas|todo|el|la)\b"
        r"|^en (?:que|cual) (?:punto|estado|paso|fase|etapa)\b|^en que (?:estas|andas) trabajando\b"
        r"|^(?:donde|por donde) (?:estamos|estas|vas|vamos|andas)\b"
        r"|^hasta donde (?:llegaste|has)\b"
        # where the work stopped: "¿Dónde te quedaste con lo de X?", "¿En qué te quedaste?"
        r"|^(?:donde|en que) te (?:quedaste|has quedado|paraste|detuviste)\b"
        # how a piece of work went: "¿Cómo fue el CI?", "¿Qué tal salió el deploy?"
        r"|^(?:como|que tal) (?:fue|fueron|salio|salieron|termino|terminaron|corrio|corrieron)"
        rf" (?:el |la |los |las )?{WORK}\b"
        # "¿Seguimos dentro del plazo?" asks about the schedule, not for a go
        r"|^(?:seguimos|vamos|estamos|andamos|continuamos) (?:bien |todavia |aun )?(?:dentro del?"
        r"|en|a) (?:plazo|tiempo|fecha|calendario|horario|lo planeado)\b",
        0.9,
    ),
    Rule(
        "es-status-done",
        "STATUS_REQUEST",
        r"^(?:que|cuanto) (?:falta|queda|te falta|nos falta|le falta|resta)\b"
        r"|^que (?:has|hemos|han) (?:hecho|avanzado|terminado|completado|logrado|cambiado)\b"
        r"|^que (?:completaste|terminaste|hiciste|lograste|cambiaste|avanzaste)\b"
        r"|^(?:ya )?(?:terminaste|acabaste|termino|acabo|pasaron|paso"
        r"|esta(?:n)? list[oa]s?|hiciste (?:el )?(?:push|merge|deploy|commit))\b"
        r"|^ya esta(?: list[oa]| hech[oa])?\s*\??$"
        r"|^ya (?:se |lo |la |los |las |te )?\S+(?:o|aste|iste|io|aron|ieron)\b.*\?$"
        r"|^ya (?:esta|estan) \S+(?:ad|id)[oa]s?\b.*\?$"
        r"|^(?:el|la|los|las) [\w.-]+(?: [\w.-]+){0,3} (?:ya )?(?:esta|estan)(?: en)?"
        r" (?:verde|list[oa]s?|terminad[oa]s?|hech[oa]s?|mergead[oa]s?)\b"
        r"|^cuanto (?:tiempo|falta|queda|mas)\b|^cuant[oa]s? (?:[\w-]+ ){0,3}?(?:sigue|siguen"
        r"|queda|quedan|falta|faltan|fallan|resta|restan)\b",
        0.85,
    ),
    Rule(
        "es-status-terse",
        "STATUS_REQUEST",
        r"^(?:estado|progreso|avance|status|eta)(?: (?:porfa|por favor|pls|del [\w-]+))*\s*\?*$"
        r"|^(?:hay |alguna |algun )?(?:novedad(?:es)?|avances?|actualizacion(?:es)?)\b"
        r"|^(?:un |una )?(?:update|actualizacion|resumen|reporte)(?: rapid[oa]| breve)?\b"
        r"|^(?:dame|dime|pasame|mandame|quiero) (?:[\w-]+ ){0,3}?(?:resumen|estado|status|update"
        r"|avance|progreso|reporte)\b|^resume (?:tu|el|su|vuestro|nuestro) (?:progreso|avance"
        r"|estado|trabajo)\b|^resumeme\b",
        0.85,
    ),
    Rule(
        "es-status-work",
        "STATUS_REQUEST",
        rf"^(?:el |la |los |las )?{WORK}\b.*\b(?:paso|pasaron|termino|terminaron|corrio|fallo"
        r"|verdes?|rojos?|list[oa]s?|terminad[oa]s?|mergead[oa]s?)\b"
        r"|^(?:estas|esta|estan) (?:\w+ )?(?:trabad[oa]s?|atascad[oa]s?|bloquead[oa]s?"
        r"|estancad[oa]s?)\b|^que viene\b|^y ahora que\b|^(?:hay )?noticias\b"
        r"|^(?:cuentame|contame) (?:como(?! (?:funciona|funcionan|se (?:usa|hace|configura))\b)"
        r"|que tal|que|donde|hasta donde)\b|^te (?:trabaste|atascaste|bloqueaste)\b|^ya casi\b"
        r"|^que (?:toca|hay de nuevo)\b|^en que (?:andas|estas)\b"
        r"|^que haces (?:ahora|ahorita)\b|^que tal (?:los|las|el|la) [\w-]+\s*\??$"
        r"|^que (?:lograste|has logrado|conseguiste)\b|estado parcial"
        rf"|^(?:el |la )?{WORK}\b.*\b(?:dijo|devolvio|reporto)\b|^todos los {WORK}\b"
        # "decime en qué andás", "contame por dónde vas"
        r"|^(?:dime|decime|dinos|decinos|cuentame|contame) (?:en que|por donde)"
        r" (?:andas|estas|vas)\b",
        0.85,
    ),
    Rule(
        "es-audit-verb",
        "AUDIT",
        rf"\b(?:haz|hazle|hagas|hacer|ejecuta|ejecutar|corre|correr|lanza|realiza|pasa|pasale)\b.*"
        rf"\b{_AUDIT_NOUN}\b"
        r"|^(?:(?:una|un|otra|nueva) )?(?:audita|auditar|auditoria|audit)\b(?!-?(?:log|trail))",
        0.9,
    ),
    Rule(
        "es-audit-verify",
        "AUDIT",
        r"^(?:puedes |podrias |me puedes )?(?:revisa|revisar|verifica|verificar|comprueba|fijate"
        r"|mira si|compara"
        r"|comprobar|chequea|chequear|checa|valida|validar|controla|asegurate|inspecciona|confirma"
        rf"|hazle un check|haz un check|(?:dale|echale|hazle) (?:una|un) (?:revisada|revision"
        rf"|mirada|ojeada|chequeada|checada|vistazo|repaso|ojo) al?)\b.*\b{_PROTOCOL}\b"
        r"|^(?:esta|estan|el|la|los|las|todo)\b(?=.*\b(?:todo|locks?|worktrees?|journal"
        r"|task\.json|sesion|protocolo)\b).*\b(?:consistentes?|correct[oa]s?|en sync"
        r"|sincronizad[oa]s?|valid[oa]s?|limpi[oa]s?)\b"
        r"|\b(?:violamos|hemos violado|violado) el protocolo"
        r"|\bviolacion(?:es)? (?:del|de) protocolo",
        0.85,
    ),
    Rule(
        "es-audit-protocol",
        "AUDIT",
        r"\bcumple[n]? (?:con )?(?:el )?protocolo|\bconforme al protocolo"
        r"|^(?:el |la |los |las )?(?:estado|lock|worktree|journal)\b.*\b(?:sigue siendo |es )?"
        r"(?:correct[oa]s?|limpi[oa]s?|consistentes?|valid[oa]s?|sincronizad[oa]s?)\b.*\?$"
        r"|^un (?:sanity check|health check|chequeo)\b|huerfan[oa]s?|\b(?:se )?violo el protocolo"
        r"|\bprotocolo (?:fue )?violado",
        0.85,
    ),
    # a question about the protocol's state now, not its design ("¿El lock todavía es nuestro?")
    Rule(
        "es-audit-state",
        "AUDIT",
        r"^(?!(?:por que|para que|que|como|cual|donde|cuando|quien)\b)(?=.*\b(?:locks?|worktrees?"
        r"|journal|sesion|task\.json|protocolo|claims?)\b).*\b(?:todavia|aun|sigue|siguen"
        r"|nuestr[oa]|valid[oa]|activ[oa]|vigente|expiro|caduco|huerfan\w*|limpi[oa]s?"
        r"|sincronizad\w*|cuadra\w*|coincide\w*|tienen? (?:el|un) (?:lock|claim)|queda|quedan"
        r"|quedo|viej\w*|colgad\w*|correct\w*|consistentes?|violamos|rompimos)\b.*\?$",
        0.8,
    ),
    # a yes/no question about the work's progress ("¿Sigue corriendo el build?", "¿Funcionó?")
    Rule(
        "es-status-yesno",
        "STATUS_REQUEST",
        r"^(?:sigue|siguen|todavia|aun) (?:[\w.-]+ )?\w+(?:ando|iendo)\b.*\?$"
        r"|^(?:el |la |los |las )?[\w.-]+ (?:sigue|siguen|todavia|aun) (?:\w+ando|\w+iendo|en rojo"
        r"|en verde|rot[oa]s?)\b|^(?:ya )?(?:avanz|empez|comenz|termin|acab|arregl|sub|pushe|merge"
        r"|despleg|deploye|compil|funcion|sal|corr|meti|abri|hic|integr)\w*(?:aste|iste|amos|imos|o"
        r"|io|aron|ieron)\b.*\?$|^cuando (?:terminas|acabas|termina|acaba|estara|estaras"
        r"|vas a terminar|terminaras|esta list[oa]|queda)\b|^que (?:[\w-]+ ){0,2}?(?:faltan|quedan"
        r"|falta|queda)\b|^que (?:tienes|llevas|has hecho) (?:hasta ahora|por ahora"
        r"|hasta el momento|ya)\b|^(?:algo|alguna|algun) (?:nuevo|novedad|avance)\b"
        r"|^(?:vas|van|va) (?:avanzando|bien|progresando|adelantando)\b.*\?$"
        # how much is done: "¿Qué porcentaje llevas?", "¿Cuánto llevas hecho?"
        r"|^(?:que|cuanto) (?:porcentaje|parte|proporcion)\b|\bllevas (?:hech|migrad|terminad"
        r"|avanzad|listo|cubiert)\w*|^cuant[oa]s? (?:[\w-]+ ){0,3}?llevas\b"
        # a deadline: "¿Llegamos a la demo?", "¿Llegas para el viernes?"
        r"|^(?:ya )?(?:llegamos|llegas|llegaremos|llegaras|alcanzamos|alcanzas)"
        r" (?:a|al|para)\b.*\?$"
        # done, or still stuck, asked as a choice: "¿… o hubo errores?", "¿… o sigue en draft?"
        r"|\bo (?:hubo|salio con|dio|tiro) (?:algun(?:os)? )?(?:errore?s?|fallos?|problemas?)\s*\?$"
        r"|\bo (?:sigue|siguen|todavia esta|aun esta) en (?:draft|borrador|revision|rojo"
        r"|cola)\s*\?$",
        0.8,
    ),
    # not knowing why, said, asks nothing: "la verdad ni sé por qué el deploy funciona"
    Rule(
        "es-wonder-remark",
        "OTHER",
        r"^(?:la verdad |sinceramente |pues |yo )*(?:no|ni) (?:se|sabemos|tengo (?:ni )?"
        r"(?:idea|puta idea)(?: de)?|idea(?: de)?) por que\b(?!.*\?$)",
        0.7,
    ),
    Rule(
        "es-question",
        "QUESTION",
        r"^(?:por que|para que(?! (?:lo )?sep)|cual(?:es)?|donde|cuando|quien(?:es)?)\b"
        r"|^(?:que|como|cuanto)\b.*\?$"
        r"|^(?:explica|explicame|explicanos|aclara|aclarame|describe|describeme|cuentame"
        r"|detalla)\b|\b(?:puedes|podrias) (?:me |nos )?(?:explicar|aclarar|describir|contar"
        r"|decir)\b|^no (?:entiendo|entendi)\b(?! nada\W*$)|^(?:una |otra )?pregunta\b"
        r"|^(?:tengo una )?duda\b"
        r"|^(?:dime|decime|contame|dinos|decinos|contanos) (?:antes |primero )?(?:por que|como|que"
        r"|cual|donde|para que)\b|^ayudame a (?:entender|comprender)\b"
        # a question word after a preposition or a topic, or a "what advantage" with no "?":
        # "¿De dónde saca X…?", "y el chart por qué tiene dos values", "qué ventaja tiene X"
        r"|^(?:de|desde|con|a) (?:donde|quien|quienes|cual|cuales)\b"
        r"|^(?:y )?(?:el|la|los|las|este|esta|ese|esa) (?:(?!(?:no|ni) )[\w.-]+ ){1,5}?(?:por|para)"
        r" que\b"
        r"|^que (?:ventajas?|diferencias?|sentido|beneficios?) (?:tiene|tienen|hay|aporta)\b",
        0.85,
    ),
    Rule(
        "es-resumption",
        "RESUMPTION",
        rf"^(?:(?:si|ok|vale|bueno|ya|pues|ahora|y|entonces|porfa|listo|venga|orale|solo|asi que"
        rf"|pero|tu) )*{VERB}"
        r"|\b(?:puedes|podes|podeis|podrias|ya puedes|y luego|y despues|luego|despues|entonces|y"
        rf"|por favor) (?:ya |ahora )?{VERB}",
        0.9,
    ),
    Rule(
        "es-go-ahead",
        "RESUMPTION",
        r"^(?:aprobado|aprobada|visto bueno|a por ello|vamos(?: alla)?|siguiente(?: paso)?"
        r"|pasa al siguiente paso)\s*[!.]*$|^pasa al siguiente\b|\bluz verde\b",
        0.8,
    ),
    # "resume" is "summarise" in Spanish: what was done is a status request, anything else an
    # instruction (a remark: it does not take back a go before it), never the English "resume"
    Rule(
        "es-status-summary",
        "STATUS_REQUEST",
        r"^(?:me |nos )?resum(?:e|eme|enos|elo|i|ime|a|ame|ir(?:me)?)\b(?: (?:rapido|brevemente"
        r"|en (?:\w+ )?(?:lineas?|frases?|puntos|vinetas)))? (?:todo )?(?:lo que|que|como|donde"
        r"|hasta donde) (?:\w+ ){0,3}?(?:hiciste|hizo|has hecho|ha hecho|hicimos|hecho|llevas"
        r"|lleva|avanzaste|avanzado|cambiaste|terminaste|completaste|vas|va|estas|esta|falta"
        r"|queda|nos falta|te falta)\b"
        r"|^(?:me |nos )?resum(?:e|eme|i|ime|a|ame)\b (?:el|tu|su|mi) (?:dia|avance|progreso"
        r"|estado|trabajo de hoy|jornada)\b",
        0.85,
    ),
    Rule(
        "es-summary-remark",
        "OTHER",
        r"^(?:me |nos )?resum(?:e|eme|enos|elo|ela|i|ime|a|ame|an|ir)\b(?: (?:me|nos|en))?"
        r" (?:el|la|los|las|lo|este|esta|estos|estas|ese|esa|esos|esas|esto|eso|un|una|unos|unas"
        r"|mi|mis|tu|tus|su|sus|todo|toda|todos|todas|cada|\d+)\b",
        0.75,
    ),
    # a bare acknowledgement (ACK) asks nothing and holds nothing: OTHER, which the model does
    # not override (a remark: after a go, it would not take the go back)
    Rule("es-remark", "OTHER", rf"^(?:{ACK}[^\w?]*){{1,2}}$", 0.7),
    # what a change will do ("¿El rebase va a pisar las migraciones de Ana?", "¿Las URLs van a
    # quedar igual tras la migración?"): a question, not a status (the protocol's: an audit)
    Rule(
        "es-effect-question",
        "QUESTION",
        r"^(?=.*\b(?:rebase|merge|migracion|upgrade|actualizacion|deploy|despliegue|refactor\w*"
        r"|release)\b)(?!.*\b(?:locks?|worktrees?|journal|task\.json)\b)"
        r".*\b(?:va|van) a (?:pisar|borrar|romper|cambiar|quedar|sobrescribir|mantener|conservar"
        r"|perder|eliminar)\b.*\?$",
        0.85,
    ),
    # a go held until a check of the protocol's state, or a run of the audit: what is asked is
    # the check ("No continúes hasta que hayas revisado los locks"): AUDIT
    Rule(
        "es-audit-until",
        "AUDIT",
        r"^(?:hasta que|antes de|mientras no)\b(?:(?=.*\b(?:revis|verific|comprob|chequ|audit"
        r"|valid|mir)\w*\b).*\b(?:lock|worktree|journal|sesion|task\.json|protocolo|estado)"
        r"|.*\b(?:audit|doctor))",
        0.85,
    ),
    # a go said as "tira con / tira para adelante", "métele caña a": a clause of its own, not
    # negated, not asked ("Ya no hace falta que esperes, tira con el deploy.")
    Rule(
        "es-go-onto",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca)\b)(?!.*\?$)(?:(?:ya|pues|ahora|venga|bueno|si|hombre|oye|y|despues"
        r"|luego|entonces) )*"
        r"(?:tira (?:con|para adelante|para alante|pa ?(?:lante|alante|adelante)|p'(?:a)?lante"
        r"|p'adelante)|metele (?:cana|duro|candela|ganas|mano) (?:a|al|con)|(?:dale )?a tope con"
        r"|(?:regresa|vuelve) (?:al|a la|a los|a las)|avanza (?:con|en)"
        # on to the next piece, after a step said first: "mergea el PR y pasa a la siguiente"
        r"|(?:.*\by (?:luego |despues |ya )?)?pasa(?:te)? (?:ya )?a (?:la|el) (?:siguiente"
        r"|proxima|proximo))\b",
        0.85,
    ),
    # a mention, not a request: a progress indicator named in a statement, a bug
    # ("El spinner de progreso gira para siempre"): a remark, which the model does not override
    Rule(
        "es-mention-remark",
        "OTHER",
        r"^(?!.*\?$)(?:el|la|un|una|este|esta|ese|esa|nuestro|nuestra)"
        r" (?:spinner|barra de (?:progreso|carga)|indicador de (?:progreso|carga)"
        r"|loader|progress ?bar)\b",
        0.7,
    ),
    # the rest the same way, back to a named piece of work: "haz el resto igual", "volvé a lo de
    # los webhooks", "de vuelta al parser" (a rule of its own: each copy of VERB costs compiling)
    Rule(
        "es-rest",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca)\b)(?:[\w-]+ ){0,2}?(?:(?:haz|hace|hazme|completa)"
        r" (?:(?:tambien|todo) )*el resto\b"
        r"|(?:vuelve|volve|volvamos|regresa|regresemos) a lo (?:de|del|tuyo)\b"
        r"|de vuelta (?:al|a la|a los|a las|a lo de|con)\b)(?!.*\?$)",
        0.85,
    ),
)

LANGUAGE = Language(
    code="es",
    rules=(*RULES, *es_kinds.LAST),
    fillers=(
        rf"(?:ok(?:ay|ey)?|vale|si{es_kinds.NOT_IF}|sip|claro|bueno|bien|muy bien|perfecto|genial"
        r"|listo|gracias|muchas gracias|pues|entonces|ahora|y|pero|venga|orale|oye|mira(?! si\b)"
        r"|ah|eh|porfa|dale(?=\s*[,.!]|\s*$)"
        # "antes" (first) opening a request, not "antes de" / "antes que" (a hold's own form)
        r"|antes(?! de\b| que\b)|por favor|de acuerdo|entendido|todo bien|bien|primero)\b"
    ),
    joiners=es_kinds.JOINERS,
    connectives=(
        # not "antes o después del pago?", "…después del corte?", "¿tenerlo antes de las 8?"
        r"(?<!\bo)\s+(?=(?:pero|luego|y luego|y despues|hasta que|despues(?! de(?:l| la| los"
        r"| las)? [^,.;:!?]*\?\s*$))\b)|(?<!\bo)(?<!rl[oa])(?<!list[oa])\s+(?=antes de\b)"
    ),
    later=(
        r"\b(?:manana|pasado manana|mas tarde|en un rato|al rato|ahorita no|esta (?:tarde|noche)"
        r"|en la (?:tarde|noche)|el lunes|la (?:semana|proxima semana)|cuando (?:yo )?(?:vuelva"
        r"|regrese|te diga|termine)|despues de (?:mi|mis|la|el|que)\b|despues del)\b"
        # by form: a weekday, a clock time, a span, "después de/tras" + a noun (not "de eso")
        r"|\b(?:lunes|martes|miercoles|jueves|viernes|sabado|domingo|finde|fin de semana)\b"
        # waiting until a time or an event first ("espera hasta las 3 y luego sigue")
        r"|\besper(?:a|e|en|ame|anos|emos)\s+hasta\b"
        r"|\ba la una\b|\ba las (?:\d{1,2}|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once"
        r"|doce)\b|\b\d{1,2}(?::\d{2})? ?(?:h|hs|hrs|am|pm)\b|\b(?:en|dentro de) (?:\d+|una|un"
        r"|media|dos|tres|unos|unas) (?:minutos?|horas?|hora|dias?)\b"
        r"|\b(?:despues|luego) de(?:l| la| los| las| mi| mis| tu| que)? (?!(?:eso|esto|ello|hacerlo"
        r"|eso)\b)[\w-]+|\btras (?:el|la|los|las|mi|mis) [\w-]+"
    ),
    conditions=(
        # waiting for an event ("espera a que el CI pase y luego sigue"), only if ("solo vuelve
        # al código si pasa el build"; not "dime solo si …", whether)
        r"^espera(?:d|me|nos)? (?:(?:un poco|primero) )?a que\b|"
        r"\b(?:cuando|en cuanto|apenas|una vez que|tan pronto como|hasta que|despues de que"
        r"|luego de que|(?<!dime )(?<!decime )(?<!avisame )(?:solo|solamente|unicamente|nomas) (?!"
        r"(?:me )?(?:dices|dime|decime|avisas|avisame|confirmas)\b)(?:[\w-]+ ){0,6}?si(?= [\w-])"
        r"|siempre que)\b(?! (?:quieras|puedas|gustes|estes listo|estes lista"
        r"|lo veas|te parezca)\b)"
        # the agent's own step, in its person ("cuando termines X", "cuando tengas X listo")
        r"(?! (?:(?:ya )?(?:termines|acabes|completes|hayas (?:termin|acab|complet)ado)\b|tengas"
        r" (?:[\w/.-]+ ){1,5}?(?:list|hech|terminad|acabad|resuelt|arreglad)[oa]s?\b))"
        + es_kinds.IF_HELD
    ),
    retractions=(
        r"(?:^|[\s,.!;])(?:mejor no|no,? mejor no|pensandolo bien|olvidalo|olvida(?:lo)? eso"
        r"|dejalo(?: asi)?|no,? (?:espera|para|detente)|mejor (?:espera|para|detente|no sigas)"
        r"|ah no|no no)\b"
    ),
    approvals=(
        r"\b(?:aprobad[oa]s?|apruebo|(?:te )?doy (?:el )?visto bueno|visto bueno|luz verde|lgtm)\b"
    ),
    negations=r"\b(?:no|nunca|sin|todavia no|aun no)\b",
    courtesies=(
        r"(?:^|(?<=[\s,;:.!?]))(?:(?:cuando|si) (?:tu )?(?:quieras|quieres|puedas|puedes|gustes"
        r"|prefieras|estes list[oa])|cuando (?:usted )?(?:quiera|pueda|guste|prefiera)"
        r"|cuando (?:ustedes )?(?:quieran|puedan|gusten)|cuando te (?:venga bien|parezca|cuadre)"
        r"|si te (?:parece|va bien)|a tu ritmo|sin prisas?)(?=\s*(?:$|[,.!?;:]))"
    ),
)
