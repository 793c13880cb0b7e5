"""English's times, conditions and retractions: what holds an English go (docs/interruptions.md,
"How it works", step 7, and "Fifteenth round"). English's rules are the defaults
(``interruption_rules.py``); this table has none of its own, only the fields the other
languages' tables hold a go by, read by the same code (``interruptions._later``,
``fields.deferred``, ``fields.retracted``). Imported only for an English go with words beside it.
Text is lowercased, dashes and quotes ASCII."""

from __future__ import annotations

from taskproto.classify.languages.table import Language

# A time said after these is a deadline, a span of the work or a past time, not a wait: "keep
# going until Friday", "finish it by tomorrow", "work through the weekend", "as you did last
# Monday".
_NOT_A_WAIT = (
    r"(?<!\buntil )(?<!\btill )(?<!\bby )(?<!\bbefore )(?<!\bthrough )(?<!\blast )(?<!\bsince )"
)
# A clock time after "at": "at 3", "at 3pm", "at 15:30", "at noon".
_CLOCK = r"(?:\d{1,2}(?::\d{2})?(?: ?[ap]\.?m)?|noon|midnight|lunch(?:time)?)\b"
# Who or what a condition may wait for when it is not the agent: "when the build passes", "once
# Anna signs off", "after I review it" (not "when you're ready", "once you've fixed the lint",
# "after that", "when done", "as soon as possible").
_NOT_THE_AGENTS = (
    r"(?! (?:you|you'\w+|your|yours|u|ur|ready|done|finished|possible|needed|necessary"
    r"|convenient|appropriate|that|this|which|all|again|more|or|and|then|line|in doubt"
    r"|it makes sense|it'?s (?:done"
    r"|ready|finished)|it is (?:done|ready|finished))\b)"
)

LANGUAGE = Language(
    code="en",
    rules=(),
    fillers="",
    connectives="",
    later=(
        # a later time by its form: a later word, any weekday, a clock time, a span
        rf"{_NOT_A_WAIT}\b(?:tomorrow|tmrw|tmr|tonight|tonite|overnight"
        r"|next (?:week|month|sprint|time)|this (?:afternoon|evening|weekend)|in the (?:morning"
        r"|afternoon|evening)|after (?:the )?weekend|(?:mon|tues|wednes|thurs|fri|satur|sun)days?)"
        r"\b(?!')"
        rf"|^at {_CLOCK}| at {_CLOCK}"
        r"|\bin (?:an?|\d+|one|two|three|four|five|ten|fifteen|twenty|thirty|a few|a couple(?: of)?"
        r"|half an?) (?:min(?:ute)?s?|hours?|days?|weeks?)\b"
        # "later" said as when (the clause's end, or before a time): not "the later steps"
        r"|\blater(?: (?:today|tonight|on|this \w+))?\s*$|\blater (?:when|once|after)\b"
    ),
    conditions=(
        # a wait for an event or someone, opening its clause: "wait until the CI is green, then
        # continue", "hold on for my review" (not "wait a sec, then continue": a pause)
        r"^(?:wait|hold on|hold off|hold|hang on|sit tight)(?: (?:a bit|a little|here|please))?"
        r" (?:until|till|til|for)\b(?! (?:now|a (?:sec|second|moment|minute|bit))\b)"
        # a go on an event or someone else's act: "continue when the build passes", "once CI is
        # green", "after lunch", "as soon as Anna approves" (not "let me know when ...", "at once")
        r"|(?<!\bme )(?<!\bus )(?<!\bknow )(?<!\bfrom )(?<!\bat )(?<!\bone )"
        r"\b(?:when(?:ever)?|once|as soon as|after|only if)\b" + _NOT_THE_AGENTS
    ),
    retractions=(
        # the go taken back after it, as a phrase of its own ("Continue. Actually, no.",
        # "go ahead... never mind"): not "never mind the lint", "cancel that job"
        r"(?:^|[\s,.!;])(?:scratch that|strike that|belay that|cancel that|forget (?:it|that)"
        r"|never ?mind|nvm|actually,? no|i take (?:it|that) back|not so fast|changed my mind"
        r"|on second thoughts?,? (?:no|nah|don'?t|do not|let'?s not|not yet)|no,? don'?t"
        r"|better not|rather not)(?=\s*(?:[.,;:!?]|$))"
    ),
)
