"""French rules of issue #45's nineteenth round (docs/interruptions.md, "Nineteenth round: the
rules (German and French)"): kinds the twenty-first batch missed, each read from messages of the
round's own in other wordings. Spliced at the end of ``fr_more.FIRST`` (after the holds, before
the status rules). Text as in ``fr.py`` (lowercased, accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

_NOT = r"(?!.*(?:\bpas\b|\bjamais\b|\bplus\b|\bne\b|\bn'|\brien\b))"
# "as agreed / as planned": the work planned before, now to be done
AGREED = (
    r"comme (?:convenu|prevu|discute|entendu|planifie|dit|annonce|on (?:l'|en )?(?:a|avait)"
    r" (?:dit|convenu|prevu|discute|parle|vu)|dans le plan|au plan|sur le plan|dans le ticket"
    r"|dans la spec|d'hab|d'habitude)"
)
# a comma before an "as agreed" does not cut the clause ("Implémente X, comme prévu")
JOINERS = AGREED
# a step of the agent's own work, after which a go is no wait ("après le rebase, enchaîne sur
# X"): not a time in fr.py's later, unless someone else's ("après le rebase de Paul")
STEP = (
    r"(?:rebase|commit|push|fix|correctif|refacto\w*|nettoyage|lint|squash|formatage)\b"
    r"(?! (?:par\b|de (?!(?:la|le|les|ce|cette|ma|ta|ton|mon|tes|mes|nos|notre)\b|l')))"
)
# the work's verbs, imperative (with a pronoun after them: "intègre-les")
_DO = (
    r"(?:implemente|ajoute|rajoute|integre|code|ecris|developpe|construis|mets|branche|migre"
    r"|cable|fais|termine|finis|acheve|attaque|monte|cree|importe|programme|realise|enchaine"
    r"|implementez|ajoutez|integrez|codez|ecrivez|developpez|construisez|mettez|branchez"
    r"|migrez|faites|terminez|finissez|attaquez|montez|creez|importez|enchainez)"
    r"(?:-(?:les|la|le|moi|nous|y))?"
)
DO = _DO  # (fr_twentieth.py's too)
# the task's own work, "what you were doing / had started"
_OWN_WORK = (
    r"(?:ce que|ce qu'|ce sur quoi) ?(?:tu|t'|vous) ?(?:(?:etais|etiez) en train de (?:faire"
    r"|coder|bosser)|faisais|faisiez|bossais|travaillais|codais|(?:as|avais|aviez|avez) (?:deja )?"
    r"(?:commence|entame|demarre|lance|en cours|attaque))"
)
# the words of the work's progress, which an alternative asks about as where it stands
_PROGRESS = (
    r"(?:fini|finie|termine|terminee|en es|t'en es|t'es|es-tu|bosses|travailles|avance\w*"
    r"|encore|deja|toujours|merge|pousse|livre)"
)
_PREP = r"(?:depuis|de|du|des|par|via|dans|sur|avec|en|cote|au|aux|a|pour|vers)"
_TASK = r"(?:tache|task)s?"
_MARKED = (
    r"(?:interrompue?s?|en pause|suspendue?s?|bloquee?s?|terminee?s?|finie?s?|en cours"
    r"|fermee?s?|abandonnee?s?|close?s?|ouverte?s?|active?s?|arretee?s?|interrupted|paused|done)"
)

# a fault found in a thing, told: "le SQL que tu viens de générer a une erreur de syntaxe"
_FAULT = (
    r"(?:a|ont|avait|avaient|contient|contiennent|renvoie|renvoient|leve|levent|jette|crache"
    r"|affiche) (?:(?:encore|toujours|deja|maintenant|aussi|ici) )*(?:(?:une|un|des|deux|trois"
    r"|plusieurs|plein d'|plein de|quelques) ?)?(?:[\w'-]+ )?(?:erreurs?|bugs?|fautes?|typos?"
    r"|exceptions?|warnings?|coquilles?)\b"
)
# what the code is about, asked to be summed up (not the work's progress: fr-status-terse)
_SUBJECT = (
    r"(?:architecture|code|fonctionnement|logique|flux|module|design|schema|conception"
    r"|structure|api|algo\w*|principe|diff|readme|doc\w*|pipeline|modele|idee|concept)"
)

# before fr.py's negated go, which reads "après le …" + a go as waiting for it
BEFORE = (
    # a go after a step of the agent's own ("après le rebase continue avec l'export"); not
    # someone else's, not denied, not asked
    Rule(
        "fr-go-after-step",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)apres (?:le|la|l') ?{STEP}(?: [\w'.-]+){{0,3}}?,?(?: (?:tu|vous))?"
        r" (?:continues?|continuez|enchaines?|enchainez|reprends|reprenez|poursuis|poursuivez"
        r"|attaques?|attaquez|passes?|passez|vas-y|allez-y|go)\b",
        0.85,
    ),
)

NINETEENTH = (
    # the work planned before, now to be done: "Implémente les endpoints manquants, comme
    # prévu", "Ajoute le quota maintenant, comme convenu", "comme on a dit, intègre X"; not asked,
    # not denied (a time or a condition holds it: fr.py's later, conditions)
    Rule(
        "fr-go-agreed",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:bon|ok|alors|donc|et|maintenant) )*(?:{_DO}\b"
        rf"(?: [\w'.-]+){{0,10}}?,? {AGREED}(?: [\w'.-]+){{0,3}}?|{AGREED},? {_DO}\b.*)\W*$",
        0.85,
    ),
    # finish the task's own work: "finis ce que tu faisais", "termine ce que t'as commencé"
    Rule(
        "fr-go-own-work",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:bon|ok|alors|donc|et|maintenant|vas-y|va) )*(?:finis|finissez"
        r"|termine|terminez|acheve|achevez|boucle|bouclez|reprends|reprenez|continue|continuez)"
        rf"(?: (?:donc|maintenant|stp|svp|tranquillement))* {_OWN_WORK}\b",
        0.85,
    ),
    # a go in urgent slang, alone in its clause ("go go go", "vite vite", "hop hop hop"), or
    # hurried ("dépêche-toi de continuer", "grouille-toi de finir")
    Rule(
        "fr-go-urgent",
        "RESUMPTION",
        r"^(?!.*\?$)(?:go(?: go)+|vite(?: vite)+|hop(?: hop)+|zou(?: zou)*|let'?s go)\W*$"
        rf"|^{_NOT}(?!.*\?$)(?:depeche|depechez|grouille|grouillez|magne|magnez)[ -]?(?:toi|vous)"
        r" (?:de |d')(?:continuer|avancer|finir|terminer|reprendre|bosser|t'y remettre"
        r"|vous y remettre|boucler)\b",
        0.85,
    ),
    # a go forward onto the next piece of work ("(… débloqué,) en avant pour le paiement",
    # "cap sur l'export", "en route pour la suite"); not denied, not asked
    Rule(
        "fr-go-forward",
        "RESUMPTION",
        rf"^{_NOT}(?!.*\?$)(?:(?:allez|bon|alors|et|donc|ok) )*(?:en avant(?: toute)?|en route)"
        r" (?:pour|sur|avec|vers) (?:le|la|les|l'|ton|ta|tes|votre|vos)|^cap sur (?:le|la|les|l')",
        0.85,
    ),
    # a judgment asked: a question on the design, not where the work stands ("c'est malin de
    # lancer le solveur en synchrone ?", "est-ce judicieux de …", "ça vaut le coup de …")
    Rule(
        "fr-judgment-question",
        "QUESTION",
        r"^(?:est-ce (?:que )?(?:c'est |ce serait |ca serait )?|c'est |ce serait |ca serait"
        r" |ce n'est pas |c'est pas )(?:(?:vraiment|bien|pas|plus|moins|une|un) )*(?:malin"
        r"|judicieux|raisonnable|pertinent|sage|intelligent|prudent|risque|dangereux|mieux"
        r"|bonne idee|mauvaise idee|idee|overkill|utile)\b.*\b(?:de|d')\b"
        r"|^(?:ca|cela) (?:vaut|vaudrait) (?:vraiment )?(?:le coup|la peine)\b"
        r"|^(?:ca|cela) a (?:vraiment )?du sens\b"
        r"|^(?:vaut|vaudrait)-il mieux\b",
        0.85,
    ),
    # an estimate of a thing's end, as a fragment: "ETA pour la GED ?", "une ETA sur l'import ?"
    Rule(
        "fr-status-eta-of",
        "STATUS_REQUEST",
        r"^(?:(?:une|ton|ta|votre|un|l'|quelle|petite) )*eta (?:pour|sur|de|du|des|d') ?"
        r"[\w'.-]+(?: [\w'.-]+){0,4}\s*\?*$",
        0.85,
    ),
    # a fault told: a remark, not a question ("Le SQL que tu viens de générer a une erreur de
    # syntaxe"); the model may not make it one (languages/firm.py)
    Rule(
        "fr-fault-remark",
        "OTHER",
        r"^(?!.*\?$)(?!(?:est-ce|pourquoi|comment|dis|explique|si|tu peux|vous pouvez|y a-t-il"
        rf"|il y a)\b)(?:.*\b)?{_FAULT}",
        0.7,
    ),
    # a state told "as planned": a remark, not a go ("L'import tourne, comme prévu.")
    Rule(
        "fr-state-agreed-remark",
        "OTHER",
        rf"^(?!.*\?$)(?!{_DO}\b)(?:[\w'.-]+ ){{0,5}}?(?:[\w-]+ )?(?:tourne|tournent|marche"
        r"|marchent|fonctionne|fonctionnent|passe|passent|roule|est|sont|avance|s'est passee?"
        rf"|a marche|a fonctionne)\b(?: [\w'.-]+){{0,4}}?,? {AGREED}\W*$",
        0.7,
    ),
    # the code summed up: a question ("Résume-moi l'architecture de l'appli en deux lignes"),
    # read before fr-status-terse, whose "résume-moi" asks for the work's
    Rule(
        "fr-summary-question",
        "QUESTION",
        r"^(?:resume|resumez|synthetise|synthetisez)(?:-(?:moi|nous))?(?: (?:rapidement|vite|stp"
        rf"|svp|en gros|vite fait))* (?:l'|le |la |les )(?:[\w-]+ )?{_SUBJECT}\b",
        0.85,
    ),
    # the task's record checked: its integrity or completeness, or the state it is marked with
    # ("vérifie l'intégrité de la fiche de la tâche", "la tâche est bien marquée comme
    # interrompue ?"); not how it works ("comment une tâche est marquée comme interrompue ?"),
    # not an order to mark it ("marque la tâche comme terminée")
    Rule(
        "fr-audit-record",
        "AUDIT",
        r"^(?!(?:comment|pourquoi|quand|qui|a quel moment)\b)(?:.*\b(?:l'integrite|integrite"
        r"|la coherence|coherence|la completude|completude) (?:de la |du |des |de l')(?:[\w'-]+ )?"
        rf"(?:de la |du |de l')?(?:{_TASK}|enregistrement|fiche|dossier)\b"
        rf"|.*\b{_TASK}\b(?:[\w' .-]*)? (?:est|sont|a ete|ont ete|soit|est-elle)? ?(?:(?:bien"
        r"|correctement|vraiment|encore|toujours|deja) )*(?:marquee?s?|notee?s?|indiquee?s?"
        rf"|enregistree?s?|flaguee?s?|passee?s?) (?:comme|en) {_MARKED}\b"
        rf"|.*\b(?:l'enregistrement|le record|la fiche|l'entree) (?:de la|du|de cette) {_TASK}\b"
        r".*\b(?:complete?|coherente?|intacte?|valide|correcte?)\b)",
        0.85,
    ),
)

# after them, spliced at the end of fr_more.RULES (after the rounds' status and behaviour rules)
LATE = (
    # an alternative of how the code does it, the same preposition twice: "il lit les fûts
    # depuis l'API ou depuis la base ?" (not where the work stands: "t'en es au front ou au
    # back ?")
    Rule(
        "fr-either-question",
        "QUESTION",
        rf"^(?=.*\?$)(?!.*\b{_PROGRESS}\b).*\b({_PREP}) (?:[\w'.-]+ ){{0,3}}?ou"
        r" (?:bien |plutot |alors )?\1\b",
        0.85,
    ),
)
