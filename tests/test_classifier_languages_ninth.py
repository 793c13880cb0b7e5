"""Issue #45's ninth round, the rules (docs/interruptions.md, "Ninth round: the rules"): families
by form, each with a go and the negated, later, conditional or asked variants that must stay
what they are. New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify


# A courtesy that leaves the timing to the agent is not a condition: it neither makes the go a
# hold by a rule nor lets the model's veto take it back. A condition on an event or someone else
# still holds the go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Mach weiter, wenn du magst.", "RESUMPTION"),
        ("Wenn du magst, mach weiter mit dem Parser.", "RESUMPTION"),
        ("Weiter, wenn es dir passt.", "RESUMPTION"),
        ("Mach weiter, wenn die Tests grün sind.", "OTHER"),
        ("Mach nicht weiter, wenn du magst.", "OTHER"),
        ("Sigue cuando quieras.", "RESUMPTION"),
        ("Cuando quieras, sigue con el parser.", "RESUMPTION"),
        ("Sigue cuando Marta apruebe el PR.", "OTHER"),
        ("No sigas, aunque quieras.", "OTHER"),
        ("Continue quand tu veux.", "RESUMPTION"),
        ("Vas-y, reprends quand tu veux.", "RESUMPTION"),
        ("Continue quand la CI est verte.", "OTHER"),
        ("Ne continue pas, quand tu veux on en parle.", "OTHER"),
        ("Continua quando quiser.", "RESUMPTION"),
        ("Continua quando puder.", "RESUMPTION"),
        ("Se quiser, pode continuar.", "RESUMPTION"),
        ("Continua quando o CI passar.", "OTHER"),
        ("よければ続けて", "RESUMPTION"),
        ("手が空いたら続けてください", "RESUMPTION"),
        ("CIが通ったら続けて", "OTHER"),
        ("你方便的话，继续吧", "RESUMPTION"),
        ("有空就继续吧", "RESUMPTION"),
        ("等小王review完再继续", "OTHER"),
        ("Wenn du magst.", "OTHER"),  # nothing but the courtesy: nothing asked
    ],
)
def test_a_courtesy_that_leaves_the_timing_to_the_agent_holds_nothing(
    message: str, expected: str
) -> None:
    assert classify(message).type == expected, classify(message)
