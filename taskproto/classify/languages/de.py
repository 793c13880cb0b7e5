"""German interruption rules. Text is lowercased with accents folded ("prüf" -> "pruf",
"ß" -> "ss"); "ue" spellings of umlauts are matched too. Same order as the English table:
negated stops, holds and negated gos, status, audit, questions, then resumptions."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import de_more
from taskproto.classify.languages.table import WORK, Language

# The verbs and phrases of a go. "weiter" alone is one ("weiter bitte", "weiter mit den Tests"),
# but not "weiter oben" (further up) or "weiterhin" (still).
_W = r"[\w'.-]+ "
VERB = (
    r"(?:weiter(?:mach(?:e?n|e)?|arbeite?n|geht'?s)?\b(?! (?:oben|unten|vorne|hinten)\b)"
    rf"|mach(?:e|t|en|st)? (?:{_W}){{0,5}}?weiter(?:machen)?\b"
    rf"|arbeite(?:t|n)? (?:{_W}){{0,3}}?weiter\b|fahr(?:e|t)? (?:{_W}){{0,4}}?fort\b"
    rf"|fortfahren|fortsetzen|setz(?:e|t)? (?:{_W}){{0,6}}?fort\b"
    rf"|leg(?:e|t)? (?:{_W}){{0,2}}?los\b|loslegen|los geht'?s|auf geht'?s|weiter so"
    r"|zuruck (?:an|zu|zur|zum|in) (?:die |den |das )?(?:arbeit|task|aufgabe|ticket|sache)"
    r"|mach(?:e)? dich (?:wieder )?(?:an die arbeit|dran|ran)|grunes licht|wir machen weiter"
    rf"|zieh(?:e|t)? (?:{_W}){{0,4}}?durch\b|nur zu\b|(?:ab|ran|zuruck) an die arbeit"
    # "nimm den Task wieder auf", "ran an die Screens"
    rf"|nimm (?:{_W}){{0,5}}?wieder auf\b|nehmt (?:{_W}){{0,5}}?wieder auf\b"
    r"|^(?:also |dann |jetzt )?ran an (?:die|den|das|deine)\b|^hau rein\b|^bleib(?:t)? dran\b"
    # encouragement to keep at it: "bleib am Ball", "gib Gas"
    r"|\bbleib(?:t)? (?:weiter )?am ball\b|\bgib(?:t)? (?:jetzt |mal |ordentlich )?gas\b"
    r"|^mach (?:den|die|das) [\w-]+ fertig\b|\bwieder ran\b|zuruck ans (?:werk|arbeiten)\b"
    r"|weiter(?:bauen|coden|schreiben|testen)\b|wieder aufnehmen\b"
    rf"|kummer(?:e)? dich (?:{_W}){{0,2}}?weiter um\b)"
)
# A bare acknowledgement of one or two words ("ja", "passt 👍", "alles klar!"):
# a message every word of which is a filler is read whole by the rules; with a "?" it asks.
ACK = r"(?:ja|jo|jep|jup|klar|alles klar|geht klar|passt(?: so)?|verstanden|gut|super|prima)"
_NEG = r"(?:nicht|nie|niemals|keinesfalls|auf keinen fall|bloss nicht|noch nicht)"
_PROTOCOL = (
    r"(?:lock\w*|worktrees?|journal\w*|session\w*|sitzung|task\.json|task-?(?:status|state|zustand)"
    r"|zustand|status-?datei\w*|state-?datei\w*|protokoll\w*|branch\w*|invariant\w*|transition\w*"
    r"|alles (?:korrekt|konsistent|in ordnung|sauber|synchron|in sync|gultig))"
)
_CHECK = (
    r"(?:pruf(?:e|t)?|uberpruf(?:e|t)?|pruef(?:e|t)?|ueberpruef(?:e|t)?|kontrollier(?:e|t)?"
    r"|check(?:e|t)?|checke|verifizier(?:e|t)?|validier(?:e|t)?|stell(?:e)? sicher"
    r"|vergewisser(?:e)? dich|schau(?:e)? nach|sieh nach|teste"
    r"|(?:schau|guck|sieh)(?:e|t)?\b[^.?!]{0,30}?\bob)"
)
_AUDIT_NOUN = (
    r"(?:audit|konsistenz-?(?:check|prufung)|integritats-?(?:check|prufung)|sanity-?check"
    r"|health-?check|protokoll-?(?:check|prufung)|doctor)"
)
_WH = (
    r"(?:wie|was|warum|wieso|weshalb|weswegen|wo|woher|wohin|wozu|wofur|wer|wen|wem|wann"
    r"|welche[rsmn]?)"
)

RULES = (
    Rule(
        "de-deferred",
        "OTHER",
        rf"\b(?:morgen|spater|nachher|ubermorgen|nach dem (?:meeting|review|mittag\w*)"
        rf"|heute (?:nachmittag|abend))\b.*{VERB}"
        rf"|{VERB}(?: erst\b|.*\b(?:morgen|spater|nachher|nach dem (?:meeting|review|mittag\w*)"
        r"|heute (?:nachmittag|abend)|nachmittags?|abends?)\b)"
        r"|^morgen geht'?s weiter|\berst (?:nach|wenn|ab|morgen|spater)\b.*\bweiter"
        # a clause of its own that says when: "Mach weiter, wenn die Tests grün sind"
        r"|^(?:aber |und )?(?:erst |nur )?(?:wenn|sobald|nachdem|falls)\b(?! (?:du|ihr) )(?!.*\?$)"
        r"|^erst (?:nach|ab|morgen|spater|heute)\b",
        0.9,
    ),
    Rule(
        "de-dont-stop",
        "RESUMPTION",
        r"\b(?:nicht|nie) (?:aufhoren|anhalten|stoppen|pausieren|warten)\b(?! (?:soll|woll)\w*)"
        r"|^hor(?:t)? (?:[\w-]+ ){0,2}?nicht auf\b"
        r"|^(?:keine|kein) (?:pause|stopp|halt)\b"
        # encouragement to finish: "Nicht schlappmachen!", "Gib nicht auf, fast fertig"
        r"|^(?:jetzt |bloss |nur )?nicht (?:schlapp ?machen|aufgeben|nachlassen|locker ?lassen)\b"
        r"|^gib (?:jetzt )?nicht auf\b|^bleib(?:t)? (?:jetzt )?nicht stehen\b"
        # a stop denied at the clause's start: "Nicht stehen bleiben, X ist das letzte Feature"
        r"|^(?:jetzt |bloss |nur |bitte )?nicht (?:stehen ?bleiben|halt ?machen|(?:rum)?trodeln)\b",
        0.9,
    ),
    Rule(
        "de-nudge",
        "RESUMPTION",
        r"^hor(?:t)? (?:auf|mal auf) (?:zu fragen|zu warten|nachzufragen|zu zogern)\b.*"
        + VERB
        + r"|^(?:warum|wieso) (?:machst|arbeitest) du (?:denn )?nicht weiter\b",
        0.8,
    ),
    Rule(
        "de-negated-resumption",
        "OTHER",
        rf"\b{_NEG} (?:{_W}){{0,3}}?{VERB}|\berst (?:dann |wieder )?weiter"
        rf"|^(?:warte )?(?:bevor|bis|solange)\b.*\b{VERB}"
        # a go said as a noun and denied: "Weitermachen ist nicht, ...", "... kommt nicht in Frage"
        r"|^(?:weiter ?machen|weiterarbeiten|fortfahren)(?: ist| is| kommt)"
        r" (?:[\w-]+ ){0,2}?(?:nicht|nich|nix)\b",
        0.9,
    ),
    Rule(
        "de-hold",
        "OTHER",
        r"^(?:wart(?:e|et)?|moment(?:chen)?|einen (?:moment|augenblick)|augenblick"
        r"|(?:eine )?sekunde|stopp?|halt(?=\s*(?:$|[,.!]|stopp?\b|mal\b|moment\b|kurz\b|an\b))"
        r"|anhalten|pause|pausier\w*|noch nicht|nicht jetzt"
        r"|(?:unterbrich|unterbrechen sie)(?! (?:bitte )?nicht)"
        r"|jetzt nicht|erstmal nicht"
        r"|noch nicht freigegeben|nicht freigegeben|lass uns (?:kurz )?(?:pausieren|anhalten)"
        r"|bleib(?:t|en sie)? (?:im |in |auf )?(?:stand-?by|wartestellung|warteposition))\b",
        0.8,
    ),
    *de_more.FIRST,  # the protocol's state asked, before the work's (de_more.py)
    Rule(
        "de-status-where",
        "STATUS_REQUEST",
        r"^wo (?:stehen|sind) wir\b|^wo (?:stehst|bist) du\b|^wo steht (?:der|die|das) \w+"
        r"|^wie weit\b|^wie (?:ist|war) (?:der|dein|euer) (?:aktuelle |momentane )?"
        r"(?:stand|status|fortschritt|zwischenstand)\b"
        r"|^was ist (?:der|dein) (?:aktuelle |momentane )?(?:stand|status|zwischenstand)\b"
        # when the work will be ready for me: "Wann kann ich den PR reviewen?"
        r"|^wann (?:kann|konnen|darf|durfen) (?:ich|wir) (?:[\w.-]+ ){0,6}?(?:reviewen|testen"
        r"|mergen|ausprobieren|abnehmen|anschauen|ansehen|angucken|deployen)\b",
        0.9,
    ),
    Rule(
        "de-status-how",
        "STATUS_REQUEST",
        r"^wie (?:sieht|schaut)(?:'?s| es) (?:[\w.-]+ ){0,4}?aus\b"
        r"|^wie (?:lauft'?s|geht'?s (?:voran|vorwarts)|steht'?s|sieht'?s aus|schaut'?s aus"
        r"|kommst du voran|kommt ihr voran|sieht es aus|schaut es aus|steht es|lauft es"
        r"|lauft (?:der|die|das) [\w-]+)\b"
        r"|^wie lange? (?:dauert|brauchst|braucht)\b"
        # how a piece of work went: "Wie lief die CI?", "Wie ist der Deploy gelaufen?"
        rf"|^wie (?:lief|liefen|ist|sind|war|waren) (?:der |die |das |den )?{WORK}\b"
        r"(?!.*\b(?:aufgebaut|definiert|konfiguriert|gedacht)\b)"
        r"|^wie viele? (?:[\w.-]+ ){0,3}?noch\b"
        r"|^gibt(?:'s| es) (?:was |etwas |schon )?(?:neues|updates?|fortschritte?|neuigkeiten)\b",
        0.9,
    ),
    Rule(
        "de-status-done",
        "STATUS_REQUEST",
        r"^was (?:hast|habt) (?:du|ihr) (?:[\w.-]+ ){0,5}?(?:gemacht|geschafft|erledigt|getan"
        r"|geandert|erreicht|fertig)\b"
        r"|^(?:woran|an was) arbeitest du\b|^was machst du (?:gerade|grade|jetzt|da)\b"
        r"|^was (?:ist|bleibt|fehlt) (?:noch |denn noch )?(?:offen|ubrig|uebrig|zu tun"
        r"|ausstehend)\b"
        r"|^was fehlt noch\b"
        r"|^(?:bist|seid|ist|sind|hast|habt|hat) (?!sich )(?:[\w.-]+ ){0,3}?"
        r"(?:schon |jetzt |endlich |bald )?"
        r"(?:fertig|durch|grun|gruen|erledigt|gemerged?t?|gepusht|deployed|bereit|abgeschlossen)\b"
        r"|^(?:in )?welche[mrn]? (?:state|zustand|status|phase|schritt)\b"
        # a yes/no question with "schon" (already): "hast du den PR schon aufgemacht?"
        r"|^(?:bist|seid|ist|sind|hast|habt|hat|lauft|laufen|lief|lauft|war|wurde|wurden)"
        r" (?!sich )(?:[\w.-]+ ){0,4}?(?:schon|bereits|inzwischen|mittlerweile)\b",
        0.85,
    ),
    Rule(
        "de-status-terse",
        "STATUS_REQUEST",
        r"^(?:schon|endlich|jetzt|bald|immer noch nicht|noch nicht) (?:fertig|durch|erledigt"
        r"|gemerged?t?|gepusht|deployed|grun|gruen)\s*\?+$|^stand der dinge\b"
        r"|^(?:(?:kurze[rsn]?|schnelle[rsn]?|kleine[rsn]?) )?(?:status|fortschritt|stand"
        r"|zwischenstand|updates?|neuigkeiten|eta|(?:tages|wochen)?bilanz)"
        r"(?: (?:bitte|update|bericht|report))*\s*\?*$"
        # the work's name after it: "stand klingel?", "Status beim Export?"
        r"|^(?:und )?(?:stand|status|fortschritt) (?:bei |beim |vom |von )?"
        rf"(?!{_PROTOCOL})[\w.-]+\s*\?$"
        r"|\b(?:gib|schick|sag) (?:mir|uns) (?:[\w-]+ ){0,3}?(?:status|updates?|stand|zwischenstand"
        r"|fortschritt|statusbericht)\b|^fass (?:deinen|den|euren) (?:fortschritt|stand)\b"
        # a summary (the noun) of the work: "Kurze Zusammenfassung: was ist fertig?", "eine
        # Zusammenfassung deiner Arbeit" ("eine Zusammenfassung der RFC" is a task)
        r"|\bzusammenfassung\b(?: [\w-]+){0,2}?\W* (?:was (?:ist|sind|hast|habt|du|ihr|wir|noch"
        r"|fertig|offen|erledigt|geschafft)|wo (?:wir|du|ihr)|(?:von dem|dessen), was"
        r"|(?:deiner|eurer|der) (?:arbeit|fortschritte|anderungen|aenderungen|session)"
        r"|(?:des|vom) (?:stands|stand|fortschritts|tages|vormittags|nachmittags))\b",
        0.85,
    ),
    # the status asked as an instruction: "sag nur, ob es fertig ist", "(sag mir,) wo du stehst",
    # and what blocks the agent: "Was blockiert dich gerade?"
    Rule(
        "de-status-tell",
        "STATUS_REQUEST",
        r"^sag (?:mir |uns )?(?:(?:nur|einfach|bloss|kurz|mal|doch|schnell)\b,? ?)*,? ?ob"
        r" (?:es|du|ihr|das|der|die|alles)\b(?=.*\b(?:fertig|durch|erledigt|gemerged?t?|gepusht"
        r"|grun|gruen|bereit|abgeschlossen|klappt|funktioniert|lauft)\b)"
        r"|^wo (?:du|ihr|wir) (?:gerade |jetzt |grade )?(?:stehst|steht|stehen)\W*$"
        r"|^was (?:blockiert|bremst|hindert|blockt|hemmt) (?:dich|euch)\b",
        0.85,
    ),
    Rule(
        "de-status-work",
        "STATUS_REQUEST",
        rf"^(?:ist|sind|war|lauft|lief) (?:der |die |das )?{WORK}\b.*\b(?:durch\w*|gelaufen|grun"
        r"|gruen|rot|fertig|gemerged?t?|bereit|kaputt)\b|(?:hangst|haengst|steckst) du\b.*\bfest\b"
        r"|^(?:woran|wo) (?:hangst|haengst) du\b|festgefahren"
        r"|^was (?:kommt|steht) (?:als )?(?:nachstes|naechstes|jetzt)\b|^wie lange noch\b"
        r"|^(?:fortschritte?|neuigkeiten|news) (?:beim|bei|am|an|mit|vom|von) [\w-]+\s*\??$"
        r"|^(?:gibt(?:'s| es) )?(?:was )?neues (?:vom|von|beim|zum) [\w-]+"
        r"|^erzahl (?:mal|mir)\b.*\b(?:wie|was|wo)\b|^bist du (?:schon )?(?:durch|fertig)\b"
        r"|^was (?:ist|kommt) (?:als )?(?:nachstes|naechstes) dran\b|^was machen die [\w-]+\??$"
        r"|zwischenstand|^(?:gibt(?:'s| es)|was gibt(?:'s| es)) (?:neuigkeiten|neues)\b"
        r"|^sind wir (?:bald|schon) (?:fertig|durch)\b|^(?:hat|haben) (?:die |der |das )?"
        rf"{WORK}\b.*\b(?:gemeldet|gesagt|geliefert)\b|\bwie lange\b.*\bnoch\b",
        0.85,
    ),
    Rule(
        "de-audit-verb",
        "AUDIT",
        rf"\b(?:mach|mache|fuhr|fuhre|fuehr|fuehre|lass|starte?|lauf\w*)\b.*\b{_AUDIT_NOUN}\b"
        rf"|^(?:(?:noch )?(?:ein(?:en)?|kurze[nrs]?|schnelle[nrs]?|kleine[nrs]?|vollstandige[nrs]?"
        rf"|komplette[nrs]?) )*{_AUDIT_NOUN}\b(?!-?(?:log|trail))"
        r"|\b(?:konsistenz|integritats)-?check\b",
        0.9,
    ),
    Rule(
        "de-audit-verify",
        "AUDIT",
        rf"^{_CHECK}\b.*\b{_PROTOCOL}|^(?:ist|sind)\b(?=.*\b(?:alles|lock\w*|worktrees?|journal"
        r"|task\.json|task-?(?:status|state|zustand)|zustand|session|protokoll\w*)\b)"
        r".*\b(?:konsistent|korrekt|synchron|in sync|gultig"
        r"|sauber|valide|in ordnung)\b"
        r"|\b(?:gegen das protokoll versto\w*|protokoll ?versto\w*|das protokoll verletzt)",
        0.85,
    ),
    Rule(
        "de-audit-protocol",
        "AUDIT",
        r"protokoll(?:konform\w*|verletzung\w*|versto\w*|gemass)"
        r"|^stimm(?:t|en) (?:der|die|das) (?:task-?)?(?:status|zustand|state|locks?|journal)\b"
        r"|\b(?:gegen|mit) task\.json\b|verwaist\w*"
        r"|\b(?:kannst|konntest) du\b.*\b(?:lock\w*|worktrees?|journal|session|task\.json)\b.*"
        r"\b(?:uberprufen|ueberpruefen|prufen|pruefen|checken|kontrollieren|verifizieren)\b",
        0.85,
    ),
    *de_more.RULES,  # the sixteenth round's forms (de_more.py)
    # the protocol's state now, not its design ("Gehört der Lock noch uns?", not "append-only?")
    Rule(
        "de-audit-state",
        "AUDIT",
        rf"^(?!{_WH}\b)(?=.*\b(?:lock\w*|worktrees?|journal\w*|session\w*|sitzung|task\.json"
        r"|protokoll\w*|claims?)\b).*\b(?:noch uns|uns|unser\w*|gultig|abgelaufen|aktiv|verwaist\w*"
        r"|ubrig|uebrig|da|zusammen|synchron|konsistent|aktuell|veraltet|stale|korrekt|intakt"
        r"|kaputt|halt|haelt|halten|gehort|gehoert|stimm\w*|verstoss\w*|verletzt|alt|alte)\b.*\?$",
        0.8,
    ),
    # a yes/no question about the work's progress ("Läuft der Build noch?", "Hat das geklappt?")
    Rule(
        "de-status-yesno",
        "STATUS_REQUEST",
        r"^lauft'?s\s*\?|^(?:lauft|laufen|lief|liefen) (?:[\w.-]+ ){0,3}?(?:noch|schon|gut|rund"
        r"|wieder)\b|^(?:hat|haben|hast|habt) (?:[\w.-]+ ){0,4}?(?:geklappt|funktioniert|geschafft"
        r"|hingehauen|angefangen|begonnen|gebaut|gefixt|integriert|eingebaut|committet|gepusht"
        r"|gemergt|aufgemacht|erstellt|drin)\b|^(?:bist|seid) (?:du|ihr) (?:[\w.-]+ ){0,2}?"
        r"(?:weitergekommen|vorangekommen|dran|dabei)\b|^(?:kommst|kommt) (?:du|ihr) (?:\w+ )?"
        r"(?:voran|weiter|vorwarts)\b|^wann (?:bist|seid|ist|sind|wird|werden|kommt|kommen)\b.*"
        r"\b(?:fertig|durch|bereit|erledigt|gemergt|gemerged|live|deployed|drin|soweit)\b"
        r"|^welche (?:[\w-]+ ){0,2}?(?:fehlen|sind|schlagen)\b.*\bnoch\b"
        r"|^was hast du (?:bis jetzt|bisher|so weit|soweit|schon)\s*\??$"
        r"|^(?:schon |gibt'?s )?(?:was|etwas) neues\b",
        0.8,
    ),
    Rule(
        "de-question-word",
        "QUESTION",
        rf"^{_WH}\b(?:.*\?$| (?:ist|sind|war|waren|wird|werden|wurde|hat|hast|habt|haben|kann"
        r"|kannst|soll|sollte|sollen|muss|musst|macht|machst|bringt|meinst|bedeutet|heisst"
        r"|passiert|funktioniert|lauft|geht|gibt|tut|tust|entscheidest|nimmst)\b)"
        r"|^(?:erklar(?:e|en)?|erklaer(?:e|en)?|beschreib(?:e)?|begrunde?)\b"
        r"|\b(?:kannst|konntest|wurdest) du (?:mir |uns )?(?:[\w-]+ ){0,4}?(?:erklaren|erklaeren"
        r"|beschreiben|zeigen|sagen)\b|^ich (?:verstehe?|kapiere?)\b.*\bnicht\b"
        r"|^(?:kurze |eine |noch eine )?frage\b"
        # a question put as a clause of its own: "(sag mir erst,) warum du CSRF abgeschaltet hast"
        rf"|^{_WH} (?:du|ihr) .*\b(?:hast|habt|bist|seid|machst|macht|willst|wolltest|tust)\W*$"
        r"|^sag (?:mir |uns )?(?:mal )?(?:warum|wieso|weshalb|wie|was|wozu)\b"
        r"|^hilf (?:mir|uns) (?:mal )?(?:zu )?(?:verstehen|kapieren)\b"
        # first the explanation: "(mach danach weiter,) aber erst erklär mir X"
        r"|^(?:erst|zuerst|vorher|erstmal) (?:mal )?(?:erklar|erklaer|beschreib)\w*\b",
        0.85,
    ),
    Rule(
        "de-resumption",
        "RESUMPTION",
        rf"^(?:(?:ja|jo|ok|dann|jetzt|einfach|nun|na|also|bitte|mal|und|erstmal|gleich|ruhig) )*"
        rf"{VERB}"
        rf"|\b(?:und|dann|danach|anschliessend|bitte)"
        rf" (?:(?:bitte|jetzt|gerne|ruhig|einfach|wieder|dann|mal) )*{VERB}"
        rf"|\b(?:kannst du|du kannst|kann?st|darfst du|du darfst|du sollst|sollst du"
        r"|(?:wurden|wurdest|konnten|konntest) (?:sie|du)(?: bitte)?)"
        rf" (?:{_W}){{0,4}}?{VERB}|(?:^|\b(?:und|dann|jetzt|also|ihr|ok) )fang"
        rf"(?:e|t(?! (?:der|die|das|er|sie|es|man)\b))? (?:{_W}){{0,4}}?an\b"
        rf"|^(?:lass|lasst) uns (?:{_W}){{0,3}}?{VERB}",
        0.9,
    ),
    Rule(
        "de-go-ahead",
        "RESUMPTION",
        r"^(?:freigegeben|genehmigt|abgesegnet|(?:na )?(?:dann )?(?:mal )?los|nachster schritt"
        r"|ab (?:geht'?s|dafur))\s*[!.]*$|\bgrunes licht\b",
        0.8,
    ),
    # a bare acknowledgement (ACK) asks nothing and holds nothing: OTHER, which the model does
    # not override (a remark: after a go, it would not take the go back)
    Rule("de-remark", "OTHER", rf"^(?:{ACK}[^\w?]*){{1,2}}$", 0.7),
    # a question about what a change will do ("Überschreibt der Rebase die Migrationen von
    # Jana?", "Bleiben die URLs nach dem Upgrade gleich?"): a question, not a status request (the
    # protocol's own state is an audit's)
    Rule(
        "de-effect-question",
        "QUESTION",
        r"^(?=.*\b(?:rebase|merge|upgrade|update|migration|deploy\w*|refactor\w*|umstellung|umbau"
        r"|release)\b)(?!.*\b(?:locks?|worktrees?|journal|task\.json)\b)"
        r"(?:bleib(?:t|en)|uberschreib(?:t|en)|ueberschreib(?:t|en)|losch(?:t|en)|loesch(?:t|en)"
        r"|bricht|brechen|zerstor(?:t|en)|verander(?:t|n)|ander(?:t|n)|wird|werden)\b.*\?$",
        0.85,
    ),
    # a go held until a check of the protocol's state, or a run of the audit: what is asked is
    # the check ("Mach nicht weiter, bevor du die Locks geprüft hast"): AUDIT
    Rule(
        "de-audit-until",
        "AUDIT",
        r"^(?:erst )?(?:bevor|bis|solange)\b(?:(?=.*\b(?:gepruft|geprueft|uberpruft|ueberprueft"
        r"|kontrolliert|gecheckt|verifiziert|angeschaut|nachgesehen)\b).*\b(?:lock|worktree"
        r"|journal|session|sitzung|task\.json|protokoll|zustand)|.*\b(?:audit|doctor))",
        0.85,
    ),
    # a negated step, a warning ("Den Consumer bitte nicht wieder hochfahren", "Keinesfalls die DB
    # migrieren"): a remark, so the model never reads the verb as a go (nor does it cancel one)
    Rule(
        "de-warning-remark",
        "OTHER",
        r"^(?!(?:wie|was|warum|wieso|wo|wann|erklar|sag)\b)(?!.*\?$).*\b(?:(?:nicht|nie) (?:wieder"
        r"|mehr|nochmal|erneut|neu)|keinesfalls|auf keinen fall|bloss nicht|ja nicht) (?:[\w'.-]+ )"
        r"{0,6}?(?!(?:warten|aufhalten|einschlafen|schlapp ?machen|aufgeben|nachlassen|zogern"
        r"|trodeln|stehen ?bleiben|aufhoren|anhalten|stoppen|pausieren)\W*$)"
        r"[\w-]+(?:en|ern|eln)\W*$"
        # the task's verb denied ("Jetzt bitte nicht den Export umsetzen"), the mirror of de-go-onto
        r"|^(?!.*\?$).*\b(?:nicht|nie) (?:[\w'.-]+ ){0,6}?(?:umsetzen|implementieren|einbauen"
        r"|loslegen|angehen)\W*$",
        0.7,
    ),
    # a go said as "put it into practice", "build it to the end", a formal "fahren Sie fort", the
    # next step named, or "dann mit X weiter" after a step: a clause of its own, not negated,
    # not asked ("Dein Plan klingt gut, setz ihn um.", "Als Nächstes bitte den Export.")
    Rule(
        "de-go-onto",
        "RESUMPTION",
        r"^(?!.*\b(?:nicht|nie|kein\w*)\b)(?!.*\?$)(?:(?:bitte|jetzt|dann|also|und|gut) )*(?:"
        r"setz(?:e|t|en sie)? (?:ihn|sie|es|das|(?:den|deinen|diesen) (?:plan|vorschlag|entwurf)"
        r"|(?:die|deine) idee|das konzept|das ganze) (?:jetzt |so |einfach |gleich )?um"
        rf"|(?:fahren|setzen) sie (?:{_W}){{0,4}}?fort"
        rf"|(?:bau|mach|schreib|bring)(?:e|t)? (?:{_W}){{0,6}}?(?:zu ende|fertig\W*$)"
        rf"|nimm (?:{_W}){{0,6}}?wieder auf|du machst (?:jetzt |einfach |dann |ruhig )?weiter"
        r"|geh(?:e|t)? (?:jetzt |bitte |dann )?(?:zum|zur) (?:nachsten|naechsten) [\w-]+"
        r"(?: uber)?\W*$"
        r"|als (?:nachstes|naechstes),? (?:bitte |dann )?(?:den|die|das|der|an|mit)"
        r"|(?:dann|danach|anschliessend) (?:bitte |wieder )?(?:mit|am|an|beim|bei)"
        rf" (?:{_W}){{0,5}}?weiter(?:machen)?\W*$|wir machen (?:{_W}){{0,5}}?weiter"
        r"|ubernimm(?:t)? (?:jetzt |du )?wieder"
        # the next piece named: "ab zum nächsten Screen", "nimm dir jetzt den Export vor"
        r"|ab (?:zum|zur|an den|an die|an das) (?:nachsten|naechsten) [\w-]+"
        rf"|nimm (?:dir|euch) (?:{_W}){{1,6}}?vor\W*$|schiess(?:t)? (?:jetzt |dann )?los\b"
        # the task's verb alone, or the next piece "now" ("Umsetzen.", "jetzt bitte den X einbauen",
        # "mach jetzt die Y")
        r"|(?:umsetzen|implementieren|einbauen|loslegen|angehen)\W*$|jetzt (?:bitte |noch )*"
        rf"(?:{_W}){{1,6}}?(?:umsetzen|implementieren|einbauen|angehen|bauen)\W*$"
        r"|mach(?:e|t)? (?:jetzt|dann|als nachstes) (?:bitte )?(?:die|den|das|mit)\b)\b"
        # asked politely, it is still a go: "Würdest du den Export bitte zu Ende bringen?"
        r"|^(?:wurdest|konntest|kannst|magst) du (?:(?!(?:nicht|nie|kein\w*) )[\w'.-]+ ){0,8}?"
        r"(?:zu ende (?:bringen|machen|bauen|schreiben)|fertig ?(?:machen|stellen|bauen"
        r"|schreiben))\?$",
        0.85,
    ),
    # a mention, not a request: a progress indicator named in a statement, a bug
    # ("Der Spinner beim Export dreht endlos"): a remark, which the model does not override
    Rule(
        "de-mention-remark",
        "OTHER",
        r"^(?!.*\?$)(?:der|die|das|ein|eine|dieser|diese|unser|unsere)"
        r" (?:spinner|lade-?spinner|fortschritts-?(?:balken|anzeige)|ladebalken|progress-?bar"
        r"|loader)\b",
        0.7,
    ),
    # the rest, done the same way: "mach den Rest genauso" (a rule of its own, not in VERB: each
    # copy of VERB in a pattern costs its compile time)
    Rule(
        "de-rest",
        "RESUMPTION",
        r"^(?!.*\bnicht\b)(?:[\w-]+ ){0,2}?(?:mach|erledig(?:e)?|schreib|bau)"
        r" (?:(?:auch|noch|jetzt|dann) )*den rest\b(?!.*\?$)",
        0.85,
    ),
)

LANGUAGE = Language(
    code="de",
    rules=RULES,
    fillers=(
        r"(?:ok(?:ay)?|ja|jo|jup|jep|gut|sehr gut|passt(?: so)?|alles klar|geht klar"
        r"|klar|super|prima|toll|perfekt|danke(?: dir| schon| sehr)?|vielen dank"
        r"|also|na|naja|nun|so|hm+|aha|ah|ach"
        r"|genau|verstanden|alles gut|schon gut|egal|ubrigens|eigentlich|bitte|einfach"
        r"|dann|und|aber|doch|okay|nee|ne|nein|noe)\b"
    ),
    connectives=r"\s+(?=(?:aber|dann|danach|anschliessend|bevor|und dann)\b)",
    joiners=rf"dass|ob|bis|{de_more.JOINERS}",
    later=(
        r"\b(?:morgen|ubermorgen|spater|nachher|heute (?:nachmittag|abend|nacht)|heut abend"
        r"|nachmittags?|abends|nachste woche|am montag|wenn ich (?:zuruck|wieder da)|sobald ich"
        r"|nach (?:dem|der|meinem|meiner|unserem|unserer|'m) (?:call|meeting|standup|stand-up"
        r"|daily|mittag\w*|essen|lunch|review|termin|besprechung|pause|sync|demo|retro|planning"
        r"|telefonat|anruf|feierabend)|nach (?:meinem|meiner|unserem|unserer) [\w-]+)\b"
        # by form: a weekday, a clock time, a span, "nach" + a noun (not "nach dem Plan")
        r"|\b(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)s?\b|\bwochenende\b"
        r"|\b(?:um|ab|gegen|bis) (?:\d{1,2}(?:[:.]\d{2})?|halb \w+|viertel (?:vor|nach) \w+|eins"
        r"|zwei|drei|vier|funf|fuenf|sechs|sieben|acht|neun|zehn|elf|zwolf|zwoelf)\b"
        rf"|\b\d{{1,2}}(?:[:.]\d{{2}})? ?uhr\b|{de_more.SPAN}"  # "in ner halben Stunde"
        r"|\bnach (?:dem|der|den|'m|seinem|seiner|ihrem"
        rf"|ihrer) (?!{de_more.STEP}|(?:gleichen|selben|plan|schema|muster|motto|vorbild|prinzip)\b"
        # the protocol's own things are looked for, not waited for: "guck nach dem Lock"
        r"|(?:locks?|worktrees?|journal|status|stand|zustand|rechten)(?![\w-]))[\w-]+"
    ),
    conditions=(
        # a clause that waits for an event: "warte, bis der Review durch ist, dann weiter" (the
        # comma before "bis" does not split: "mach weiter, bis alles grün ist" is a go)
        r"^wart(?:e|et|en sie)?(?: (?:noch|mal|bitte|kurz|erst))*,? bis"
        r" (?!(?:jetzt|hierhin|hierher|dahin|auf|dato)\b)|"
        r"\b(?:wenn|sobald|nachdem|falls|sowie|erst wenn)\b"
        r"(?! (?:du|ihr|dein\w*|euer\w*)\b| (?:es )?(?:notig|noetig|moglich|moeglich|geht|passt"
        r"|gewunscht)\b|'?s (?:geht|passt)\b)"
    ),
    retractions=(
        rf"(?:^|[\s,.!;])(?:{de_more.TAKEN_BACK}|vergiss es|vergiss das|lass (?:es|das|mal)"
        r" (?:lieber )?(?:sein|bleiben)|lieber (?:doch )?nicht|besser (?:doch )?nicht"
        r"|nein,? (?:warte|stopp|halt)|doch (?:warten|lieber warten|stopp))\b"
    ),
    approvals=(
        r"\b(?:freigegeben|genehmigt|abgesegnet|(?:ich )?geb(?:e)? (?:es|das|den plan|ihn) frei"
        r"|grunes licht|lgtm)\b"
    ),
    negations=r"\b(?:nicht|nie|kein\w*)\b",
    courtesies=(
        r"(?:^|(?<=[\s,;:.!?]))(?:(?:ganz )?(?:wenn|falls|sobald|wann immer) (?:du|ihr) (?:magst"
        r"|mochtest|moechtest|willst|wollt|mogt|moegt|kannst|konnt|zeit hast|zeit habt|lust hast"
        r"|lust habt|bereit bist|bereit seid|so ?weit bist|so ?weit seid)|wenn sie (?:mochten"
        r"|moechten|wollen|konnen|koennen)|wenn(?:'s| es) (?:dir|euch|ihnen) passt|nach belieben"
        r"|wie du (?:magst|willst)|in deinem tempo)(?=\s*(?:$|[,.!?;:]))"
    ),
)
