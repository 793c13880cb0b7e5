"""Issue #45's eleventh round, the rules for Japanese and Chinese and the slips
(docs/interruptions.md, "Eleventh round: the rules (Japanese, Chinese, slips)"): families by
form, each with the form and the negated, later, conditional or asked variants that must stay
what they are. New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify


# A go, a progress or an audit word typed in kana or pinyin instead of its characters, or with a
# character of the same sound: read as the word; negated, later or asked, it stays what it is.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("ぞっこうして", "RESUMPTION"),
        ("じゃあぞっこうで", "RESUMPTION"),
        ("さいかいおねがい", "RESUMPTION"),
        ("jixu", "RESUMPTION"),
        ("ji xu ba", "RESUMPTION"),
        ("jixu gan!", "RESUMPTION"),
        ("jindu ne?", "STATUS_REQUEST"),
        ("jinzhan ne", "STATUS_REQUEST"),
        ("shenji yixia", "AUDIT"),
        ("审纪一下锁", "AUDIT"),
        ("ぞっこうしないで", "OTHER"),
        ("明日ぞっこうで", "OTHER"),
        ("bu yao jixu", "OTHER"),
        ("mingtian jixu", "OTHER"),
        ("ne", "OTHER"),
        ("jixu the tests later", "OTHER"),
    ],
)
def test_a_word_typed_in_kana_or_pinyin_is_read_as_the_word(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


def test_asking_in_pinyin_is_not_a_go() -> None:
    assert classify("jixu ma?").type != "RESUMPTION"
