"""The shape of the seventeenth round's audit asked as a question on the protocol's present state,
shared by the Spanish and Portuguese tables (``es_more.py``, ``pt_more.py``): each gives its own
words."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule


def state_question(
    name: str, not_how: str, not_state: str, who: str, state: str, objects: str, running: str
) -> Rule:
    """An AUDIT rule for a question ending in "?" that names a protocol object (``objects``) and
    asks who holds it, how many there are or which branch (``who``), or its state now (``state``,
    unless a verb of work still running, ``running``, says the work goes on); not opened by a
    question on how it works (``not_how``), nor with a word of a rule or of the code's own
    (``not_state``)."""
    return Rule(
        name,
        "AUDIT",
        rf"^(?!(?:{not_how})\b)(?!.*\b(?:{not_state})\b|.*\bhooks? use)"
        rf"(?:(?={who})|(?=(?!.*\b{running}\b).*\b(?:{state})\b))"
        rf".*\b(?:{objects})\b.*\?$",
        0.85,
    )
