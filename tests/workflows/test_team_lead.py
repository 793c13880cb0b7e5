"""phone-a-team's lead grades the round over all the backends' answers (issue #39)."""

from __future__ import annotations

from taskproto.ops import team_answer, team_lead

PASS = (
    "## DO\nx\n## REVIEW\nacceptance: pass\nrisks: pass\nvalidation: pass\n## DECIDE\nconverged\n"
)
RISKY = PASS.replace("risks: pass", "risks: fail - gemini's version races")


def test_the_lead_reviews_every_answer_and_its_grade_decides() -> None:
    answers = {"codex": team_answer.parse(PASS), "gemini": team_answer.parse(PASS)}
    answers["gemini"]["do"] = "Gemini's version."
    text = team_lead.payload("t", "Speed up the parser", 1, answers)
    assert "## Answer of codex" in text and "## Answer of gemini" in text
    assert "Gemini's version." in text and "# How to review" in text
    asked: list[str] = []

    def call(backend: str, payload: str) -> str | None:
        asked.append(backend)
        return None if backend == "codex" else RISKY  # the first lead does not answer

    rubric, note, lead = team_lead.review(answers, text, call)
    assert asked == ["codex", "gemini"]
    assert rubric["risks"] == "fail"  # though both passed their own answers
    assert note.startswith("rubric by the lead (gemini) over the answers of codex, gemini")
    assert "codex could not review" in note and "gemini's version races" in note
    assert lead["backend"] == "gemini"


def test_no_lead_review_assesses_nothing() -> None:
    answers = {"codex": team_answer.parse(PASS)}
    rubric, note, lead = team_lead.review(answers, "x", lambda b, p: None)
    assert set(rubric.values()) == {"fail"} and "nothing was assessed" in note
    assert lead == {"backend": None, "failed": ["codex"]}
