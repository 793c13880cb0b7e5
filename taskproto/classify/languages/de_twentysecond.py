"""German rules of issue #45's twenty-second round (docs/interruptions.md, "Twenty-second round:
the rules (German and French)"): kinds the twenty-fourth batch missed, in every language, each
read from messages of the round's own in other wordings. ``TWENTYSECOND`` is spliced after the
twenty-first round's in ``de_more.FIRST``; ``JOINERS`` extends the twentieth round's, ``SPAN``
is a span of time ``de.py``'s later reads. Text as in ``de.py`` (lowercased, umlauts folded)."""

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
)
# a span of time ahead: "in ner halben Stunde", "in 'nem Tag", "in zehn Minuten", "in 2h"
SPAN = (
    r"(?:\bin (?:(?:ca\.?|etwa|ungefahr|ungefaehr|so) )?(?:\d+|'?n(?:er|em)|eine[rm]|ein paar"
    r"|paar|zwei|drei|vier|funf|fuenf|sechs|zehn|zwanzig|dreissig|anderthalb|eineinhalb)"
    r"(?: (?:halben|guten|knappen))? ?(?:minuten?|min|stunden?|std|h|tag(?:en)?|wochen?"
    r"|viertelstunde|sekunden?)\b|\bin den nachsten (?:minuten|stunden|tagen)\b)"
    # the user back then ("in zehn Minuten bin ich zurück, dann weiter": the clause says when)
    r"(?: (?:bin ich|sind wir|komm ich|komme ich)(?: wieder)? (?:zuruck|zurueck|da|online))?"
)
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
