"""Spanish rules of issue #45's twentieth round (docs/interruptions.md, "Twentieth round: the
rules (Spanish and Brazilian Portuguese)"): ``TWENTIETH``, spliced after the nineteenth round's
``es_kinds.NINETEENTH``. By kind, not by wording: a status asked as when, as a thing to be sent,
as "will you have it before"; a go as the task's own verb on what is missing, or as "deploy it";
an audit of a past protocol event or a leftover artefact; a question on the code said as a
wonder, as a change's content, as how a thing was done, as "in your opinion", as an upgrade's
effect or as what the tool can do; never a go: "keep waiting", a work verb denied, a doubt on
stopping or going on, a go word as a noun. Text as in ``es.py`` (lowercased, accents folded).
The twenty-first round's ``TWENTYFIRST`` is at the end (docs/interruptions.md, "Twenty-first
round: the rules (Spanish and Brazilian Portuguese)")."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.es_kinds import _WORK_GO

# the protocol's objects
_OBJECT = r"locks?|lockfiles?|claims?|worktrees?|sesion(?:es)?|heartbeats?|journal|hooks?"
# wondering or thinking aloud, then "si": "me pregunto si", "estaba pensando si", "no sé si"
_WONDER_IF = (
    r"^(?:(?:la verdad|sinceramente|pues|yo|oye|mira|ahora|igual|bueno) )*(?:(?:me|nos) )?"
    r"(?:pregunto|preguntaba|estoy preguntando|quede pensando|estaba pensando|estoy pensando"
    r"|pensaba|dudo|no se|no sabria decir) si (?:no )?(?:(?:nosotros|tu|vos|usted) )?"
)
# should, worth, better: what the wonder weighs
_SHOULD = (
    r"(?:deberiamos|debemos|deberia|deberias|habria que|hay que|conviene|convendria|vale la pena"
    r"|valdria la pena|seria mejor|es mejor|mejor|tendria sentido|tiene sentido)"
)
# stopping, waiting or going on: a doubt about the work itself, not about the code (not
# "seguir con Redis o pasar a Memcached", a choice of the design's)
_STOP_OR_GO = (
    r"(?:parar|paramos|detener(?:nos)?|dejarlo|dejar esto|pausar|frenar|cortar|esperar|descansar"
    r"|tirar la toalla|abandonar|(?:seguir|sigamos|continuar|continuemos)(?=\s*$| (?:asi|aqui"
    r"|adelante|igual|con (?:esto|eso|este|esta|ese|esa|ello|el plan|la tarea|el trabajo))\b))"
)
# the readiness of a piece of work
_READY = r"(?:list|terminad|hech|pront|acabad|disponible|desplegad|subid|en produccion)"

TWENTIETH = (
    # keep waiting, keep still: the go word governs the waiting, a hold ("… así que sigue
    # esperando", "continúa a la espera del OK", "quédate quieto de momento")
    Rule(
        "es-keep-waiting",
        "OTHER",
        r"^(?:(?:asi que|entonces|pues|por eso|por ahora|de momento|mientras tanto|y|tu|vos"
        r"|usted) )*(?:sigue|segui|sigan|siga|continua|continue|continuen|quedate|quedese"
        r"|mantente|mantengase) (?:(?:asi|tranquil[oa]|nomas|un rato|un poco|de momento"
        r"|por ahora|ahi) )?(?:esperando|en espera|a la espera|aguardando|parad[oa]|quiet[oa]"
        r"|en pausa|pausad[oa]|en stand-?by|sin hacer nada|sin tocar nada)\b",
        0.85,
    ),
    # a work verb denied, the negative imperative ("no implementes lo que falta todavía", "no
    # toques la migración"): never a go, nothing asked; after a go, a limit on it, not a hold
    # (a remark: "sigue, pero no toques las migraciones" goes on)
    Rule(
        "es-work-denied-remark",
        "OTHER",
        r"^(?:(?:y|pero|ojo|por ahora|de momento|aun|todavia|porfa|por favor) )*(?:no|nunca|ni)"
        r" (?:me |te )?(?:lo |la |los |las )?(?:implementes|hagas|escribas|toques|subas"
        r"|despliegues|mergees|migres|termines|completes|arranques|empieces|metas|agregues"
        r"|anadas|construyas|montes|programes|pushees|apliques|integres|lances|publiques)\b",
        0.85,
    ),
    # a doubt on stopping or going on asks nothing and holds nothing: "me pregunto si no
    # deberíamos parar aquí", "no sé si vale la pena seguir con esto" (a doubt on the code is
    # a question, es-wonder-should)
    Rule(
        "es-doubt-go-remark",
        "OTHER",
        _WONDER_IF + _SHOULD + r"(?: no)? (?:(?:ya|aqui|ahora) )?" + _STOP_OR_GO + r"\b",
        0.8,
    ),
    # a wonder on what the code should be is a question, with or without "?": "me pregunto si
    # deberíamos guardar los tiempos en milisegundos", "estaba pensando si conviene un índice"
    Rule(
        "es-wonder-should",
        "QUESTION",
        _WONDER_IF + _SHOULD + r"\b(?!.*\b" + _STOP_OR_GO + r"\b)",
        0.8,
    ),
    # a status asked as when: when I get it, when it is ready, when you finish ("¿cuándo tendré
    # la primera versión?", "cuando podré probar el carrito", "¿para cuándo estará lista la
    # integración?", "¿cuándo me pasas algo?"); not when the code does a thing ("¿cuándo se
    # libera el lock?"), nor an obligation ("¿cuándo tendremos que migrar?")
    Rule(
        "es-status-when",
        "STATUS_REQUEST",
        r"^(?:y )?(?:para )?cuando (?:(?:crees|calculas|piensas|estimas|dirias) que )?"
        r"(?:(?:me|nos|lo|la|los|las|ya) )*(?:(?:tendre|tendremos|tendras|tendria|tendra|tendran"
        r"|podre|podremos|podria)\b(?! que\b)(?: (?:ver|probar|tener|usar|revisar|esperar))?"
        r"|(?:puedo|podemos) esperar|pasas|mandas|envias|entregas|pasaras|mandaras|enviaras"
        r"|entregaras|terminas|terminaras|acabas|acabaras|cierras|cerraras"
        r"|(?:estara|estaran|quedara|quedaran|esta|estan|queda|quedan) " + _READY + r")\w*\b"
        r"|^(?:y )?para cuando\s*\?*$",
        0.85,
    ),
    # a status asked as "will you have it before …": "¿lo tendrás listo antes de la demo?",
    # "¿llegas a tenerlo antes de las 6?", "¿te da tiempo a terminarlo hoy?"
    Rule(
        "es-status-before",
        "STATUS_REQUEST",
        r"^(?:(?:me|nos) )?(?:lo|la|los|las) (?:tendras|tienes|vas a tener|tendrias) "
        + _READY
        + r"\w*\b|^(?:(?:tu|vos) )?(?:llegas|llegarias|llegaras|alcanzas|alcanzarias) a"
        r" (?:tener|terminar|acabar|cerrar|entregar|completar)\w*\b"
        r"|^(?:te|le) (?:da|dara|daria) (?:el )?tiempo (?:a|de|para) (?:tener|terminar|acabar"
        r"|cerrar|entregar|completar)\w*\b",
        0.85,
    ),
    # a status asked to be sent ("¿me puedes enviar un status del módulo de cobros?",
    # "¿podrías pasarme el estado del importador?") or as its percentage ("dime solo el
    # porcentaje de avance"); not a state of the app ("el estado del servidor")
    Rule(
        "es-status-send",
        "STATUS_REQUEST",
        r"^(?:(?:me|nos) )?(?:puedes|podrias|podes|puede|podria|pueden|podrian) (?:(?:me|nos) )?"
        r"(?:enviar|mandar|pasar|dar|compartir)(?:me|nos)? (?:un|una|el|tu|su) (?:status|estado"
        r"|update|reporte|resumen|informe|avance|actualizacion)\b(?! (?:del?|de la) (?:app"
        r"|sistema|codigo|servidor|base|api|repo)\b)"
        r"|^(?:solo )?(?:dime|decime|dame|pasame|dinos) (?:solo |nomas |nada mas )?(?:el|un|tu)"
        r" (?:porcentaje|%)(?: (?:de )?(?:avance|progreso|completado|hecho|que llevas))?\s*$",
        0.85,
    ),
    # the task's own work ordered on what is missing: "implementa lo que falta del reparto",
    # "escribe los tests que faltan del ETL", "completa los endpoints que quedan pendientes"
    # (not denied, asked, nor put off: "… mañana" is held by the go's time)
    Rule(
        "es-go-missing",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|jamas)\b)(?!.*\?$)(?:(?:y|ahora|entonces|pues|bueno|vale|ok"
        r"|venga|ya) )*(?=" + _WORK_GO + r"\b)\w+ (?:(?:usted|tu|vos|tambien|ya) )?(?:lo que"
        r" (?:falta|faltan"
        r"|queda|quedan|resta|restan)|(?:el|la|los|las) (?:[\w.-]+ ){1,3}?que (?:todavia |aun )?"
        r"(?:falta|faltan|queda|quedan|resta|restan))\b",
        0.85,
    ),
    # "deploy it", the clause whole, after a decision or an approval: "ya llegó la aprobación,
    # despliégalo", "súbelo a producción", "sube a producción" (not a change: "hazlo más corto")
    Rule(
        "es-go-deploy",
        "RESUMPTION",
        r"^(?:(?:y|ahora|entonces|pues|ya|venga|dale) )*(?:despliegalo|despliegala|desplegalo"
        r"|subelo|subela|subelos|mergealo|mergeala|pushealo|aplicalo|aplicala|implementalo"
        r"|implementala|lanzalo|lanzala|publicalo|publicala|(?:sube|despliega|lanza|manda)"
        r"(?: (?:esto|eso|todo))? (?:a|en) (?:produccion|prod))(?: (?:ya|entonces|pues|a"
        r" (?:produccion|prod|staging)|en (?:produccion|prod|staging)))*[\s.!]*$",
        0.85,
    ),
    # what a change did is the code's question, not where the work stands: "qué cambió ese
    # último commit, dilo en breve", "dime brevemente qué tocó el PR de ayer" (not "qué
    # cambiaste", the work's)
    Rule(
        "es-change-asked",
        "QUESTION",
        r"^(?:(?:dime|decime|cuentame|contame|explicame|resumeme) (?:(?:brevemente|rapido"
        r"|en breve|en corto|en una linea) )?)?(?:que|cuales) (?:cosas )?(?:cambio|cambiaron"
        r"|cambia|toco|toca|introdujo|metio|modifico|arreglo|rompio)(?: exactamente)?"
        r" (?:el|ese|este|esa|esta|aquel|tu|su) (?:ultimo |penultimo |primer )?(?:commit|pr"
        r"|merge|diff|parche|rebase|pull request)\b|^(?:(?:dime|decime|cuentame|contame"
        r"|explicame) (?:(?:brevemente|rapido|en breve) )?)?(?:que|cuales) (?:cosas )?(?:cambio"
        r"|cambiaron|toco|introdujo|metio|modifico|arreglo|rompio) (?:[\w-]+ ){0,3}?(?:el|ese|este"
        r"|esa|esta|tu|su) (?:ultimo |penultimo )?(?:commit|pr|merge|diff|parche|rebase)\b",
        0.85,
    ),
    # how a thing was done, told me, is the design's question: "cuéntame cómo implementaste
    # la caché", "explícame cómo lo resolviste" (not how the work goes: "cuéntame cómo vas",
    # "cómo avanzaste hoy")
    Rule(
        "es-how-done-asked",
        "QUESTION",
        r"^(?:cuentame|contame|explicame|explicanos|dime|decime|cuentanos) (?:como|de que"
        r" (?:forma|manera)) (?:(?:lo|la|los|las) )?(?!(?:avanz|progres|termin|acab|lleg|qued)\w*"
        r"\b)(?:\w+(?:aste|iste)|has \w+(?:ado|ido))\b",
        0.85,
    ),
    # asked in my opinion, or where a thing comes from: "el N+1, ¿de dónde viene según tú?",
    # "¿qué harías tú, en tu opinión?"; "por q" (a clipped "por qué")
    Rule(
        "es-opinion-asked",
        "QUESTION",
        r"^(?=.*\b(?:segun tu|segun vos|en tu opinion|a tu juicio|a tu parecer"
        r"|que opinas)\b)(?:de donde|por que|que|como|cual|donde|cuanto)\b"
        r"|^(?:y )?(?:por q|porq|xq|x q)\b",
        0.85,
    ),
    # what an upgrade or a change would do, asked with the change as its subject: "¿actualizar
    # Django ahora rompe el cliente de pagos?", "¿migrar a Node 20 afecta a los workers?"
    Rule(
        "es-effect-asked",
        "QUESTION",
        r"^(?!.*\b(?:" + _OBJECT + r")\b)(?:y )?(?:si )?(?:actualizar|subir|migrar|cambiar|quitar"
        r"|borrar|renombrar|mover|activar|desactivar|bajar|hacer (?:el )?upgrade)\b.*"
        r"\b(?:rompe|romperia|rompera|afecta|afectaria|afectara|cambia|cambiaria|quiebra|jode"
        r"|fastidia|estropea)\b.*\?$",
        0.85,
    ),
    # whether the tool can run somewhere, asked: "¿se puede correr el comando de auditoría
    # fuera de un repo git?" (what the tool can do, not an audit asked)
    Rule(
        "es-tool-asked",
        "QUESTION",
        r"^(?:se puede|es posible|puedo|podemos|hay (?:forma|manera) de|se podria) (?:correr"
        r"|ejecutar|usar|lanzar|llamar) (?:el|la|los) (?:comando|herramienta|script|cli"
        r"|auditoria|audit|doctor)\b.*\b(?:fuera d|sin |dentro d|en otr|en cualquier|desde"
        r"|en windows|en mac|via |por ssh|en paralelo)",
        0.85,
    ),
    # a past protocol event audited: whether a lock was released, a worktree removed when the
    # agent paused or a session ended ("¿se liberó bien el lock cuando pausaste?", "¿el
    # worktree se borró al cerrar la sesión?"); a leftover artefact alive or dead ("¿el
    # worktree tmp-2 se usa todavía o está muerto?")
    Rule(
        "es-audit-past",
        "AUDIT",
        r"^(?!(?:por que|para que|como|donde)\b)(?=.*\b(?:" + _OBJECT + r")\b)(?:.*\b(?:se"
        r" (?:libero|liberaron|solto|borro|borraron|cerro|cerraron|limpio|limpiaron|creo|crearon"
        r"|renovo|registro|guardo)|(?:quedo|quedaron|fue|fueron) (?:liberad|borrad|cerrad|limpiad"
        r"|cread|registrad|renovad)[oa]s?)\b.*\b(?:cuando|al|tras|despues de)\b"
        r"|.*\b(?:se usa|sigue en uso|esta en uso|lo usas|sirve|sigue vivo|esta vivo)"
        r" (?:todavia |aun )?(?:o|u) (?:esta |ya )?(?:muert|abandonad|huerfan|se puede borrar"
        r"|lo borro|sobra|es basura)).*\?$",
        0.85,
    ),
    # a go word as a noun in a fact told: "la continuidad del servicio se cayó", "la
    # reanudación de las ventas fue lenta": a remark, never a go
    Rule(
        "es-go-noun-remark",
        "OTHER",
        r"^(?:la|el|nuestra|nuestro|esa|ese|esta|este) (?:continuidad|continuacion|reanudacion"
        r"|retomada|prosecucion)\b(?!.*\?$)",
        0.75,
    ),
)

# Issue #45's twenty-first round (docs/interruptions.md, "Twenty-first round: the rules (Spanish
# and Brazilian Portuguese)"): ``TWENTYFIRST``, spliced after ``TWENTIETH``. By kind: a go asked
# politely, on the same pattern or the rest, taken in charge, or with "now" at its end; a
# status asked as what time; a hold asked as a question; a go verb denied after "can"/"must";
# a feeling told; who holds the lock (with its typos); a doubt on a fact of the code.
_GO_VERB = r"(?:seguir|continuar|proseguir|retomar|reanudar)"
# what a go word may govern that is no go: a waiting, a stillness, an explaining ("seguir
# esperando", "seguir explicando")
_NOT_GO = (
    r"(?! (?:esperando|en espera|a la espera|aguardando|parad[oa]|quiet[oa]|en pausa"
    r"|sin hacer nada|\w+(?:ando|iendo))\b)"
)
# the pattern or the model the work follows: "ese mismo patrón", "el mismo esquema"
_SAME = (
    r"(?:ese|este|el|aquel) mismo (?:patron|cambio|enfoque|criterio|esquema|modelo|formato"
    r"|estilo|metodo|procedimiento|tratamiento)"
)

TWENTYFIRST = (
    # a hold asked as a question is a hold ("¿puedes parar un momento?", "¿te importaría
    # esperar a que pase el CI?"): never a go, nor a status asked (not "parar de preguntar",
    # a nudge to go on)
    Rule(
        "es-hold-asked",
        "OTHER",
        r"^(?:(?:y|oye|porfa|por favor|tu|vos|usted) )*(?:puedes|podrias|podes|puede|podria"
        r"|pueden|podrian|te importaria|le importaria|te importa|le importa|serias tan amable de"
        r"|seria tan amable de) (?:(?:un momento|un rato|un segundo|ya|ahora) )?(?:parar(?:te)?"
        r"|pararlo|detenerte|detener(?:te|lo)?|frenar|pausar(?:lo)?|esperar(?:te)?|aguardar"
        r"|quedarte quiet[oa]|(?:seguir|continuar) (?:esperando|en espera|a la espera"
        r"|aguardando|parad[oa]|quiet[oa]|en pausa))\b(?! de\b)",
        0.85,
    ),
    # a go verb denied after "can", "must" ("no puede proseguir", "no debemos reanudar"): no go
    Rule(
        "es-negated-can-go",
        "OTHER",
        r"\b(?:no|nunca|ni|jamas) (?:(?:se|lo|la|me|te) )?(?:puede|puedes|pueden|podemos|podra"
        r"|podras|podria|podrias|debe|debes|deben|debemos|deberia|deberias|conviene|vas a|va a"
        r"|vamos a|van a) (?:(?:ya|aun|todavia) )?(?:proseguir|prosigan|reanudar|retomar"
        r"|seguir|continuar|avanzar)\b",
        0.9,
    ),
    # a go asked politely is a go: "¿te importaría seguir con ello?", "¿le molestaría
    # continuar con la instalación?", "¿serías tan amable de seguir?" (not denied, not the
    # waiting or the explaining it governs; a later time is held by the go's time)
    Rule(
        "es-go-polite",
        "RESUMPTION",
        r"^(?:(?:y|oye|porfa|por favor|entonces|pues|tu|vos|usted) )*(?:(?:te|le|les|os)"
        r" (?:importaria|importa|molestaria|molesta)|(?:serias|seria|serian|sean) tan"
        r" amables? (?:de|como para)) (?:mucho )?" + _GO_VERB + r"(?:lo|la|le)?\b" + _NOT_GO,
        0.85,
    ),
    # the task's work on the same pattern, or done the same to the next part: "aplica ese
    # mismo patrón a los pedidos", "haz lo mismo con los reportes", "escribe los handlers
    # siguiendo el mismo esquema" (not denied nor asked)
    Rule(
        "es-go-same",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|jamas)\b)(?!.*\?$)(?:(?:y|ahora|entonces|pues|bueno|vale|ok"
        r"|venga|ya) )*(?=" + _WORK_GO + r"\b)\w+ (?:(?:ya|ahora|tambien|tu|vos|usted) )?(?:lo"
        r" mismo (?:con|para|en|a|al)\b|" + _SAME + r" (?:a|al|en|para|con)\b|.*\b(?:siguiendo"
        r"|con|segun|usando) " + _SAME + r"\b)",
        0.85,
    ),
    # the work ordered with "now" at its end: "implementa la paginación ya", "entonces monta
    # la caché ahora" (not denied, asked, nor "ya no")
    Rule(
        "es-go-now",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|jamas)\b)(?!.*\?$)(?:(?:y|ahora|entonces|pues|bueno|vale|ok"
        r"|venga) )*(?=" + _WORK_GO + r"\b)\w+ [^,;]*\b(?:ya|ahora|ahora mismo|ya mismo|de una"
        r" vez)[\s.!]*$",
        0.85,
    ),
    # a part of the work taken in charge: "deja la API y encárgate ahora del frontend",
    # "ocúpate de las notificaciones" (not "ocúpate de avisarme", an errand)
    Rule(
        "es-go-take-charge",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|jamas)\b)(?!.*\?$)(?:.*\by )?(?:(?:ahora|ya|entonces|pues|tu"
        r"|vos) )*(?:encargate|encarguese|ocupate|ocupese|hazte cargo|hagase cargo)"
        r" (?:(?:ahora|ya|tu|vos|usted) )?(?:de|del)\b(?! (?:avisar|decir|contar|informar"
        r"|esperar|parar|preguntar|llamar)\w*\b)",
        0.85,
    ),
    # a status asked as what time: "¿a qué hora crees que lo tienes?", "a qué hora terminas
    # eso" (not the time the code does a thing: "¿a qué hora corre el cron?")
    Rule(
        "es-status-what-time",
        "STATUS_REQUEST",
        r"^(?:y )?(?:a|para) (?:que|q) hora (?:(?:crees|calculas|piensas|estimas|dirias) que )?"
        r"(?:(?:me|nos|lo|la|los|las|ya|tu|vos|usted) )*(?:tienes|tendras|tendremos|tendre"
        r"|terminas|terminaras|acabas|acabaras|cierras|cerraras|entregas|entregaras|estara"
        r"|estaran|quedara|quedaran)\b",
        0.85,
    ),
    # how far the work got: "y el bot de reservas, ¿llegó al final?" (asked)
    Rule(
        "es-status-reached-end",
        "STATUS_REQUEST",
        r"^(?:y )?(?:ya )?(?:llego|llegaste|llegaron|ha llegado|has llegado|han llegado)"
        r" (?:ya )?(?:al|hasta el) (?:final|fin)\b.*\?$",
        0.85,
    ),
    # who holds the lock, its name mistyped: "¿quién tiene el lok ahora, tú?" (a check of the
    # protocol's state, as es-audit-ask reads it spelled right; not how the code locks)
    Rule(
        "es-audit-who-holds",
        "AUDIT",
        r"^(?:y )?(?:quien|de quien|a quien) (?:tiene|tien|tine|lleva|retiene|es|pertenece)"
        r" (?:(?:ahora|ahorita|ya) )?(?:el |la )?(?:lok|lokc|lcok|lck|loc)\b"
        r"(?!.*\b(?:codigo|app|aplicacion|redis|base de datos)\b)",
        0.85,
    ),
    # a feeling told asks nothing: "uf, algo no me cuadra", "mmm, esto me huele raro"
    Rule(
        "es-feeling-remark",
        "OTHER",
        r"^(?:(?:uf+|buf+|puf+|pf+|ay|uy|jo|vaya|m{2,}|hm+|bah|meh|agh|ufa) )*(?:algo|esto|eso"
        r"|aqui algo|hay algo que) (?:no me (?:cuadra|convence|gusta|encaja|cierra|huele bien)"
        r"|(?:me )?huele (?:raro|mal)|(?:me )?(?:parece|suena) raro)\b(?!.*\?$)",
        0.8,
    ),
    # a bare pronoun asked after what was asked is its tag, not a question of its own: "¿quién
    # tiene el lock ahora, tú?" (the clause before decides)
    Rule("es-pronoun-tag-remark", "OTHER", r"^(?:y )?(?:tu|vos|usted|el|ella|yo)\s*\?+$", 0.7),
    # a doubt on a fact of the code, asked: "¿estás seguro de que el BIC es opcional?"
    Rule(
        "es-doubt-fact",
        "QUESTION",
        r"^(?:(?:y|pero|oye) )*(?:estas|esta|estan|estamos) (?:totalmente |del todo )?segur[oa]s?"
        r" (?:de )?que\b",
        0.85,
    ),
)
