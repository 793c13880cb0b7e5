"""French rules of issue #45's sixteenth round (docs/interruptions.md, "Sixteenth round: the
rules (German, French)"), spliced into ``fr.py``'s table before ``fr-audit-state``: a question on
how the protocol works or on the app's own locks and sessions, one on the protocol's state now,
what is asked before a go, and two remarks that ask nothing. Text as in ``fr.py`` (lowercased,
accents folded)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

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
    r"|supprimee?s?|nettoyee?s?|perdue?s?|morte?s?|plantee?s?|bien a (?:toi|nous|moi))"
)
_FIRST = r"(?:d'abord|avant|avant ca|avant tout|en premier|au prealable)"

RULES = (
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
)
