"""The default interruption rules: ordered, named data.

Each pattern is matched (case-insensitively, with ``re.search``) against one *clause* of a
normalised message: lowercased, dashes and quotes made ASCII, markdown and code spans removed,
and leading fillers ("ok", "so", "please", "thanks", ...) stripped. Within a clause the first
rule that matches wins, so holds and negations come before the verbs they negate, and status
phrasings ("what's the status") come before the generic question words they start with.

Patterns are kept free of nested quantifiers so no input can make them backtrack badly.
"""

from __future__ import annotations

from dataclasses import dataclass

INTERRUPTION_TYPES = ("RESUMPTION", "AUDIT", "QUESTION", "STATUS_REQUEST", "OTHER")


@dataclass(frozen=True)
class Rule:
    """One named classification rule; ``pattern`` is a regex applied case-insensitively."""

    name: str
    type: str
    pattern: str
    confidence: float


# Common typos, fixed word by word during normalisation. Spelled out rather than fuzzy-matched:
# fuzzy matching turns real words ("states", "continued") into keywords.
_TYPOS = {
    "continue": "contine continoue contiune coninue contnue conitnue cotinue continu contineu"
    " contunue contiue continnue",
    "proceed": "procede proceeed procced proced porceed preceed",
    "resume": "resme reusme rsume resuem rseume",
    "going": "goign giong goin goiing",
    "keep": "kepp",
    "status": "stauts staus statsu satus stautus",
    "audit": "adit audti aduit auidt",
    "progress": "progess progres porgress",
}
TYPO_FIXES: dict[str, str] = {
    typo: word for word, typos in _TYPOS.items() for typo in typos.split()
}

# Verbs and phrases that, un-negated, send the agent back to its work. Each rule that needs it
# embeds it once: compiling it is most of the classifier's start-up cost.
RESUME_VERB = (
    r"(?:continue|cont|proceed|resume|keep (?:on |it |things |right on )?(?:going|working|at it)"
    r"|carry on|go on|go ahead|move on|press on|push on|crack on|get going"
    r"|(?:get |go )?back to (?:it|work|the task)|pick up where you left off"
    r"|(?:start |get )?work(?:ing)? on (?:it|this|the (?:task|job|ticket|plan)))"
    # (not a file's name: "resume.pdf", "continue.sh")
    r"(?!\.[a-z0-9])"
)
_NEGATOR = (
    r"(?:don'?t|do not|dont|never|not|shouldn'?t|should not|can'?t|cannot|won'?t|will not"
    r"|no need to)"
)
# Up to two words may sit between a negator and the verb ("don't just blindly continue"),
# but not a conjunction: "don't worry and continue" is a go.
_GAP = r"(?:(?!and\b|but\b|then\b|just\b|so\b)[\w']+ ){0,2}"
_CHECK_VERB = (
    r"(?:verify|double[- ]?check|sanity[- ]?check|check|validate|confirm|make sure|ensure"
    r"|inspect|review)"
)
_PROTOCOL_NOUN = (
    r"(?:locks?|lock ?files?|lock state|task\.json|task state|task files?|state files?"
    r"|worktrees?|journal|session|protocol|invariants?|transitions?"
    r"|everything (?:is |was )?(?:correct|consistent|in sync|valid|ok|fine|in order|clean))"
)
_AUDIT_NOUN = (
    r"(?:audit|compliance check|protocol check|consistency check|sanity check"
    r"|integrity check|health check|doctor)"
)

