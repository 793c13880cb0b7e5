"""French rules of issue #45's sixteenth round (docs/interruptions.md, "Sixteenth round: the
rules (German, French)"), spliced into ``fr.py``'s table before ``fr-audit-state``: a question on
how the protocol works or on the app's own locks and sessions, one on the protocol's state now,
what is asked before a go, and two remarks that ask nothing. Text as in ``fr.py`` (lowercased,
accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.fr_kinds import LATE, NINETEENTH
from taskproto.classify.languages.fr_kinds import STEP as STEP  # fr.py's later
from taskproto.classify.languages.fr_twentieth import BEFORE as BEFORE  # fr.py's
from taskproto.classify.languages.fr_twentieth import TWENTIETH, TWENTYFIRST, TWENTYFIRST_LATE
from taskproto.classify.languages.fr_twentysecond import IF_HELD as IF_HELD  # fr.py's
from taskproto.classify.languages.fr_twentysecond import JOINERS as JOINERS  # fr.py's joiners
from taskproto.classify.languages.fr_twentysecond import LEAVING as LEAVING  # fr.py's
from taskproto.classify.languages.fr_twentysecond import (
    TWENTYSECOND,
    TWENTYTHIRD,
    TWENTYTHIRD_LATE,
)
from taskproto.classify.languages.table import WORK

# The task's own protocol objects, and the words that put them in the app's code instead (a
# user's session, a mutex, a React hook): those questions are the code's, not an audit.
_NOUN = (
    r"(?:verrous?|locks?|worktrees?|sessions?|journal|journaux|hooks?|task\.json|claims?"
    r"|enregistrement de la tache|fiche de la tache)"
)
_APP = (
    r"(?:utilisateur\w*|users?|clients?|navigateur|cookies?|mutex|redis|base de donnees|bdd"
    r"|threads?|requetes?|connexion|login|react|use\w+|webhooks?|api|app|appli\w*|serveur\w*"
    r"|composant\w*)"
)
# How the protocol works, not how it is now: "Est-ce que le verrou est libéré quand ...?"
_RULE = r"(?:automatiquement|en general|normalement|quand|lorsque|si|chaque|par defaut)"
_STATE = (
    r"(?:existe(?:nt)? (?:encore|toujours)|(?:encore|toujours) (?:la|actif|active|actifs|actives"
    r"|ouverte?s?|pris|prise|tenu|a toi|a nous|a moi)|ouverte?s?|actif|active|actifs|actives"
    r"|a jour|liberee?s?|relachee?s?|reprise?s?|corrompue?s?|enregistree?s?|installee?s?"
    r"|supprimee?s?|nettoyee?s?|perdue?s?|morte?s?|plantee?s?|bien a (?:toi|nous|moi)"
    r"|desactivee?s?|contournee?s?|declenchee?s?|libres?"
    # a session new or taken over ("la session est neuve ou réutilisée ?")
    r"|neuve?s?|nouvelle?s?|reutilisee?s?|recyclee?s?|recuperee?s?)"
)
_FIRST = r"(?:d'abord|avant|avant ca|avant tout|en premier|au prealable)"

# Issue #45's seventeenth round (docs/interruptions.md, "Seventeenth round: the rules (German and
# French)"): each rule written for a kind, from messages of the round's own, not a batch's wording.
_NOT = r"(?!.*(?:\bpas\b|\bjamais\b|\bplus\b|\bne\b|\bn'))"
_AFTER = r"(?:apres|ensuite|puis|apres ca|derriere|une fois (?:fait|que c'est fait))"
_FINISH = (
    r"(?:finis|termines|acheves|fais|codes|attaques|enchaines|implementes|ecris|reprends"
    r"|continues|integres|boucles|montes|finissez|terminez|achevez|faites|codez|attaquez"
    r"|enchainez|implementez|reprenez|continuez|integrez|bouclez)"
)

# Issue #45's eighteenth round (docs/interruptions.md, "Eighteenth round: the rules (German and
# French)"): the kinds the twentieth batch missed, each rule read from messages of the round's own.
# A question said as wondering, doubt or not understanding: "je me demande si …", "c'est pas
# clair pour moi ce que …", "je suis pas sûr que …", "aucune idée si …", "j'aimerais comprendre"
_WONDER = (
    r"(?:je me (?:demande|demandais|pose la question)|(?:je |j')?(?:ne )?(?:comprends|saisis|pige"
    r"|capte|vois) (?:toujours |vraiment )?pas(?: (?:bien|trop|vraiment|tres bien|du tout))?"
    r"|(?:j'ai|je n'ai|j'ai toujours) (?:pas|jamais|mal) (?:bien |trop |vraiment |tout )?(?:compris"
    r"|saisi|pige|capte)|(?:c'est|ce n'est|c'|ca) (?:pas|n'est pas) (?:tres |trop |super |vraiment"
    r" |bien )?clair(?: pour moi)?|(?:j'ai du mal|je galere) a (?:comprendre|saisir|voir)"
    r"|ca m'echappe"
    r"|(?:j'aimerais|je voudrais|j'aimerai) (?:bien |vraiment )?(?:comprendre|savoir|piger)"
    r"|aucune idee|(?:je suis|je ne suis|chuis|j'suis|suis) pas (?:tres |vraiment |bien |trop )?"
    r"(?:sure?|certaine?|convaincue?)|(?:je |j')?(?:ne )?sais pas(?: trop| vraiment| bien)?)"
)
# what is wondered (not a wish of ours, a hold or a go: "je me demande si on devrait pas
# s'arrêter là")
_WHAT = (
    r",? (?:si|s'|pourquoi|comment|ce qu|ce que|ce qui|a quoi|en quoi|quel(?:le)?s?|ou|quand"
    # something wondered after it ("…, aucune idée pourquoi." after a bug told is a remark), not
    # the user's own liking ("si j'aime l'approche")
    r"|qui|combien|que|qu'|d'ou|l'interet)\b(?:(?<=')|(?<=\w) )(?=\w)(?!.*(?:\bje\b|\bj'))"
    r"(?!.*\b(?:on|nous|je) (?:devrait|devrions|doit|devons"
    r"|ferait|ferions|pourrait|pourrions|arrete)\b)(?!.*\b(?:arret\w*|pause|attend\w*|continu\w*"
    r"|repren\w*|reprends|poursui\w*|demain|plus tard|soit|soient|serait|seraient)\b)"
)
_PROGRESS = (
    r"(?:(?:t'en|tu en|vous en|on en) (?:es|est|etes)|(?:deja|enfin|bientot) (?:finie?s?"
    r"|terminee?s?|prete?s?|mergee?s?|passee?s?|poussee?s?|deployee?s?|livree?s?)"
    r"|combien de temps|(?:t'en|tu en|vous en) (?:as|avez) (?:encore )?pour)"
)
# (each word longer than the go words before it: a message's "continue" alone does not compile
# the rule, gates.py)
_TELL = r"(?:expliqu\w*|explicat\w*|raconte\w*|detaill\w*|demonstration|raisonnement)"
# the work's verbs with their object, the go last: "(les images sont livrées.) importe-les"
_WORK_IT = (
    r"(?:implemente|applique|integre|importe|code|developpe|deroule|termine|finis|acheve|boucle"
    r"|realise|construis|migre)[sz]?-(?:le|la|les)"
)
EIGHTEENTH = (
    # going to the end, or bringing it to an end, denied ("va pas jusqu'au bout", "ne mène pas
    # la migration à terme"): a negated go, which the model may not make a go (languages/firm.py)
    Rule(
        "fr-go-denied",
        "OTHER",
        r"\b(?:va|vas|allez) pas (?:jusqu'au bout|au bout)\b"
        r"|\bne (?:mene[sz]?|menez) (?:[\w'-]+ ){0,5}?(?:pas|jamais|plus)\b",
        0.9,
    ),
    # going on explaining is a question, not the task's go ("continue de m'expliquer X",
    # "poursuis ton explication", "reprends l'explication du cache"); not negated
    Rule(
        "fr-explain-question",
        "QUESTION",
        rf"^{_NOT}(?!.*\b(?:demain|plus tard|tout a l'heure|apres)\b)"
        r".*\b(?:continue[sz]?|continuer|poursui\w*|repren\w*)"
        r"(?: (?!(?:et|puis|mais|ensuite|apres)\b)[\w'-]+){0,2}? (?:m'|me |nous |l'|t'|ton |ta |tes"
        rf" |votre |vos |les |le |la |cette |ce |d')?{_TELL}\b",
        0.85,
    ),
    # how the protocol finds a thing out: a question ("Comment l'audit sait qu'un worktree est
    # orphelin ?", "à quoi le doctor voit qu'un verrou est mort ?")
    Rule(
        "fr-question-detect",
        "QUESTION",
        r"^(?:comment|a quoi|sur quoi|d'apres quoi|selon quel(?:le)?s?)\b(?!.*\b(?:en ce moment"
        r"|maintenant|actuellement)\b).*\b(?:detecte\w*|sait|savent|repere\w*|decide\w*"
        r"|determine\w*|reconnait|reconnaissent|voit|voient|juge\w*)\b",
        0.85,
    ),
    # which worktree, lock or session goes with which task: the protocol's state, an audit
    Rule(
        "fr-audit-belongs",
        "AUDIT",
        rf"^(?:a )?(?:quel(?:le)?s?|qui)\b(?=.*\b{_NOUN}\b)(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b)"
        r"(?=.*\b(?:tache|task|ticket|agent|branche)\b).*\b(?:va avec|vont avec|associee?s?"
        r"|liee?s?|rattachee?s?|correspond\w*|attribuee?s?)\b",
        0.85,
    ),
    # what the journal records, asked ("c'est noté dans le journal que t'as annulé la migration
    # ?"): the protocol's state, an audit
    Rule(
        "fr-audit-journal",
        "AUDIT",
        r"^(?=.*\?$|est-ce qu)(?!(?:pourquoi|comment|quand)\b).*\b(?:(?:note|inscrit|marque"
        r"|consigne|enregistre|trace|logue|ecrit)e?s? (?:dans|au) (?:le )?journal|journal (?:a )?"
        r"(?:mentionne|dit|contient|indique|garde|note))\b",
        0.85,
    ),
    # a wondering about the protocol's present state is an audit ("je me demande si le verrou
    # est encore tenu"), about where the work stands a status request, about the code a question
    Rule(
        "fr-wonder-audit",
        "AUDIT",
        rf"^{_WONDER}{_WHAT}(?<!pourquoi)(?<!comment)(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b)"
        rf"(?=.*\b{_NOUN}\b).*\b{_STATE}\b",
        0.85,
    ),
    Rule(
        "fr-wonder-status",
        "STATUS_REQUEST",
        rf"^{_WONDER}{_WHAT}(?!.*\b{_NOUN}\b).*\b{_PROGRESS}",
        0.85,
    ),
    Rule(
        "fr-wonder-question",
        "QUESTION",
        rf"^{_WONDER}{_WHAT}",
        0.85,
    ),
    Rule(
        "fr-wonder-alone-question",
        "QUESTION",
        # said alone, not understood: "j'ai pas tout saisi", "je pige pas" (not "je sais pas",
        # "aucune idée", "pas sûr": an answer)
        rf"^{_WONDER}(?<!idee)(?<!sure)(?<!sur)(?<!certain)(?<!certaine)(?<!convaincu)"
        r"(?<!convaincue)(?<!sais pas)(?<!trop)(?<!vraiment)(?<!bien)\??$",
        0.85,
    ),
    # a person who might hold it, asked after who ("qui tient le verrou, toi ou le cron ?"): it
    # completes the question before, which decides
    Rule(
        "fr-alternative-remark",
        "OTHER",
        r"^(?:toi|moi|vous|nous|lui|elle|eux|quelqu'un|personne) ou (?:le|la|les|l'|un|une"
        r"|quelqu'un|mon|ton|notre|votre)\b.*\?$",
        0.7,
    ),
    # an observation of the user's own setup ("les tests e2e passent chez moi"): asks nothing
    Rule(
        "fr-own-remark",
        "OTHER",
        rf"^(?!.*\?$)(?!.*\b{_NOUN}\b)(?!.*\b(?:continu\w*|repren\w*|reprends|poursui\w*|vas-y|go|fonce\w*"
        r"|enchaine\w*)\b)(?:.*\b)?(?:chez moi|sur ma machine|sur mon (?:poste|laptop|mac|pc)"
        r"|en local chez moi)\b",
        0.7,
    ),
    # "keep using it": a go word that means still ("continue d'appeler le vieux client"), not the
    # task's go; a remark, so it does not take back a go before it
    Rule(
        "fr-keep-remark",
        "OTHER",
        r"^(?:(?:et|mais|donc|puis) )*(?:continue[sz]?|on continue) (?:a |d'|de )(?:utiliser"
        r"|appeler|employer|passer par|garder|conserver|nommer|suivre|respecter|importer"
        r"|prefixer)\b",
        0.7,
    ),
    # a review of the protocol's runs ordered ("passe en revue les exécutions des hooks avant de
    # commencer", "épluche le journal"): an audit
    Rule(
        "fr-audit-review",
        "AUDIT",
        r"^(?:tu peux |peux-tu |vous pouvez )?(?:passe[sz]? en revue|revois|epluche[sz]?|jette[sz]?"
        rf" un (?:oeil|coup d'oeil)|inspecte[sz]?|relis|relisez)\b(?!.*\b{_APP}\b).*\b{_NOUN}\b",
        0.85,
    ),
    # the work's end asked for, an estimate: "estimation pour la fin ?", "ETA stp"
    Rule(
        "fr-status-eta",
        "STATUS_REQUEST",
        r"^(?:(?:une|ton|ta|votre|un|l'|des|quelle|petite) )*(?:estimation|estimatif|eta"
        r"|temps restant|date de (?:fin|livraison)|heure de fin)(?:(?: (?:pour|de|d'|du|avant))?"
        r" (?:la fin|fin|quand|finir|terminer|livraison|livrer|le reste|ce qui reste|tout ca))?"
        r"(?: (?:stp|svp|approximative|grossiere|rapide))*\s*\?*$",
        0.85,
    ),
    # a go in full: "va jusqu'au bout du refacto", "mène l'export à terme", "importe-les"
    Rule(
        "fr-go-end",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:allez|bon|ok|alors|et|donc) )*(?:(?:va|allez|vas)(?: donc"
        r"| maintenant)? (?:jusqu'au bout|au bout)\b|mene[sz]? (?:[\w'-]+ ){1,5}?a (?:bout|terme)\b"
        rf"|{_WORK_IT}\W*$)",
        0.85,
    ),
)

FIRST = (
    # a check, then the go said to "tu" ("check le verrou et après tu finis les e-billets"; a
    # clause of its own after "puis": "tu termines le module"): read before the status rules,
    # which took "check … finis" for the work's
    Rule(
        "fr-go-then",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:.*\b(?:et )?{_AFTER},? )?(?:tu|vous) {_FINISH}"
        r" (?:le|la|les|l'|ton|ta|tes|votre|vos)\b",
        0.85,
    ),
    *EIGHTEENTH,  # the eighteenth round's
    *NINETEENTH,  # the nineteenth round's (fr_kinds.py)
    *TWENTIETH,  # the twentieth round's (fr_twentieth.py)
    *TWENTYFIRST,  # the twenty-first round's (fr_twentieth.py)
    *TWENTYSECOND,  # the twenty-second round's (fr_twentysecond.py)
    *TWENTYTHIRD,  # the twenty-third round's (fr_twentysecond.py)
)
SEVENTEENTH = (
    # a question on a protocol object's present state, by which, who or how many ("le verrou
    # appartient à quelle session ?", "combien de worktrees traînent encore ?"), or a hook that
    # ran ("le hook a-t-il tourné sur le worktree X ?"); not how it works, not the app's own
    Rule(
        "fr-audit-which",
        "AUDIT",
        rf"^(?!(?:pourquoi|comment|quand)\b)(?=.*\?$)(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b)"
        rf"(?!.*\bcombien de temps\b)(?=.*\b{_NOUN}\b)(?:(?=.*\b(?:quel(?:le)?s?|qui|combien)\b)"
        r".*\b(?:appartien\w*|tien(?:t|nent)|detien(?:t|nent)|pointe\w*|ouverte?s?|traine\w*"
        r"|reste(?:nt)?|existe(?:nt)?|actifs?|actives?|en cours|vivante?s?|zombies?"
        r"|a le (?:verrou|lock)|est a)\b|.*\bhooks?\b.*\b(?:a|ont)(?:-t-il|-t-elle|-ils|-elles)?"
        r" (?:bien |deja |vraiment |seulement )?(?:tourne|ete (?:lance|execute|declenche"
        r"|desactive|installe|contourne)e?s?)\b)",
        0.85,
    ),
    # a go handed over once a wait is lifted: "c'est à toi", "à toi de jouer", "je te rends la
    # main", "reprise autorisée" (a bare "à toi" is left: "merci à toi" is cut to it)
    Rule(
        "fr-go-handover",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:maintenant|desormais|du coup|donc|alors|et) )*(?:c'est a (?:toi"
        r"|vous)(?: maintenant| de jouer)?|(?:maintenant|desormais|du coup),? a (?:toi|vous)"
        r"|a (?:toi|vous) de jouer|la main est a (?:toi|vous)|(?:je te|je vous|on te|on vous)"
        r" (?:rends|rend|redonne|repasse) la main|(?:tu as|t'as|vous avez) (?:de nouveau |a nouveau"
        r" )?la main|reprise (?:autorisee|validee|ok"
        r"|confirmee|approuvee|accordee|possible))\W*$"
        # the next part sent, the way back onto the work: "envoie la suite du matching",
        # "déroule la suite du plan", "rebranche-toi sur X" (not "envoie-moi la suite du log")
        rf"|^{_NOT}(?!.*\?$)(?:(?:tu peux|vous pouvez) )?(?:envoie|deroule|enchaine|balance|lance"
        r"|code|ecris|envoyez|deroulez|enchainez|lancez|codez|ecrivez|envoyer|derouler|enchainer"
        r"|lancer|coder|ecrire)[sz]? (?:donc |maintenant |alors |directement )?"
        r"(?:la suite|le reste)\b(?! (?:du|des|de la|de l'|de ce|de ton) (?:log|logs|message"
        r"|fichier|sortie|texte|mail|e-?mail|conversation|stack|trace|output|document|doc"
        r"|readme)\b)"
        rf"|^{_NOT}(?!.*\?$)re(?:branche|plonge|concentre|cale|penche)[sz]?-(?:toi|vous)"
        r" (?:sur|dans|a|au|aux)\b",
        0.85,
    ),
    # where the work stands, asked "at this stage" ("Le PV est-il générable depuis l'appli à ce
    # stade ?"), not of the protocol (an audit's) and not by why or how
    Rule(
        "fr-status-stage",
        "STATUS_REQUEST",
        r"^(?!(?:pourquoi|comment|quand|qui|que|qu'est-ce|quel(?:le)?s?)\b)"
        rf"(?!.*\b{_NOUN}\b).*\b(?:a ce stade|a l'heure actuelle|pour l'instant|pour le moment"
        r"|en l'etat(?: actuel)?|a l'heure ou on parle)\s*\?$",
        0.8,
    ),
    # how the code does a thing, asked ("le matching se fait sur le détour en km ou en minutes
    # ?", "le score est calculé à partir de quoi ?"): a question, not the work's progress
    Rule(
        "fr-behaviour-question",
        "QUESTION",
        rf"^(?!.*\b{WORK}\b)(?=.*\?$).*\b(?:se (?:fait|font|base|basent|calcule|calculent|gere"
        r"|gerent|declenche|declenchent|decide|determine|joue)|(?:est|sont) (?:calcule|stocke"
        r"|gere|base|fait|trie|filtre|determine|decide|indexe)e?s?|on (?:se base|calcule|trie"
        r"|filtre|stocke))(?: [\w'-]+){0,3}? (?:sur|par|avec|en|dans|selon|a partir|d'apres)\b",
        0.85,
    ),
)

# An event said in the present, what the protocol does whenever it happens ("quand la session
# expire"), not one that happened ("quand t'as crashé"); not "si", which also asks whether
# ("vérifie s'il reste un lock" is an audit)
_WHENEVER = (
    r"\b(?:quand |lorsqu'|lorsque |des qu'|des que |chaque fois qu'|chaque fois que )(?!(?:t'as"
    r"|t'es|tu as|tu es"
    r"|tu etais|j'ai|je suis|on a|on est|il a|elle a|ils ont|elles ont|vous avez|c'est|c'etait"
    r"|ca a|ca s'est)\b)\w"
)

RULES = (
    # what the protocol does whenever an event happens, asked yes or no: how it works, which no
    # check answers, however sure the model is of an audit (languages.firm); an event
    # that happened is fr-question-how's, below, which the model may still make an audit
    Rule(
        "fr-question-whenever",
        "QUESTION",
        rf"^(?!(?:pourquoi|comment|quand|qui|que|qu'est-ce)\b)(?=.*\?$)(?=.*{_WHENEVER})"
        rf".*\b{_NOUN}\b",
        0.85,
    ),
    # a yes/no question on how a lock, session or hook works, or on the app's own ones: the code's
    # question, not an audit ("Est-ce que le verrou est libéré quand la session expire ?"; a
    # property asked is fr.py's fr-property-question)
    Rule(
        "fr-question-how",
        "QUESTION",
        r"^(?!(?:pourquoi|comment|quand|qui|que|qu'est-ce)\b)(?=.*\?$)"
        rf"(?=.*\b(?:{_APP}|{_RULE})\b).*\b{_NOUN}\b",
        0.85,
    ),
    # a yes/no or who question on a protocol object's state now: "le worktree existe encore ?",
    # "est-ce que l'enregistrement de la tâche est à jour", "qui tient le verrou ?" (not "Quand
    # le verrou est-il libéré ?", "La session de l'utilisateur est encore active ?")
    Rule(
        "fr-audit-now",
        "AUDIT",
        r"^(?=est[- ]ce qu|.*\?$)(?!(?:pourquoi|comment|quand|a quoi|quel(?:le)?s?|que|qu'est-ce"
        rf"|combien)\b)(?=.*\b{_NOUN}\b)(?!.*\b{_APP}\b)(?!.*\b{_RULE}\b).*\b{_STATE}\b"
        r"|^qui (?:a|tient|detient|garde|bloque)\b(?!.*\b(?:mutex|threads?)\b).*\b(?:verrou|lock"
        r"|worktree|session|claim)s?\b",
        0.85,
    ),
    # what is asked before a go: "(continue,) mais d'abord vérifie que le verrou est à toi"
    Rule(
        "fr-audit-first",
        "AUDIT",
        rf"^(?:mais )?(?:{_FIRST},? (?:tu )?(?:verifie|controle|regarde|check|assure-toi"
        r"|confirme)|(?:verifie|controle|regarde|assure-toi|confirme)[sz]? (?:d'abord|avant tout"
        rf"|en premier))\b.*\b(?:{_NOUN}|etat de la tache|protocole)\b",
        0.85,
    ),
    # "(vas-y continue,) mais avant explique-moi pourquoi ...": the question
    Rule(
        "fr-question-first",
        "QUESTION",
        rf"^(?:mais )?(?:{_FIRST},? (?:tu )?(?:explique|dis|raconte|precise|detaille|justifie)"
        r"[sz]?|(?:explique|dis|raconte|precise)[sz]?[- ](?:moi|nous) (?:d'abord|avant tout"
        r"|en premier))\b",
        0.85,
    ),
    # a judgement of the work done ("franchement c'est pas terrible ce que t'as fait sur X") and
    # an instruction about the review ("rajoute-moi X en reviewer"): remarks that ask nothing
    Rule(
        "fr-feedback-remark",
        "OTHER",
        r"\bc'est (?:pas|vraiment pas|moyen|bof|nul|limite)\b.*\bce que (?:t'as|tu as|vous avez)"
        r" (?:fait|code|ecrit|pondu)\b|^r?ajoute[sz]?(?:-(?:moi|nous))? [\w'-]+(?: [\w'-]+)?"
        r" (?:en|comme) (?:reviewer|relecteur|relectrice|assigne\w*|approbateur)\b",
        0.85,
    ),
    *SEVENTEENTH,  # the seventeenth round's, after the sixteenth's
    *LATE,  # the nineteenth round's late ones (fr_kinds.py)
    *TWENTYFIRST_LATE,  # the twenty-first round's last ones (fr_twentieth.py)
    *TWENTYTHIRD_LATE,  # the twenty-third round's last ones (fr_twentysecond.py)
)
