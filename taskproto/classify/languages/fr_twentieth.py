"""French rules of issue #45's twentieth round (docs/interruptions.md, "Twentieth round: the
rules (German and French)"): kinds the twenty-second batch missed, in every language, each read
from messages of the round's own in other wordings. ``TWENTIETH`` is spliced at the end of
``fr_more.FIRST`` (after the holds and the earlier rounds' forms, before the status rules) and
``BEFORE`` extends the nineteenth round's (before ``fr-negated-resumption``). Text as in
``fr.py`` (lowercased, accents folded).

The twenty-first round's ("Twenty-first round: the rules (German and French)") are here too:
``TWENTYFIRST``, spliced after ``TWENTIETH``, and ``TWENTYFIRST_LATE``, at the end of
``fr_more.RULES`` (the older rounds' status, audit and question rules read their forms first)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import fr_kinds

_NOT = r"(?!.*(?:\bpas\b|\bjamais\b|\bplus\b|\bne\b|\bn'|\brien\b))"
_DO = fr_kinds.DO
_NOUN = r"(?:verrous?|locks?|worktrees?|sessions?|journal|journaux|hooks?|task\.json|claims?)"
_APP = (
    r"(?:utilisateur\w*|users?|clients?|navigateur|cookies?|mutex|redis|base de donnees|bdd"
    r"|threads?|requetes?|connexion|login|react|webhooks?|api|app|appli\w*|serveur\w*"
    r"|composant\w*)"
)
# a piece of the work delivered: what a user waits for ("la première version", "le premier jet")
_DELIVERED = (
    r"(?:version|v\d|beta|maquette|jet|brouillon|draft|demo|pr|mr|pull request|merge request"
    r"|build|release|livraison|prototype|proto|apercu|preview|ebauche|resultat|mvp)s?"
)
# the work's progress, which a question "in your opinion" may ask about ("t'as fini quand à ton
# avis ?" asks where it stands)
_PROGRESS = (
    r"(?:fini|finie|termine|terminee|avance\w*|en es|t'en es|pret|prete|quand|combien de temps"
    r"|reste|restent)"
)

BEFORE = (
    *fr_kinds.BEFORE,
    # a status asked as when the user gets a piece of the work: "quand est-ce que je peux
    # compter sur une première version de X", "quand est-ce qu'on aura la démo ?", "je peux
    # espérer la maquette pour quand ?" (before fr-negated-resumption, which reads a clause of
    # "quand" alone as the time a go waits for; with no "est-ce que" only asked)
    Rule(
        "fr-status-when",
        "STATUS_REQUEST",
        r"^quand (?:est-ce (?:que |qu')|(?=.*\?$))(?:je|j'|on|nous) ?(?:peux|pourrai|pourrais"
        r"|pourra|peut|pourrons|aurai|aura|aurons|vais|va|verrai|verra) (?:(?:avoir|recevoir"
        r"|voir|esperer|compter sur|attendre) )?(?:(?:un|une|le|la|les|l'|ton|ta|tes|votre|ce"
        rf"|cette|premier|premiere|premiers|nouvelle|nouveau) ?)+(?:[\w-]+ )?{_DELIVERED}\b"
        r"|^(?:je|on) (?:peux|peut|pourrai|pourra) (?:esperer|compter sur|avoir|attendre|prevoir)"
        r" (?:[\w'-]+ ){1,8}?pour quand\s*\?*$"
        r"|^(?:c'est|ce sera|ca sera|(?:il|elle) (?:est|sera)|prevue?s?) (?:prevue? )?pour quand\b",
        0.85,
    ),
    # the twenty-first round's: when the user first gets to see the work ("quand est-ce que je
    # peux voir le planning dans le navigateur pour la première fois ?"): where it stands
    Rule(
        "fr-status-first-time",
        "STATUS_REQUEST",
        r"^(?=.*\b(?:voir|verrai|verra|tester|essayer|utiliser|cliquer|jouer|regarder|valider"
        r"|recetter|manipuler)\b)(?:a partir de )?quand (?:est-ce (?:que |qu')|(?=.*\?$))(?:je|j'"
        r"|on|nous) ?(?:peux|pourrai|pourrais|pourra|peut|pourrons|vais|va|verrai|verra)\b.*"
        r"\b(?:pour la premiere fois|enfin|pour de vrai)\b",
        0.85,
    ),
)

TWENTIETH = (
    # a wait kept up: "donc continue d'attendre", "continue à patienter", "on continue
    # d'attendre le retour de Paul" (a hold: not a go of "continue"; negated it is
    # fr-negated-resumption's)
    Rule(
        "fr-hold-waiting",
        "OTHER",
        r"\b(?:continue[sz]?|continuons|continuer|poursuis|poursuivez|reste[sz]?)"
        r" (?:a |d')(?:attendre|patienter)\b|\bcontinue[sz]? (?:de |a )?faire le pied de grue\b",
        0.85,
    ),
    # an order to mark the task ("marque la tâche comme terminée", "passe la tâche en bloquée"):
    # an instruction, no check of the record and no go (languages/firm.py)
    Rule(
        "fr-mark-remark",
        "OTHER",
        r"^(?!.*\?$)(?:(?:bon|alors|donc|et|maintenant|stp) )*(?:marque|marquez|passe|passez|mets"
        r"|mettez|note|notez|flague|flaguez)(?:-la|-le)? (?:la |cette |ta |ma )?(?:tache|task"
        r"|ticket)(?: [\w-]+)? (?:comme|en|a) [\w-]+(?: [\w-]+)?(?!.*\w)",
        0.7,
    ),
    # a past protocol event, asked: "le verrou a été libéré proprement quand t'as mis en pause ?",
    # "le hook s'est bien déclenché quand tu as commité ?" (not what it does whenever an event
    # happens: fr-question-whenever; not why, not the app's)
    Rule(
        "fr-audit-past",
        "AUDIT",
        r"^(?=.*\?$)(?!(?:pourquoi|comment|qui|que|qu'est-ce)\b)"
        rf"(?=.*\b{_NOUN}\b)(?!.*\b{_APP}\b).*\b(?:a|ont|s'est|se sont|est|sont)"
        r"(?:-t-il|-t-elle|-ils|-elles)? (?:(?:bien|correctement|proprement|vraiment|deja"
        r"|seulement|tout de suite) )*(?:ete )?(?:(?:bien|correctement|proprement) )?(?:libere"
        r"|relache|rendu|tourne|declenche|lance|execute|supprime|nettoye|cree|pris|retire|ferme"
        r"|ecrit|enregistre|passe|mis a jour|marche|fonctionne)e?s?\b.*\b(?:quand|lorsque"
        r"|lorsqu'|au moment ou|apres que|pendant que) ?(?:tu|t'|vous|on|j'|je) ?(?:as|avez|a|ai"
        r"|t'es|es|etes|etais|vous etes|m'etais|me suis|s'est)\b",
        0.85,
    ),
    # the state of a piece of the work asked ("Quel est l'état actuel de la migration des
    # comptes ?"): where the work stands (the state of a lock or a session is an audit's)
    Rule(
        "fr-status-state-of",
        "STATUS_REQUEST",
        r"^(?:quel est|c'est quoi|quid de|et) (?:l'etat|le statut|l'avancement|le niveau"
        r" d'avancement)(?: actuel| d'avancement| reel)? (?:de l'|de la |du |des |sur (?:la |le"
        r" |l')?)(?:[\w-]+ )?(?:implementation|implem|migration|refacto\w*|developpement|dev"
        r"|module|feature|fonctionnalite|ticket|chantier|travail|integration|import|export|ecran"
        r"|page|endpoint|tests?|correctif|fix|pr|portage|reecriture)s?\b",
        0.85,
    ),
    # what is still to happen before the agent can deliver: where the work stands ("qu'est-ce
    # qui doit encore se passer avant que tu puisses ouvrir la PR ?"), and its clause "avant que
    # tu puisses …", which asks nothing of its own (a remark)
    Rule(
        "fr-status-still-needed",
        "STATUS_REQUEST",
        r"^(?:qu'est-ce qui|que) (?:doit|reste a) encore (?:se passer|arriver|etre fait)\b"
        r"|^qu'est-ce qu'il (?:te |vous )?(?:faut|manque|reste) encore (?:avant|pour)\b",
        0.85,
    ),
    Rule(
        "fr-before-you-can-remark",
        "OTHER",
        r"^avant (?:que (?:tu|vous) (?:puisses|puissiez)|de pouvoir) (?!.*\b(?:continuer|reprendre"
        r"|avancer|poursuivre)\b)",
        0.7,
    ),
    # a status asked to be sent, or as a percentage: "tu pourrais m'envoyer un point sur X ?",
    # "donne-moi juste le pourcentage d'avancement" (not the lock's state: an audit's)
    Rule(
        "fr-status-send",
        "STATUS_REQUEST",
        r"^(?:tu (?:peux|pourrais)|peux-tu|pourrais-tu|vous (?:pouvez|pourriez)|pouvez-vous"
        r"|pourriez-vous) (?:m'|me |nous )?(?:envoyer|donner|faire|passer|ecrire|filer) (?:un |une"
        r" |le |la |l'|ton |ta |votre )?(?:petit |rapide |bref |court )?(?:point|etat|statut"
        rf"|status|bilan|avancement|update|compte[ -]rendu|recap\w*)\b(?!.*\b{_NOUN}\b)"
        r"|^(?:donne|donnez|dis|dites|envoie|envoyez)(?:-moi|-nous)? (?:juste |seulement |vite )?"
        r"(?:le |un |ton |votre )?(?:pourcentage|taux|%) (?:d'avancement|de progression"
        r"|d'achevement|de completion)\b",
        0.85,
    ),
    # done-ness asked alone: "alors, fini ?", "c'est bouclé ?", "déjà mergé ?"
    Rule(
        "fr-status-bare",
        "STATUS_REQUEST",
        r"^(?:(?:et|alors|bon|donc|ok) )*(?:deja |enfin )?(?:fini|finie|termine|terminee|boucle"
        r"|bouclee|c'est fait|c'est boucle|livre|merge|mergee|en prod)\s*\?+$",
        0.85,
    ),
    # a go as the task's final verb on it ("la validation est passée, déploie-le", "livre-la
    # maintenant"): not denied, not asked (a time or a condition holds it: fr.py's later)
    Rule(
        "fr-go-ship",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:alors|donc|bon|ok|maintenant|et|vas-y) )*(?:deploie|deployez"
        r"|livre|livrez|merge|mergez|mets|mettez)(?:-(?:le|la|les)| (?:ca|le tout))"
        r"(?: (?:maintenant"
        r"|en prod|en production|en ligne|sur la prod|direct|stp|svp))*(?!.*\w)",
        0.85,
    ),
    # a go on what is missing of the work: "implémente ce qui manque de X", "écris les tests qui
    # manquent pour l'ETL", "code les écrans restants" (not denied, not asked)
    Rule(
        "fr-go-missing",
        "RESUMPTION",
        rf"^(?!.*(?:\bpas\b|\bjamais\b|\bne\b))(?!.*\?$)(?:(?:bon|ok|alors|donc|et|maintenant) )*"
        rf"{_DO}\b(?: (?:donc|maintenant|stp|svp|vite|aussi))* (?:(?:tout )?ce qui (?:manque"
        r"|reste)|ce qu'il (?:manque|reste)|(?:le|la|les|l') ?(?:[\w-]+ ){1,3}?(?:manquant|restant)"
        r"e?s?\b|(?:le|la|les|l') ?(?:[\w-]+ ){1,3}?qui (?:manquent|manque|restent|reste)\b)",
        0.85,
    ),
    # what was planned, now done: "fais ce qui était prévu pour X", "fais ce que t'avais prévu"
    Rule(
        "fr-go-planned",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:bon|ok|alors|donc|et|maintenant|vas-y) )*(?:fais|faites|lance"
        rf"|lancez|attaque|attaquez|deroule|deroulez|{_DO})(?: (?:donc|maintenant|stp|svp"
        r"|directement|simplement|juste))* (?:tout )?(?:ce (?:que|qu') ?(?:tu|t'|vous|on) ?(?:avais"
        r"|avait|aviez|as|a|avez|avions) (?:prevu|planifie|dit|convenu|decide|annonce)"
        r"|ce qui (?:etait|est|a ete|avait ete) (?:prevu|planifie|convenu|decide|annonce))\b",
        0.85,
    ),
    # back onto a piece of the work: "reviens sur le mode sombre", "retourne sur l'écran de
    # paiement" (not on an answer, a point or a version: "reviens sur ta dernière réponse",
    # "reviens à la version précédente" revert or ask)
    Rule(
        "fr-go-back-onto",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:bon|ok|alors|donc|et|maintenant|du coup) )*(?:reviens|revenez"
        r"|retourne[sz]?) sur (?!(?:ce que|ce qu'|ca|cela|ceci|toi|moi)\b)"
        r"(?:le |la |les"
        r" |l'|ton |ta |tes |votre |vos |ce |cet"
        r" |cette )?(?!(?:[\w-]+ )?(?:version|commit"
        r"|etat|reponse|message|question|point|decision|remarque|explication|sujet|ancien\w*"
        r"|precedent\w*|debut|ligne|avant|propos|phrase|idee|choix|branche|main|master)\b)[\w-]+",
        0.85,
    ),
    # what a command or an upgrade does, asked in the present ("Est-ce que git worktree prune
    # supprime aussi le lock ?", "passer à Spring Boot 3 casse le client ?"): how it works, not
    # the protocol's state now nor a past event (languages/firm.py)
    Rule(
        "fr-command-question",
        "QUESTION",
        r"^(?=.*\?$)(?!.*\b(?:encore|toujours|deja|en ce moment|maintenant)\b)(?:est-ce (?:que"
        r" |qu'))?(?:(?:passer|monter|migrer|upgrader) (?:a |en |vers |sur )|(?:le |la |l'|un"
        r" |une )?(?:upgrade|mise a jour|migration|montee de version|passage a|rebase|squash"
        r"|reset|git|taskproto|doctor|commande|cron) )(?:[\w'.+-]+ ){0,5}?(?<!\ba )(?<!\bont )"
        r"(?<!\bas )(?<!\bavez )(?:casse|cassent|impacte|impactent|affecte|affectent|supprime"
        r"|suppriment|efface|effacent|ecrase|ecrasent|nettoie|nettoient|touche|touchent|libere"
        r"|liberent|garde|gardent|conserve|conservent|bloque|bloquent|ralentit|vire|tue)\b",
        0.85,
    ),
    # a threshold of the protocol, asked: "combien de temps le heartbeat peut manquer …", and the
    # clause of what it waits for ("avant que la session soit considérée morte ?")
    Rule(
        "fr-threshold-question",
        "QUESTION",
        r"^(?:au bout de |apres )?combien de (?:temps|minutes|secondes|heures)\b(?=.*\b(?:peut"
        r"|peuvent|doit|doivent|faut)\b)(?=.*\b(?:verrou|lock|heartbeat|session|worktree|claim"
        r"|timeout|ttl|bail)s?\b)(?!.*\b(?:tu|t'|te|vous)\b)"
        r"|^avant (?:que|qu'|d'|de) .*\b(?:considere"
        r"|declare|marque|juge|traite)e?s? (?:comme )?(?:morte?s?|perimee?s?|expiree?s?|stale"
        r"|orpheline?s?|abandonnee?s?|inactive?s?|zombies?)\b.*\?$",
        0.85,
    ),
    # what a change did, asked: "qu'est-ce qu'il a changé ce dernier commit, dis-le en deux
    # mots" (a question on the code, not the work's status: "qu'est-ce que t'as changé ?")
    Rule(
        "fr-change-question",
        "QUESTION",
        r"^qu'est-ce (?:qu'il |qu'elle |que (?:le|la|ce|cette) |que l')(?=.*\b(?:commit|pr|merge"
        r"|patch|diff|release|rebase|upgrade|mise a jour|version|changement)s?\b)"
        r"(?:[\w'.-]+ ){0,4}?"
        r"(?:a|ont|avait) (?:change|modifie|apporte|casse|touche|corrige|ajoute|supprime)\b",
        0.85,
    ),
    # where a thing comes from, or a question "in your opinion": "le N+1, il vient d'où à ton
    # avis ?", "d'où sort ce warning selon toi ?" (not the work's progress)
    Rule(
        "fr-opinion-question",
        "QUESTION",
        rf"^(?!.*\b{_PROGRESS}\b)(?:.*\b(?:vien(?:t|nent)|provien(?:t|nent)|sor(?:t|tent)) d'ou\b"
        r"|d'ou (?:vient|viennent|provient|sort|sortent)\b|.*\b(?:a ton avis|selon toi|d'apres toi"
        r"|a votre avis|selon vous)\s*\?$)",
        0.85,
    ),
    # a wonder on the code, "si on devrait …": a question ("je me demande si on devrait pas
    # stocker les durées en ms"); not one on stopping, waiting or going on
    Rule(
        "fr-wonder-should-question",
        "QUESTION",
        r"^(?:je me (?:demande|demandais|pose la question)|je me dis)(?: (?:quand meme|vraiment"
        r"|un peu))?,? (?:si|s') ?(?:on|nous|il|ca|ce|c') ?(?:ne |n')?(?:devrai[st]|devrions"
        r"|faudrait|vaudrait|serait|aurait|ferait|pourrai[st])(?: pas)? (?!.*\b(?:arreter"
        r"|continuer|attendre|pause|stopper|reprendre|s'arreter|laisser tomber|demain|plus tard"
        r"|tout a l'heure)\b)",
        0.85,
    ),
    # a go after "and after that" ("…, et après reprends où t'en étais", "puis après, tu
    # continues"): the go last, not denied, not asked
    Rule(
        "fr-go-after-that",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:et|puis|ensuite|alors) )*(?:apres|apres ca|apres quoi|derriere)"
        r",? (?=(?:tu )?(?:reprends|reprenez|continue[sz]?|poursuis|poursuivez|enchaine[sz]?"
        r"|retourne[sz]? (?:bosser|au boulot|au travail)|y retournes?)\b)",
        0.85,
    ),
)

# the twenty-first round's (docs/interruptions.md, "Twenty-first round: the rules (German and
# French)"): the kinds the twenty-third batch missed, spliced after TWENTIETH
_NOW = r"(?:maintenant|a present|desormais|tout de suite|des maintenant|direct|directement)"
_GO_INF = (
    r"(?:reprendre|continuer|poursuivre|enchainer|avancer|t'y remettre|vous y remettre"
    r"|te remettre au travail|vous remettre au travail|y aller|t'y mettre|vous y mettre)"
)
# a stop, a pause or a piece set aside said with a work verb ("fais une pause maintenant",
# "mets maintenant les tests de côté"): no go
_NO_WORK = (
    r"(?!.*\b(?:pause|stop|rien|attendre|attends|patiente\w*|arrete\w*|de cote|en attente"
    r"|en suspens|au frigo)\b)"
)

TWENTYFIRST = (
    # a go on the next piece with a now, after an instruction or an understanding: "laisse
    # l'API comme elle est et occupe-toi maintenant du front", "alors implémente maintenant le
    # cache" (not denied, not asked, not a pause)
    Rule(
        "fr-go-now",
        "RESUMPTION",
        rf"{_NOT}{_NO_WORK}(?!.*\?$)(?:^|\b(?:et|puis|ensuite) )(?:(?:alors|ensuite|du coup) )*"
        rf"(?:{_DO}|occupe-toi|occupez-vous|concentre-toi|concentrez-vous|passe|passez)"
        rf" {_NOW}\b",
        0.85,
    ),
    # a go asked politely: "merci de reprendre le travail sans attendre" ("merci" is a filler),
    # "je vous prie de poursuivre", "ça te dérangerait (pas) de reprendre l'import ?"
    Rule(
        "fr-go-polite",
        "RESUMPTION",
        r"^(?!.*(?:\bne\b|\bn'|\bjamais\b|\bplus\b))(?:(?:je (?:te|vous) (?:prie|demande"
        r"|remercie)|priere|merci bien|ca (?:te|vous) (?:derangerait|ennuierait|embeterait"
        r"|generait|derange|ennuie|dirait|dit)(?: pas)?) )?(?:de |d')(?:bien )?"
        rf"(?:(?!(?:pas|plus|jamais)\b)[\w'-]+ )?{_GO_INF}\b(?!.*\bpas\b)",
        0.85,
    ),
    # slang gos: "gogogo", "go go go", "zou", "en avant toute" (not denied, not asked)
    Rule(
        "fr-go-slang",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:allez|et|alors) )*(?:go,? go(?:,? go)*|gogo(?:go)*|zou"
        r"|en avant(?: toute)?|a fond|plein gaz|(?:allez,? )+hop)(?![\w'-])",
        0.85,
    ),
    # a hold asked as a question: "tu peux t'arrêter une seconde ?", "vous pourriez faire une
    # pause ?" (a hold, never a question or a go; not "arrêter de demander")
    Rule(
        "fr-hold-asked",
        "OTHER",
        r"^(?!.*(?:\bne\b|\bn'|\bpas\b|\bcontinu\w*|\breprend\w*))(?:(?:et|alors|dis|hey) )*"
        r"(?:tu (?:peux|pourrais|veux bien|voudrais bien)|(?:vous|on) (?:pouvez|pourriez|peut"
        r"|pourrait|voulez bien|voudriez bien)|peux-tu|pourrais-tu|pouvez-vous|pourriez-vous)"
        r" (?:(?:juste|un peu|bien) )?(?:t'arreter|vous arreter|s'arreter|arreter|stopper"
        r"|faire (?:une|un petit) pause|patienter|attendre|te mettre en pause|mettre en pause"
        r"|tout mettre en pause|lever le pied)(?: (?:un (?:peu|instant|moment|petit moment|sec)"
        r"|une (?:seconde|minute|sec)|deux (?:secondes|minutes)|la|stp|svp|deja|tout de suite"
        r"|maintenant))*\s*\?*$"
        # "ça te dérangerait d'attendre un peu ?"
        r"|^ca (?:te|vous) (?:derangerait|ennuierait|embeterait|generait|derange|ennuie)"
        r" (?:de |d')(?:attendre|patienter|faire une pause|t'arreter|vous arreter|stopper)\b",
        0.85,
    ),
    # a status asked as a fragment: "point planning ?", "statut export ??", "avancement
    # facturation ?" (not a status code, nor the protocol's: "statut du verrou ?")
    Rule(
        "fr-status-fragment",
        "STATUS_REQUEST",
        rf"^(?!.*\b(?:code|codes|champ|http|{_NOUN})\b)(?:(?:et|alors|du coup|vite) )*(?:point"
        r"|statut|status|etat|avancement|news|nouvelles)(?: (?:sur|pour|de|du|des|d'))?"
        r"(?: [\w'.-]+){1,3}\s*\?+$",
        0.85,
    ),
    # impatience at the work itself: "pourquoi c'est toujours pas fini ?", "pourquoi ça prend
    # autant de temps ?" (not the code's speed: "pourquoi la requête prend autant de temps ?")
    Rule(
        "fr-status-impatient",
        "STATUS_REQUEST",
        r"^(?:(?:et|mais|alors|bon) )*pourquoi (?:c'est|ca|t'as|tu as|tu|t'es|vous avez) (?:[\w'-]+"
        r" ){0,2}?(?:(?:toujours|encore|pas encore) (?:pas )?(?:fini|termine|pret|fait|boucle)"
        r"|prend (?:autant de|tant de|si longtemps|aussi longtemps|des plombes)"
        r"|met (?:autant de|tant de|si longtemps)|traine\w*)\b",
        0.85,
    ),
    # whether the agent found what it looked into: "t'as trouvé d'où vient la fuite ?" (not how)
    Rule(
        "fr-status-found-out",
        "STATUS_REQUEST",
        r"^(?:(?:et|alors|du coup) )*(?:t'as|tu as|vous avez|avez-vous|as-tu) (?:(?:enfin|deja"
        r"|fini par|pu) )*(?:trouve|compris|identifie|localise|decouvert)(?: (?:d'ou|pourquoi"
        r"|ce qui|ou|la cause|l'origine|qui)\b)",
        0.85,
    ),
)

# the twenty-first round's that come last (fr_more.RULES' end): the older rounds' audits and
# questions read their own forms first ("t'es sûr que le lock a été libéré … ?" is an audit)
TWENTYFIRST_LATE = (
    # a doubt on a fact of the code ("t'es sûr que le BIC est optionnel ?", "vous êtes certain
    # que ce champ est obligatoire ?"): a question, not the work's status
    Rule(
        "fr-sure-question",
        "QUESTION",
        r"^(?!.*\b(?:fini|finie|termine|terminee|pret|prete|livre|merge|pousse|continu\w*)\b)"
        # (what it "marche avec" is fr.py's fr-property-question's)
        r"(?!.*\b(?:marche|fonctionne|tient|supporte|gere)\b.*\?$)"
        r"(?:(?:et|mais|alors|hm+) )*(?:t'es|tu es|vous etes|es-tu|etes-vous|t'es bien|tu es bien)"
        r" (?:(?:vraiment|bien|absolument|tout a fait) )?(?:sur|sure|surs|certain|certaine"
        r"|certains) (?:que\b|qu')",
        0.85,
    ),
)