DEFAULT_RULES: tuple[Rule, ...] = (
    # --- negations of a stop are a go; they must beat the hold rules below
    Rule(
        "dont-stop",
        "RESUMPTION",
        r"\b(?:don'?t|do not|dont|never|no need to) (?:stop|pause|wait|halt)\b",
        0.9,
    ),
    # "why don't you continue?" and "stop asking and continue" are nudges, not questions or holds
    Rule(
        "nudge-resumption",
        "RESUMPTION",
        r"(?:^(?:why (?:don'?t (?:you|we)|not)|how about (?:you|we)) (?:just )?"
        r"|^stop (?:asking|checking in|waiting|pausing)\b.*\b)" + RESUME_VERB + r"\b",
        0.8,
    ),
    # --- holds: a negated or deferred resumption is not a resumption
    Rule(
        "negated-resumption",
        "OTHER",
        rf"(?:\b{_NEGATOR} {_GAP}|^(?:wait |hold on )?(?:before|until)\b.*\b){RESUME_VERB}\b",
        0.9,
    ),
    Rule(
        "hold",
        "OTHER",
        r"^(?:wait|hold on|hold off|hold up|hang on|stop|pause|halt|freeze|not yet"
        r"|not approved(?: yet)?|(?:one|a) (?:sec|second|moment|minute)\b"
        r"|(?:give me|just) a (?:sec|second|moment|minute)|let'?s (?:pause|stop))\b",
        0.8,
    ),
    # --- slash commands, only at the start of a clause ("what does /audit do?" is a question)
    Rule("slash-audit", "AUDIT", r"^(?:run |do |execute )?/audit(?:-session)?\b", 0.98),
    Rule("slash-status", "STATUS_REQUEST", r"^(?:run )?/status\b", 0.98),
    Rule("slash-resume", "RESUMPTION", r"^/(?:continue|resume|proceed)\b", 0.98),
    # --- status: before the question words most of them start with
    Rule(
        "status-where",
        "STATUS_REQUEST",
        r"\bwhere (?:are|r) (?:we|you|things)(?: (?:at|now|currently))?"
        r"(?: (?:on|with|in) (?:this|it|the [\w-]+(?: [\w-]+)?))?(?: now)?\s*\??$"
        r"|\bwhere (?:do )?(?:we|you|things) stand\b|\bwhere (?:we|you|things) (?:are|stand)\b",
        0.9,
    ),
    Rule(
        "status-what",
        "STATUS_REQUEST",
        r"^what(?:'s| is| are)? (?:the |your )?(?:current |latest )?(?:status|progress|eta"
        r"|update|latest|news|state of (?:things|the task|play|affairs)|left(?: to do)?|remaining"
        r"|next)\b(?! (?:field|code|column|bar|flag|enum|attribute|value|command|check)s?\b)"
        r"|^(?:what|which) (?:state|phase|stage|step) (?:is|are) (?:the task|we|you|it)\b"
        r"|^what (?:step|phase|stage) is the task (?:at|in)\b",
        0.9,
    ),
    Rule(
        "status-done-so-far",
        "STATUS_REQUEST",
        r"^what (?:have|did|has) (?:you|we) (?:been )?(?:done|do|doing|finished|completed"
        r"|accomplished|changed|change|got|built)\b"
        r"|^what (?:are|r) you (?:doing|working on|up to)\b",
        0.9,
    ),
    Rule(
        "status-how-far",
        "STATUS_REQUEST",
        r"^how (?:far(?: along)?|close) (?:are|r|is) (?:you|we|it|things)\b"
        r"|^how far\b|^how (?:much|many) (?:longer|more|time|work|is left|remains"
        r"|[\w ]{0,30}? (?:left|remaining|still failing|to go))\b"
        r"|^how(?:'s| is| are) (?:the |your )?(?:progress|status)\b"
        r"|^how long (?:until|till|before|will (?:it|this|that) take|left)\b"
        r"|^how(?:'s| is| are) (?:it|things|everything|the [\w-]+(?: [\w-]+)?)"
        r" (?:going|coming along|progressing)\b(?! to\b)",
        0.9,
    ),
    Rule(
        "status-terse",
        "STATUS_REQUEST",
        r"^(?:quick |brief |short )?(?:status|progress|eta|updates?|sitrep"
        r"|any (?:updates?|progress|news)|news)(?: (?:update|report|check|please|pls|so far"
        r"|on [\w-]+(?: [\w-]+){0,3}))*\s*\?*$"
        # a fragment naming the piece ("status export??"), not a code's or a field's status
        r"|^(?:status|progress) (?!\d+\b|(?:code|codes|bar|field|line|page|enum|flag|of|for|quo"
        r"|indicator|icon|badge|column|text|message|colou?r)\b)[\w-]+\s*\?+$",
        0.85,
    ),
    Rule(
        "status-request",
        "STATUS_REQUEST",
        r"\b(?:give me|send me|can i get|could i get|can you give me|i'?d like|i want|i need)"
        r" (?:an? |the |quick |brief |short )*(?:status|progress|update|eta|sitrep|summary of"
        r" (?:your progress|where))\b|^summari[sz]e (?:your |the )?progress\b",
        0.9,
    ),
    Rule(
        "status-done",
        "STATUS_REQUEST",
        r"^(?:are|is|did|have|has) (?:you|we|it|the [\w-]+(?: [\w-]+)?) (?:\w+ )?"
        r"(?:done|finished|complete|completed|passing|passed|pass|green|ready|close|stuck)\b",
        0.8,
    ),
    # --- audit
    Rule(
        "audit-verb",
        "AUDIT",
        rf"\b(?:run|do|perform|start|kick off|trigger|execute|conduct)"
        rf" (?:an? |the |another )?(?:[\w-]+ ){{0,2}}?{_AUDIT_NOUN}\b"
        rf"|\b(?:want|need|like) (?:an? |another )(?:[\w-]+ )?{_AUDIT_NOUN}\b",
        0.9,
    ),
    Rule(
        "audit-imperative",
        "AUDIT",
        r"^(?:can you |could you |would you )?audit\b(?! (?:logs?|trail)\b)"
        r"|^(?:quick |session )audit\b",
        0.9,
    ),
    Rule(
        "audit-verify",
        "AUDIT",
        rf"^(?:can you |could you |would you )?{_CHECK_VERB}\b.*\b{_PROTOCOL_NOUN}\b"
        r"|^check for (?:stale locks?|protocol violations?|violations?)\b",
        0.85,
    ),
    Rule(
        "audit-compliance",
        "AUDIT",
        r"^(?:is|are) (?:everything|we|it|the (?:lock|task|state|worktree|journal)\w*)"
        r" (?:still )?(?:consistent|correct|in sync|valid|compliant|clean)\b"
        r"|\b(?:did|have) we (?:violate|break|follow)d? the protocol\b",
        0.8,
    ),
    # --- questions
    Rule(
        "question-word",
        "QUESTION",
        r"^(?:what(?! an? \b)|how|why|where|which|who|whom|whose|when|explain|clarify|describe"
        r"|elaborate|wdym|walk me through|tell me (?:about|why|how|what)|help me understand"
        r"|i don'?t (?:understand|get)|i'?m (?:confused|not sure (?:why|how|what)))\b",
        0.85,
    ),
    Rule(
        "question-request",
        "QUESTION",
        r"\b(?:can|could|would) you (?:please )?(?:explain|clarify|tell me|walk me|describe"
        r"|elaborate|remind me|help me understand)\b|^(?:quick |one |a |another )?question\b",
        0.8,
    ),
    # --- resumption
    Rule(
        "resume-verb",
        "RESUMPTION",
        r"(?:^(?:let'?s |lets |now )?|\b(?:please|pls|plz|kindly"
        r"|(?:you|we) (?:can|could|may|should|must|need to)(?: now| just| go ahead and)?"
        r"|(?:can|could|would|will) you(?: please| now| just)?|(?:i'?d like|i want|i need) you to"
        r"|let'?s|lets|feel free to|go ahead and|time to|(?:ok|okay|good|clear|free) to|for now) )"
        + RESUME_VERB
        + r"\b",
        0.9,
    ),
    Rule(
        "polite-go-ahead",
        "RESUMPTION",
        r"^(?:go ahead|go for it|do it|go|next(?: (?:step|one|item|please))?|onwards?|as you were"
        r"|ship it|lgtm|approved?|i approve|approve (?:the|this|it)\b.*|get on with it|get to work"
        r"|pick (?:it|things) (?:back )?up|finish (?:it|up|the task|the job)|let'?s do (?:it|this)"
        r"|let'?s go|make it so|full steam ahead)[^\w?]*$",  # (an emoji after it: "ship it 🚀")
        0.8,
    ),
    # A clause that ends in "?" and matched nothing more specific is still a question.
    Rule("question-mark", "QUESTION", r"\?\s*$", 0.6),
)
