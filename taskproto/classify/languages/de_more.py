"""German rules of issue #45's sixteenth round (docs/interruptions.md, "Sixteenth round: the
rules (German, French)"), spliced into ``de.py``'s table before ``de-audit-state``: a question on
how the protocol works or on the app's own locks and sessions, one on the protocol's state now,
what is asked before a go, a go that re-enters or comes last, the work's progress told. Text as
in ``de.py`` (lowercased, umlauts folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.de_kinds import LATE, NINETEENTH
from taskproto.classify.languages.de_kinds import STEP as STEP  # de.py's later
from taskproto.classify.languages.de_twentieth import TWENTIETH, TWENTYFIRST, TWENTYFIRST_LATE
from taskproto.classify.languages.de_twentysecond import JOINERS as JOINERS  # de.py's joiners
from taskproto.classify.languages.de_twentysecond import SPAN as SPAN  # de.py's later
from taskproto.classify.languages.de_twentysecond import TAKEN_BACK as TAKEN_BACK  # de.py's
from taskproto.classify.languages.de_twentysecond import (
    TWENTYSECOND,
    TWENTYTHIRD,
    TWENTYTHIRD_LATE,
)

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
    r"|beschadigt|gestorben|weg|aktiv|installiert|eingetragen|geloscht|abgelaufen|gehalten"
    # a session new or taken over ("Ist die Session neu oder wiederverwendet?")
    r"|neu|frisch|wiederverwendet|recycelt|fortgesetzt|ubernommen|uebernommen)"
)
# A property of a lock or a hook, how it is built: "Ist der Lock reentrant?"
_PROPERTY = (
    r"(?:reentrant|rekursiv|atomar|thread-?safe|append-only|persistent|exklusiv|blockierend"
    r"|verteilt|global|lokal)"
)
_FIRST = r"(?:erst|zuerst|vorher|erstmal|davor|vorab)"
_TELL = r"(?:sag|erklar|erzahl|verrat)\w* (?:mir |uns )?"
_NOT = r"(?!.*\b(?:nicht|nie|niemals|kein\w*)\b)"

# Issue #45's seventeenth round (docs/interruptions.md, "Seventeenth round: the rules (German and
# French)"): each rule written for a kind, from messages of the round's own, not a batch's wording.
_NOW = r"(?:gerade|grade|jetzt|aktuell|momentan|derzeit|noch|im moment|zur zeit|heute)"
# a state or correctness asked of a protocol object in a terse question ("Hooks aktiv?")
_OK = (
    r"(?:aktiv|inaktiv|da|drin|weg|frei|belegt|sauber|konsistent|gultig|plausibel|korrekt|intakt"
    r"|aktuell|veraltet|stale|verwaist|tot|installiert|registriert|abgelaufen|gesetzt|an|aus)"
)
_DONE = (
    r"(?:fertigstellen|fertig ?(?:machen|bauen|schreiben|kriegen)|abschliessen|umsetzen"
    r"|implementieren|einbauen|angehen|weiterbauen|weiterschreiben"
    r"|zu ende (?:bringen|bauen|machen|schreiben|fuhren|fuehren))"
)
_CHECKED = (
    r"(?:anschauen|ansehen|angucken|prufen|pruefen|uberprufen|ueberpruefen|checken"
    r"|kontrollieren|verifizieren|nachsehen|nachschauen|validieren)"
)

# Issue #45's eighteenth round (docs/interruptions.md, "Eighteenth round: the rules (German and
# French)"): the kinds the twentieth batch missed, each rule read from messages of the round's own.
# A question said as wondering, doubt or not understanding: "ich frag mich, ob …", "mir ist
# nicht klar", "keine Ahnung, ob …", "mich würde interessieren, ob …" (the comma before "ob"
# does not cut the clause: de.py's joiners)
_WONDER = (
    r"(?:(?:ich )?frag(?:e)? mich(?: (?:gerade|grad|grade|echt|ehrlich gesagt|schon|manchmal"
    r"|wirklich|eben))?|mich (?:wurde|wuerde|wurd) (?:mal |echt |schon )?interessieren"
    r"|(?:ich )?(?:wusste|wuesste|wurde|wuerde|wurd|mochte|moechte) (?:gern|gerne) (?:mal )?"
    r"(?:wissen|verstehen|nachvollziehen)|(?:mir|uns) (?:ist|wird) (?:noch |immer noch |echt )?"
    r"(?:nicht (?:ganz |so |wirklich )?klar|unklar|schleierhaft)"
    r"|(?:ich )?(?:versteh|kapier|check|raff|blick)(?:e)? (?:es |das )?(?:noch |immer noch |echt )?"
    r"(?:nicht|nich|net)(?: (?:ganz|so ganz|so recht|wirklich))?"
    r"|keine ahnung|(?:ich )?(?:bin|war) mir (?:noch |echt )?(?:nicht|unsicher|net)"
    r"(?: (?:ganz|so|wirklich))?(?: sicher)?|(?:ich )?(?:weiss|weis) (?:echt |gar |noch )?"
    r"(?:nicht|nich|net)(?: so recht| genau)?)"
)
# what is wondered: whether, why, how, what … (not a wish of ours, a hold or a go: "ich frag
# mich, ob wir hier nicht lieber aufhören sollten")
_WHAT = (
    r",? (?:ob|wie|was|warum|wieso|weshalb|wozu|wofur|welche[rsmn]?|wo|wann|wer|wem"
    # something wondered after it ("…, keine Ahnung warum." after a bug told is a remark), not
    # the user's own liking ("ob mir der Ansatz gefällt")
    r"|inwiefern|inwieweit) (?!.*\b(?:ich|mir)\b)(?=\w)"
    r"(?!.*\b(?:soll\w*|konnt\w*|muss\w*|woll\w*|aufhoren|pausieren"
    r"|anhalten|warten|stoppen|weiter\w*|fortfahren|fortsetzen|loslegen|morgen|spater"
    r"|nachher)\b)(?!.*\bwir\b.*\bnicht\b)"
)
_PROGRESS = (
    r"(?:(?:schon|bereits|inzwischen|mittlerweile|endlich) (?:fertig|durch|erledigt|gemerged?t?"
    r"|gepusht|deployed|grun|gruen|drin|live|umgesetzt|gebaut|gelaufen)|weit (?:du|ihr|wir|es"
    r"|der|die|das|bist|seid|ist)|lange (?:du |ihr )?noch|(?:du|ihr) (?:[\w.-]+ ){0,4}?fertig)"
)
# a go in clipped or loan form, said alone: "na dann mal hopp", "hopp hopp", "zack zack"
_SLANG = (
    r"(?:hopp(?: hopp)*|husch(?: husch)?|zack(?: zack)?|yalla|avanti|go(?: go)*|let'?s go"
    r"|ab dafur|ab die post|rin in die kartoffeln|auf auf)"
)
# how the protocol finds a thing out ("Wie stellt das Audit fest, dass ein Worktree verwaist
# ist?", "Woran erkennt der Doctor einen toten Lock?"): how it works, no check of it
_DETECT = (
    r"(?:erkenn\w*|stell(?:t|en) (?:[\w.-]+ ){0,5}?fest|feststell\w*|merk(?:t|en)|entscheid\w*"
    r"|bestimm(?:t|en)|weiss|erfahr\w*|ermittel\w*|unterscheid\w*)"
)
# the work's verbs with their object, the go last ("importier sie", "bau es ein", "setz es um")
_WORK_IT = (
    r"(?:importier|integrier|implementier|bau|spiel|roll|pfleg)(?:e|t)? (?:sie|es|ihn|die|das"
    r"|den)(?: (?:jetzt|bitte|gleich|dann|direkt|ruhig|auch|noch))* (?:ein|aus|mit ein)"
)
EIGHTEENTH = (
    # a separable go verb denied inside it ("setz die Arbeit an der Suche nicht fort", "fahr
    # damit bloß nicht fort"): a negated go, which the model may not make a go (languages/firm.py)
    Rule(
        "de-go-denied",
        "OTHER",
        r"\b(?:setz|fahr)(?:e|t)? (?:[\w'.-]+ ){0,6}?(?:nicht|nie|niemals|keinesfalls|bloss nicht)"
        r" (?:[\w'.-]+ ){0,2}?fort\b",
        0.9,
    ),
    # a go in slang, alone in its clause ("na dann mal hopp", "zack zack", "yalla"), and the work's
    # verb with its object ("Die Daten sind da, importier sie.", "Das Design passt, bau es ein.")
    Rule(
        "de-go-slang",
        "RESUMPTION",
        rf"^(?!.*\?$)(?:(?:na|also|dann|jetzt|mal|und|so|ok|gut) )*{_SLANG}\W*$"
        rf"|^{_NOT}(?!.*\?$)(?:(?:dann|also|jetzt|bitte|und) )*{_WORK_IT}\W*$",
        0.85,
    ),
    # going on explaining is a question, not the task's go ("mach mit der Erklärung weiter",
    # "erzähl weiter, wie …", "fahr mit deiner Erklärung fort"); not negated
    Rule(
        "de-explain-question",
        "QUESTION",
        rf"^{_NOT}(?!.*\b(?:genug|reicht|gut sein|danke|passt|lass|morgen|spater|nachher)\b)"
        r"(?:.*\b(?:mit|bei)"
        r" (?:der|deiner|ihrer|eurer|dieser|den|deinen) (?:erklarung|erklaerung|erlauterung"
        r"|erlaeuterung|ausfuhrung|ausfuehrung)\w*(?: (?!(?:und|aber|dann)\b)[\w.-]+){0,4}?"
        r" (?:weiter|fort)\b|.*\b(?:weiter|fort\w*) mit (?:der|deiner|ihrer|eurer|dieser|den"
        r"|deinen) (?:erklarung|erklaerung|erlauterung|ausfuhrung)"
        r"|.*\b(?:die|deine|ihre) (?:erklarung|erklaerung|erlauterung|ausfuhrung)\w*"
        r"(?: [\w.-]+){0,3}? fort\b"
        r"|.*\bweiter ?(?:erklaren|erklaeren|erzahlen|erzaehlen|ausfuhren|erlautern)\b"
        r"|(?:erklar|erklaer|erzahl|erzaehl|erlauter|erlaeuter)(?:e|t|en)? (?:(?:mal|bitte|doch"
        r"|ruhig|gern|du) )*(?:[\w.-]+ ){0,3}?weiter\b)",
        0.85,
    ),
    # which worktree, lock or session belongs to which task ("Welcher Worktree gehört zum Task
    # X?", "Welcher Worktree ist dem Task X zugeordnet?"): the protocol's state, an audit
    Rule(
        "de-audit-belongs",
        "AUDIT",
        rf"^(?:zu )?(?:welche[rsmn]?|wem|wessen|wer)\b(?=.*\b{_NOUN}\b)(?!.*\b{_APP}\b)"
        r"(?=.*\b(?:task\w*|aufgabe\w*|ticket\w*|agent\w*|branch\w*)\b)"
        rf"(?!.*\b{_RULE}\b).*\b(?:gehort|gehoert|gehoren|gehoeren|zugeordnet|zugewiesen"
        r"|verknupft|verknuepft|gebunden|hangt|haengt)\b",
        0.85,
    ),
    # what the journal records, asked ("Ist im Journal vermerkt, dass du X zurückgerollt hast?",
    # "Steht im Journal, dass …?"): the protocol's state, an audit
    Rule(
        "de-audit-journal",
        "AUDIT",
        r"^(?=.*\?$)(?!(?:warum|wieso|weshalb|wie|wann|wozu)\b)(?:.*\b(?:im|ins|in dem) journal\b"
        r".*\b(?:vermerkt|eingetragen|notiert|verzeichnet|festgehalten|protokolliert|erfasst"
        r"|geloggt)\b|.*\b(?:vermerkt|eingetragen|notiert|verzeichnet|festgehalten|protokolliert"
        r"|erfasst|geloggt) (?:im|ins) journal\b|steht (?:[\w.-]+ ){0,3}?im journal\b)",
        0.85,
    ),
    # how the protocol finds a thing out: a question ("Wie stellt das Audit fest, dass …?")
    Rule(
        "de-question-detect",
        "QUESTION",
        r"^(?:wie|woran|wodurch|womit|nach welche[rmn]? (?:regel|kriterien|logik))\b"
        rf"(?!.*\b(?:gerade|grade|jetzt|aktuell|momentan)\b).*\b{_DETECT}\b",
        0.85,
    ),
    # a wondering about the protocol's present state is an audit ("ich frag mich, ob der Lock
    # überhaupt noch gehalten wird"), about where the work stands a status request ("mich
    # würde interessieren, ob die Migration schon durch ist"), about the code a question
    Rule(
        "de-wonder-audit",
        "AUDIT",
        rf"^{_WONDER}{_WHAT}(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b)(?=.*\b{_NOUN}\b)"
        r"(?<!warum)(?<!wieso)(?<!weshalb)(?<!\bwie)"
        rf".*\b(?:{_OK}|{_NOW}|gehalten|halt|haelt"
        r"|gehort|gehoert|zugeordnet|vermerkt|eingetragen|existier\w*|freigegeben|gelaufen)\b",
        0.85,
    ),
    Rule(
        "de-wonder-status",
        "STATUS_REQUEST",
        rf"^{_WONDER}{_WHAT}(?!.*\b{_NOUN}\b).*\b{_PROGRESS}",
        0.85,
    ),
    Rule(
        "de-wonder-question",
        "QUESTION",
        rf"^{_WONDER}{_WHAT}",
        0.85,
    ),
    Rule(
        "de-wonder-alone-question",
        "QUESTION",
        # said alone, the clause after it says what ("mir ist nicht klar, was X bringt"); not
        # "keine Ahnung", "weiß nicht", "bin mir nicht sicher" alone: an answer
        rf"^{_WONDER}(?<!ahnung)(?<!sicher)(?<!nicht)(?<!nich)(?<!net)(?<!genau)"
        r"(?<!so recht)\??$",
        0.85,
    ),
    # a person who might hold it, asked after who ("Wer hält den Lock, du oder der Cronjob?"):
    # it completes the question before, which decides
    Rule(
        "de-alternative-remark",
        "OTHER",
        r"^(?:du|ich|wir|ihr|er|sie|jemand|niemand|dein\w*|mein\w*) oder (?:der|die|das|ein\w*"
        r"|jemand|irgendein\w*|mein\w*|dein\w*|unser\w*)\b.*\?$",
        0.7,
    ),
    # an observation of the user's own setup ("bei mir laufen die Tests durch"): asks nothing;
    # "weiter" or a go beside it is read by the go rules
    Rule(
        "de-own-remark",
        "OTHER",
        rf"^(?!.*\?$)(?!.*\b{_NOUN}\b)(?!.*\b(?:weiter\w*|fortfahren|fortsetzen|los|loslegen|go)\b)"
        r"(?:.*\b)?(?:bei mir"
        r"|lokal bei mir|auf meinem (?:rechner|laptop|mac|system|handy)|bei mir lokal)\b",
        0.7,
    ),
    # "keep using it": a go word that means still ("benutz bitte weiter die alte API"), not the
    # task's go; a remark, so it does not take back a go before it
    Rule(
        "de-keep-remark",
        "OTHER",
        r"^(?:benutz|benutze|nutz|nutze|verwend|verwende|gebrauch|behalt|behalte|ruf)(?:t)?\b"
        r"(?: [\w'.-]+){0,3}? weiter\b(?!\w)",
        0.7,
    ),
)

FIRST = (
    # a question on a protocol object's present state, by who, which, how many or where and a
    # now ("Wie viele Worktrees hängen gerade rum?", "Wem gehört der Lock jetzt?"); then a terse
    # one ("Hooks aktiv?", "lock noch da?"), or the object checked, the verb last ("Lock-Datei
    # anschauen"); not how it works, not the app's own ("Wie viele Sessions hat ein User?")
    Rule(
        "de-audit-which",
        "AUDIT",
        r"^(?:wie ?viele?|welche[rsmn]?|wer|wem|wessen|wo)\b(?<!^wer)(?=.*\b" + _NOUN + r"\b)"
        rf"(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b)(?!.*\b(?:kann|konnen|darf|durfen|soll|sollen"
        rf"|max\w*|hochstens|man)\b).*\b{_NOW}\b"
        # "wer hält / hat / besitzt den Lock" is de-audit-now's (de_more.RULES)
        r"|^wer\b(?! (?:halt|hat|besitzt|blockiert)\b)(?=.*\b" + _NOUN + r"\b)"
        rf"(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b).*\b{_NOW}\b",
        0.85,
    ),
    Rule(
        "de-audit-terse",
        "AUDIT",
        r"^(?:(?:der|die|das|alle|unser\w*|dein\w*|eure?\w*) )?(?:[\w.-]+-)?"
        + _NOUN
        + rf"[\w.-]*(?: (?:noch|schon|jetzt|gerade|grade|alle|wieder|uberhaupt))* {_OK}\s*\?$"
        r"|^(?:(?:erst|zuerst|mal|bitte|kurz|noch|einmal) )*(?:(?:den|die|das|alle|deine|unsere"
        r"|eure) )?(?:[\w.-]+-)?" + _NOUN + rf"[\w.-]*(?: [\w.-]+){{0,4}}? {_CHECKED}\W*$",
        0.85,
    ),
    *EIGHTEENTH,  # the eighteenth round's
    *NINETEENTH,  # the nineteenth round's (de_kinds.py)
    *TWENTIETH,  # the twentieth round's (de_twentieth.py)
    *TWENTYFIRST,  # the twenty-first round's (de_twentieth.py)
    *TWENTYSECOND,  # the twenty-second round's (de_twentysecond.py)
    *TWENTYTHIRD,  # the twenty-third round's (de_twentysecond.py)
)
# spliced after de_more.RULES' own
SEVENTEENTH = (
    # what is left, what works yet, of the work: "Können Sie mir sagen, welche Schritte noch
    # ausstehen?", "Welche Teile laufen schon und welche nicht?" (not "Welche Tests laufen schon
    # bei jedem Commit?": how the code is set up)
    Rule(
        "de-status-left",
        "STATUS_REQUEST",
        r"^(?:welche[rsmn]?|was|wie ?viele?)\b(?: [\w.-]+){0,6}? (?:noch (?:aus(?:steht|stehen)"
        r"|offen (?:ist|sind)|fehlt|fehlen|zu tun(?: ist)?|ubrig|uebrig|zu erledigen(?: ist)?"
        r"|nicht (?:fertig|erledigt|umgesetzt|gemacht|gebaut) (?:ist|sind))|(?:steht|stehen)"
        r" noch aus|(?:schon|bereits) (?:lauf(?:t|en)|funktionier(?:t|en)|geh(?:t|en)|klapp(?:t|en)"
        r"|fertig (?:ist|sind)|erledigt (?:ist|sind)|umgesetzt (?:ist|sind))|(?:lauf(?:t|en)"
        r"|funktionier(?:t|en)|geh(?:t|en)|klapp(?:t|en)|fertig|erledigt) (?:schon|bereits))"
        r"(?: und (?:welche|was)(?: [\w.-]+){0,3}? nicht)?\s*\??$",
        0.85,
    ),
    # a go handed over once a wait is lifted ("(Die Freigabe ist da,) du bist dran", "Bahn frei",
    # "kannst weiterlaufen lassen", "das Ticket gehört jetzt dir"), a go after an arrow ("Tests
    # grün → go"); not negated, not asked (a time or a condition holds it: later, conditions)
    Rule(
        "de-go-handover",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:jetzt|dann|also|nun|ab jetzt|ab hier|und) )*(?:(?:du )?bist"
        r" (?:(?:jetzt|wieder|dann|ab jetzt|du) )*dran|dein (?:zug|einsatz)"
        r"|(?:freie bahn|bahn frei)(?: fur dich)?"
        r"|(?:du )?(?:kannst|darfst) (?:(?:jetzt|wieder|dann|ruhig|es|ihn) )*"
        r"(?:ran|weiterlaufen(?: lassen)?)|(?:(?:es|das|der|die) (?:[\w.-]+ )?)?gehort"
        r" (?:jetzt |wieder )?(?:ganz )?dir"
        r"|du hast (?:jetzt |wieder )?freie hand|lass(?:t)? (?:es|ihn) weiterlaufen)\W*$"
        rf"|^{_NOT}.*(?:→|->|=>) ?go\W*$",
        0.85,
    ),
    # the task's completing verb after a step, the go last ("(erst den Lock prüfen,) danach
    # bitte X fertigstellen", "anschließend den Export zu Ende bringen"); not negated, not asked
    Rule(
        "de-go-then",
        "RESUMPTION",
        rf"^(?:danach|anschliessend|hinterher|im anschluss){_NOT}(?!.*\?$)"
        r"(?: (?:bitte|direkt|gleich|sofort|einfach|ruhig|noch))*(?: [\w'.-]+){1,6}? "
        rf"{_DONE}\W*$",
        0.85,
    ),
    # nothing further: "aber mach erst mal nichts weiter am Code" (a hold, not "mach weiter"),
    # and the completing verb denied, not asked ("danach bitte nicht die Abrechnung
    # fertigstellen"; "Würdest du das nicht zu Ende bringen?" asks)
    Rule(
        "de-nothing-further",
        "OTHER",
        r"\b(?:nichts|nix) (?:mehr )?weiter(?:machen|arbeiten)?\b",
        0.9,
    ),
    Rule(
        "de-not-done",
        "OTHER",
        rf"\b(?:nicht|nie|keinesfalls) (?:[\w'.-]+ ){{0,6}}?{_DONE}\W*$(?<!\?)",
        0.9,
    ),
    # a question said as a thing unclear ("Die Sortierung nach PLZ ist mir unklar."; not "…,
    # versteh ich nicht" after a bug told: a remark)
    Rule(
        "de-unclear-question",
        "QUESTION",
        r"\b(?:ist|sind|war|bleibt|bleiben) (?:mir|uns) (?:(?:noch|nicht|echt|total|ganz|etwas"
        r"|irgendwie|immer noch|leider|einfach) )*(?:unklar|nicht (?:ganz )?klar|schleierhaft"
        r"|ein ratsel|ratselhaft|raetselhaft)\b|\berschliesst sich mir (?:noch )?nicht\b",
        0.85,
    ),
    # a why clause of its own, no "?" ("(sag mir vorher noch,) weshalb der Parser abstürzt"; not
    # "Warum eigentlich nicht.": three words at least)
    Rule(
        "de-why-question",
        "QUESTION",
        r"^(?:warum|wieso|weshalb|weswegen|aus welchem grund)(?: [\w'.-]+){3}(?!.*\?$)",
        0.85,
    ),
)

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
    *SEVENTEENTH,  # the seventeenth round's, after the sixteenth's
    *LATE,  # the nineteenth round's late ones (de_kinds.py)
    *TWENTYFIRST_LATE,  # the twenty-first round's last ones (de_twentieth.py)
    *TWENTYTHIRD_LATE,  # the twenty-third round's last ones (de_twentysecond.py)
)
