"""French rules of issue #45's twenty-second round (docs/interruptions.md, "Twenty-second round:
the rules (German and French)"): kinds the twenty-fourth batch missed, in every language, each
read from messages of the round's own in other wordings. ``TWENTYSECOND`` is spliced after the
twenty-first round's in ``fr_more.FIRST``; ``JOINERS`` extends ``fr_kinds``'s, ``IF_HELD`` is a
condition ``fr.py``'s conditions read. Text as in ``fr.py`` (lowercased, accents folded)."""

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
