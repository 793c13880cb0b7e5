"""German rules of issue #45's nineteenth round (docs/interruptions.md, "Nineteenth round: the
rules (German and French)"): kinds the twenty-first batch missed, each read from messages of the
round's own in other wordings. Spliced at the end of ``de_more.FIRST`` (after the holds, before
the status rules). Text as in ``de.py`` (lowercased, umlauts folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

_NOT = r"(?!.*\b(?:nicht|nie|niemals|kein\w*|nix|nichts)\b)"
# "as agreed / as planned": the work planned before, now to be done
AGREED = (
    r"(?:so |genau |ganz )?wie (?:besprochen|abgesprochen|vereinbart|geplant|ausgemacht|abgemacht"
    r"|angekundigt|angekuendigt|gesagt|im plan|im ticket|in der planung"
    r"|(?:wir|ich) (?:es |das )?(?:besprochen|abgesprochen|vereinbart|geplant|gesagt)"
    r" (?:haben|hatten))"
)
# a comma before an "as agreed" or before a zu-infinitive ending in "?" does not cut the clause
# ("Bau X ein, wie besprochen", "Ist es schlau, den Solver synchron laufen zu lassen?")
JOINERS = AGREED + r"|[^,.;!?]*\b(?:zu [\w-]+|(?:ein|aus|an|auf|ab|um|vor|weg|mit)zu\w+en)(?=\s*\?)"
# a step of the agent's own work, after which a go is no wait ("nach dem Rebase bitte gleich
# weiter"): not a time in de.py's later, unless someone else's ("nach dem Rebase von Jonas")
STEP = (
    r"(?:(?:rebase|commit|push|fix|refactoring|refactor|aufraumen|aufraeumen|cleanup|lint|squash"
    r"|umbau)\b(?! (?:von|vom|durch)\b)"
    # the base branch brought in: "nach dem Merge von main" (not "nach dem Merge von Annas PR")
    r"|(?:merge|mergen|einmergen|reinmergen|rebase) (?:von|vom|mit|aus|auf) (?:origin/)?(?:main"
    r"|master|develop|dev|trunk)\b)"
)
# the work's verbs, imperative
_DO = (
    r"(?:bau|setz|implementier|integrier|programmier|schreib|erledig|zieh|mach|bring|erstell"
    r"|richt|erganz|ergaenz|migrier|importier|spiel|roll|leg|fuhr|fuehr|bastel|entwickel"
    r"|entwickl|stell|ubernimm|uebernimm|pack|code)(?:e|t)?"
)
DO = _DO  # (de_twentieth.py's too)
# a judgment asked: "is it smart / sensible / a good idea to …"
_JUDGED = (
    r"(?:schlau|sinnvoll|sinnvoller|klug|kluger|klueger|ratsam|clever|gut|besser|okay|ok"
    r"|vertretbar|sauber|sauberer|gefahrlich|gefaehrlich|riskant|zu riskant|performant genug"
    r"|(?:eine|ne|keine) (?:gute|schlechte|dumme) idee|overkill|uberflussig|ueberfluessig)"
)
# the words of the work's progress, which an alternative asks about as where it stands
_PROGRESS = (
    r"(?:fertig|durch|erledigt|gemerged?t?|gepusht|dran|bist|seid|arbeitest|arbeitet|steht"
    r"|stehst|schon|noch|gerade|grade)"
)
_PREP = r"(?:aus|von|vom|uber|ueber|per|via|in|im|mit|auf|bei|beim|nach|an|am|als)"
_TASK = r"(?:task|aufgabe|auftrag|ticket)[\w.-]*"
_MARKED = (
    r"(?:unterbrochen|pausiert|blockiert|abgeschlossen|erledigt|in arbeit|offen|fertig|aktiv"
    r"|geschlossen|abgebrochen|gestoppt|wartend|interrupted|paused|blocked|done)"
)

# a fault found in a thing, told: "Das SQL hat einen Syntaxfehler", "der Parser wirft wieder
# Exceptions" (a remark: no "?", nothing asked)
_FAULT = (
    r"(?:hat|haben|hatte|hatten|enthalt|enthaelt|enthalten|wirft|werfen|schmeisst|liefert"
    r"|spuckt) (?:(?:jetzt|immer noch|noch|wieder|schon|gerade|da|hier|auch) )*(?:(?:einen|eine"
    r"|ein|nen|ne|zwei|drei|mehrere|viele|ein paar|lauter) )?(?:[\w-]+ )?(?:[\w-]*fehler|bugs?"
    r"|typos?|exceptions?|warnungen|warnings?|nullpointer\w*)\b"
)
# what the code is about, asked to be summed up (not the work's progress: de.py's status rules)
_SUBJECT = (
    r"(?:architektur|code|logik|ablauf|flow|modul|design|struktur|api|algorithmus|funktionsweise"
    r"|pipeline|datenmodell|schema|idee|konzept|readme|doku\w*)"
)

NINETEENTH = (
    # the work planned before, now to be done: "Bau X jetzt ein, so wie besprochen",
    # "Implementier die Endpunkte wie im Plan", "wie abgesprochen setz das Rate-Limit um"; not
    # asked, not denied (a time or a condition holds it: de.py's later, conditions)
    Rule(
        "de-go-agreed",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:dann|also|jetzt|bitte|ok|und) )*(?:{_DO}\b(?: [\w'.-]+){{0,10}}?"
        rf",? {AGREED}(?: (?:ein|um|fertig|aus|durch|rein|an|zu ende))?|{AGREED},? {_DO}\b.*)\W*$",
        0.85,
    ),
    # a go in urgent slang, alone in its clause: "los los los", "go go go", "zackig weiter"
    Rule(
        "de-go-urgent",
        "RESUMPTION",
        r"^(?!.*\?$)(?:(?:na|also|dann|jetzt|und|ok) )*(?:los(?: los)+|go(?: go)+|(?:jetzt )?"
        r"(?:zackig|dalli|fix|flott|hurtig|schnell)(?: zackig| dalli)? weiter)\W*$",
        0.85,
    ),
    # a go after a step of the agent's own ("Nach dem Rebase bitte gleich weiter mit X", "nach
    # dem Commit machst du weiter"); not someone else's, not denied, not asked
    Rule(
        "de-go-after-step",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)nach (?:dem|der|den|'m) (?:[\w-]+-)?{STEP}(?: [\w'.-]+){{0,3}}?"
        r"(?: (?:bitte|gleich|direkt|sofort|dann|einfach|ruhig|machst|mach|du))*"
        r" (?:weiter|weitermachen|fortfahren)\b",
        0.85,
    ),
    # a judgment asked: a question on the design, not where the work stands ("Ist es schlau, den
    # Solver synchron laufen zu lassen?", "Macht es Sinn, X zu cachen?", "Wäre es besser, …")
    Rule(
        "de-judgment-question",
        "QUESTION",
        r"^(?:ist|war|ware|waere|wars|war's|ist's|isses)(?: es| das| sowas)? (?:(?:wirklich"
        rf"|eigentlich|echt|denn|uberhaupt|ueberhaupt|dann|so|nicht|wohl) )*{_JUDGED}\b"
        r"|^(?:macht|machts|macht's|wurde|wuerde) (?:es |das )?(?:(?:wirklich|eigentlich|denn"
        r"|uberhaupt|ueberhaupt|mehr) )*sinn\b|^lohnt (?:es|sich|das)\b",
        0.85,
    ),
    # a fault told: a remark, not a question ("Das SQL, das du generiert hast, hat einen
    # Syntaxfehler"); the model may not make it one (languages/firm.py)
    Rule(
        "de-fault-remark",
        "OTHER",
        r"^(?!.*\?$)(?!(?:ob|warum|wieso|weshalb|wie|was|wo|sag|erklar|kannst|konntest|gibt)\b)"
        rf"(?:.*\b)?{_FAULT}",
        0.7,
    ),
    # a state told "as planned": a remark, not a go nor a status ("Der Export läuft, wie
    # geplant.")
    Rule(
        "de-state-agreed-remark",
        "OTHER",
        rf"^(?!.*\?$)(?!(?:{_DO})\b)(?!.*\b(?:weiter\w*|fortfahren|fortsetzen|los|loslegen)\b)"
        r"(?:[\w'.-]+ ){1,5}?(?:lauft|laeuft|klappt|funktioniert|geht|ist|sind|passt|steht|lief"
        rf"|war|wurde|wird)\b(?: [\w'.-]+){{0,4}}?,? {AGREED}\W*$",
        0.7,
    ),
    # the code summed up: a question ("Fass mir die Architektur in zwei Zeilen zusammen")
    Rule(
        "de-summary-question",
        "QUESTION",
        r"^(?:(?:dann|bitte|mal|kurz) )*fass(?:t)? (?:(?:mir|uns|mal|bitte|kurz|doch) )*(?:die|den"
        rf"|das|deine|eure) (?:[\w-]+ )?{_SUBJECT}\b.*\bzusammen\b",
        0.85,
    ),
    # the task's record checked: its integrity or completeness, or the state it is marked with
    # ("Prüf die Integrität des Task-Eintrags", "Ist der Task korrekt als unterbrochen
    # markiert?"); not how it works ("Wie wird ein Task als unterbrochen markiert?"), not an
    # order to mark it ("markier den Task als erledigt")
    Rule(
        "de-audit-record",
        "AUDIT",
        r"^(?!(?:wie|warum|wieso|weshalb|wann|wozu|woran|wodurch|wer)\b)(?:.*\b(?:integritat"
        r"|integritaet|konsistenz|vollstandigkeit|vollstaendigkeit|korrektheit)\w* (?:des|der|vom"
        rf"|von dem|von der|im|in dem) (?:[\w-]+ )?{_TASK}\b|.*\b{_TASK}\b(?:[\w' .-]*)?"
        rf" (?:als|auf) {_MARKED} (?:[\w.-]+ )?(?:markiert|gesetzt|gekennzeichnet|eingetragen"
        r"|vermerkt|gefuhrt|gefuehrt|gelistet|hinterlegt|geflaggt)\b"
        # the record, not the work ("Ist die Aufgabe jetzt komplett?" asks where it stands)
        r"|(?:ist|sind) (?:der|die|das|dieser|diese|dieses) (?:(?:task|aufgaben)-?(?:eintrag"
        rf"|datensatz|record)\w*|(?:eintrag|datensatz|record)\w* (?:des|der|vom|zum|zur) {_TASK})"
        r"(?: [\w-]+)? (?:(?:auch|noch|wirklich|uberhaupt) )*(?:vollstandig|vollstaendig|komplett"
        r"|konsistent|intakt)\b)",
        0.85,
    ),
)

# after them, spliced at the end of de_more.RULES (after the sixteenth and seventeenth rounds'
# audits and status requests, which read "sag mir, ob der Lock …" and "sag mir, was du bisher …")
_ASKED = (
    r"(?:ob|was|wie|warum|wieso|weshalb|wo|wann|welche[rsmn]?|wer|woran|wodurch|wozu|inwiefern)"
)
LATE = (
    # an alternative of how the code does it, the same preposition twice: "Liest der Batch aus
    # der API oder aus der DB?" (not where the work stands: "Bist du beim Frontend oder beim
    # Backend?")
    Rule(
        "de-either-question",
        "QUESTION",
        rf"^(?=.*\?$)(?!.*\b{_PROGRESS}\b).*\b({_PREP}) (?:[\w'.-]+ ){{0,3}}?oder"
        r" (?:eher |doch |lieber )?\1\b",
        0.85,
    ),
    # a question said as an order to tell ("Sag mir, ob es einen Fall gibt, wo …", "erklär uns
    # mal, wie der Retry greift"); not the work's progress, not the protocol's state
    Rule(
        "de-tell-question",
        "QUESTION",
        r"^(?:(?:und|dann|bitte|mal|kurz|also) )*(?:sag|erklar|erklaer|erzahl|erzaehl|verrat)"
        rf"(?:e|t)? (?:mir|uns)(?: (?:mal|bitte|doch|kurz|noch|ehrlich|ruhig))*,? {_ASKED}\b"
        r"(?!.*\b(?:bisher|bis jetzt|soweit|so weit|schon|fertig|gemacht|geschafft|erledigt|stand"
        r"|stehst|status|fortschritt|lock\w*|worktrees?|journal\w*|session\w*|hooks?|claims?)\b)",
        0.8,
    ),
)
