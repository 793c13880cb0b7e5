"""Spanish rules of issue #45's twenty-second round (docs/interruptions.md, "Twenty-second round:
the rules (Spanish and Brazilian Portuguese)"): ``TWENTYSECOND``, spliced after the twenty-first
round's ``es_twentieth.TWENTYFIRST`` (that module had no room left for them). By kind, not by
wording: a go in slang ("p'alante"); a status asked as what the agent has in hand, as a recap,
as what works and what is left, passed on for somebody else, or of a ticket; a protocol
object's age asked; a complaint, praise and a failure told since when are remarks, a doubt or a
wish to understand is a question. Text as in ``es.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.table import WORK

# the protocol's objects
_OBJECT = r"locks?|lockfiles?|claims?|worktrees?|sesion(?:es)?|heartbeats?|journal|task record"
# who may ask: "tú", "vos", "usted", opening or after "y"
_YOU = r"^(?:(?:y|oye|bueno|entonces) )*(?:(?:tu|vos|usted) )?"
# a ticket's id: a word with a digit ("vid-88", "#45", "45")
_ID = r"[\w#.-]*\d[\w#.-]*"
# stopping, waiting or going on: a doubt on them is no question on the code
_STOP_OR_GO = r"seguir|sigamos|seguimos|continuar|continuemos|parar|paramos|esperar|dejarlo"

TWENTYSECOND = (
    # a go in slang, the clause whole or on its object: "p'alante", "vale, pa'lante con las
    # etiquetas", "palante con eso", "a full con el frontend" (not denied, not asked, not
    # "todavía"; a later time is held by the go's time)
    Rule(
        "es-go-slang",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|todavia|aun)\b)(?!.*\?$)(?:(?:y|ya|pues|ahora|venga|bueno|vale"
        r"|ok|dale|entonces|asi que|hala|andale|orale) )*(?:(?:p'a|pa'|pa ?|p')(?:a?lante"
        r"|adelante|delante)\b|a (?:full|muerte|saco) (?:con|en)\b)",
        0.85,
    ),
    # what the agent has in hand now: "¿qué tienes entre manos ahorita?", "¿en qué estás metido?",
    # "¿qué andas haciendo?", "¿qué estás tocando ahora mismo?" (not "¿qué estás haciendo con el
    # lock?", a reproach or a check, without a now)
    Rule(
        "es-status-in-hand",
        "STATUS_REQUEST",
        _YOU + r"(?:(?:que|q|en que|con que) (?:(?:tu|vos|usted) )?(?:tienes|tenes|tiene|te traes"
        r"|se trae|traes) (?:ahora |ahorita |ya )?entre manos"
        r"|(?:en|con) (?:que|q) (?:(?:tu|vos|usted) )?(?:estas|andas|anda|esta|te tienes)"
        r" (?:metid[oa]|liad[oa]|ocupad[oa]|enfrascad[oa]|ahora|ahorita|en este momento)"
        r"|(?:que|q) (?:(?:tu|vos|usted) )?(?:andas|anda) (?:haciendo|tocando|programando)"
        r"|(?:que|q) (?:(?:tu|vos|usted) )?(?:estas|esta) (?:haciendo|tocando|programando"
        r"|moviendo|picando) (?:ahora|ahorita|justo ahora|en este momento|ahora mismo))\b",
        0.85,
    ),
    # a recap of the work: "haz un recap de todo lo que cambiaste", "un recap rápido", "dame un
    # repaso de lo que hiciste hoy", "recapitula lo que llevas" (not a recap of the code: "un
    # repaso del módulo de pagos", "recapitula cómo funciona el parser")
    Rule(
        "es-status-recap",
        "STATUS_REQUEST",
        r"^(?:(?:me|nos) )?(?:(?:haz|hazme|hace|haceme|hacenos|dame|danos|pasame|mandame|tirame"
        r"|echame|quiero|necesito|me haces|me das|me pasas) )?(?:un |una )?(?:recap|recapitulacion"
        r"|repaso|resumen|resumencito)(?: (?:rapido|breve|corto|general))?(?: (?:de|del|sobre))?"
        r" (?:todo )?(?:lo (?:que (?:\w+ )?(?:hiciste|hicimos|has|hemos|cambiaste|cambiamos"
        r"|tocaste|llevas|llevamos|avanzaste|terminaste|metiste)|hecho|avanzado)|los cambios"
        r"|tus cambios|(?:lo de )?hoy|tu (?:trabajo|avance|progreso|dia|sesion))\b"
        r"|^(?:(?:me|nos) )?(?:(?:haz|hazme|hace|haceme|dame|pasame|me haces|me das) )?"
        r"(?:un |una )?(?:recap|recapitulacion)(?: (?:rapido|breve|corto|general|porfa|por favor"
        r"|pls))*\s*\?*$"
        r"|^recapitula(?:me|nos)? (?:(?:rapido|brevemente) )?(?:todo|lo que|lo hecho"
        r"|los cambios)\b",
        0.85,
    ),
    # what works and what is left, asked together: "de la lista, ¿qué ya funciona y qué sigue
    # sin hacer?", "¿qué está listo y qué falta?", "qué anda y qué no" (not what the code does
    # in a case: "¿qué funciona y qué no en Safari?")
    Rule(
        "es-status-done-left",
        "STATUS_REQUEST",
        r"^(?:(?:y|de eso|de esto|de la lista|de los \w+) )*(?:que|q|cuales?) (?:[\w-]+ ){0,2}?"
        r"(?:ya )?(?:funciona|funcionan|anda|andan|esta|estan|va|van|quedo|quedaron|sirve|sirven"
        r"|hiciste|terminaste|llevas|tienes|pasa|pasan)\b.*\by (?:que|q|cuales?) (?:(?:todavia"
        r"|aun|ya|te|nos) )*(?:no\s*\??$|falta|faltan|queda|quedan|sigue|siguen|resta|restan"
        r"|esta (?:pendiente|por)|estan (?:pendientes|por)|no (?:esta|estan|funciona|funcionan"
        r"|anda|andan)\b)",
        0.85,
    ),
    # how the work goes, asked for somebody else: "el gerente pregunta cómo vamos, ¿qué le
    # digo?", "mi jefa quiere saber cómo va lo del login", "el cliente pregunta por el avance"
    # (the tag "¿qué le digo?" is joined to it: ``JOINERS``); not how a thing will work ("cómo va
    # a funcionar")
    Rule(
        "es-status-passed-on",
        "STATUS_REQUEST",
        r"\b(?:pregunta|preguntan|pregunto|preguntaba|preguntaron|esta preguntando|estan"
        r" preguntando|quiere saber|quieren saber|queria saber|querian saber) (?:(?:otra vez|de"
        r" nuevo|ya|aqui|aca) )?(?:(?:que tal|como) (?:vamos|va|van|vas|andamos|anda|andan"
        r"|estamos|avanza|avanzamos|avanzas)\b(?! a\b)|(?:por|del|de|sobre|que tal) (?:el |la |tu"
        r" )?(?:avance|progreso|estado|status|eta)\b(?! del? (?:la )?(?:app|servidor|sistema|base"
        r"|api|codigo)\b)|(?:cuanto|que) (?:falta|queda|nos falta)\b|(?:para )?cuando"
        r" (?:esta|estara|sale|saldra|terminamos|acabamos|queda|quedara)\b)",
        0.85,
    ),
    # a ticket's status, a fragment: "estado del ticket PAY-301", "¿status de la issue 45?",
    # "y el ticket ABC-12?" (not a state field told: "el estado del ticket no se actualiza")
    Rule(
        "es-status-ticket",
        "STATUS_REQUEST",
        r"^(?:y )?(?:(?:el|la) )?(?:estado|status|avance|progreso|situacion|novedades?) (?:del?"
        r"|de la) (?:ticket|issue|card|tarjeta|tarea|historia|incidencia|bug|task|story|pr|epica"
        r"|epic) "
        + _ID
        + r"(?: (?:porfa|por favor|pls|rapido))?\s*\?*$|^(?:y )?(?:el|la) (?:ticket|issue|card"
        r"|tarjeta|tarea|historia|incidencia|task|story|epica|epic) " + _ID + r"\s*\?+$",
        0.85,
    ),
    # how much of a piece is done: "¿cuánto de la integración está hecho?", "¿qué tanto llevas
    # de la migración?"
    Rule(
        "es-status-how-much",
        "STATUS_REQUEST",
        r"^(?:y )?(?:cuanto|que tanto) (?:de|del|de la|de los|de las) .*\b(?:esta|estan|lleva"
        r"|llevas|va|van|tienes|hay) (?:ya )?(?:hech|list|terminad|complet|acabad|integrad|migrad"
        r"|cubiert)\w*|^(?:y )?que tanto (?:llevas|has|van|va|avanzaste|llevamos)\b",
        0.85,
    ),
    # the age of a protocol object, asked: "¿de cuándo es el archivo de lock?", "¿hace cuánto
    # se creó ese lock?", "¿qué antigüedad tiene el worktree?" (not "¿desde cuándo usamos
    # locks?", the design's history)
    Rule(
        "es-audit-age",
        "AUDIT",
        r"^(?:y )?(?:de cuando|desde cuando|hace cuanto(?: tiempo)?|cuanto tiempo|que antiguedad"
        r"|que edad) (?:(?:es|son|esta|estan|existe|existen|lleva|llevan|tiene|tienen|data|datan"
        r"|se creo|se crearon|fue creado|quedo) )(?:ahi )?(?:(?:el|la|los|las|ese|esa|este|esta|tu"
        r"|su) )?(?:[\w.-]+ )?(?:archivo de lock|" + _OBJECT + r")\b.*\?$"
        r"|^(?:y )?(?:el|la|ese|esa|este|esta) (?:[\w.-]+ )?(?:archivo de lock|" + _OBJECT + r")"
        r" (?:es|son|data|esta ahi|existe) (?:de|desde) cuando\b",
        0.85,
    ),
    # whose a protocol object is, asked casually: "¿ese index.lock en .git es tuyo?", "el
    # worktree wt-3 es tuyo o de otro agente?" (not the app's own: "¿la sesión del usuario es
    # suya?")
    Rule(
        "es-audit-whose",
        "AUDIT",
        r"^(?!(?:como|por que|para que)\b)(?=.*\b(?:" + _OBJECT + r")\b)"
        r"(?!.*\b(?:codigo|app|usuario|cliente|redis|base de datos)\b).*\b(?:es|son|esta|estan)"
        r" (?:realmente )?(?:tuy[oa]s?|de (?:vos|usted|ustedes))\b.*\?$",
        0.85,
    ),
    # a complaint told asks nothing: "me chirría que mezcles socio y member", "me molesta cómo
    # nombras las ramas", "me parece feo que uses dos idiomas" (asked, it asks)
    Rule(
        "es-complaint-remark",
        "OTHER",
        r"^(?:(?:la verdad|sinceramente|uf|ojo|oye|mira|pues|eso si|y) )*(?:no )?(?:me|nos)"
        r" (?:chirria|chirrian|molesta|molestan|fastidia|fastidian|raya|rayan|revienta|choca"
        r"|chocan|saca de quicio|pone nervios[oa]|irrita|incomoda|disgusta|escama|da grima"
        r"|da rabia|da cosa|gusta nada|convence|parece (?:feo|raro|mal|fatal|horrible"
        r"|confuso|un lio)|suena (?:raro|mal)) (?:que|como|el|la|los|las|ver|tener|esto|eso|ese"
        r"|esa|tanto|mucho)\b(?!.*\?$)",
        0.8,
    ),
    # an explanation praised, alone in its clause: "muy clara la explicación de los índices",
    # "genial la explicación del mutex, gracias" (its "genial" a filler); not thanks or any thing
    # praised ("gracias por la explicación, ahora volvé a trabajar", "buenísimo el parser, ahora
    # conéctalo…": a go the model reads in the clause after, which a remark would hide from it)
    Rule(
        "es-praise-remark",
        "OTHER",
        r"^(?:(?:(?:muy|super|re|bien|que) )?(?:genial|buenisim[oa]|excelente|clarisim[oa]|clar[oa]"
        r"|top|brutal|estupend[oa]|increible|fantastic[oa]|util|utilisim[oa]) )?"
        r"(?:la|el|tu|esa|ese|esta|este) (?:explicacion|aclaracion|respuesta|analisis"
        r"|solucion)(?: (?:del?|de la|de los|de las|sobre|con) [\w. -]+)?$",
        0.75,
    ),
    # a failure of the work told since when: "el build nocturno está en rojo desde el update",
    # "los tests fallan desde ayer" (a report, not the work's state asked)
    Rule(
        "es-failing-since-remark",
        "OTHER",
        r"^(?:el |la |los |las )?(?:[\w.-]+ )?" + WORK + r"\b(?: [\w.-]+){0,3}? (?:(?:esta|estan"
        r"|sigue|siguen|lleva|llevan|anda|andan|quedo|quedaron) (?:en rojo|rot[oa]s?|fallando"
        r"|caid[oa]s?|roj[oa]s?|muert[oa]s?|colgad[oa]s?)|falla|fallan|revienta|revientan)\b"
        r".*\bdesde\b(?!.*\?$)",
        0.8,
    ),
    # a doubt, or a wish to understand, is a question, with or without "?": "tengo dudas de si
    # la zona horaria se maneja bien", "no tengo claro cómo se invalida la caché", "quisiera
    # entender la lógica de la tabla pivote" (not a doubt on going on: "tengo dudas de si seguir")
    Rule(
        "es-doubt-question",
        "QUESTION",
        r"^(?!.*\b(?:" + _STOP_OR_GO + r")\b)(?:(?:la verdad|sinceramente|oye|mira|pues|ojo|pero"
        r"|y|yo|aun|todavia) )*(?:(?:tengo|tenemos|me quedan?|me entran?|me surgen?|me asaltan?)"
        r" (?:(?:mis|algunas|serias|muchas|una|la|un par de) )?dudas? (?:de|sobre|con|acerca de"
        r"|respecto a|en) (?:si|como|que|cual|cuales|por que|cuando|donde|el|la|los|las|lo)"
        r"|no (?:(?:me|nos|lo) )?(?:tengo|tenemos|queda|quedo) (?:muy |del todo |nada |tan )?"
        r"clar[oa]"
        r" (?:si|como|que|cual|por que|cuando|donde|el|la|lo)|(?:quisiera|me gustaria|quiero"
        r"|queria|necesito) (?:entender|comprender) (?:bien |mejor )?(?:si|como|que|cual|por que"
        r"|cuando|donde|la|el|lo|los|las))\b",
        0.8,
    ),
)

# The twenty-third round's (docs/interruptions.md, "Twenty-third round: the rules (Spanish and
# Brazilian Portuguese)"), spliced after ``TWENTYSECOND``: a protocol object's state asked as what
# happened to it; a status asked as an order to report, a passive "already done?" or a
# supposition to confirm; a go back to work in slang, or on to the next step.

# the protocol's objects, with its hooks ("el pre-commit")
_HELD = _OBJECT + r"|hooks?|pre-commit|precommit"
# the code's own sessions, hooks, locks: not the protocol's ("¿la sesión del usuario se cayó?")
_APP = (
    r"usuarios?|clientes?|login|redis|base de datos|app|jwt|cookies?|tokens?|webhooks?|mutex"
    r"|react|postgres|mysql|navegador|pagos?|checkout"
)
# what happened to it, or whether it still holds
_BEFALLEN = (
    r"pillad[oa]s?|trabad[oa]s?|atascad[oa]s?|enganchad[oa]s?|bloquead[oa]s?|sobrevivio"
    r"|sobrevivieron|se cayo|se cayeron|murio|murieron|pillo|atrapo|freno|paro|bloqueo"
    r"|dejo pasar|se (?:le )?colo|se aplica|aplica|vale(?! la pena)|valiendo|sirve"
    r"|(?:es|son) (?:el|la|los|las) mism[oa]s?"
)
# a report asked now, not when a thing happens ("ponme al día cuando termines")
_NOW = r"(?!.*\b(?:cuando|en cuanto|apenas|despues|luego|si)\b)"
# a go not denied, asked, held by "todavía" nor on a condition ("a currar si pasa el CI")
_FREE = r"(?!.*\b(?:no|nunca|ni|todavia|aun|si)\b)(?!.*\?$)"
# the rest of the work said as a whole, a step or a phase
_STEP = r"paso|punto|fase|etapa|item|seccion|parte|tarea|ticket|bloque|modulo"

TWENTYTHIRD = (
    # a protocol object's state, asked as what happened to it: "¿el kill -9 dejó el lock
    # pillado?", "¿tu sesión sobrevivió al corte?", "¿el pre-commit pilló el binario?", "¿el hook
    # aplica también en tu worktree?" (not how it works, why, or the app's own session)
    Rule(
        "es-audit-befallen",
        "AUDIT",
        r"^(?!(?:por que|para que|que|como|cual|donde|cuando|porque|xq|pq)\b)"
        r"(?!.*\b(?:" + _APP + r")\b)(?=.*\b(?:" + _HELD + r")\b)(?=.*\?$|.*\bo no\s*$)"
        r".*\b(?:" + _BEFALLEN + r")\b",
        0.85,
    ),
    # an order to report: "ponme al día", "actualízame", "ponnos al tanto del checkout" (not an
    # update of the code, "actualízame el README", nor one asked for later, "ponme al día cuando
    # termines")
    Rule(
        "es-status-update-me",
        "STATUS_REQUEST",
        r"^"
        + _NOW
        + r"(?:(?:oye|bueno|porfa|por favor|venga|y) )*(?:ponme|ponnos|pongame|ponganme|poneme"
        r"|mantenme|tenme) (?:al (?:dia|tanto|corriente)|al loro)\b"
        r"|^" + _NOW + r"(?:(?:oye|bueno|porfa|por favor"
        r"|venga|y) )*(?:actualizame|actualizanos|actualiceme"
        r"|informame|informanos)(?=$|[\s,.!?])(?! (?:el|la|los|las|esto|eso|este|esta"
        r"|mi)\b)",
        0.85,
    ),
    # a piece of work asked done, in the passive: "¿las tablas de lotes ya están creadas?",
    # "¿el endpoint ya quedó listo?" (the protocol's objects are audits)
    Rule(
        "es-status-done-passive",
        "STATUS_REQUEST",
        r"^(?!.*\b(?:"
        + _HELD
        + r")\b)(?:y )?(?:el|la|los|las|ese|esa|esos|esas|tu|tus|nuestr[oa]s?)"
        r" [^?]*?\bya (?:esta|estan|fue|fueron|quedo|quedaron|ha sido|han sido) (?:tod[oa]s? )?"
        r"(?:\w+ad[oa]s?|\w+id[oa]s?|hech[oa]s?|list[oa]s?|escrit[oa]s?|puest[oa]s?)\s*\?+$",
        0.85,
    ),
    # a supposition to confirm: "supongo que todavía no empezaste con los recibos", "imagino que
    # ya tienes listo el importador" (not the protocol's objects)
    Rule(
        "es-status-supposed",
        "STATUS_REQUEST",
        r"^(?:(?:y|pero|bueno|entonces) )*(?:yo )?(?:supongo|imagino|asumo|apuesto a|apuesto"
        r"|presumo|intuyo) que\b(?!.*\b(?:" + _HELD + r")\b).*\b(?:todavia|aun|ya|ni)\b.*\b(?:"
        r"\w+(?:aste|iste|aron|ieron|ad[oa]s?|id[oa]s?)|empez\w*|arranc\w*|termin\w*|acab\w*"
        r"|list[oa]s?|hech[oa]s?|a medias|parad[oa]s?)\b",
        0.8,
    ),
    # back to work, in slang: "a currar otra vez", "venga, a chambear con los filtros", "a
    # laburar" (not denied, asked, or "todavía"; a later time holds it)
    Rule(
        "es-go-to-work",
        "RESUMPTION",
        r"^" + _FREE + r"(?:(?:y|ya|pues|ahora|venga|bueno|vale"
        r"|hala|ea|ok|dale|listo) )*a (?:currar|chambear|chambiar|camellar|laburar|codear|picar"
        r"|jalar|meterle|darle caña|darle duro)\b(?: (?:otra vez|de nuevo|ya|duro|fuerte))?"
        r"(?: (?:con|en) .+)?[\s.!]*$",
        0.85,
    ),
    # on to the next step: "avanza al paso 5", "salta al punto 3" ("pasa a la siguiente fase" is
    # es-go-onto's, "sigue con el paso 3" es-resumption's); not denied, asked, or on a condition
    Rule(
        "es-go-next-step",
        "RESUMPTION",
        r"^" + _FREE + r"(?:(?:y|ya|pues|ahora|venga|bueno|vale"
        r"|ok|dale|entonces) )*(?:(?:avanza|avance|avancen|salta|salte) (?:ya )?(?:al|a la"
        r"|hasta el|hasta la)|(?:pasa|pase|pasen) (?:ya )?(?:al|hasta el)) (?:siguiente"
        r" |proxim[oa] )?"
        r"(?:" + _STEP + r")\b",
        0.85,
    ),
)
