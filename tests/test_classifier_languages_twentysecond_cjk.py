"""Issue #45's twenty-second round, the rules for Japanese and Simplified Chinese
(docs/interruptions.md, "Twenty-second round: the rules (Japanese and Simplified Chinese)"): each
rule written for a kind the twenty-fourth batch missed in any language, from messages of this
round's own in other wordings (registers, word orders, slang, half-width kana, pinyin, with and
without "?"), with the near-misses that must stay what they are (holds tested hardest). New
messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A go in slang, as a loanword, or after a concession or a decision.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("コンティニューで", "ja-go-loanword"),
        ("ｺﾝﾃｨﾆｭｰ", "ja-go-loanword"),
        ("じゃあｺﾝﾃｨﾆｭｰお願い", "ja-go-loanword"),
        ("コンティニューしてください", "ja-go-loanword"),
        ("ﾘｼﾞｭｰﾑよろしく", "ja-go-loanword"),
        ("よし、プロシードで", "ja-go-loanword"),
        ("レッツゴー", "ja-go-loanword"),
        ("ｺﾞｰで", "ja-go-loanword"),
        ("仕様はこれで決まり。実装入って", "ja-go-enter"),
        ("方針OK、じゃあ実装入っちゃって", "ja-go-enter"),
        ("コーディング取りかかって", "ja-go-enter"),
        ("行吧那你接着把订单对账模块的导出写完", "zh-finish"),
        ("那你接着把支付网关的重试逻辑补完", "zh-finish"),
        ("好吧，那你把优惠券过期提醒这块实现完", "zh-finish"),
        ("撸起来吧", "zh-go-slang"),
        ("那就赶紧整起来", "zh-go-slang"),
        ("开肝", "zh-go-slang"),
        ("搞快点", "zh-go-slang"),
    ],
)
def test_a_go_in_slang_a_loanword_or_after_a_decision_is_a_go(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        # denied, put off, waited for, asked or told
        "ｺﾝﾃｨﾆｭｰしないで",
        "コンティニューはまだ",
        "明日コンティニューで",
        "コンティニューボタンが押せない",
        "コンティニューでいい？",
        "まだ実装入らないで",
        "実装入っていい？",
        "もう実装入ってる？",
        "行吧，那你先别接着把报表写完",
        "行吧，明天再接着把报表写完",
        "那行，等我review完你再接着写",
        "好吧，那你接着把报表写完了吗？",
        "那你把报表写完了没",
        "那行吧",
        "已经整起来了",
        "搞快点行吗",
        # a finish denied: a hold the model, trained on words, read as a go
        "别把报表写完",
        "那别把报表写完",
        "先不要把迁移脚本做完",
        "不用急着把接口写完",
    ],
)
def test_a_go_denied_put_off_asked_or_told_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 2. Where the work stands: what the agent is doing now, how much is done, a ticket, a fragment,
# asked for someone else.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ログが流れてないけど、いま何の処理してる？", "ja-status-doing-now"),
        ("今って何に取り組んでる？", "ja-status-doing-now"),
        ("そっちは今なんのテスト書いてるの", "ja-status-doing-now"),
        ("ところで今なにのファイルいじってる", "ja-status-doing-now"),
        ("いま何待ってる？", "ja-status-doing-now"),
        ("充电桩的固件升级完成多少了", "zh-status-how-much"),
        ("注册流程搞了几成了", "zh-status-how-much"),
        ("支付对接写了百分之几了", "zh-status-how-much"),
        ("报关单那块对接了多少了呢", "zh-status-how-much"),
        ("VID-77这个工单什么状态", "zh-status-ticket"),
        ("PAY-12那张卡片啥状态", "zh-status-ticket"),
        ("登录页那个进度", "zh-status-fragment"),
        ("支付回调那块的完成情况", "zh-status-fragment"),
        ("导出功能完成情况?", "zh-status-fragment"),
        ("denglu ye nage jindu", "zh-status-fragment"),
        ("领导问进度，我怎么回他", "zh-status-relayed"),
        ("产品经理又在问进展", "zh-status-relayed"),
        ("客户在催进展，我该怎么回复", "zh-status-relayed"),
    ],
)
def test_where_the_work_stands_asked_by_kind_is_a_status(message: str, rule: str) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the code's own doing, a figure, a thing's states, a progress the code shows: no status
        ("この関数はいま何の処理してるの？", "QUESTION"),
        ("このcronって何の処理してる？", "QUESTION"),
        ("这个字段存的是完成多少", "QUESTION"),
        ("给下载加个进度", "OTHER"),
        ("进度条", "OTHER"),
        # the progress pushed is a go
        ("猛冲一波，推进度", "RESUMPTION"),
    ],
)
def test_the_codes_doing_or_a_progress_shown_is_no_status(message: str, expected: str) -> None:
    _check(message, expected)


# 3. An audit of the protocol asked casually: whose an artefact is, how old, released or not,
# looked at; in pinyin.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("このロックってあなたの？", "ja-audit-whose"),
        ("このworktree、君のやつ？", "ja-audit-whose"),
        ("ロックファイルいつのやつ？", "ja-audit-age"),
        ("lockファイルどれくらい古い？", "ja-audit-age"),
        ("このロックいつ取られたの", "ja-audit-age"),
        ("这个锁是你的吗", "zh-audit-whose"),
        (".git里有个index.lock，是你的吗", "zh-audit-whose"),
        ("index.lock是你的吧", "zh-audit-whose"),
        ("这个锁多久了", "zh-audit-age"),
        ("锁文件是什么时候生成的", "zh-audit-age"),
        ("lock文件有多旧了", "zh-audit-age"),
        ("强杀之后锁没释放吧", "zh-audit-casual"),
        ("帮我瞅瞅锁", "zh-audit-casual"),
        ("worktree瞄一眼", "zh-audit-casual"),
        ("jiancha yixia worktree he suo", "zh-audit"),
        ("jiancha suo de zhuangtai", "zh-audit"),
    ],
)
def test_an_audit_asked_casually_is_an_audit(message: str, rule: str) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # how it works, when it would, the code's own: a question
        ("ロックっていつ解放されるの", "QUESTION"),
        ("ロックはいつ取るの？", "QUESTION"),
        ("このコードって君の？", "QUESTION"),
        ("锁的超时是多久", "QUESTION"),
        ("这是你的吗", "QUESTION"),
    ],
)
def test_how_the_lock_works_or_a_things_owner_is_no_audit(message: str, expected: str) -> None:
    _check(message, expected)


# Pinyin: a topic's name may stay in pinyin beside a progress or audit word; beside a go every
# word must be read, so a hold is never hidden.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("zhifu mokuai jindu zenmeyang", "STATUS_REQUEST"),
        ("dingdan daochu de jindu ne", "STATUS_REQUEST"),
        ("bu yao jixu", "OTHER"),
        ("mingtian jixu", "OTHER"),
        ("zai jixu", "OTHER"),
        ("bie jixu", "OTHER"),
        ("jixu zuo ba", "RESUMPTION"),
        # English beside the pinyin word: not read as Chinese
        ("the jindu of the build", "OTHER"),
        ("jiancha the lock", "OTHER"),
    ],
)
def test_pinyin_is_read_around_its_topic_not_around_a_go(message: str, expected: str) -> None:
    _check(message, expected)


# 4. A step's safety asked is the code's question, not a status (the unit test the retrained
# model broke, "デプロイして大丈夫？", by kind); a go asked politely stays a go.
@pytest.mark.parametrize(
    "message",
    ["このテーブル消しても平気？", "本番にマージしても問題ない？", "キャッシュを消して大丈夫かな"],
)
def test_a_steps_safety_asked_is_a_question(message: str) -> None:
    _check(message, "QUESTION", "ja-permission-question")


@pytest.mark.parametrize(
    "message", ["戻ったので続きをお願いしてもいいですか", "作業再開していい？"]
)
def test_a_go_asked_politely_is_no_permission_question(message: str) -> None:
    found = classify(message)
    assert found.rule != "ja-permission-question", (message, found)
