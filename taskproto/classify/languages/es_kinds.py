"""Spanish rules of issue #45's nineteenth round (docs/interruptions.md, "Nineteenth round: the
rules (Spanish and Brazilian Portuguese)"): ``NINETEENTH``, spliced after the eighteenth round's
``es_more.BY_KIND`` (why a protocol artefact is wrong, whether a commit went through a hook, a go
after a step, with "ya" or as agreed, no need to stop, what comes next, the app summed up, a
status needed, praise, understood, a permission, a tag); and the "si" of a condition
(``NOT_IF`` for the fillers, ``IF_HELD`` for the conditions) and the words a comma before does
not split (``JOINERS``), fields of ``es.py``'s table. Text as in ``es.py`` (lowercased, accents
folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# the protocol's objects
_ASK_OBJECT = (
    r"locks?|lockfiles?|claims?|sesion(?:es)?|heartbeats?|journal|worktrees?|hooks?|task record"
    r"|registro|estado de la tarea|task\.json|pid"
)

# A tú, vos or usted imperative of the task's own work (not of a change asked: "saca", "mueve")
_WORK_GO = (
    r"(?:implementa|implemente|haz|hace|haga|monta|monte|construye|construi|construya|integra"
    r"|integre|desarrolla|desarrolle|programa|arma|procesa|procese|migra|migre|termina|termine"
    r"|acaba|acabe|completa|complete|anade|agrega|agregue|crea|cree|mete|pon|pone|ponga"
    r"|prepara|prepare|escribe|escribi|escriba|aplica|aplique|sube|subi|suba|conecta|configura"
    r"|despliega|importa|importe|traduce|convierte|genera|genere|carga|calcula|calcule)"
)
# as agreed, as planned: "como quedamos", "tal como lo hablamos", "según el plan"
_AS_AGREED = (
    r"(?:(?:tal )?(?:y )?como (?:lo )?(?:quedamos|acordamos|hablamos|dijimos|planeamos|pactamos"
    r"|habiamos (?:quedado|acordado|hablado|dicho)|esta(?:ba)? (?:en el plan|previsto|planeado"
    r"|acordado|hablado))|segun (?:el plan|lo (?:acordado|hablado|planeado|previsto)"
    r"|quedamos|acordamos)|conforme a lo (?:acordado|hablado|planeado))"
)
# a state of a protocol artefact that should not be: opened and never closed, orphaned, stuck
_ANOMALY = (
    r"sin (?:su |el |la |ningun |ninguna )?(?:cierre|cerrar|liberar|liberarse|fin|final|dueno"
    r"|owner|heartbeat|commit)|huerfan\w*|colgad\w*|duplicad\w*|desincronizad\w*|no (?:coincide"
    r"|cuadra|se (?:libero|cerro|borro|limpio)|aparece|esta en el journal)|(?:sigue|siguen)"
    r" (?:abiert|activ|viv|ahi|a (?:mi|tu|su) nombre|bloquead|tomad)\w*|atascad\w*|corrupt\w*"
    r"|a medias|vaci[oa]s?|(?:hay|tiene|tienen|aparecen) (?:dos|tres|varios|varias) (?:locks?"
    r"|sesion(?:es)?|worktrees?|claims?|entradas)"
)

NINETEENTH = (
    # why a protocol artefact is in a state it should not be is an audit, not how it works:
    # "¿por qué el journal tiene una sesión abierta sin su cierre?", "por qué hay un worktree
    # huérfano?", "¿por qué el lock sigue a mi nombre?" (not "¿por qué el journal guarda cada
    # transición?", es-question-how's)
    Rule(
        "es-audit-why",
        "AUDIT",
        r"^(?:y )?por que\b(?=.*\b(?:" + _ASK_OBJECT + r")\b).*\b(?:" + _ANOMALY + r")",
        0.85,
    ),
    # whether a commit or push went through the protocol's git hooks: "¿el último commit pasó
    # por el hook de lint?", "¿se saltó el pre-commit?", "¿corrió el hook en el push?" (not
    # how: "¿cómo se salta el hook?", es-question's)
    Rule(
        "es-audit-hook-ran",
        "AUDIT",
        r"^(?!(?:por que|para que|como|cuando|donde)\b)(?:.*\b(?:paso|pasaron|pasa) por (?:el|los"
        r"|algun) (?:[\w-]+ )?hooks?\b|.*\b(?:se )?(?:salto|saltaron|salteo|ejecuto|ejecutaron"
        r"|corrio|corrieron|disparo|disparon|salto) (?:el |los )?(?:[\w-]+ )?hooks?\b|.*\bhooks?\b"
        r".*\b(?:se )?(?:salto|saltaron|ejecuto|corrio|disparo|fallo|paso)\b).*\?$",
        0.85,
    ),
    # whether the task is marked or recorded right, to be looked at: "¿puedes mirar si la tarea
    # quedó marcada como interrumpida?", "revisa si la tarea figura como completada"
    Rule(
        "es-audit-marked",
        "AUDIT",
        r"^(?:(?:puedes|podes|podrias|me puedes) )?(?:mira|mirar|revisa|revisar|comprueba|comprobar"
        r"|verifica|verificar|fijate|chequea|chequear|confirma|confirmar|checa) si (?:la|esta|esa)"
        r" (?:tarea|task)\b.*\b(?:marcad[oa]|registrad[oa]|figura|aparece|consta|guardad[oa])\b",
        0.85,
    ),
    # a go after a step, said as what the agent does next: "sube a staging y después sigues con
    # los menús", "y luego te pones con los reportes", "mergea el PR y después agarra el
    # ticket de login" (the clause after the connective; not asked, not denied)
    Rule(
        "es-go-next",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni)\b)(?!.*\?$)(?:y )?(?:despues|luego|ya|ahora|entonces)"
        r" (?:(?:sigues|seguis|continuas|prosigues|retomas|arrancas|te pones|te metes|vas|pasas"
        r"|agarras"
        r"|atacas) (?:con|a|al|por)\b|(?:agarra|agarras|coge|pilla|engancha|toma|ataca)"
        r" (?:el|la|los|las) (?:[\w-]+ )?(?:ticket|tarea|issue|historia|siguiente|proxim[oa]"
        r"|card|story|bug|pendientes?)\b)",
        0.85,
    ),
    # the task's own work ordered with "ya" (now) or "as agreed": "implementa ya el reembolso",
    # "monta la cuota diaria, como lo hablamos" (the comma before "como …" does not split:
    # ``es.py``'s joiners), "haz la integración tal como acordamos"; the rest ordered now
    # after news ("perfecto, ahora procesa el resto del libro"), every one of them without
    # asking ("haz todas las claves sin preguntar archivo por archivo"). Not denied, asked,
    # put off ("… mañana", held by the go's time), nor a change ("saca esa lógica al service")
    Rule(
        "es-go-work",
        "RESUMPTION",
        r"^(?!.*\b(?:no|nunca|ni|jamas)\b)(?!.*\?$)(?:(?:y|ahora|entonces|pues|bueno|vale|ok"
        r"|venga) )*(?=" + _WORK_GO + r"\b)\w+ (?:(?:ya|ahora) (?!mismo\b)"
        r"|.*[\s,]" + _AS_AGREED + r"[\s.!]*$|(?:ya |ahora |tambien )?(?:(?:todo|toda) )?(?:el|lo)"
        r" (?:resto|demas)\b|.*\bsin (?:preguntar(?:me)?|consultar(?:me)?"
        r"|pedir(?:me)? permiso|esperar(?:me)?)\b)",
        0.85,
    ),
    # no need to stop: a go ("no hace falta que pares, va bien"; English's "no need to stop")
    Rule(
        "es-no-need-stop",
        "RESUMPTION",
        r"^no (?:hace falta|es necesario|tienes por que|tenes que|tienes que|hay que) (?:que )?"
        r"(?:te )?(?:pares|parar|detengas|detenerte|frenes|frenar|pauses|pausar)\b(?!.*\?$)",
        0.85,
    ),
    # the formal "usted puede proseguir", after news: "así que puede proseguir"
    Rule(
        "es-go-formal",
        "RESUMPTION",
        r"^(?!.*\?$)(?:(?:asi que|entonces|ya|ahora|pues) )*(?:usted )?(?:ya )?(?:puede|pueden)"
        r" (?:proseguir|continuar|seguir con|retomar|reanudar|avanzar con)\b",
        0.85,
    ),
    # what comes next, after a step named: "después de los seeds, ¿qué viene?", "¿qué toca
    # después del login?" (es-deferred leaves a clause asking it)
    Rule(
        "es-status-next",
        "STATUS_REQUEST",
        r"^(?:despues|luego|tras)\b.*\b(?:que|cual) (?:viene|sigue|toca|va)\s*\?$"
        r"|^(?:que|cual) (?:viene|toca) (?:despues|luego|ahora|tras)\b.*\?$",
        0.85,
    ),
    # the code's design summed up for me is an explanation asked ("resúmeme la arquitectura
    # del backend en dos líneas", "¿me resumes cómo funciona el checkout?"), not where the work
    # stands (es-status-summary), nor a log or a text summed up (an instruction: "resúmeme el
    # log de errores en cinco puntos"), nor a summary written into a file
    Rule(
        "es-summary-question",
        "QUESTION",
        r"^(?:me |nos )?(?:resumeme|resumenos|resumime|resumes|resumis|me resume|me resumi|resume"
        r" para mi|resume pa mi)\b(?: (?:en \w+ (?:lineas?|frases?|palabras|puntos)|rapido"
        r"|brevemente))? (?:como (?:funciona|funcionan|esta (?:montad|hech|armad|pensad|disenad)"
        r"|se (?:hace|calcula|organiza|reparte))|(?:el|la|los|las|tu|su) (?:arquitectura|diseno"
        r"|flujo|funcionamiento|logica|estructura|patron|algoritmo|idea|enfoque|diferencia"
        r"|modelo de datos|esquema)\b)(?!.*\b(?:en|al|a la) (?:el |la )?(?:readme|docs?|wiki"
        r"|changelog|pr|commit|comentario)\b)",
        0.85,
    ),
    # a status asked for as an order: "mándame un status actualizado", "¿me pasas un resumen de
    # cómo va?" (as a need, "necesito saber en qué punto está", es-wonder-status reads)
    Rule(
        "es-status-order",
        "STATUS_REQUEST",
        r"^(?:me )?(?:enviame|envias|mandame|mandas|pasame|pasas|manda|envia) (?:(?:un|una|el|tu)"
        r" )?(?:status|estado|update|reporte|resumen|informe)\b(?! (?:del?|de la) (?:app|sistema"
        r"|codigo|servidor|base|api)\b)",
        0.85,
    ),
    # a bare reaction asks for nothing and holds nothing: "anda, mira tú", "vaya", "ostras"
    # (not praise before an order, "qué bien quedó, ahora haz X": the order may be a go only
    # the model reads, which a remark would keep it from)
    Rule(
        "es-reaction-remark",
        "OTHER",
        r"^(?:anda|vaya|hala|ostras|caramba|andale|toma ya)(?: (?:mira tu|mira vos|tu|vos|ya"
        r"|nomas))?[^\w]*$",
        0.7,
    ),
    # understood, said: "ya, ya me quedó claro lo del IVA", "vale, lo pillé", "entendido lo de
    # los impuestos" (not "no me quedó claro", a question's)
    Rule(
        "es-understood-remark",
        "OTHER",
        r"^(?:(?:ya|vale|ok|si|bueno|venga) )*(?:me (?:quedo|ha quedado|queda) (?:clar[oa]|clarisim"
        r"[oa])|(?:ya )?lo (?:pille|capte|entendi|cache)|ya (?:entendi|capte|pille|cache)"
        r"|entendido lo de)\b(?!.*\?$)",
        0.7,
    ),
    # a permission that is no go: "puedes elegir la librería de fechas que prefieras",
    # "puedes ignorar los warnings del linter" (not with a go word in it)
    Rule(
        "es-permission-remark",
        "OTHER",
        r"^(?!.*\b(?:sigue|segui|continua|prosigue|retoma|adelante|dale)\b)(?!.*\?$)(?:puedes"
        r"|podes) (?:elegir|escoger|usar|ignorar|decidir|cambiar|renombrar|saltarte|omitir|quitar"
        r"|borrar) ",
        0.7,
    ),
)


# "si" (if) opening a condition, not the "sí" (yes) a filler strips: "si el profe aprueba, ya
# puedes seguir", "si pasa el build, sigue" (``es.py``'s fillers leave it, its conditions read it)
_IF_WHO = (
    r"(?:el|la|los|las|un|una|nadie|alguien|tu|su|sus|mi|mis|pasa|pasan|sale|salen|aprueba"
    r"|aprueban|funciona|funcionan|compila|compilan|llega|llegan|da|dan|responde|dice|confirma"
    r"|acepta|firma)\b"
)
NOT_IF = rf"(?! {_IF_WHO})"
# opening the clause, or after the go's verb ("sigue con el deploy si el build pasa"): not the
# "whether" of a check or a doubt ("mira si el lock sigue", "no sé si el test pasa"), nor the
# agent's own check ("si todo está bien, continúa")
IF_HELD = (
    r"|^(?:si " + _IF_WHO + r"|en caso de que\b)"
    # (the go's verb in a lookahead: a go's "sigue" alone compiles nothing more)
    r"|(?=.*\b(?:sigue|segui|continua|continue|prosigue|seguir|continuar|retoma|procede|proceed"
    # on to a step ("avanza al paso 5 si los tests pasan": the twenty-third round's)
    r"|avanza|avance|avancen|pasa|pase|pasen|salta|salte)"
    r" (?:[\w-]+ ){0,5}?si " + _IF_WHO + r").*\bsi " + _IF_WHO
)
# a comma before these does not split: "monta la cuota, como lo hablamos" (the start of the
# go's words, not asked: "sigue, ¿como quedamos?" still asks), "commits en inglés, ¿vale?" (a
# tag, read by ``LAST``; the tags a filler strips, so a go before one is a go as before)
_TAGS = r"(?:vale|ok|okey|de acuerdo|entendido)"
JOINERS = (
    r"(?:(?:tal )?(?:y )?como (?:lo )?(?:quedamos|acordamos|hablamos|dijimos|planeamos|pactamos"
    r"|habiamos|esta(?:ba)? (?:en el plan|previsto|planeado|acordado))|segun (?:el plan|lo"
    r"|quedamos|acordamos)|conforme a lo)(?![^,.;!?]*\?)|" + _TAGS + r"(?=\s*\?)"
    # "…, ¿qué le digo?" after a question passed on: its tag (es_twentysecond.py)
    r"|(?:y )?(?:que|q) (?:le|les) (?:digo|cuento|respondo|contesto|decimos|contamos)(?=\s*\?*$)"
)

# Read after every rule of ``es.py``'s table (its ``LAST``): a tag after an instruction, joined
# to it, asks nothing ("a partir de ahora, commits en inglés, ¿vale?", "¿estamos?"), where no
# rule read the clause before it ("el build pasó, ¿vale?" stays a status request; nor after
# "ya" or a question passed on: "el deploy ya salió, ¿vale?"); a bare "¿vale?" still asks
LAST = (
    Rule(
        "es-tag-remark",
        "OTHER",
        r"^(?![^?]*\b(?:ya|pregunto|quiere saber)\b)[^?]*, " + _TAGS + r"\s*\?+$",
        0.7,
    ),
)
