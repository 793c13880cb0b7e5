"""French interruption rules. Text is lowercased with accents folded ("vérifie" -> "verifie",
"ça" -> "ca"); apostrophes are ASCII. Same order as the English table. "continue" is also
English: the English rules take it where these do not (a negation comes first here)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import fr_more
from taskproto.classify.languages.table import WORK, Language

_W = r"[\w'.-]+ "
_STEP = rf"(?!{fr_more.STEP})"  # "après le rebase" is the agent's own step, no wait
# A bare acknowledgement of one or two words ("oui", "d'accord 👍", "ça marche !"):
# a message every word of which is a filler is read whole by the rules; with a "?" it asks.
ACK = (
    r"(?:oui|ouais|ok|d'accord|dac|ca marche|ca roule|entendu|compris|parfait|super|top"
    r"|tres bien)"
)
VERB = (
    r"(?:continue[sz]?\b|continuer\b|continuons\b|poursui(?:s|t|vez|vons|vre)\b"
    r"|reprend(?:s|re|ez)?\b|reprenez\b|reprenons\b|vas[- ]y\b|allez[- ]y\b|on y va\b|y aller\b"
    r"|c'est parti\b"
    r"|avance[sz]?\b"
    r"|avancer\b|enchaine[sz]?\b|enchainer\b|passe[rz]? a l'implementation"
    r"|passe[rz]? (?:a la|au|a l'|aux) ?(?:[\w'-]+ )?(?:suivante?s?|suite|prochaine?)\b"
    r"|passe[rz]? (?:a la|au|a l') ?(?:point|etape|item|tache|ticket|partie|phase) [\w-]+"
    r"|retourne[rz]? (?:au travail|a la tache|au code|bosser|coder)"
    r"|reviens? (?:au travail|a la tache|au code)"
    r"|remets?-toi au travail|au boulot\b|au travail\b|commence[sz]?\b|commencer\b"
    # idioms of getting back to it: "on s'y remet", "on y retourne", "remets-toi au boulot",
    # "attaque les écrans restants", "go pour la suite"
    r"|(?:re)?mets?-toi (?:au |a |dessus\b)|on s'y (?:re)?met\b|remets?-t'y\b|on y retourne\b"
    r"|retournes?-y\b|attaque[sz]? (?:la |le |les |l'|maintenant\b|tout de suite\b)"
    r"|go (?:pour|sur) (?:la |le |les |l')|on repart\b|c'est reparti\b|fais la suite\b"
    # back onto the work: "repars sur le parser", "remets-toi sur l'import", "relance-toi sur
    # le ticket", "retourne sur le parser" (imperative, opening its clause: "la fonction
    # retourne sur ..." is not one; a branch is git, not the work)
    r"|repar(?:s|tez|tons) sur\b|(?:re)?mettez-vous sur\b|remettons-nous sur\b"
    r"|(?:re)?mets?-toi sur\b"
    r"|relance[sz]?-(?:toi|vous) sur\b|(?:^|(?<=, ))retourne[sz]? sur (?!(?:la |les )?branche)"
    r"(?:le|la|les|l'|ton|ta|tes|votre|vos)\b"
    r"|(?:finis|termine|acheve)[sz]? (?:le|la|les|l'|ton|ta|tes)\b(?!.*\?$)"
    r"|lance-toi\b|y aller\b|allons-y\b|fonce[sz]?\b|feu vert|on continue\b|on reprend\b)"
)
_PROTOCOL = (
    r"(?:locks?|verrous?|worktrees?|journal|session|task\.json"
    r"|l'etat (?:de la tache|du lock|des \w+)"
    r"|etat de la tache|fichier d'etat|protocole|branches?|transitions?|invariants?)"
)
_AUDIT_NOUN = (
    r"(?:audit|doctor|controle (?:de coherence|d'integrite)|check|sanity check|health check"
    r"|verification (?:de coherence|d'integrite))"
)

RULES = (
    # a go held until a check of the protocol's state, or a run of the audit: what is asked is
    # the check ("Ne continue pas avant d'avoir vérifié les locks"): AUDIT
    Rule(
        "fr-audit-until",
        "AUDIT",
        r"\b(?:avant d'avoir|avant de|tant que|jusqu'a ce que)\b(?:(?=.*\b(?:verifi|controle"
        r"|check|audit|valid|regard|relu)\w*).*\b(?:lock|verrou|worktree|journal|session"
        r"|task\.json|protocole|etat)|.*\b(?:audit|doctor))",
        0.85,
    ),
    Rule(
        "fr-dont-stop",
        "RESUMPTION",
        r"^(?:ne )?(?:t'|vous )?arrete[sz]? pas\b|^(?:ne )?t'arrete pas\b|^pas de pause\b"
        r"|(?:^|\bsurtout )(?:ne (?:t'|vous )?|n')arrete[sz]? (?:surtout |donc )?(?:pas|jamais)\b"
        # encouragement to finish: "lâche rien", "ne lâche pas", "on lâche rien"
        r"|^(?:(?:on|ne) )?lache[sz]? (?:rien|pas|jamais)\b",
        0.9,
    ),
    Rule(
        "fr-nudge",
        "RESUMPTION",
        r"^arrete[sz]? (?:de |d')(?:poser des questions|demander|attendre|hesiter|tergiverser"
        r"|trainer|procrastiner|chipoter|tourner en rond|perdre (?:du|ton|votre) temps)\b.*"
        + VERB
        + r"|^pourquoi (?:tu ne |ne )?(?:continues|reprends)[- ]?(?:tu )?pas\b",
        0.8,
    ),
    *fr_more.BEFORE,  # a go after the agent's own step, before the negated go (fr_kinds.py)
    Rule(
        "fr-negated-resumption",
        "OTHER",
        # (VERB is embedded at most once on each side: compiling it is most of the table's cost)
        rf"\bne (?:(?:t'|[\w'-]+ )){{0,2}}?{VERB}.*\b(?:pas|jamais|plus)\b"
        r"|(?:^(?:attends? )?(?:avant de|avant que|jusqu'a ce que|tant que)"
        # (not a time past: "T'as avancé depuis tout à l'heure ?" asks how far the work got)
        rf"|\b(?<!depuis )(?:demain|plus tard|tout a l'heure|(?<!du )lundi"
        rf"|apres (?:la|le|l') ?\w+))\b.*\b{VERB}|\b{VERB}(?: pas\b|.*\b(?<!depuis )(?:demain"
        r"|plus tard|tout a l'heure|(?<!du )lundi"
        r"|apres (?:la|le|l') ?\w+"
        r"|(?:seulement|uniquement|que) (?:quand|lorsque|si|apres|une fois|des que)\b"
        r"|(?:cet apres-midi|ce soir|quand|lorsque|des que|une fois que)\b(?!.*\?$)))"
        # a clause of its own that says when: "Continue, mais pas avant que j'aie relu"
        r"|^(?:mais )?(?:seulement |uniquement |pas )?(?:quand|lorsque|des que|une fois que"
        r"|apres que|avant que|avant d'|jusqu'a ce que|tant que)\b(?!.*\?$)"
        # "ne retourne pas au module", "n'y reviens pas"
        r"|\b(?:ne|n'y) (?:[\w'-]+ ){0,2}?(?:retourne[sz]?|reviens|revenez)\b"
        r".*\b(?:pas|jamais|plus)\b",
        0.9,
    ),
    Rule(
        "fr-hold",
        "OTHER",
        r"^(?:attends?|attendez|une (?:seconde|minute|sec)|un (?:instant|moment)|minute|stop"
        r"|arrete[sz]?|halte|pause|pas encore|pas tout de suite|pas maintenant|pas valide"
        r"|interromps|interrompez"
        r"|bouge pas|ne bouge pas|on arrete|on fait une pause|fais une pause|on se calme"
        r"|reste[zs]? en (?:stand-?by|attente|pause))\b",
        0.8,
    ),
    *fr_more.FIRST,  # a check, then the go said to tu (fr_more.py)
    Rule(
        "fr-status-where",
        "STATUS_REQUEST",
        r"\b(?:on|tu|vous|t') ?en (?:est|es|etes|sommes) ou\b|^ou en (?:es|est|etes|sommes)\b"
        r"|^ca (?:avance|donne quoi|se passe comment|en est ou)\b|^comment (?:ca|tu) (?:avance"
        r"|avances|se passe|va)\b|^(?:tu bosses|tu travailles|vous travaillez) sur quoi\b"
        r"|^sur quoi (?:tu (?:bosses|travailles)|travailles-tu)\b"
        r"|^dans quel(?:le)? (?:etat|phase|etape)\b|^a quelle (?:etape|phase)\b"
        r"|^jusqu'(?:ou|a quel point|a quelle etape) (?:tu |vous |on |t')?(?:es|est|etes|as|a"
        r"|avez|en es|en est)\b",
        0.9,
    ),
    Rule(
        "fr-status-done",
        "STATUS_REQUEST",
        r"^qu'est-ce qu(?:'il|i) (?:te |nous )?(?:reste|manque)\b|^(?:que|qu'est-ce qui) reste\b"
        r"|^il (?:te |nous )?reste (?:quoi|combien)\b|^combien de temps\b"
        r"|^il te faut (?:encore )?combien\b|^combien de (?:[\w-]+ ){0,2}?(?:echouent|restent"
        r"|manquent|reste)\b"
        r"|^qu'est-ce que (?:tu as|t'as|vous avez) (?:fait|termine|fini|change)\b"
        r"|^qu'(?:as-tu|avez-vous) (?:fait|termine|fini|change)\b"
        r"|^(?:tu as|t'as|as-tu|avez-vous|vous avez) (?:deja |bien )?(?:fini|termine|pushe|merge"
        r"|deploye|commite|ouvert|lance)\b|^(?:tu as|t'as|as-tu|avez-vous|vous avez) deja\b"
        r"|^(?:le|la|les) [\w.-]+(?: [\w.-]+){0,3} (?:a|ont) (?:deja |bien )?(?:tourne|passe|fini"
        r"|termine|reussi|echoue|plante)\b"
        r"|^(?:le|la|les) [\w.-]+(?: [\w.-]+){0,3} (?:est|sont) (?:deja |bien )?(?:termine|fini"
        r"|pret|passe|merge|vert)[es]{0,2}\b|^les tests (?:passent|sont passes)\b",
        0.85,
    ),
    Rule(
        "fr-status-terse",
        "STATUS_REQUEST",
        # "résume" is "summarise" in French, read before the English "resume"
        r"^resume[sz]?(?:-(?:moi|nous))? (?:ce qu|tout ce qu|ou |l'avancement|ton |ta |tes "
        r"|le |la )|^resume[sz]?-(?:moi|nous)\b"
        r"|^(?:statut|status|avancement|progression|etat d'avancement|du nouveau|des nouvelles"
        r"|quoi de neuf|eta|du progres|des progres|bilan)(?: (?:stp|svp|du [\w-]+|de la [\w-]+"
        r"|sur (?:la |le |les |l')?[\w-]+))*\s*\?*$"
        r"|^(?:donne|fais|envoie)(?:-moi|-nous)? (?:[\w'-]+ ){0,3}?(?:point|statut|etat|resume"
        r"|avancement|update)\b|^resume (?:ton|votre) (?:avancement|travail|progression)\b"
        r"|^fais (?:le|un) point\b|^(?:un )?(?:petit |rapide )?point(?: rapide)?\b"
        r"|^c'est quoi (?:le |ton |la |l')(?:statut|status|etat|avancement|suite)\b"
        # a summary (the noun) of the work: "résumé de ce qui est fait / pas fait", "je veux un
        # petit résumé de ta matinée" ("un résumé du README" is a task, not a status request)
        r"|^(?:(?:[\w'-]+ ){0,4}?(?:un|le|ton|votre) )?(?:petit |bref |court |rapide )?resume"
        r"(?: rapide| bref| court)? (?:de ce qu|de tout ce qu|d'ou |de l'avancement|de l'etat"
        r"|de (?:ta|ton|tes|votre|vos) (?:journee|matinee|apres-midi|travail|avancement|progres"
        r"|session|changements)|du travail|de la (?:journee|matinee|session))",
        0.85,
    ),
    Rule(
        "fr-status-work",
        "STATUS_REQUEST",
        rf"^(?:tous |toutes )?(?:la |le |les |l')?{WORK}\b.*\b(?:finie?s?|terminee?s?|passee?s?"
        r"|verte?s?|rouges?|mergee?s?|prete?s?|tourne|passent|au vert|en vert|au rouge)\b"
        r"|\b(?:tu es|t'es|vous etes) (?:\w+ )?(?:bloque|coince)\w*"
        r"|^(?:le|la|les|l') ?[\w.-]+(?: [\w.-]+){0,2} (?:avance|avancent|progresse|progressent"
        r"|bouge|bougent)\b"
        r"|^tu bloques\b|^et (?:ensuite|apres)\b|\bprochaine etape\b|^statut\b"
        r"|^des (?:avancees|nouvelles|progres)\b|^comment avance\b"
        r"|^raconte(?:-moi)? (?:ou|comment)\b|^(?:on|tu|t') ?a (?:bientot|deja) fini\b"
        r"|^c'est (?:fini|termine|bon)\s*\?$|^(?:on|tu) en est ou\b|^ou on en est\b"
        r"|^tu fais quoi\b|^quoi de neuf\b|etat intermediaire|^(?:et )?(?:les|le|la) [\w-]+ ?,? ca"
        r" (?:dit|donne) quoi\b|^ca (?:dit|donne) quoi\b|^ca se passe bien\b"
        r"|\ben a encore pour combien\b|^qu'est-ce que tu as reussi\b"
        rf"|^(?:la |le |les |l')?{WORK}\b.*\b(?:fait|faite|dit quelque chose)\b",
        0.85,
    ),
    Rule(
        "fr-audit-verb",
        "AUDIT",
        r"\b(?:fais|faire|lance[sz]?|lancer|passe[sz]?|execute[sz]?|effectue[sz]?)\b.*"
        rf"\b{_AUDIT_NOUN}\b|^(?:audite[sz]?|auditer|(?:un )?audit)\b(?!-?(?:log|trail))",
        0.9,
    ),
    Rule(
        "fr-audit-verify",
        "AUDIT",
        r"^(?:tu peux |peux-tu |pourrais-tu |vous pouvez )?(?:verifie[sz]?|verifier|controle[sz]?"
        r"|controler|valide[sz]?|valider|inspecte[sz]?|inspecter|check|assure-toi|assurez-vous"
        rf"|regarde[sz]? si|regarde[sz]? s'ils?|traque[rz]?|cherche[rz]?|repere[rz]?)\b.*"
        rf"\b{_PROTOCOL}\b"
        r"|^(?:est-ce que |est-ce qu'|le |la |les |l'|tout )(?=.*\b(?:tout|locks?|worktrees?"
        r"|journal|task\.json|session|protocole|etat)\b).*\b(?:coherent|consistant|en sync"
        r"|synchro\w*|valide|correct|propre)"
        r"|\bconformes? au protocole|^(?:un |une )?(?:sanity check|health check)\b"
        r"|^compare[sz]? (?:les |la |le )?\w+ (?:avec|a) task\.json|orphelin\w*"
        r"|\ble protocole a (?:ete )?viole|\becarts? (?:au|du) protocole"
        r"|\bviole le protocole|\bviolations? du protocole|\benfreint le protocole",
        0.85,
    ),
    *fr_more.RULES,  # the sixteenth round's forms (fr_more.py)
    # a question about the protocol's state now, not its design ("Le verrou est encore à nous ?")
    Rule(
        "fr-audit-state",
        "AUDIT",
        r"^(?!(?:pourquoi|comment|quand|a quoi|qui|quel(?:le)?s?|que|qu'est-ce)\b)(?=.*\b(?:locks?"
        r"|verrous?|worktrees?|journal|session|task\.json|protocole|claims?)\b).*\b(?:(?:toujours"
        r"|encore) (?:la|pris|tenus?|bloques?)|a nous|notre|nos|valides?|actifs?"
        r"|orphelin\w*|propres?|synchro\w*"
        r"|concord\w*|correspond\w*|colle\w*|coherent\w*|reste|restent|vieux|vieilles?"
        r"|a le (?:lock|verrou)|tient|detient|viole|enfreint|corrompu\w*)\b.*\?$",
        0.8,
    ),
    # a yes/no question about the work's progress ("T'as avancé ?", "Le build a marché ?")
    Rule(
        "fr-status-yesno",
        "STATUS_REQUEST",
        r"^(?:t'as|tu as|as-tu|vous avez|avez-vous|on a) (?:deja |bien |enfin )?(?:avance|commence"
        r"|integre|ouvert|fini|termine|pousse|pushe|merge|deploye|lance|corrige|fixe|cree|ecrit"
        r"|mis)\b|^(?:tu|vous|on) (?:finis|finit|finissez|termines|auras fini|aura fini) quand\b"
        r"|^quand (?:est-ce que )?(?:tu|vous|on) (?:finis|finit|termines|auras fini|as fini)\b"
        r"|^(?:tu|vous) (?:avances|avancez|progresses|progressez)\b"
        r"|^quel(?:le)?s? (?:[\w-]+ ){0,2}?(?:manquent|manque|restent|reste)\b"
        r"|^(?:t'as|tu as|vous avez) quoi (?:pour l'instant|jusqu'ici|pour le moment)\b"
        r"|^(?:le|la|les|l') ?[\w.-]+(?: [\w.-]+){0,2} (?:a|ont) (?:bien )?"
        r"(?:marche|fonctionne|abouti)\b|^(?:le|la|les|l') ?[\w.-]+(?: [\w.-]+){0,2} (?:tourne"
        r"|tournent) (?:encore|toujours)\b"
        # the CI, the build, the team's readiness, how much is done: "ça passe la CI ?", "On sera
        # prêts pour la démo ?", "Il y a déjà un build vert ?", "Quel pourcentage est migré ?"
        rf"|^(?:ca|il|elle|ils|tout) (?:passe|passent) (?:bien )?(?:la |le |les |l')?{WORK}\b"
        r"|^(?:on|tu|vous|t'|nous) ?(?:sera|seras|serez|serons|est|es|etes|sommes)"
        r" (?:bientot |deja |toujours |encore )?"
        r"(?:prets?|bons?|a jour|dans les temps|en retard|au bout|a la bourre)\b"
        rf"|^(?:il y a|y a|y'a) (?:deja |enfin |au moins )?(?:un |une |des )?(?:[\w-]+ )?{WORK}\b"
        r".*\?$|^(?:quel(?:le)?|combien) (?:pourcentage|part|proportion|de pourcent)\b"
        r"|\bdeja (?:migre|fait|fini|termine|passe|corrige|merge|pousse|pushe|livre)e?s?\s*\?$"
        # "T'as pu pousser la branche ?", "Tu as réussi à reproduire le bug ?"
        r"|^(?:t'as|tu as|as-tu|avez-vous|vous avez|on a) (?:deja |bien |enfin )?(?:pu|reussi a)\b"
        r".*\?$",
        0.8,
    ),
    # the dislocated topic of a French question ("Ça donne quoi, le merge ?") asks for nothing
    # a yes/no question on a property of the code, not of the work ("Le verrou est réentrant ?",
    # "Ce cache est thread-safe ?"); "T'es sûr que le tri marche avec X ?"
    Rule(
        "fr-property-question",
        "QUESTION",
        rf"^(?:et )?(?:le|la|les|l'|ce|cet|cette|ces|ton|ta|tes) ?(?!{WORK}\b)[\w.-]+"
        r"(?: [\w.-]+){0,3} (?:est|sont)(?:-(?:il|elle)s?)? (?:bien |vraiment |toujours |aussi )?"
        r"(?!(?:passant|suffisant|disponible)s?\b)(?:[\w-]+(?:ant|ent|ible|able|ique|if|ive)e?s?|thread-?safe|immuables?"
        r"|synchrones?|asynchrones?)\s*\?$"
        r"|^(?:t'es|tu es|vous etes|es-tu|etes-vous) (?:bien |vraiment )?(?:sure?s?|certaine?s?)"
        r" (?:que|qu')(?!.*\b(?:fini|termine|passe|merge|deploye|pousse)e?s?\b).*\b(?:marche"
        r"|fonctionne|tient|supporte|gere)\b.*\?$",
        0.85,
    ),
    Rule("fr-topic", "OTHER", r"^(?:et )?(?:le|la|les|l') ?[\w.-]+(?: [\w.-]+)?\s*\?$", 0.5),
    Rule(
        "fr-question",
        "QUESTION",
        r"^(?:pourquoi|comment|quel(?:le)?s?|ou|quand|qui|combien|a quoi|de quoi|sur quoi)\b"
        r"|^(?:que|qu'est-ce)\b.*\?$|^(?:re)?(?:explique|expliquez|decris|detaille|clarifie"
        r"|precise)\b|^si (?:je (?:comprends|comprend|vois) bien|j'ai bien compris)\b"
        r"|\b(?:tu peux|peux-tu|pourrais-tu|vous pouvez|pouvez-vous) (?:m'|nous |me )?(?:expliquer"
        r"|clarifier|decrire|dire|detailler)\b|^je (?:ne )?(?:comprends|saisis) pas\b"
        r"|^(?:petite |une |autre )?question\b"
        r"|^(?:mais )?dis(?:-moi|-nous)? (?:d'abord |avant |deja )?(?:pourquoi|comment|ce qu|quel"
        r"|ou|a quoi)\b"
        r"|^aide[sz]?-(?:moi|nous) a (?:comprendre|piger|saisir)\b"
        # first the explanation: "(continue après,) mais d'abord explique-moi X"
        r"|^(?:mais |et )?(?:d'abord|avant tout|avant ca|en premier),? (?:re)?(?:explique|expliquez"
        r"|decris|detaille|clarifie|dis-moi pourquoi|dis-moi comment)\b",
        0.85,
    ),
    Rule(
        "fr-resumption",
        "RESUMPTION",
        rf"^(?:(?:ok|bon|allez|alors|donc|oui|et|puis|ensuite|maintenant|on|bah|ben|go|mais"
        rf"|surtout) )*{VERB}"
        r"|\b(?:tu peux|vous pouvez|peux-tu|pouvez-vous|on peut|puis|ensuite|et|tu dois"
        rf"|il faut) (?:maintenant |desormais |simplement )?{VERB}",
        0.9,
    ),
    Rule(
        "fr-go-ahead",
        "RESUMPTION",
        r"^(?:valide|approuve|go|allez go|feu vert|en avant|la suite|etape suivante)\s*[!.]*$"
        r"|\ble feu vert\b",
        0.8,
    ),
    # "résume" + another object is an instruction (a remark), never the English "resume"
    Rule(
        "fr-summary-remark",
        "OTHER",
        r"^resume[sz]?(?:-(?:moi|nous))? (?:ce|cet|cette|ces|les|un|une|mon|ma|mes|en|\d+)\b",
        0.75,
    ),
    # a bare acknowledgement (ACK) asks nothing and holds nothing: OTHER, which the model does
    # not override (a remark: after a go, it would not take the go back)
    Rule("fr-remark", "OTHER", rf"^(?:{ACK}[^\w?]*){{1,2}}$", 0.7),
    # a question about what a change will do ("Est-ce que le rebase va écraser les migrations de
    # Karim ?", "Les URL vont rester les mêmes après la migration ?"): a question, not a status
    # request (the protocol's own state is an audit's)
    Rule(
        "fr-effect-question",
        "QUESTION",
        r"^(?=.*\b(?:rebase|merge|migration|upgrade|mise a jour|deploiement|deploy|refacto\w*"
        r"|release)\b)(?!.*\b(?:locks?|worktrees?|journal|task\.json)\b)"
        r".*\b(?:va|vont)(?:-t-(?:il|elle)|-(?:ils|elles))? (?:rester|ecraser|casser|supprimer"
        r"|effacer|changer|modifier|perdre|garder|conserver)\b.*\?$",
        0.85,
    ),
    # the status asked as an instruction: "dis-moi juste si c'est fini", "je veux juste savoir
    # où t'en es"
    Rule(
        "fr-status-tell",
        "STATUS_REQUEST",
        r"^dis(?:-moi|-nous)? (?:juste |seulement |simplement |vite |rapidement )?si (?:c'est"
        r"|tu as|t'as|tout est|il est|elle est|le |la |les |ca )(?=.*\b(?:fini|finie|termine"
        r"|terminee|pret|prete|fait|merge|mergee|pousse|passe|vert|verte)\b)"
        r"|\b(?:savoir|dire|dis-moi|dites-moi) (?:juste |seulement )?(?:ou|a quel point)"
        r" (?:t'en es|tu en es|vous en etes|on en est|ca en est)\b"
        # "donne-moi l'état d'avancement", "fais-moi un point"
        r"|^(?:donne|donnez|fais|faites)-(?:moi|nous) (?:(?:d'abord|vite|juste|rapidement) )?"
        r"(?:l'|le |la |un |ton |votre )?(?:etat|point|bilan|statut|status|avancement)\b",
        0.85,
    ),
    # a go said as "déroule-le", "passe maintenant à X", "reprise de la tâche": a clause of its
    # own, not negated, not asked ("J'ai vu ton plan, déroule-le.", "Passe à l'envoi LoRa.")
    Rule(
        "fr-go-onto",
        "RESUMPTION",
        r"^(?!.*(?:\bpas\b|\bjamais\b|\bne\b|\bn'))(?!.*\?$)(?:(?:bon|alors|donc|et|ok) )*(?:"
        r"deroule(?:z)?-(?:le|la|les)\b|deroule(?:z)? (?:ton|votre|le|ce) plan\b"
        # the plan approved, the go said alone: "je valide ton plan, déroule", "c'est bon, repars"
        r"|(?:deroule(?:z)?|repars|repartez|tu peux repartir|vous pouvez repartir)\W*$"
        r"|passe(?:z)? (?:maintenant |ensuite |donc |alors |directement )?(?:a l'|a la |aux "
        r"|au (?!crible\b|peigne fin\b))"
        r"|reprise de (?:la|ta|votre) tache\b"
        # back to it, keep the pace: "tu peux y retourner", "retourne au parseur", "garde le cap"
        r"|(?:tu peux |vous pouvez )?(?:y )?(?:retourne(?:z|r)?|y retourner|reviens|revenez)"
        r" (?:a l'|a la |aux |au )"
        r"(?!(?:(?:la |l')?(?:version|ligne|etat|commit|debut)|precedent|ancien))"
        r"|(?:tu peux |vous pouvez )?y (?:retourner|retourne[rz]?|revenir|reviens|revenez)\b"
        r"|garde[sz]? (?:le|ce|ton|votre) (?:rythme|cap|tempo)\b"
        # after a decision, the work's verb: "le client a validé, lance l'implem", "tu peux le
        # coder"
        r"|(?:tu peux|vous pouvez) (?:maintenant |donc )?(?:le |la |les |l')?(?:coder|implementer"
        r"|developper|integrer)\b|lance[sz]? (?:l'implem\w*|le dev\w*|le code)\b)",
        0.85,
    ),
    # a mention, not a request: a progress indicator named in a statement, a bug
    # ("Le spinner de progression tourne sans fin"): a remark, which the model does not override
    Rule(
        "fr-mention-remark",
        "OTHER",
        r"^(?!.*\?$)(?:le|la|un|une|ce|cette|notre)"
        r" (?:spinner|barre de (?:progression|chargement)|indicateur de (?:progression|chargement)"
        r"|loader|progress ?bar)\b",
        0.7,
    ),
    # the rest the same way, back to a named piece of work: "déroule le reste du plan", "retour
    # au parser" (a rule of its own: each copy of VERB in a pattern costs its compile time)
    Rule(
        "fr-rest",
        "RESUMPTION",
        r"^(?!.*\b(?:pas|jamais)\b)(?:[\w'-]+ ){0,2}?(?:(?:fais|deroule|traite|boucle|enchaine)"
        r" (?:(?:aussi|tout) )*le reste|retour (?:au|a la|a l'|aux|sur))\b(?!.*\?$)",
        0.85,
    ),
)

LANGUAGE = Language(
    code="fr",
    rules=RULES,
    fillers=(
        r"(?:ok(?:ay)?|oui|ouais|bon|bien|tres bien|parfait|super|genial|top|merci(?: beaucoup)?"
        r"|d'accord|dac|alors|donc|bah|ben|eh bien|ah|oh|euh|et|puis|ensuite|maintenant|allez"
        r"|c'est bon|c'est clair|compris|entendu|au fait|en fait|juste|stp|svp|s'il te plait"
        r"|s'il vous plait|roule|ca marche(?! pas)|ca roule|ah non|non)(?![\w'-])"
    ),
    connectives=(
        r"\s+(?=(?:mais|puis|ensuite|et puis|et ensuite|avant de|avant que"
        rf"{fr_more.LEAVING}|jusqu'a ce que)\b)"  # (not before the user's leaving)
    ),
    joiners=fr_more.JOINERS,  # "…, comme prévu" is the clause's own
    later=(
        r"\b(?:demain|apres-demain|plus tard|tout a l'heure|tantot|ce soir|cet apres-midi"
        r"|cette apres-midi|(?<!du )lundi|la semaine prochaine"
        r"|quand je (?:reviens|serai|te (?:le )?dis)"
        r"|des que je|apres (?:mon|ma|mes|notre|nos) [\w-]+|apres (?:le|la|l'|un|une) ?(?:call"
        r"|reunion|meeting|standup|stand-up|daily|dejeuner|dej|repas|pause|review|demo|retro"
        r"|rdv|rendez-vous|appel|visio|point))\b"
        # by form: a weekday, a clock time, a span, "après" + a noun (not "après ça")
        # (not a noun's: "les créneaux du samedi" are the Saturday slots, asked now)
        r"|\b(?<!\bdu )(?<!\bdes )(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche"
        r"|week-end|weekend)\b"
        r"|\b\d{1,2} ?h(?:\d{2})?\b|\b(?:a|vers|des) (?:\d{1,2}(?::\d{2})?|midi|minuit)\b"
        r"|\b(?:a|vers) (?:une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze) heures?\b"
        r"|\bdans (?:\d+|une|un|deux|trois|quelques|une demi-) ?(?:minutes?|min|heures?|h|jours?)\b"
        r"|\bapres (?:le|la|l'|les|mon|ma|mes|notre|nos|ton|ta|tes|son|sa|ses|un|une|du|des) ?"
        rf"{_STEP}[\w-]+|\bapres-midi\b"
        # a clause that says only when, after a restriction: "mais seulement après la mise en prod"
        r"|^(?:mais )?(?:(?:seulement|uniquement) (?:apres|quand|lorsque|une fois|des que|ce soir"
        r"|demain)|pas avant|qu'apres)\b.*"
    ),
    conditions=(
        # a clause that waits for an event: "attends que la CI soit verte, puis continue"
        r"^attend(?:s|ez)? (?:(?:bien|un peu|encore) )?(?:que|qu'|jusqu'a|la fin d)|"
        r"(?:\b(?:quand|lorsque|lorsqu'|une fois que|une fois qu'|apres que|apres qu'|jusqu'a ce"
        r" que|aussitot que|sitot que|seulement si)|\bdes qu(?:e\b|'))"
        r"(?! ?(?:tu|t'|vous|possible)\b)" + fr_more.IF_HELD  # "si la QA valide, continue"
    ),
    retractions=(
        r"(?:^|[\s,.!;])(?:en fait non|finalement non|non en fait|tout compte fait|enfin non"
        r"|reflexion faite|laisse tomber|oublie(?: ca)?|plutot pas|mieux vaut pas|non,? (?:attends"
        r"|stop|arrete)|ah non|non non)(?![\w'-])"
    ),
    approvals=(
        r"\bc'est (?:tout )?(?:valide|approuve|bon pour moi)\b|\bje (?:valide|approuve)\b"
        r"|\bj'approuve\b|\bfeu vert\b|\blgtm\b|\bbon pour moi\b"
        r"|^(?:le )?(?:plan )?(?:est )?(?:valide|approuve)\W*$"
    ),
    negations=r"\b(?:pas|ne|jamais|non)\b|\bn'",
    courtesies=(
        r"(?:^|(?<=[\s,;:.!?]))(?:(?:quand|si|des que|lorsque) (?:tu (?:veux|voudras|peux|pourras"
        r"|le sens|le souhaites|es pret|es prete)|vous (?:voulez|voudrez|pouvez|pourrez"
        r"|le souhaitez|etes pret\w*)|t'es pret\w*)|(?:quand|si) (?:ca|cela) (?:te|vous) (?:va"
        r"|convient|chante|dit)|a (?:ton|votre) rythme|comme (?:tu veux|tu le sens|vous voulez))"
        r"(?=\s*(?:$|[,.!?;:]))"
    ),
)
