"""German rules of issue #45's twenty-second and twenty-third rounds (docs/interruptions.md,
"Twenty-second round: the rules (German and French)", "Twenty-third round: the rules (German and
French)"): kinds the twenty-fourth and twenty-fifth batches missed, in every language, each read
from messages of the round's own in other wordings. ``TWENTYSECOND`` and ``TWENTYTHIRD`` are
spliced after the twenty-first round's in ``de_more.FIRST``; ``JOINERS`` extends the twentieth
round's, ``SPAN`` is a span of time ``de.py``'s later reads. Text as in ``de.py`` (lowercased,
umlauts folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import de_twentieth

# whose a protocol object is, asked after it was named: "ich seh ne index.lock, ist das deine?"
# (a comma before it does not split: the clause keeps the object it asks about)
JOINERS = (
    de_twentieth.JOINERS
    + r"|(?:ist|sind) (?:das|der|die|es|er|sie) (?:(?:etwa|vielleicht|noch) )?(?:dein\w*"
    r"|von dir|deiner)(?=\W*$)"
    # what the agent did, the verb last, is the object of the clause before ("mach ne
    # Zusammenfassung von allem, was du geändert hast"), not a question of its own
    r"|was (?=(?:du|ihr) [^,.;!?]*\b(?:hast|habt)[\s.!]*$)"
    # what the agent spoke of is the noun's, not a clause of its own ("was ist dieser Schlüssel,
    # von dem du sprichst?")
    r"|(?:von |uber |ueber )?(?:dem|der|den|die|das|denen) (?:du|ihr) (?:[\w'.-]+ ){0,3}?"
    r"(?:sprichst|sprecht|redest|redet|erwahnt|erwaehnt|erwahnst|erwaehnst|meinst|meint|genannt"
    r"|vorgeschlagen|geredet|gesprochen)\b"
    # what the user supposes is the clause's object ("ich nehme an, du hast X noch nicht …")
    r"|(?<=\bnehme an, )|(?<=\bnehm an, )|(?<=\bvermute, )|(?<=\bschatze, )"
    r"|(?<=\bschaetze, )|(?<=\bschatze mal, )|(?<=\bschaetze mal, )|(?<=\bvermute mal, )"
    r"|(?<=\btippe, )|(?<=\btippe mal, )|(?<=\bwette, )|(?<=\bgehe davon aus, )"
    r"|(?<=\bgeh davon aus, )"
)
# a span of time ahead: "in ner halben Stunde", "in 'nem Tag", "in zehn Minuten", "in 2h"
SPAN = (
    r"(?:\bin (?:(?:ca\.?|etwa|ungefahr|ungefaehr|so) )?(?:\d+|'?n(?:er|em)|eine[rm]|ein paar"
    r"|paar|zwei|drei|vier|funf|fuenf|sechs|zehn|zwanzig|dreissig|anderthalb|eineinhalb)"
    r"(?: (?:halben|guten|knappen))? ?(?:minuten?|min|stunden?|std|h|tag(?:en)?|wochen?"
    r"|viertelstunde|sekunden?)\b|\bin den nachsten (?:minuten|stunden|tagen)\b)"
    # the user back then ("in zehn Minuten bin ich zurück, dann weiter": the clause says when)
    r"(?: (?:bin ich|sind wir|komm ich|komme ich)(?: wieder)? (?:zuruck|zurueck|da|online))?"
    # Swiss German's times ahead: "morn" (tomorrow), "spöter", "hüt zabig", "nach em Zmittag"
    r"|\b(?:morn|ubermorn|uebermorn|spoter|spoeter|spater am tag|zabig|znacht|am namittag"
    r"|nach em (?:zmittag|zmorge|znacht|zvieri|meeting|call|review|standup)|mantig|zischtig"
    r"|ziischtig|mittwuch|dunschtig|donnschtig|fritig|samschtig|sunntig)\b"
)
# a go taken back in a dialect ("mach wiiter. nei, doch nöd", "weida. naa, doch ned"), which
# de.py's retractions read beside the standard "doch nicht"
TAKEN_BACK = r"doch n(?:icht|od|oed|ud|ued|ed|et|id|it)|(?:nei|naa|noi),? (?:wart\w*|stopp?|halt)"
# the dialect's "weiter" (Bavarian, Austrian, Swabian: "weida", "weider", "weita"), not the
# standard word (de.py's go reads it); and its "nicht" ("ned", "net", "nit", "nimmer")
# (spelled out: a gate's word of the pattern is none of "weiter"'s, which compiles nothing more)
_WEIDA = r"(?:weida|weidda|weider|weidr|weita|weitr)(?:macha|mache|mochn|moche|gehts|geht's)?"
_NED = r"(?:(?<![.\w])(?:ned|net|nit|nid|nimmer|nicht|nich|nie|kein\w*))"
_PROTOCOL = r"(?:lock\w*|worktrees?|journal\w*|sessions?|claims?|task\.json|task record)"
_APP = r"(?:user\w*|nutzer\w*|kunde\w*|mutex\w*|datenbank\w*|db|redis|threads?|api|app|server\w*)"
_CODE = (
    r"(?:funktion|methode|klasse|variable|parameter|feld|konstante|property|endpoint|route"
    r"|callback|handler|flag|modul|komponente|import|konstruktor|schleife|branch im code)"
)
_UNUSED = (
    r"(?:aufgerufen|verwendet|benutzt|genutzt|gesetzt|gelesen|importiert|referenziert"
    r"|initialisiert|ausgefuhrt|ausgefuehrt|erreicht|getestet|abgefangen|zuruckgegeben"
    r"|zurueckgegeben)"
)

TWENTYSECOND = (
    # a go denied in dialect: "passt scho, aber ned weida", "moch ned weida" (a hold)
    Rule(
        "de-dialect-denied",
        "OTHER",
        rf"{_NED} (?:[\w'.-]+ ){{0,3}}?{_WEIDA}(?![\w-])",
        0.9,
    ),
    # a go in dialect, alone or after a concession ("passt scho, weida", "guad, weida mit de
    # Tests", "moch weida"): not denied, not asked (a time or a condition still holds it)
    Rule(
        "de-go-dialect",
        "RESUMPTION",
        rf"^(?!.*{_NED}\b)(?!.*\?$)(?:(?:und|dann|jetzt|etz|etzad|na|also|ok|so|nacha|hernach"
        r"|passt|basst|guad|gut) )*(?:(?:mach|moch|mach ma|mach mer|moch ma|machma|mochma)"
        rf"(?: (?:bitte|mal|ma|fei|halt|hoid|scho))* )?{_WEIDA}(?![\w-])",
        0.85,
    ),
    # whose a protocol object is ("ist das deine?", "gehört der Lock dir?"): an audit, not the
    # code's question (nor the app's own lock or session)
    Rule(
        "de-audit-whose",
        "AUDIT",
        rf"^(?!.*\b{_APP}\b)(?=.*\b{_PROTOCOL})(?:.*\b(?:ist|sind) (?:das|der|die|es|er|sie)"
        r" (?:(?:etwa|vielleicht|noch) )?(?:von dir|dein(?:e|er|s|es)?)(?!.*\w)"
        r"|.*\b(?:gehort|gehoert|gehoren|gehoeren) (?:[\w'.-]+ ){0,4}?(?:dir|euch)\b)",
        0.85,
    ),
    # how old a protocol object is ("wie alt ist die Lockdatei?", "von wann ist der Lock?")
    Rule(
        "de-audit-age",
        "AUDIT",
        rf"^(?!.*\b{_APP}\b)(?:(?:und|also|mal|sag mal) )*(?:wie alt|von wann|aus wann"
        rf"|wie lange (?:schon|liegt|gibt)|seit wann (?:gibt|liegt|existiert|hangt|haengt))\b"
        rf"(?=.*\b{_PROTOCOL})"
        rf"|^(?!.*\b{_APP}\b)(?:(?:der|die|das|den) )?(?:[\w.-]+ )?{_PROTOCOL}[\w.-]*,?"
        r" (?:ist )?(?:wie alt|von wann|aus wann)\b",
        0.85,
    ),
    # a recap of what the agent changed or did ("mach mal ne Zusammenfassung von allem, was du
    # bisher geändert hast", "fass zusammen, was du bis jetzt gemacht hast"): where the work
    # stands, not a summary of a text ("fass den RFC zusammen")
    Rule(
        "de-status-recap",
        "STATUS_REQUEST",
        r"(?:zusammenfassung|recap|ruckblick|rueckblick|ubersicht|uebersicht|uberblick"
        r"|ueberblick|liste|auflistung|fass\w*|zusammenfassen|auflisten|aufzahlen|aufzaehlen)\b"
        r".*\b(?:was (?:du|ihr) (?:[\w'.-]+ ){0,5}?(?:geandert|geaendert|gemacht|erledigt"
        r"|umgesetzt|angefasst|gebaut|geschafft|committet|commitet|angepasst|hast|habt)\b"
        r"|(?:deine[rn]?|eure[rn]?|die|der) (?:bisherigen |letzten )?(?:anderungen|aenderungen"
        r"|arbeit|fortschritte?|commits)\b(?: (?:bis jetzt|bisher|bis hierhin|so far|heute))?)",
        0.85,
    ),
    # a doubt or a wish to understand the code, said as a remark ("ich hab Zweifel, ob die
    # Zeitzone stimmt", "ich möchte die Logik hinter X verstehen"): a question
    Rule(
        "de-doubt-question",
        "QUESTION",
        r"^(?:(?:also|hm+|ehrlich gesagt) )*(?:ich )?(?:hab|habe|hatte|haette) (?:da |so )*(?:meine"
        r" |leise |gewisse |ein paar |starke |echte |so )?zweifel,? (?:ob|dass|daran,? ob"
        r"|daran,? dass)\b|^(?:ich )?zweif(?:le|el|l) (?:noch )?(?:daran|dran),? (?:ob|dass)\b"
        r"|^(?:ich )?(?:mochte|moechte|wurde|wuerde|will|wollte) (?:gern\w* |mal |schon |echt )*"
        r"(?!.*\b(?:weiter\w*|stand|status|fortschritt)\b)(?:[\w'.-]+ ){1,6}?(?:verstehen"
        r"|nachvollziehen|kapieren|begreifen)\W*$",
        0.85,
    ),
    # a complaint, said ("mich nervt, dass du X und Y mischst"): a remark, not a question (not
    # asked). Not thanks: a rule's OTHER on "danke für die Erklärung, …" would keep the model
    # from the go it reads in the clause after it ("…, jetzt zurück an den Treiber")
    Rule(
        "de-complaint-remark",
        "OTHER",
        r"^(?!.*\?)(?:mich|es) (?:nervt|stort|stoert|argert|aergert|wurmt|irritiert|nervt mich"
        r"|stort mich|stoert mich)\w*,? dass\b",
        0.85,
    ),
    # a fact about the code, told ("die Funktion X wird nie aufgerufen", a go word inside the
    # name): a remark, not a question or an audit
    Rule(
        "de-code-fact-remark",
        "OTHER",
        # (or the clause its verb opens, the name's "()" having cut it: "wird nie aufgerufen")
        rf"^(?!.*\?)(?!.*\b{_PROTOCOL})(?:(?:(?:der|die|das) )?{_CODE}\b.*\b)?(?:wird|werden"
        r"|ist|sind)\b (?:[\w'.-]+ ){0,2}?(?:nie|nirgends|nirgendwo|nicht mehr|gar nicht|niemals"
        rf"|doppelt|zweimal) (?:[\w'.-]+ )?{_UNUSED}\b",
        0.85,
    ),
)

# Swiss German's "weiter" ("wiiter", "witer"; "wiitermache"), and a "not" in any German's dialect
# ("nöd", "nüd", "nid", "ned", "net"; "nonig", not yet; "nümme", no more): umlauts folded
_WIITER = (
    r"(?:wiiter|wiitr|witer|wyter|wiitter)(?:mache|macha|machen|schaffe|schaffa|fahre|fahra|gah"
    r"|goh)?"
)
# (the standard "nicht" is de-negated-resumption's, with its exceptions)
_NOD = (
    r"(?:(?<![.\w])(?:nod|noed|nud|nued|nid|nit|ned|net|nonig|nanig|nonid|numme|nuemme|nimme"
    r"|nimmer|nich))"
)
# a protocol object (hooks and pre-commit too: "Greift der Hook in deinem Worktree?"), and a
# word that puts the question on its state now, not on how the protocol works
_OBJECT = (
    r"(?:lock\w*|sperre\w*|lockdatei\w*|worktree\w*|journal\w*|session\w*|sitzung\w*|hooks?"
    r"|hook-\w+|[\w-]+-hooks?|pre-commit|claims?|task\.json|task-?record)"
)
_NOW = (
    r"(?:noch|gerade|grade|jetzt|inzwischen|mittlerweile|schon|bereits|vorhin|eben|gestern"
    r"|heute\w*|vor (?:\w+ )?(?:tagen|stunden|minuten|wochen)|dein\w*|mein\w*|unser\w*|euer\w*"
    r"|eure[nmrs]?|dieselben?|derselbe|dasselbe|(?:der|die|das) gleiche[n]?|identisch|abgefangen"
    r"|erwischt|durchgelassen|(?:hangen|haengen) ?(?:lassen|geblieben)|abgesturzt|abgestuerzt"
    r"|uberlebt|ueberlebt|abgerissen)"
)
# the work's state, asked in a supposition ("ich nehme an, du hast X noch nicht angefangen")
_STARTED = (
    r"(?:fertig|durch|angefangen|begonnen|angefasst|angegangen|erledigt|gemacht|gebaut"
    r"|umgesetzt|gestartet|dran|committet|gepusht|gemergt|gemerged|live|geschafft|abgeschlossen"
    r"|lauft|laeuft|laufen|drin)"
)
_GUESS = r"(?:vermutlich|wahrscheinlich|bestimmt|sicher|wohl|sicherlich|vermutlich)"

TWENTYTHIRD = (
    # a go denied in any dialect, the standard "weiter" too: "mach ned weiter", "nöd wiiter",
    # "chasch no nöd wiitermache" (a hold; "ned weiter" was read as a go)
    Rule(
        "de-dialect-not-on",
        "OTHER",
        # (any "weiter" spelled by its letters' classes: the gate's words are the "not"'s, so
        # "weiter machen bitte" compiles nothing more)
        rf"{_NOD} (?:[\w'.-]+ ){{0,3}}?w[eiy]{{1,3}}t{{1,2}}e?r\w*(?![\w-])",
        0.9,
    ),
    # only at a later time, a clause of its own after the go ("mach wiiter, aber erst am
    # Mäntig", "…, aber erst um 3"): a hold, which takes the go before it back
    Rule(
        "de-only-later",
        "OTHER",
        r"^(?:aber |und )?(?:erst|fruhestens|fruehestens) (?:am (?:[\w-]*(?:tag|tig|woch|wuch)"
        r"|wochenende|\d+)|um \d|gegen \d|ab \d|morn|ubermorn|uebermorn|spoter|spoeter|zabig"
        r"|hut (?:zabig|namittag)|nach em)\b",
        0.85,
    ),
    # a go in Swiss German, alone, asked as "can you" or after a concession ("Chasch
    # wiitermache mit em Export", "guet, denn wiiter", "mach wiiter"): not denied; a bare
    # "wiiter?" asks
    Rule(
        "de-go-swiss",
        "RESUMPTION",
        rf"^(?!.*{_NOD}\b)(?:(?:(?:so|guet|gut|ok|okay|also|passt|merci|bitte|ja|jo|denn|dann"
        r"|jetzt|jetz|etz) )*(?:(?:chasch|chaisch|chonntsch|chonntisch|chonnsch|chontsch|chond"
        r"|kannst)(?: du)?(?: (?:bitte|mol|emol|jetzt|jetz|etz|denn|dann|eifach|afach))* )"
        rf"{_WIITER}|(?!.*\?$)(?:(?:so|guet|gut|ok|okay|also|passt|merci|bitte|ja|jo|denn|dann"
        r"|jetzt|jetz|etz|und) )*(?:(?:mach|gang|fahr|tue|due|schaff)(?: (?:bitte|mol|emol|jetzt"
        rf"|jetz|etz|denn|dann|eifach|afach))* )?{_WIITER})(?![\w-])",
        0.85,
    ),
    # a go to the next step named ("geh weiter zu Schritt 5", "spring zum nächsten Punkt"): not
    # denied, not asked (a time or a condition still holds it)
    Rule(
        "de-go-to-step",
        "RESUMPTION",
        r"^(?!.*\b(?:nicht|nie|kein\w*)\b)(?!.*\?$)(?:(?:dann|jetzt|also|bitte|und|einfach) )*"
        # (not "geh zum nächsten Punkt über": de-go-onto's)
        r"(?:(?:geh|gehe) (?:(?:bitte|jetzt|dann|direkt|gleich|einfach|ruhig) )*(?:weiter (?:zu|zum"
        r"|zur) (?:nachsten|naechsten)\b|(?:weiter )?(?:zu|zum|zur) (?:schritt|punkt|teil|phase"
        r"|step|abschnitt|aufgabe|ticket)\b)|(?:spring|springe|wechsel|wechsle) (?:(?:bitte|jetzt"
        r"|dann|direkt|gleich|einfach|ruhig) )*(?:weiter )?(?:zu|zum|zur) (?:schritt|punkt|teil"
        r"|phase|step|abschnitt|aufgabe|ticket|nachsten|naechsten)\b)",
        0.85,
    ),
    # what a thing the agent spoke of is ("was ist dieser Schlüssel, von dem du sprichst?",
    # "was meinst du mit Fencing-Token?"): the code's question, not where the work stands
    Rule(
        "de-question-mentioned",
        "QUESTION",
        r"^(?:und |also )?(?:was|wer|welche\w*) (?:ist|sind|war|waren|bedeutet|bedeuten|heisst)"
        r" (?!mit |aus )(?!.*\b(?:stand|status|fortschritt)\b).*\b(?:von (?:dem|der|denen)"
        r"|(?:uber|ueber) (?:den|die|das)|den|die|das|dem) (?:du|ihr) (?:[\w'.-]+ ){0,3}?"
        r"(?:sprichst|sprecht|redest|redet|erwahnt|erwaehnt|erwahnst|erwaehnst|meinst|meint"
        r"|genannt|vorgeschlagen|geredet|gesprochen)\b"
        r"|^(?:und |also )?was (?:meinst|meint) (?:du|ihr) (?:genau |eigentlich |denn )*mit\b",
        0.85,
    ),
    # where the work stands, supposed for the agent to confirm: "ich nehme an, du hast X noch
    # nicht angefangen", "vermutlich bist du mit X noch nicht durch" (not the protocol's state)
    Rule(
        "de-status-supposed",
        "STATUS_REQUEST",
        r"^(?!.*\b(?:lock\w*|sperre\w*|worktree\w*|journal\w*|session\w*|hooks?)\b)"
        r"(?=.*\b(?:noch nicht|noch gar nicht|noch nicht mal|noch kein\w*|schon|bereits"
        rf"|inzwischen|mittlerweile)\b)(?=.*\b{_STARTED}\b)(?:(?:ich )?(?:nehme an|nehm an"
        r"|vermute|schatze|schaetze|tippe|wette|glaube|glaub|denke|denk|gehe davon aus"
        rf"|geh davon aus)\b|{_GUESS} (?:hast|bist|habt|seid|ist|sind)\b"
        rf"|(?:du|ihr) (?:hast|bist|habt|seid) (?=.*\b{_GUESS}\b))",
        0.85,
    ),
)
# the twenty-third round's that come last (de_more.RULES' end): the older rounds' status
# and audit rules and the protocol's design questions read their forms first
TWENTYTHIRD_LATE = (
    # where the work stands, asked as an order to report: "bring mich auf den neuesten Stand",
    # "update mich kurz", "liste mir die offenen TODOs auf", "eine Zusammenfassung deines Tages"
    # (not a report later: "halt mich auf dem Laufenden", "… wenn du fertig bist")
    Rule(
        "de-status-order",
        "STATUS_REQUEST",
        r"^(?!.*\b(?:wenn|sobald|falls|nachher|spater|spaeter|danach|laufenden)\b)(?:(?:und|also"
        r"|bitte|mal|jetzt|dann) )*(?:bring(?:e|t)? (?:mich|uns) (?:(?:mal|kurz|bitte|schnell"
        r"|jetzt) )*auf (?:den |'n )?(?:neuesten|neusten|aktuellen|letzten|laufenden)? ?stand"
        r"|(?:update|briefe?|brief) (?:mich|uns)\b"
        r"|(?:list|liste|listest|zahl|zaehl|zahlst|zaehlst)(?: (?:du|mal|bitte|kurz))*\s(?:mir|uns)"
        r"(?: (?:du|mal|bitte|kurz))* (?!.*\b(?:im|ins|in (?:die|der|den|das))\b)(?:[\w'.-]+ )"
        r"{0,3}?(?:todos?|to-dos?|offene\w*|restliche\w*|ubrige\w*|uebrige\w*|verbleibende\w*"
        r"|fehlende\w*|was (?:noch|fehlt|offen))\b"
        r"|(?:[\w'.-]+ ){0,3}?(?:zusammenfassung|recap|ruckblick|rueckblick|bericht|abriss"
        r"|uberblick|ueberblick) (?:(?:auf|uber|ueber|von|zu) )?(?:deines|deiner|deine|deinen"
        r"|deinem|eures|eurer|eure|euren) (?:tages|tag|arbeit|woche|vormittags?|nachmittags?"
        r"|sprints?|session))",
        0.85,
    ),
    # the state of a protocol object asked yes or no ("Gilt die Sperre von vor drei Tagen
    # noch?", "Greift der Commit-Hook auch in deinem Worktree?", "Hat pre-commit die Datei
    # abgefangen?"): an audit; not how the protocol works ("Läuft der Hook auch beim Push?",
    # "Ist das Journal append-only?"), not the app's, not the work's ("Ist der Hook-Test grün?")
    Rule(
        "de-audit-state-asked",
        "AUDIT",
        r"^(?!.*\b(?:wenn|falls|sobald|uberhaupt|ueberhaupt|eigentlich|generell|grundsatzlich"
        r"|normalerweise|pro|immer|fertig|grun|gruen|implementiert|geschrieben|gebaut|getestet"
        r"|reviewt|gemergt|gemerged|committet|gepusht|user\w*|nutzer\w*|kunde\w*|api|app|redis"
        r"|datenbank\w*|db|mutex\w*|threads?|webhooks?|react|terraform)\b)(?:(?:und|also|sag mal"
        r"|mal) )*(?:ist|sind|war|waren|gilt|gelten|greift|greifen|hangt|haengt|hangen|haengen"
        r"|klemmt|klemmen|steckt|stecken|lauft|laeuft|laufen|lebt|leben|existiert|existieren|hat"
        r"|haben|hatte|wurde|wurden|bleibt|bleiben|liegt|liegen|steht|stehen)\b"
        rf"(?=.*\b{_NOW}\b).*(?<![\w-]){_OBJECT}(?![\w-])",
        0.85,
    ),
)
