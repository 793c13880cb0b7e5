"""German rules of issue #45's twentieth round (docs/interruptions.md, "Twentieth round: the
rules (German and French)"): kinds the twenty-second batch missed, in every language, each read
from messages of the round's own in other wordings. ``TWENTIETH`` is spliced at the end of
``de_more.FIRST`` (after the holds and the earlier rounds' forms, before the status rules), and
``JOINERS`` extends the nineteenth round's. Text as in ``de.py`` (lowercased, umlauts folded).

The twenty-first round's ("Twenty-first round: the rules (German and French)") are here too:
``TWENTYFIRST``, spliced after ``TWENTIETH``, and ``TWENTYFIRST_LATE``, at the end of
``de_more.RULES`` (the older rounds' status, audit and question rules read their forms first)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import de_kinds

# "alles, was du …" is a relative clause, the object of the verb before it ("Erst auditierst du
# alles, was du angefasst hast"), not a question of its own; and "…, als du X hast?" is the past
# event a question asks about ("Wurde der Lock freigegeben, als du pausiert hast?")
JOINERS = (
    de_kinds.JOINERS + r"|(?<=\balles, )was|(?<=\bdas, )was"
    r"|als (?:du|ihr|wir|ich)\b(?=[^,.;!]*\?)"
    # what the agent found out is the clause's object ("hast du rausgefunden, woher es kommt?")
    r"|(?<=gefunden, )(?:warum|wieso|weshalb|woher|wo|was|wer|wie)\b"
)

_NOT = r"(?!.*\b(?:nicht|nie|niemals|kein\w*|nix|nichts)\b)"
_DO = de_kinds.DO
_NOUN = r"(?:lock\w*|worktrees?|journal\w*|session\w*|sitzung(?:en)?|hooks?|task\.json|claims?)"
_APP = (
    r"(?:user\w*|nutzer\w*|benutzer\w*|kunde\w*|login|logout|browser|cookies?|mutex\w*|redis"
    r"|datenbank\w*|threads?|requests?|react|webhooks?|komponente\w*|api|app|server\w*)"
)
# a piece of the work delivered: what a user waits for ("die erste Version", "den Entwurf")
_DELIVERED = (
    r"(?:version|entwurf|stand|prototyp\w*|demo|pr|mr|merge request|pull request|build|release"
    r"|ergebnis\w*|zwischenstand|vorschau|preview|rohfassung|fassung|draft|beta|mvp|lieferung)"
)
# a protocol event that happened, and when ("als du pausiert hast", "beim letzten Commit")
_HAPPENED = (
    r"(?:freigegeben|gelaufen|durchgelaufen|ausgelost|ausgeloest|getriggert|gegriffen|geloscht"
    r"|geloescht|entfernt|aufgeraumt|aufgeraeumt|angelegt|erstellt|gesetzt|geschrieben"
    r"|eingetragen|zuruckgegeben|zurueckgegeben|abgegeben|ausgefuhrt|ausgefuehrt|aktualisiert"
    r"|vermerkt|gestartet|beendet|geschlossen|ubernommen|uebernommen)"
)
_WHEN = r"(?:als (?:du|ihr|wir|ich)|beim (?:letzten |ersten )?[\w-]+|nach (?:dem|deinem) [\w-]+)"
# a stop, a wait or a go wondered about is no question on the code
_STOPS = (
    r"(?:aufhoren|aufhoeren|pausieren|anhalten|warten|abwarten|stoppen|weiter\w*|fortfahren"
    r"|fortsetzen|loslegen|abbrechen|morgen|spater|spaeter|nachher|feierabend)"
)

TWENTIETH = (
    # a wait kept up: "also weiter warten", "wir müssen weiterhin abwarten", "wart noch weiter
    # ab" (a hold: not a go of "weiter"; "nicht weiter warten" is not one, nor "ohne zu warten")
    Rule(
        "de-hold-waiting",
        "OTHER",
        # (the wait's verb consumed, the rest looked ahead: the verb is the gate's word, so "weiter
        # machen bitte" does not compile it)
        r"^(?!.*\b(?:nicht|nie|ohne|kein\w*|nix|statt|anstatt)\b)(?=(?:.*\b)?(?:weiter|weiterhin)"
        r" (?:[\w'.-]+ ){0,4}?(?<!\bzu )(?:abwarten|warten|stillhalten|pausieren|ausharren"
        r"|gedulden)\b).*(?:warten|stillhalten|pausieren|ausharren|gedulden)"
        r"|^(?!.*\b(?:nicht|nie|ohne)\b)(?=(?:.*\b)?(?:wart|warte|wartet)"
        r" (?:[\w'.-]+ ){0,3}?(?:weiter|weiterhin)\b).*\bwart",
        0.85,
    ),
    # an order to mark the task ("markier den Task als erledigt", "setz die Aufgabe auf
    # blockiert"): an instruction, no check of the record and no go (languages/firm.py)
    Rule(
        "de-mark-remark",
        "OTHER",
        r"^(?!.*\?$)(?:(?:bitte|dann|und|jetzt|also) )*(?:markier|setz|trag|flagg|kennzeichne)"
        r"(?:e|t)? (?:(?:bitte|mal|jetzt|dann|gleich) )*(?:den|die|das|diesen|diese|unseren"
        r"|deinen) (?:[\w-]+ )?(?:task|aufgabe|ticket)[\w.-]* (?:(?:bitte|mal|jetzt|dann|gleich)"
        r" )*(?:als|auf) [\w-]+(?: (?:ein|markieren|setzen))?(?!.*\w)",
        0.7,
    ),
    # an audit said to "du", the verb first ("Erst auditierst du alles, …", "Jetzt prüfst du den
    # Lock"): the order of the German du-form, not a question
    Rule(
        "de-audit-you",
        "AUDIT",
        r"^(?!.*\?$)(?:(?:erst|zuerst|jetzt|dann|als erstes|vorher|danach|also|und) )*"
        r"(?:auditierst|auditiert) (?:du|ihr)\b|^(?!.*\?$)(?:(?:erst|zuerst|jetzt|dann|als erstes"
        r"|vorher|danach|also|und) )*(?:prufst|pruefst|checkst|kontrollierst|verifizierst"
        rf"|uberprufst|ueberpruefst) (?:du|ihr)\b(?=.*\b{_NOUN}\b)",
        0.85,
    ),
    # a past protocol event, asked: "Wurde der Lock sauber freigegeben, als du pausiert hast?",
    # "Hat der pre-commit-Hook beim letzten Commit gegriffen?" (not how it works: "Wird der Lock
    # freigegeben, wenn …?", not the app's, not why)
    Rule(
        "de-audit-past",
        "AUDIT",
        r"^(?=.*\?$)(?:wurde|wurden|ist|sind|hat|haben|hast|war|waren)\b(?! (?:du|ihr)\b)"
        rf"(?=.*\b{_NOUN}\b)(?!.*\b{_APP}\b)(?=.*\b{_WHEN}).*\b{_HAPPENED}\b",
        0.85,
    ),
    # a status asked as when the user gets a piece of the work: "Wann kann ich mit dem ersten
    # Entwurf rechnen?", "wann krieg ich die erste Version vom Export", "Bis wann ist X fertig?"
    # (not "Wann kann ich den Server neu starten?")
    Rule(
        "de-status-when",
        "STATUS_REQUEST",
        r"^(?:ab |bis )?wann (?:kann|konnte|koennte|darf|werde|wurde|wuerde|krieg|kriege|bekomm"
        r"|bekomme) ich (?:(?:denn|ungefahr|ungefaehr|etwa|so|endlich|eigentlich|mit) )*"
        rf"(?:(?:den|die|das|dem|der|eine?[nmr]?|deine?[nmr]?|ersten?|erster|neuen?) )*"
        rf"(?:[\w-]+ )?{_DELIVERED}\b(?!.*\b(?:zuletzt|gestern|damals)\b)"
        r"|^bis wann (?:ist|sind|hast du|habt ihr|wird|werden|bist du|kriegst du|schaffst du)\b"
        r"(?=.*\b(?:fertig|durch|erledigt|drin|live|gemerged?t?|umgesetzt|gebaut|soweit)\b)",
        0.85,
    ),
    # what is still to happen before the agent can deliver: where the work stands ("Was muss
    # noch passieren, bis du den PR aufmachen kannst?", "was fehlt dir noch, damit du mergen
    # kannst"); not what the user must do, not how the protocol works ("damit der Lock …")
    Rule(
        "de-status-still-needed",
        "STATUS_REQUEST",
        r"^was (?:muss|fehlt|braucht es|brauchst du|brauchst|fehlt dir|musst du)(?: (?:denn|dir"
        r"|alles|eigentlich))* noch\b(?!.*\bich\b)(?:(?=.*\b(?:bis|bevor|damit|ehe) (?:du|ihr)\b)"
        r"|(?: (?:passieren|geschehen|getan werden|erledigt werden))?(?!.*\w))",
        0.85,
    ),
    # its clause "bevor du … kannst", after a comma: it asks nothing of its own (a remark)
    Rule(
        "de-before-you-can-remark",
        "OTHER",
        r"^(?:bevor|bis|damit|ehe) (?:du|ihr) "
        r"(?!.*\b(?:weiter\w*|fortfahren|fortsetzen|loslegen)\b)"
        r".*\b(?:kannst|konnt|koennt|darfst|durft|duerft)\b",
        0.7,
    ),
    # a status asked to be sent: "kannst du mir einen Status zum Mahnlauf schicken?", "schick
    # mir mal den aktuellen Stand" (not a status code, not the lock's state: an audit's)
    Rule(
        "de-status-send",
        "STATUS_REQUEST",
        r"^(?:(?:kannst|konntest|koenntest|wurdest|wuerdest) du )?(?:mir |uns )?(?:(?:mal|kurz"
        r"|bitte|noch|schnell) )*(?:(?:schick|send|gib|mail)(?:e|st)? (?:mir |uns )?(?:(?:mal"
        r"|kurz|bitte|noch|schnell) )*)?(?:einen|den|nen|deinen|ein|das) (?:kurzen |aktuellen"
        r" |knappen |neuen )?(?:status|stand|zwischenstand|statusbericht|statusupdate|update"
        rf"|fortschrittsbericht|lagebericht)(?![\w-])(?!.*\b{_NOUN}\b)"
        r"(?=.*\b(?:schick\w*|send\w*|geben|gib|mail\w*|durchgeben|schreiben)\b)",
        0.85,
    ),
    # done-ness asked alone: "und, fertig?", "schon gemerged?", "endlich durch?"
    Rule(
        "de-status-bare",
        "STATUS_REQUEST",
        r"^(?:(?:und|na|also|so|ok|jetzt) )*(?:schon |endlich |jetzt |denn )?(?:fertig|durch"
        r"|erledigt|feddich|ferdig|gemerged?t?|live|drin|gepusht)\s*\?+$",
        0.85,
    ),
    # a go as the task's final verb on it ("Die Freigabe ist durch, deploy es.", "roll es aus",
    # "merge es jetzt"): not denied, not asked (a time or a condition holds it: de.py's later)
    Rule(
        "de-go-ship",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:dann|also|jetzt|und|ok|gut|bitte) )*(?:deploy|deploye|roll"
        r"|spiel|merg|merge|ship|liefer)(?:e|t)? (?:es|das|ihn|sie|das ganze)(?: (?:jetzt|bitte"
        r"|gleich|direkt|ruhig|dann|einfach))*(?: (?:aus|ein|raus|live))?(?!.*\w)",
        0.85,
    ),
    # a go on what is missing of the work: "schreib die fehlenden Tests für den ETL", "bau den
    # Rest vom Export", "implementier alles, was noch fehlt" (not denied, not asked)
    Rule(
        "de-go-missing",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:dann|also|jetzt|und|bitte|ok) )*{_DO}\b(?: (?:mal|jetzt|bitte"
        r"|noch|dann|gleich|direkt))* (?:(?:die|den|das) (?:noch )?(?:fehlenden|restlichen|offenen"
        r"|ubrigen|uebrigen|ausstehenden) |den rest (?:vo[nm]|der|des|beim|bei)\b|(?:das|alles),?"
        r" was (?:[\w'.-]+ ){0,5}?(?:noch )?(?:fehlt|offen ist|aussteht))",
        0.85,
    ),
    # a go back to the work: "dann kannst du wieder an die Arbeit", "zurück an den Code"
    Rule(
        "de-go-back",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:dann|und|jetzt|also|danach) )*(?:(?:du )?(?:kannst|darfst)"
        r" (?:du )?)?(?:(?:jetzt|wieder|dann|gern|gerne|ruhig) )*(?:wieder|zuruck|zurueck)"
        r" (?:an die arbeit|an den code|an die aufgabe|an den task|ans werk|an deine aufgabe)"
        r"(?!.*\w)",
        0.85,
    ),
    # what was planned, now done: "mach das, was du geplant hattest", "mach, was geplant war"
    Rule(
        "de-go-planned",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:dann|also|jetzt|und|bitte|ok) )*(?:mach|macht|zieh|setz|bau)"
        r"(?:e|t)?(?: das)?,? was (?:du|ihr|wir) (?:[\w'.-]+ ){0,4}?(?:geplant|vorhattest"
        r"|vorgehabt|vorgesehen|besprochen|abgesprochen)(?: (?:hattest|hast|hattet|habt|hatten"
        r"|haben))?(?: (?:durch|um|ein))?(?!.*\w)|^(?:mach|zieh)(?:e|t)?(?: das)?,? was (?:geplant"
        r"|vorgesehen|besprochen) (?:war|ist)(?: durch)?(?!.*\w)",
        0.85,
    ),
    # a wonder on the code, "ob wir / man … besser … sollten": a question ("Ich frage mich, ob
    # wir die Preise nicht lieber in Cent speichern sollten"); not one on stopping or going on
    Rule(
        "de-wonder-should-question",
        "QUESTION",
        r"^(?:ich )?frag(?:e)? mich(?: (?:gerade|grad|grade|echt|ehrlich gesagt|schon|manchmal"
        rf"|wirklich|eben))?,? ob (?:wir|man) (?!.*\b{_STOPS}\b)(?:[\w'.-]+ ){{1,10}}?"
        r"(?:sollten|sollte|mussten|muessten|musste|muesste|wurden|wuerden|konnten|koennten)(?!.*\w)",
        0.85,
    ),
    # what a command or an upgrade does, asked in the present ("Löscht git worktree prune auch
    # den Lock?"): how it works, not the protocol's state now (languages/firm.py)
    Rule(
        "de-command-question",
        "QUESTION",
        r"^(?=.*\?$)(?!.*\b(?:gerade|grade|jetzt|noch|schon|wieder|eben)\b)(?:loscht|loescht"
        r"|entfernt|raumt|raeumt|killt|uberschreibt|ueberschreibt|behalt|behaelt|blockiert"
        r"|verandert|veraendert|andert|aendert|gibt) (?:(?:ein|das|der|die|den) )?(?:git|taskproto"
        r"|doctor|upgrade|update|rebase|merge|reset|squash|script|skript|cronjob|befehl|kommando)\b",
        0.85,
    ),
    # a threshold of the protocol, asked: "Wie lange darf der Heartbeat ausbleiben, bevor …?",
    # and the clause of the time it waits for ("bevor die Session als tot gilt?")
    Rule(
        "de-threshold-question",
        "QUESTION",
        r"^(?:wie lange|nach wie ?viel\w* (?:zeit|sekunden|minuten|stunden))\b(?=.*\b(?:darf"
        r"|durfen|duerfen|kann|konnen|koennen|muss|mussen|muessen|soll)\b)(?=.*\b(?:lock\w*"
        r"|heartbeat\w*|session\w*|worktrees?|claims?|timeout\w*|ttl)\b)(?!.*\b(?:du|ihr|dich"
        r"|dir)\b)|^(?:bevor|bis) .*\b(?:als|fur|fuer) (?:tot|verwaist|abgelaufen|stale|veraltet"
        r"|inaktiv|verloren|haengend|hangend)\b.*\b(?:gilt|gelten|zahlt|zaehlt|betrachtet"
        r"|markiert|erklart|erklaert|angesehen)\b.*\?$",
        0.85,
    ),
)

# the twenty-first round's (docs/interruptions.md, "Twenty-first round: the rules (German and
# French)"): the kinds the twenty-third batch missed, spliced after TWENTIETH
_NOW = r"(?:jetzt|nun|ab jetzt|als nachstes|als naechstes|gleich|sofort|direkt)"
# a stop, a pause, a revert or a wait said with a work verb ("mach jetzt Pause", "stell jetzt
# alles ein", "roll jetzt zurück"): no go
_NO_WORK = (
    r"(?!.*\b(?:pause|schluss|feierabend|stopp?|halt|nichts|nix|warten|abwarten|zuruck|zurueck"
    r"|beiseite|auf eis|einstellen|stell\w* (?:[\w'.-]+ ){0,4}ein|setz\w* (?:[\w'.-]+ ){0,4}aus"
    # a stop after the piece: "erledig jetzt den Commit und hör dann auf"
    r"|(?:hor|hoer)\w* (?:[\w'.-]+ ){0,3}?auf(?! zu)|aufhor\w*|aufhoer\w*|anhalt\w*"
    r"|stopp\w*|(?:hor|hoer)t?$)\b)"  # ("dann auf" cut off as a clause of its own)
)
_STOP = (
    r"(?:aufhoren|aufhoeren|anhalten|stoppen|pausieren|warten|innehalten|stehen ?bleiben"
    r"|unterbrechen|eine pause machen|kurz pause machen|die finger davon lassen)"
)
_GO_INF = (
    r"(?:weitermachen|weiterarbeiten|fortfahren|loslegen|weiter machen|weitercoden"
    r"|weiterbauen|dranbleiben|wieder ran|(?:dich |euch )?(?:wieder )?dransetzen)"
)

TWENTYFIRST = (
    # a go on the next piece after an instruction or an understanding, with a now: "Dann setz
    # jetzt das Caching um", "lass X so und kümmer dich jetzt ums Frontend" (not denied, not
    # asked, not a pause said with a work verb; "mach jetzt X" is de.py's de-go-onto)
    Rule(
        "de-go-now",
        "RESUMPTION",
        rf"{_NOT}{_NO_WORK}(?!.*\?$)(?:^|\b(?:und|dann|danach) )(?:(?:dann|also|und|ok|gut"
        rf"|bitte) )*(?:(?!mach){_DO}|(?:kummer|kuemmer|konzentrier|widme)(?:e|t)? (?:dich|euch))"
        rf"(?: (?:bitte|mal|dann|du))* {_NOW}\b",
        0.85,
    ),
    # a go on a piece named long ("Mach bitte mit den Tests fürs neue Bezahlmodul weiter"): the
    # go's verb with "mit" and the piece, "weiter" ending the clause
    Rule(
        "de-go-with",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:dann|also|jetzt|und|ok|bitte) )*mach(?:e|t)? (?:(?:bitte|mal"
        r"|jetzt|dann|einfach|ruhig|gleich) )*mit (?=(?:[\w'.-]+ ){1,10}?weiter(?!.*\w))"
        # its infinitive, the colloquial order ("und dann mit dem Abo-Billing weitermachen"; the
        # go looked ahead: the gate's word is "mit", not "weiter")
        rf"|^{_NOT}(?!.*\?$)(?:(?:dann|danach|anschliessend|und|jetzt|bitte) )*mit (?=(?:[\w'.-]+"
        r" ){1,8}?(?:weitermachen|weiterarbeiten|weiter machen)(?: (?:bitte|pls|danke))?(?!.*\w))",
        0.85,
    ),
    # slang and "full steam" gos, and one after a check ("prüf erst das Journal und dann volle
    # Kraft auf die Migration", "los los los, ran an X", "vollgas bei der Suche")
    Rule(
        "de-go-slang",
        "RESUMPTION",
        rf"{_NOT}(?!.*\?$)(?:^(?:(?:und|dann|jetzt|also|ok) )*|\b(?:und )?(?:dann|danach"
        r"|anschliessend) )(?:volle kraft(?: voraus)?|vollgas|volldampf(?: voraus)?"
        r"|los,? los(?:,? los)*|go,? go(?:,? go)*|gogo(?:go)*|auf,? auf)(?![\w-])",
        0.85,
    ),
    # a go asked politely ("magst du weitermachen?", "möchtest du mit dem Import loslegen?"):
    # not denied, and a time still holds it (de.py's later)
    Rule(
        "de-go-asked",
        "RESUMPTION",
        r"^(?!.*\b(?:nicht|nie|kein\w*|nix|warum|wieso|wann|ob)\b)(?:(?:und|also|dann|jetzt) )*"
        r"(?:magst|mochtest|moechtest|wurdest|wuerdest|konntest|koenntest) (?:du|ihr)\b"
        rf"(?: [\w'.-]+){{0,6}}? {_GO_INF}\s*\?*$",
        0.85,
    ),
    # a hold asked as a question ("kannst du kurz aufhören?", "könnten Sie mal anhalten?"): a
    # hold, never a question or a go (not "aufhören zu fragen", not denied)
    Rule(
        "de-hold-asked",
        "OTHER",
        r"^(?!.*\b(?:nicht|nie|weiter\w*|fortfahren|loslegen)\b)(?:(?:und|also|bitte|hey|du) )*"
        r"(?:kannst|konntest|koenntest|wurdest|wuerdest|magst|konnen|koennen|konnten|koennten"
        r"|wurden|wuerden) (?:du|ihr|sie) (?:(?:mal|kurz|bitte|eben|gerade|grad|jetzt|einen moment"
        rf"|erst|erstmal|bitte mal|kurz mal|mal kurz) )*{_STOP}\b(?! zu\b)"
        # (a hold until an event is still one: "…, bis die CI durch ist?")
        r"(?:,? (?:bis|bevor|solange|ehe) .*)?\s*\?*$",
        0.85,
    ),
    # a go taken back told as a story ("eigentlich wollte ich 'weiter' sagen, aber …", the
    # quoted word gone from the clause): no go
    Rule(
        "de-go-told-back",
        "OTHER",
        r"^(?:eigentlich )?(?:wollte|hatte|wurde|wuerde) ich (?:(?:eigentlich|schon|gerade|grad"
        r"|fast|erst) )*(?:sagen|schreiben|tippen)(?!.*\w)|^ich (?:wollte|hatte) (?:eigentlich"
        r"|schon|gerade|grad|fast) (?:[\w'.-]+ ){0,3}?(?:sagen|schreiben|tippen)(?!.*\w)",
        0.85,
    ),
    # when the user first gets to see the work ("Wann kann ich mir X zum ersten Mal im Browser
    # anschauen?"): where it stands
    Rule(
        "de-status-first-time",
        "STATUS_REQUEST",
        r"^(?=.*\b(?:sehen|anschauen|ansehen|angucken|ausprobieren|testen|nutzen|benutzen"
        r"|klicken|durchklicken|bedienen|begutachten|abnehmen|reviewen)\b)(?:ab |bis )?wann"
        r" (?:kann|konnen|koennen|darf|durfen|duerfen|werde|krieg|kriege|bekomm|bekomme) (?:ich"
        r"|wir)\b.*\b(?:zum ersten mal|erstmals|endlich)\b",
        0.85,
    ),
    # an overview of the work asked ("ich bräucht mal ne Übersicht", "gib mir nen Überblick:
    # fertig vs offen"), not one of the code ("eine Übersicht über die Endpunkte")
    Rule(
        "de-status-overview",
        "STATUS_REQUEST",
        r"^(?:(?:ich|wir|und|also|kurz|mal) )*(?:brauch\w*|bracht\w*|braucht\w*|brauecht\w*"
        r"|hatte\w*|haette\w*|will|wurde\w*|wuerde\w*|mocht\w*|moecht\w*|gib|gibst du|kannst du"
        r"|konntest du|koenntest du)(?: (?:gern\w*|mal|kurz|bitte|mir|uns|noch))* (?:eine|ne|nen"
        r"|einen|n|den) (?:(?:kurzen?|knappen?|schnellen?|kleinen?|aktuellen?) )?(?:ubersicht"
        r"|uebersicht|uberblick|ueberblick|zusammenfassung)(?:(?: (?:haben|geben|bekommen"
        r"|kriegen))?(?!.*\w)| (?:uber|ueber|zu[mr]?|vom)(?: den| dem| die)? (?:stand|status"
        r"|fortschritt)\b| (?:was|wie weit)\b)",
        0.85,
    ),
    # impatience at the work itself ("wieso dauert das so lange?"), not at the code's speed
    # ("warum braucht die Query so lange?")
    Rule(
        "de-status-impatient",
        "STATUS_REQUEST",
        r"^(?:(?:und|na|also|man|mensch|boah|hey) )*(?:warum|wieso|weshalb) (?:dauert|braucht"
        r"|brauchst|braucht ihr) (?:das|es|du|ihr|das ganze|das hier)(?: (?:denn|eigentlich"
        r"|immer noch|noch|bei dir|so))* (?:so )?(?:lange|ewig|ewigkeiten)\b",
        0.85,
    ),
    # whether the agent found out what it looked into ("hast du rausgefunden, woher es
    # kommt?"): where its work stands, not how ("wie hast du rausgefunden …?")
    Rule(
        "de-status-found-out",
        "STATUS_REQUEST",
        r"^(?:(?:und|na|also|so) )*(?:hast|habt) (?:du|ihr) (?:[\w'.-]+ ){0,6}?(?:rausgefunden"
        r"|herausgefunden|rausbekommen|herausbekommen|rausgekriegt)\b",
        0.85,
    ),
    # a check asked casually, its verb last ("lockdatei checken pls", "mal eben den Worktree
    # prüfen"): an audit (not denied)
    Rule(
        "de-audit-casual",
        "AUDIT",
        rf"^{_NOT}(?:(?:bitte|mal|kurz|eben|schnell|noch) )*(?:(?:den|die|das|deinen|deine"
        r"|unseren|unsere) )?(?:[\w-]+ )?(?:lock|worktree|journal|session|hook|task\.json|claim)"
        r"[\w.-]*(?= (?:(?:mal|kurz|bitte|eben|noch"
        r"|schnell|nochmal) )*(?:checken|prufen|pruefen|uberprufen|ueberpruefen|kontrollieren"
        r"|verifizieren|validieren|auditieren|nachprufen|nachpruefen|gegenchecken)"
        r"(?:\s*(?:pls|plz|bitte|danke|thx|mal|asap))*\W*$)",
        0.85,
    ),
)

# the twenty-first round's that come last (de_more.RULES' end): the older rounds' status and
# question rules read their own forms first ("Status beim Export?" is de-status-terse's)
TWENTYFIRST_LATE = (
    # a status asked as a fragment: "status export??", "stand login?", "update zum Kalender?"
    # (not a status code, nor the protocol's: "status des locks?")
    Rule(
        "de-status-fragment",
        "STATUS_REQUEST",
        rf"^(?!.*\b(?:code|codes|feld|{_NOUN})\b)(?:(?:und|na|also|so|hey|kurz|mal) )*(?:status"
        r"|stand|fortschritt|zwischenstand|stand der dinge)(?: [\w.-]+){0,3}\s*\?+$"
        r"|^(?:(?:und|na|also|so|hey|kurz|mal) )*(?:updates?|news|neuigkeiten) (?:zu[mr]?|vom"
        rf"|von|beim?|bei der)\b(?!.*\b{_NOUN}\b)(?: [\w.-]+){{1,3}}\s*\?+$",
        0.85,
    ),
    # a doubt on a fact of the code ("bist du sicher, dass das Feld optional ist?"): a
    # question, not the work's status (nor one on its being done)
    Rule(
        "de-sure-question",
        "QUESTION",
        r"^(?!.*\b(?:fertig|erledigt|durch|weiter\w*|gemerged?t?|gepusht)\b)(?:(?:und|aber|also"
        r"|hm+|moment) )*(?:(?:bist du|sind sie|seid ihr) (?:dir |sich |euch )?(?:(?:da|wirklich"
        r"|ganz|echt|absolut|denn|eigentlich) )*)?(?:sicher|sure),? (?:dass|das)\b",
        0.85,
    ),
)
