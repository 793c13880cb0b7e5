"""One language's interruption rules and how its clauses are cut (``languages/<code>.py``)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# The work a status question asks about, in the English every language borrows: "ist der Build
# grün?", "¿ya pasó el CI?", "PRはマージされた？".
WORK = (
    r"(?:build|ci|pr|tests?|testes|checks?|pipeline|deploy\w*|merge|release|refactor\w*"
    r"|migra\w*|push|parser|lint)"
)


class Language:
    """One language's rules and how its clauses are cut.

    ``fillers`` matches one word a clause may start with that asks for nothing ("bitte", "vale",
    "はい"), with its own end (``\\b`` does not end a Japanese or Chinese word); ``connectives``
    is a regex alternative that splits a sentence into clauses ("aber", "然后"), zero-width or
    eating spaces only; ``joiners`` are words after which a comma does not split ("dass", "ob"):
    the subordinate clause they open belongs to the verb before the comma.

    ``later`` matches a time or an event of the user's that a go may wait for ("morgen",
    "après mon call", "今晚"), by its form rather than a list: any weekday, a clock time ("um
    15 Uhr", "à 14h", "3点"), "after" + a noun ("nach dem Call", "después del almuerzo"): a
    clause that is a go and says one is a hold. ``conditions`` matches a condition a go waits
    for ("sobald", "cuando", "dès que", "depois que", "したら", "等…再"), not one that leaves it to
    the agent ("wenn du willst", "cuando puedas"): in the go's clause, or opening (ending, in
    Japanese and Chinese) the clause beside it, it makes the go a hold. ``retractions`` matches
    a go taken back after it ("doch nicht", "en fait non", "mejor no", "deixa pra lá", "やっぱり",
    "算了"): searched in the text after the go's clause, it cancels the go. ``approvals``
    matches an explicit approval at a checkpoint ("freigegeben", "承認します") and
    ``negations`` a word that negates one in the same clause ("nicht", "未"). ``courtesies``
    matches a courtesy that leaves the timing to the agent ("wenn du magst", "quand tu veux",
    "cuando quieras", "quando quiser", "よければ", "你方便的话"): not a condition, it is taken out
    of the message before its rules and the model read it, so it never holds a go.
    """

    # A plain class, not a dataclass: making a frozen dataclass of these fields costs ~1 ms,
    # which the first message in any language paid (and an English go with words beside it).
    __slots__ = (
        "approvals",
        "code",
        "conditions",
        "connectives",
        "courtesies",
        "fillers",
        "joiners",
        "later",
        "negations",
        "retractions",
        "rules",
    )

    def __init__(
        self,
        code: str,
        rules: tuple[Rule, ...],
        fillers: str,
        connectives: str,
        joiners: str = "",
        later: str = "",
        conditions: str = "",
        retractions: str = "",
        approvals: str = "",
        negations: str = "",
        courtesies: str = "",
    ) -> None:
        self.code = code
        self.rules = rules
        self.fillers = fillers
        self.connectives = connectives
        self.joiners = joiners
        self.later = later
        self.conditions = conditions
        self.retractions = retractions
        self.approvals = approvals
        self.negations = negations
        self.courtesies = courtesies
