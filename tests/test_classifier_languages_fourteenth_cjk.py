"""Issue #45's fourteenth round, the rules for Japanese and Simplified Chinese
(docs/interruptions.md, "Fourteenth round: the rules (Japanese, Simplified Chinese)"): the forms
the fifteenth and sixteenth batches missed, each family with messages of its own (none a corpus
row) and the later, asked or negated variants that must stay what they are."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _reads


# Japanese gos by form: on to the next (次いこう, 次の…行っていいよ), resumed from a place
# (…から再開で), a go left to be done (続けといて), hands set moving (手を動かして); a later time
# before "から再開" is a hold.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("次いこう", "RESUMPTION", "ja-go-verbs"),
        ("よし、次のファイルいこ", "RESUMPTION", "ja-go-verbs"),
        ("次のタスク行っていいよ", "RESUMPTION", "ja-go-verbs"),
        ("ここから再開で", "RESUMPTION", "ja-go-verbs"),
        ("認証のとこから再開でお願い", "RESUMPTION", "ja-go-verbs"),
        ("ドキュメントは後回しでいいから続けといて", "RESUMPTION", "ja-go-verbs"),
        ("とりあえず手を動かして", "RESUMPTION", "ja-go-verbs"),
        ("明日から再開で", "OTHER", "ja-later"),
        ("16時から再開ね", "OTHER", "ja-later"),
        ("続けといてくれた？", "QUESTION", "ja-go-done-asked"),  # nineteenth round: by its form
    ],
)
def test_japanese_gos_by_form(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)


# Japanese: a stop said in the past or progressive describes a state, it orders nothing
# ("中断してたやつ", "止まってる理由"); the order itself still holds.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("中断してたやつ、今から再開でお願い", "RESUMPTION", "ja-go-verbs"),
        ("止まってる理由は後で聞くけど、とりあえず手を動かして", "RESUMPTION", "ja-go-verbs"),
        ("中断してたタスク、再開して", "RESUMPTION", "ja-resumption"),
        ("中断して", "OTHER", "ja-hold"),
        ("止まって", "OTHER", "ja-hold"),
    ],
)
def test_japanese_a_stop_described_is_not_a_hold(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)


# Japanese: a go after the tests (or the build) pass, their subject left out, is a hold; the
# agent's own step before it is not.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("テスト通ったら続けて", "OTHER"),
        ("ビルド通ったら再開していいよ", "OTHER"),
        ("lint全部通ったら進めていいよ", "OTHER"),
        ("テスト書いて通るようにしてから続けて", "RESUMPTION"),
        ("テスト通った？", "STATUS_REQUEST"),
    ],
)
def test_japanese_a_go_after_the_tests_pass_holds(message: str, expected: str) -> None:
    assert classify(message).type == expected, (message, classify(message))


def test_japanese_a_go_after_the_tests_pass_is_read_by_the_rules() -> None:
    _reads("ビルド通ったら再開していいよ", "OTHER", "ja-later")


# Japanese questions and status by form: explained plainly or in detail; how far, with 済み.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("噛み砕いて説明して", "QUESTION", "ja-question"),
        ("わかりやすく教えてください", "QUESTION", "ja-question"),
        ("このフック、かみくだいて教えてほしい", "QUESTION", "ja-question"),
        ("進捗を詳しく教えて", "STATUS_REQUEST", "ja-status"),
        ("どこまでレビュー済み？", "STATUS_REQUEST", "ja-status"),
        ("どこまでテスト済みか知りたい", "STATUS_REQUEST", "ja-status"),
    ],
)
def test_japanese_questions_and_status_by_form(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)


# Chinese: a go negated with an adverb between ("on your own", "in haste") is OTHER; the
# adverb elsewhere is not a negation.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("不要擅自进入下一阶段", "OTHER", "zh-negated-resumption"),
        ("别急着往下写", "OTHER", "zh-negated-resumption"),
        ("不要私自继续", "OTHER", "zh-negated-resumption"),
        ("先别贸然开始", "OTHER", "zh-negated-resumption"),
        ("不要自行恢复任务", "OTHER", "zh-negated-resumption"),
        ("别随便进入下一步", "OTHER", "zh-negated-resumption"),
        ("擅自改配置不好，继续吧", "RESUMPTION", "zh-resumption"),
    ],
)
def test_chinese_a_negated_go_with_an_adverb(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)


# Chinese: whether the work will be done by a time, or is ready, asked yes or no, is a status
# request ("下班前能收尾吗", "能提测了不"); "能继续吗" stays a go.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("周五前能交付吗", "STATUS_REQUEST", "zh-status"),
        ("今天下班前能收尾吗", "STATUS_REQUEST", "zh-status"),
        ("发版前能合进去不", "STATUS_REQUEST", "zh-status"),
        ("能提测了吗", "STATUS_REQUEST", "zh-status"),
        ("这个分支能合入了吗", "STATUS_REQUEST", "zh-status"),
        ("什么时候能给我看 demo", "STATUS_REQUEST", "zh-status"),
        ("能继续吗", "RESUMPTION", "zh-nudge"),
    ],
)
def test_chinese_status_asked_yes_or_no(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)


# Chinese questions asked as "A or not A" (会不会, 有没有做) or as a retelling (再讲一遍, 说清楚);
# "有没有进展" stays a status request, and the last clause's go still decides. (会不会 is read
# before the status rule since the fifteenth round, by zh-behaviour-question: "会不会互相卡住".)
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("缓存失效的时候会不会雪崩", "QUESTION", "zh-behaviour-question"),
        ("这个接口有没有做限流", "QUESTION", "zh-question"),
        ("登录态过期有没有处理", "QUESTION", "zh-question"),
        ("把这个状态机再讲一遍", "QUESTION", "zh-question"),
        ("你把 rebase 和 merge 的差别说清楚", "QUESTION", "zh-question"),
        ("有没有进展", "STATUS_REQUEST", "zh-status"),
        ("不管会不会慢，继续", "RESUMPTION", "zh-resumption"),
    ],
)
def test_chinese_questions_by_form(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)


# Chinese: how many so far, counted at the end ("表写了几张了", "还挂着几条"), is a status request;
# a count in an earlier clause does not decide ("先改了几个文件，继续").
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("迁移脚本跑了几个了", "STATUS_REQUEST", "zh-status-counted"),
        ("用例过了几条", "STATUS_REQUEST", "zh-status-counted"),
        ("单测补了几个", "STATUS_REQUEST", "zh-status-counted"),
        ("这周修了几次了？", "STATUS_REQUEST", "zh-status-counted"),
        ("工单还挂着几条呢", "STATUS_REQUEST", "zh-status-counted"),
        ("先改了几个文件，继续", "RESUMPTION", "zh-resumption"),
    ],
)
def test_chinese_status_counted_so_far(message: str, expected: str, rule: str) -> None:
    _reads(message, expected, rule)
