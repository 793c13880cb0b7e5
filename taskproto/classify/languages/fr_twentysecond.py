"""French rules of issue #45's twenty-second and twenty-third rounds (docs/interruptions.md,
"Twenty-second round: the rules (German and French)", "Twenty-third round: the rules (German and
French)"): kinds the twenty-fourth and twenty-fifth batches missed, in every language, each read
from messages of the round's own in other wordings. ``TWENTYSECOND`` and ``TWENTYTHIRD`` are
spliced after the twenty-first round's in ``fr_more.FIRST``; ``JOINERS`` extends ``fr_kinds``'s,
``IF_HELD`` is a condition ``fr.py``'s conditions read, ``LEAVING`` the user's own leaving that
``fr.py``'s connectives do not cut at. Text as in ``fr.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import fr_kinds

# whose a protocol object is, asked after it was named: "je vois un index.lock, c'est le tien ?"
# (a comma before it does not split: the clause keeps the object it asks about)
JOINERS = (
    fr_kinds.JOINERS
    + r"|c'est (?:(?:bien|pas) )?(?:le tien|la tienne|les tiens|toi qui l'as(?: \w+)?"
    r"|le votre|la votre)(?=\W*$)"
)
# "si" (if) opening a condition on somebody else or an event ("si la QA valide, alors
# continue", "si les tests passent, continue"; the go held), or after the go's verb ("continue
# si le build passe"): not the agent's own choice or need ("si tu veux", "si besoin", "si
# possible"), not "s'il te plaît", not a concession ("même si"), nor whether ("vérifie si …")
_IF_WHO = (
    r"(?:le|la|les|l'|un|une|mon|ma|mes|notre|nos|leur|leurs|son|sa|ses|ce|cet|cette|ces"
    r"|personne|quelqu'un|qqn|elle|elles|ils)\b"
    # (not the user's leave: "si le cœur t'en dit", "si la solution te va")
    r"(?![^,.;]*\b(?:t'en dit|vous en dit|te (?:va|convient|dit|plait|chante)|vous (?:va|convient"
    r"|dit|plait|chante)))"
)
IF_HELD = (
    # (not after "et": "continue, et si le build casse, préviens-moi" is a go and what to do if)
    r"|^(?:(?:mais|alors|bon|ok|ensuite|puis) )*(?:si " + _IF_WHO + r"|s'ils\b|s'elles?\b)"
    # (the go's verb in a lookahead: a go's "continue" alone compiles nothing more)
    r"|(?=.*\b(?:continue|continuez|reprends|reprenez|poursuis|poursuivez|enchaine|enchainez)"
    r" (?:[\w'-]+ ){0,5}?(?<!meme )(?<!\bet )si " + _IF_WHO + r").*\bsi " + _IF_WHO
)
# the user's own leaving after "avant que", a deadline, not a wait ("donne-moi un récap avant
# que je parte"): fr.py's connectives do not cut the clause there
LEAVING = (
    r"(?! (?:je |j'|on |nous )(?:parte|partes|partions|file|filions|m'en aille|y aille|aille"
    r"|rentre|rentrions|sorte|quitte|decolle|me deconnecte|ferme|parte chercher))"
)
_NOUN = r"(?:verrous?|lock\w*|worktrees?|sessions?|journal|journaux|claims?|task\.json|task record)"
_APP = (
    r"(?:utilisateur\w*|users?|clients?|navigateur|mutex|redis|base de donnees|bdd|threads?"
    r"|requetes?|api|app|appli\w*|serveur\w*|composant\w*)"
)
_GO = (
    r"(?:continu(?:es|ez|e|eras|erez|era|er)|repren(?:ds|ez|dras|drez|d|dra|dre)"
    r"|poursui(?:s|vez|vras|vrez|t|vra|vre)|enchain(?:es|ez|eras|erez|e|era|er))"
)
_CODE = (
    r"(?:fonction|methode|classe|variable|parametre|champ|constante|propriete|endpoint|route"
    r"|callback|handler|flag|module|import|constructeur|boucle)"
)
_UNUSED = (
    r"(?:appele|utilise|employe|initialise|importe|reference|execute|atteint|teste|lu|rempli"
    r"|renseigne)e?s?"
)

TWENTYSECOND = (
    # a go asked about, in the indicative ("et après tu reprends ?", "ensuite vous continuez
    # le module ?"): asks what comes next, no go (not a request with "stp", nor "ou quoi")
    Rule(
        "fr-go-asked-plan",
        "QUESTION",
        r"^(?!.*\b(?:stp|svp|s'il te plait|s'il vous plait|ou quoi|ou bien|merci)\b)(?:(?:et|mais"
        r"|donc|alors|du coup|bon) )*(?:(?:apres|ensuite|puis|la|demain|apres ca|et apres) )?"
        # (the verb looked ahead: "vas-y, continue" compiles nothing more)
        rf"(?:tu|vous) (?={_GO}\b)[\w-]+(?: [\w'.-]+){{0,6}}\s*\?+$",
        0.85,
    ),
    # whose a protocol object is ("je vois un index.lock, c'est le tien ?", "le verrou est à
    # toi ?"): an audit, not the code's question (nor the app's own lock)
    Rule(
        "fr-audit-whose",
        "AUDIT",
        # (not "c'est à toi": your turn, a go after news, "la maquette est validée, c'est à toi")
        rf"^(?!.*\b{_APP}\b)(?=.*\b{_NOUN})(?:.*\bc'est (?:(?:bien|pas) )?(?:le tien|la tienne"
        r"|les tiens|toi qui l'as(?: \w+)?|le votre|la votre)\W*$"
        r"|.*\b(?:t'appartient|t'appartiennent|vous appartient)\b)",
        0.85,
    ),
    # how old a protocol object is ("il date de quand ce lock ?", "le verrou a quel âge ?",
    # "depuis quand le verrou est posé ?"): an audit
    Rule(
        "fr-audit-age",
        "AUDIT",
        rf"^(?!.*\b{_APP}\b)(?=.*\b{_NOUN})(?:.*\b(?:date de quand|de quand date|datent de quand"
        r"|a quel age|quel age|vieux de quand|remonte a quand)\b|(?:(?:et|mais|du coup) )*depuis"
        r" quand (?:(?:le|la|les|ce|cet|cette|ton|ta|tes) )?(?:[\w.-]+ )?" + _NOUN + r")",
        0.85,
    ),
    # a doubt on the code or a wish to understand it, said ("j'ai un doute sur la gestion des
    # fuseaux", "j'aimerais comprendre la logique de X"): a question (not where the work is)
    Rule(
        "fr-doubt-question",
        "QUESTION",
        r"^(?:(?:bon|hmm*|franchement|perso) )*(?:j'ai|jai|j'aurais) (?:un |des |quelques |de gros"
        r" |un gros |un petit |un leger |comme un )?doutes?,? (?:que|qu'|si|s'il|s'ils|sur le fait"
        r" que|quant au fait que)|^(?:je )?doute (?:que|qu'|fort que)"
        r"|^(?:j'aimerais|j'aimerai|jaimerais|je voudrais|je voudrai|je veux|je souhaiterais"
        r"|j'aurais besoin de) (?:bien |mieux |vraiment |juste |d'abord )*(?:comprendre|saisir"
        r"|piger|capter)\b(?! (?:ou (?:t'en|tu en|vous en|on en)|ce que tu fais|l'avancement"
        r"|ton avancement))",
        0.85,
    ),
    # a complaint, said ("ça m'agace que tu mélanges X et Y"): a remark, not a question (not
    # asked). Not thanks: a rule's OTHER on "merci pour l'explication, …" would keep the model
    # from the go it reads in the clause after it ("…, du coup enchaîne sur le driver")
    Rule(
        "fr-complaint-remark",
        "OTHER",
        r"^(?!.*\?)(?:ca|ce qui) m'(?:agace|enerve|embete|gene|saoule|soule|derange|irrite"
        r"|chiffonne|ennuie|fatigue)\b|^(?!.*\?)(?:ca|ce qui) me (?:gene|derange|chiffonne"
        r"|fatigue|saoule|gonfle)\b",
        0.85,
    ),
    # a fact about the code, told ("la fonction reprendreApresCoupure() n'est jamais appelée",
    # a go word inside the name): a remark, not a question or an audit
    Rule(
        "fr-code-fact-remark",
        "OTHER",
        # (or the clause its verb opens, the name's "()" having cut it: "n'est jamais appelée")
        rf"^(?!.*\?)(?!.*\b{_NOUN})(?:(?:(?:la|le|l'|ce|cette|cet) ?)?{_CODE}\b.*\b)?(?:n'est"
        rf"|ne sont|n'a|n'ont) (?:(?:jamais|plus|pas|nulle part) (?:[\w'.-]+ )?{_UNUSED}\b"
        rf"|{_UNUSED} (?:nulle part|par personne|par rien))",
        0.85,
    ),
)

# a protocol object (hooks and pre-commit too: "le hook s'applique aussi dans ton worktree ?"),
# and a word that puts the question on its state now, not on how the protocol works
_OBJECT = (
    r"(?:verrou\w*|lock\w*|worktree\w*|sessions?|journal|journaux|hooks?|hook-\w+|pre-commit"
    r"|claims?|task\.json|task record|fiche de (?:la )?tache)"
)
# (an event told in the past, "a sauté", not how it behaves: "quand le hook plante"; "toujours"
# as still, not as always: "toujours avant le push")
_NOW = (
    r"(?:toujours(?! (?:avant|apres|au|aux|a chaque|quand|lors|pendant)\b)|encore|deja"
    r"|il y a \w+ (?:jours?|heures?|minutes?|semaines?)|tout a l'heure|hier|ce matin|ton|ta|tes"
    r"|mon|ma|mes|notre|nos|votre|vos|(?:le|la|les) memes?|identiques?|valables?"
    r"|(?:a|ont|est|sont|s'est|se sont) (?:[\w'-]+ )?(?:bloquee?s?|coincee?s?|tombee?s?"
    r"|sautee?s?|survecu|laissee?s?|attrapee?s?|interceptee?s?|chopee?s?|passee? a travers"
    r"|plantee?s?))"
)
# the work's state, supposed for the agent to confirm ("j'imagine que t'as pas encore attaqué X")
_STARTED = (
    r"(?:fini\w*|termine\w*|attaque\w*|commence\w*|boucle\w*|fait\w*|entame\w*|demarre\w*"
    r"|touche\w*|avance\w*|merge\w*|pousse\w*|livre\w*|prete?s?|cable\w*|branche\w*|code\w*"
    r"|ecrit\w*|implemente\w*|rien)"
)
_YET = r"(?:pas encore|toujours pas|pas fini|deja|pas commence|pas termine|pas touche|encore rien)"
_REPORT = (
    r"(?:recap\w*|point|bilan|etat des lieux|topo|compte[- ]rendu|resume|synthese|debrief\w*"
    r"|update)"
)

TWENTYTHIRD = (
    # where the work stands, supposed for the agent to confirm ("j'imagine que t'as pas encore
    # attaqué les exports", "t'as sûrement déjà fini, non ?"): not the protocol's state
    Rule(
        "fr-status-supposed",
        "STATUS_REQUEST",
        r"^(?!.*\b(?:verrou\w*|lock\w*|worktree\w*|sessions?|journal|hooks?)\b)"
        rf"(?=.*\b{_YET}\b)(?=.*\b{_STARTED}\b)(?:(?:j'imagine|jimagine|je suppose|j'suppose"
        r"|jsuppose|je presume|je parie|je devine|je me doute)(?: bien| fort)? (?:que |qu')"
        r"|(?:t'as|tu as|vous avez|t'es|tu es|vous etes)\b(?=.*\b(?:surement|sans doute"
        r"|probablement|certainement|j'imagine|je suppose|je parie)\b))",
        0.85,
    ),
    # why, abbreviated ("pk t'as mis un timeout de 30s", "pq un set ?"): a question, as
    # "pourquoi" is (fr-question)
    Rule(
        "fr-question-why-short",
        "QUESTION",
        r"^(?:et |mais )?(?:pk|pq|pkoi|pkq|prq|pourkoi|pour ?koi)\b",
        0.85,
    ),
    # what a thing the agent spoke of is ("c'est quoi cette clé dont tu parles ?", "tu veux dire
    # quoi par fencing ?"): the code's question, not where the work stands
    Rule(
        "fr-question-mentioned",
        "QUESTION",
        r"^(?:et |mais )?(?:c'est quoi|c quoi|cest quoi|c'est koi|qu'est-ce que c'est que"
        r"|qu'est ce que c'est que|que veut dire|ca veut dire quoi|que signifie|ca signifie quoi)"
        r"\b(?!.*\b(?:statut|avancement|etat|suite|eta|programme|prochaine etape|reste)\b)"
        r"(?=.*\b(?:dont|que|qu') ?(?:tu |vous |t')(?:[\w'-]+ ){0,2}?(?:parles|parlez|as parle"
        r"|avez parle|mentionnes|mentionnez|as mentionne|avez mentionne|evoques|evoquez"
        r"|as evoque|proposes|as propose|as cite|cites)\b)|^(?:et |mais )?(?:tu veux dire quoi"
        r"|qu'est-ce que tu veux dire|que veux-tu dire|tu entends quoi|vous voulez dire quoi)"
        r" par\b",
        0.85,
    ),
)
# the twenty-third round's that come last (fr_more.RULES' end): the older rounds' status
# and audit rules and the protocol's design questions read their forms first
TWENTYTHIRD_LATE = (
    # where the work stands, asked as an order to report ("donne-moi un récap de l'avancement",
    # "mets-moi à jour", "liste-moi les TODO qui restent"): not a report later ("tiens-moi au
    # courant quand t'as fini"), not a summary of a text ("fais-moi un résumé du RFC")
    Rule(
        "fr-status-order",
        "STATUS_REQUEST",
        r"^(?!.*\b(?:quand|des que|si|une fois|plus tard|demain)\b)(?:(?:et|alors|bon|allez) )*"
        r"(?:(?:mets|remets)[- ](?:moi|nous) (?:(?:vite|rapidement|un peu) )*(?:au courant|a jour"
        r"|au jus|au parfum)\b|(?:donne|file|fais|envoie|balance|redige|ecris|prepare|sors)"
        r"[- ](?:moi|nous) (?:(?:un|une|le|la|ton|ta|vite|rapidement) )*(?:(?:petit|petite|rapide"
        rf"|bref|breve|court|courte|mini|vrai) )?{_REPORT}\b(?! (?:de la|du|des|de l') ?(?:doc\w*"
        r"|rfc|article|fonction|spec\w*|ticket|pr|mr|code|fichier|lib\w*))"
        r"|(?:donne|file|fais|envoie|balance|redige|ecris|prepare)(?:[- ](?:moi|nous))? (?:(?:un"
        rf"|une|le|la|ton|ta) )*(?:(?:petit|petite|rapide|bref|breve|court|courte) )?{_REPORT}"
        r" (?:de |d'|du |des |sur )(?:(?:l'|la|ta|ton|tes|ce que|ou) ?)?(?:avancement|journee"
        r"|matinee|aprem|apres-midi|semaine|progres|boulot|travail|taf|changements|modifs"
        r"|commits|t'as|tu as|vous avez|t'en es|tu en es|on en est)\b"
        r"|(?:liste|listez|enumere|enumerez)[- ](?:moi|nous) (?:[\w'.-]+ ){0,4}?(?:todos?|to-dos?"
        r"|restante?s?|qui reste\w*|a faire|en suspens|ouverte?s?|pas finie?s?|pas faite?s?)\b)",
        0.85,
    ),
    # the state of a protocol object asked ("ce verrou d'il y a trois jours est toujours valable
    # ?", "le hook s'applique aussi dans ton worktree ?", "le pre-commit a chopé le fichier ?"):
    # an audit; not how the protocol works ("le journal est append-only ?"), not the app's, not
    # the work on it ("t'as déjà écrit le hook ?")
    Rule(
        "fr-audit-state-asked",
        "AUDIT",
        r"^(?!(?:pourquoi|comment|quand|ou|qui|quel\w*|combien|c'est quoi|qu'est-ce)\b)"
        r"(?!.*\b(?:si|s'il|en general|normalement|par defaut|d'habitude|fini\w*|implemente\w*"
        r"|ecrits?|codee?s?|testee?s?|verte?s?|utilisateur\w*|users?|clients?|api|app|redis|bdd"
        r"|mutex|threads?|webhooks?|react)\b)(?!.*\b(?:t'as|tu as|vous avez) (?:deja |bien )?"
        r"(?:mis|ajoute|ecrit|code|fait|cree|installe|configure|branche)\b)"
        rf"(?=.*\b{_NOW}\b)(?=.*\?\s*$).*(?<![\w-]){_OBJECT}(?![\w-])",
        0.85,
    ),
)
