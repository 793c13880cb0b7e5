"""German rules of issue #45's sixteenth round (docs/interruptions.md, "Sixteenth round: the
rules (German, French)"), spliced into ``de.py``'s table before ``de-audit-state``: a question on
how the protocol works or on the app's own locks and sessions, one on the protocol's state now,
what is asked before a go, a go that re-enters or comes last, the work's progress told. Text as
in ``de.py`` (lowercased, umlauts folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# The task's own protocol objects, and the words that put them in the app's code instead (a
# user's session, a mutex, a React hook): those questions are the code's, not an audit.
_NOUN = r"(?:lock\w*|worktrees?|journal\w*|session\w*|sitzung(?:en)?|hooks?|task\.json|claims?)"
_APP = (
    r"(?:user\w*|nutzer\w*|benutzer\w*|kunde\w*|login|logout|browser|cookies?|mutex\w*|redis"
    r"|datenbank\w*|db|threads?|requests?|react|use\w+|webhooks?|komponente\w*|frontend|backend"
    r"|api|app|server\w*)"
)
# How the protocol works, not how it is now: "Ist der Lock automatisch freigegeben, wenn ...?"
_RULE = r"(?:automatisch|normalerweise|wenn|falls|sobald|jedem|jedes|standardmassig|immer)"
_STATE = (
    r"(?:noch (?:da|drin|aktiv|offen|registriert|vorhanden|gultig|gehalten|belegt|gesetzt"
    r"|installiert|am laufen|am leben)|freigegeben|registriert|vorhanden|existier\w*|korrupt"
    r"|beschadigt|gestorben|weg|aktiv|installiert|eingetragen|geloscht|abgelaufen|gehalten)"
)
# A property of a lock or a hook, how it is built: "Ist der Lock reentrant?"
_PROPERTY = (
    r"(?:reentrant|rekursiv|atomar|thread-?safe|append-only|persistent|exklusiv|blockierend"
    r"|verteilt|global|lokal)"
)
_FIRST = r"(?:erst|zuerst|vorher|erstmal|davor|vorab)"
_TELL = r"(?:sag|erklar|erzahl|verrat)\w* (?:mir |uns )?"
_NOT = r"(?!.*\b(?:nicht|nie|niemals|kein\w*)\b)"

RULES = (
    # a yes/no question on how a lock, session or hook works, or on the app's own ones: the code's
    # question, not an audit ("Ist der Lock reentrant?", "Ist die Session des Users nach dem
    # Logout noch aktiv?", "Ist der Lock automatisch freigegeben, wenn die Session abläuft?")
    Rule(
        "de-question-how",
        "QUESTION",
        r"^(?:ist|sind|la(?:e)?uft|la(?:e)?ufen|bleibt|bleiben|wird|werden|gibt|kann|darf)\b"
        rf"(?=.*\b{_NOUN}\b)(?=.*\b(?:{_APP}|{_RULE}|{_PROPERTY})\b).*\?$",
        0.85,
    ),
    # a yes/no or who question on a protocol object's state now: "Ist der Hook noch drin?",
    # "Hast du den Lock wieder freigegeben?", "Wer hält den Lock?" (not "Wann läuft der Lock
    # ab?", "Ist die Session des Users nach dem Logout noch aktiv?")
    Rule(
        "de-audit-now",
        "AUDIT",
        r"^(?:ist|sind|la(?:e)?uft|la(?:e)?ufen|hast|hat|habt|haben|gibt|existier\w*"
        r"|geh(?:o|oe)rt|steht)\b"
        rf"(?=.*\b{_NOUN}\b)(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b).*\b{_STATE}\b.*\?$"
        r"|^wer (?:halt|hat|besitzt|blockiert)\b(?!.*\b(?:mutex\w*|threads?)\b).*\b(?:lock\w*"
        r"|worktrees?|session|claims?)\b",
        0.85,
    ),
    # what is asked before a go: "(mach weiter,) aber zuerst prüf den Lock" (the check is asked)
    Rule(
        "de-audit-first",
        "AUDIT",
        rf"^(?:aber )?(?:{_FIRST} (?:mal |noch )?(?:pruf|check|kontrollier|verifizier|schau)\w*"
        rf"|(?:{_FIRST} )?{_TELL}(?:(?:mal|bitte|doch|noch) )*(?:{_FIRST} )?ob)\b"
        rf".*\b(?:{_NOUN}|task-?(?:status|zustand)|zustand)\b",
        0.85,
    ),
    # "(mach weiter,) aber sag mir vorher, warum ...", "zuerst sag mir, wie ...": the question
    Rule(
        "de-question-first",
        "QUESTION",
        rf"^(?:aber )?(?:{_FIRST} (?:mal )?{_TELL}|{_TELL}(?:(?:mal|bitte|doch|noch) )*{_FIRST}\b)"
        rf"(?!.*\bbescheid\b)(?!.*\bob\b.*\b{_NOUN}\b).*\b(?:warum|wieso|weshalb|wie|was|ob|welche\w*)\b"
        # why the code does what it does: "warum fängst du die Exception ab" (abfangen, a why)
        r"|^(?:warum|wieso|weshalb|wozu) \w+(?:st du|t ihr)\b",
        0.85,
    ),
    # re-entering where the work stopped: "da bitte wieder einsteigen", "steig beim Parser wieder
    # ein"; a go after a step, the go last: "(prüf das Journal,) danach bitte direkt weiter"
    Rule(
        "de-go-reenter",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:und |dann )?(?:genau )?(?:da|dort|an der stelle)"
        r"(?: (?:bitte|jetzt|dann|gern|gerne|einfach|direkt|gleich))* (?:wieder )?(?:einsteigen"
        r"|ansetzen|anknupfen|weitermachen)$|steig(?:t|e)?(?: (?:bitte|jetzt|dann|einfach|direkt"
        r"|gleich|mal))* (?:da|dort|wieder|bei|beim|am|an)\b.*\bein$"
        r"|(?:danach|dann|anschliessend|hinterher)(?: (?:bitte|direkt|gleich|sofort|einfach"
        r"|ruhig))* weiter\b)",
        0.85,
    ),
    # the work's progress: "Geht's voran mit X?", "erzähl mal was du bisher gemacht hast"
    Rule(
        "de-status-told",
        "STATUS_REQUEST",
        r"^(?:und )?geht(?:'?s| es) (?:(?:denn|gut|schon|jetzt) )?voran\b"
        r"|^(?:erzahl|sag|zeig)(?:e|t)? (?:mir |uns )?(?:(?:mal|doch|bitte|kurz) )*was (?:du|ihr)"
        r" (?:bisher|bis jetzt|so weit|soweit|schon|inzwischen|heute)\b.*\b(?:gemacht|geschafft"
        r"|erledigt|hinbekommen|umgesetzt|gebaut)\b",
        0.8,
    ),
)
