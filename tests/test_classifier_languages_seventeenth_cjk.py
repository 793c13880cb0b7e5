"""Issue #45's seventeenth round, the rules for Simplified Chinese and Japanese
(docs/interruptions.md, "Seventeenth round: the rules (Simplified Chinese and Japanese)"): the
kinds the nineteenth batch missed, each written for the kind rather than the batch's wording, with
messages of its own (none a corpus row) and the variants that must stay what they are. The holds
are tested hardest: a go read where the user held is the worst error."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _reads

_AUDITS = {"zh-audit-asked", "zh-audit-now", "zh-audit-state", "zh-audit"}
_JA_AUDITS = {"ja-audit-asked", "ja-audit-state", "ja-audit-protocol", "ja-audit"}


# 1. Chinese: any present state or correctness of the task's own lock (its file, its PID), session,
# worktree (its branch), hook or journal, asked (a "?", 吗, 没(有) or 不 at the end, 是不是, 有没有,
# 谁, 哪), is an audit; so is the object named as the topic before a comma.
@pytest.mark.parametrize(
    "message",
    [
        "这个任务的锁现在是谁的？",
        "锁文件里的pid还活着没",
        "会话的心跳还在更新吗？",
        "journal里昨天下午那段记录是不是丢了？",
        "工作树现在指向哪个分支？",
        "钩子现在装上了没有",
        "pre-commit钩子刚才跑了没？",
        "上次会话退出时有没有正常结束？",
        "有人把钩子关掉了吗",
        "这把锁是不是僵尸锁",
        "会话是不是已经断了？",
        "钩子有没有被跳过",
        "这个任务的锁，现在在谁手上？",
        "锁文件里的进程号，还活着吗",
        "worktree目前指着main吧？",
    ],
)
def test_chinese_the_protocol_state_asked_is_an_audit(message: str) -> None:
    _reads(message, "AUDIT", "zh-audit-asked")


# ... not how it works or when it would, not which of two by design, not the app's own lock,
# session or hook, nor a lock of a door or a screen: no audit rule reads them, none is a go
@pytest.mark.parametrize(
    "message",
    [
        "锁什么时候会过期？",
        "为什么会话需要心跳？",
        "worktree是怎么创建的？",
        "锁是按任务还是按仓库的？",
        "删掉旧的worktree安全吗？",
        "钩子是不是每次commit都会跑？",
        "用户会话现在还有效吗？",
        "React的hook现在还在用吗",
        "redis锁现在是谁拿着？",
        "门锁现在是谁的？",
        "锁屏密码现在是谁设的？",
        "webhook刚才触发了没？",
    ],
)
def test_chinese_how_it_works_or_the_apps_own_is_no_audit(message: str) -> None:
    found = classify(message)
    assert found.rule not in _AUDITS, (message, found)
    assert found.type != "RESUMPTION", (message, found)


# 2. Chinese gos after news or a check: a part of the work to be finished (or done too) asked for
# ("把X写完", "顺着把X也做了吧"), the agent's own step then the go in one clause, 接着 + 开发.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("看一眼锁，然后把结算模块写完", "zh-finish"),
        ("SDK到了，把入场识别做完吧", "zh-finish"),
        ("法务那边批了，你把上架流程写完就行", "zh-finish"),
        ("顺便把导出也实现了吧", "zh-finish"),
        ("这个配色不错，顺手把深色模式也做了吧", "zh-finish"),
        ("先把lint修好再接着写", "zh-go-in-order"),
        ("先把类型错误改掉再继续", "zh-go-in-order"),
        ("合同签好了，会员系统接着开发", "zh-resumption"),
    ],
)
def test_chinese_gos_after_news_or_a_check(message: str, rule: str) -> None:
    _reads(message, "RESUMPTION", rule)


# ... held (a time, a condition, an event that happens of itself, a hold after), negated, asked or
# told: no go
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("明天再把对账写完", "OTHER"),
        ("明天先把测试跑完再继续", "OTHER"),
        ("等SDK到了再把入场识别做完", "OTHER"),
        ("SDK到了以后把入场识别做完", "OTHER"),
        ("先别把导出做完", "OTHER"),
        ("别把对账写完，先停着", "OTHER"),
        ("先把PR合并了再继续", "OTHER"),
        ("CI绿了再继续", "OTHER"),
        ("把对账写完之前别提交", "OTHER"),
        ("把对账写完了吗", "STATUS_REQUEST"),
        ("我把对账写完了", "OTHER"),
        ("你把对账写完了吧？", None),
        ("把导出做完吧，算了，还是先停", "OTHER"),
        ("这块等运营定了再往下做", "OTHER"),
        ("上线功能等老板看完再继续，现在先停着", "OTHER"),
    ],
)
def test_chinese_near_gos_stay_no_go(message: str, expected: str | None) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)
    if expected is not None:
        assert found.type == expected, (message, found)


# 3. Chinese: 停 and 等 opening a noun hold nothing ("停车场", "等级"); the bare words still hold.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("停车场的月卡报表还差什么？", "STATUS_REQUEST"),
        ("停车场收费接着做", "RESUMPTION"),
        ("停机坪调度的测试跑完了吗", "STATUS_REQUEST"),
        ("等级系统接着写", "RESUMPTION"),
        ("等级规则做到哪了", "STATUS_REQUEST"),
        ("停", "OTHER"),
        ("停下，别写了", "OTHER"),
        ("停一下", "OTHER"),
        ("等一下", "OTHER"),
        ("等CI跑完", "OTHER"),
        ("等我回来再接着写", "OTHER"),
    ],
)
def test_chinese_stop_and_wait_inside_a_noun(message: str, expected: str) -> None:
    _reads(message, expected)


# 4. Chinese: why the agent stopped, asked, is a question; asked why it does not go on, a go.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("怎么停了？", "QUESTION", "zh-why-stopped"),
        ("为啥突然不动了", "QUESTION", "zh-why-stopped"),
        ("你咋又停了", "QUESTION", "zh-why-stopped"),
        ("怎么不继续了", "RESUMPTION", "zh-nudge"),
        ("怎么停了？继续啊", "RESUMPTION", None),
    ],
)
def test_chinese_why_it_stopped_is_a_question(
    message: str, expected: str, rule: str | None
) -> None:
    _reads(message, expected, rule)


# 5. Japanese: the present state of the task's own protocol object asked is an audit, the object
# also named as the topic before a comma ("カラオケのセッション、まだハートビート来てる？").
@pytest.mark.parametrize(
    "message",
    [
        "ジャーナルに昨日のエントリ抜けてない？",
        "worktreeってどのブランチを指してる？",
        "フック、ちゃんとインストールされてる？",
        "pre-commitフックって今回走った？",
        "タスク記録の状態とロックが食い違ってない？",
        "前回のセッション、正常に終了してる？",
        "誰かフック無効にしてない？",
        "セッションってまだ開いたまま？",
        "ロックファイルのPID、まだ生きてる？",
        "在庫アプリのセッション、いまハートビート来てる？",
        "予約システムのworktree、まだmain指してるんじゃない？",
        "ろっく、いまだれの？",
    ],
)
def test_japanese_the_protocol_state_asked_is_an_audit(message: str) -> None:
    found = classify(message)
    assert found.type == "AUDIT" and found.rule in _JA_AUDITS, (message, found)


# ... not how it works or when, not the app's own, not a block or a clock, and a comma after
# another noun still splits: no audit rule reads them, none is a go
@pytest.mark.parametrize(
    "message",
    [
        "ロックっていつ解放されるの？",
        "worktreeはどこに作られるの？",
        "ジャーナルってなんでgitのrefに入れてるの？",
        "ログインセッションの有効期限どのくらい？",
        "Reactのフックってまだ使ってる？",
        "Webフック、まだ届いてない？",
        "ブロック、まだ落ちてる？",
        "クロック、いまずれてない？",
    ],
)
def test_japanese_how_it_works_or_the_apps_own_is_no_audit(message: str) -> None:
    found = classify(message)
    assert found.rule not in _JA_AUDITS, (message, found)
    assert found.type != "RESUMPTION", (message, found)


# 6. Japanese gos after news or a check: the go asked for by its noun alone ("再開よろしく",
# "続行で", "…の続きを").
@pytest.mark.parametrize(
    "message",
    [
        "トークン更新しといた。再開よろしく",
        "契約まとまったので、続行よろしくです",
        "承認おりたので再開で",
        "ロックだけ見て、それから決済の続きを",
        "ジャーナル確認して、そのあと請求書の続きを",
        "ライブラリ入れ直した。続行頼みます",
    ],
)
def test_japanese_gos_by_their_noun(message: str) -> None:
    _reads(message, "RESUMPTION", "ja-go-verbs")


# ... held (a time, a condition, a retraction), negated, a thing's resuming named, a link's
# label, asked: no go
@pytest.mark.parametrize(
    "message",
    [
        "SDKが届いたら続きを",
        "明日、続きを",
        "続きは明日",
        "レビューが終わったら再開よろしく",
        "CIが通ったら再開で",
        "再開よろしく…と思ったけどやっぱり待って",
        "再開はしないで",
        "再開はまだ",
        "処理の再開で落ちる",
        "続きを読むボタンの位置を直して",
        "再開で大丈夫？",
    ],
)
def test_japanese_near_gos_stay_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 7. The English "continue" keyword as a noun of the sentence ("continueの位置", "continue文",
# "continue的位置", "continue语句") is a mention, not a go; said, it is still a go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("読み込みループ、continueの位置がずれてる", "OTHER"),
        ("continue文が一個多い", "OTHER"),
        ("这里continue的位置不对", "OTHER"),
        ("continue语句多了一个", "OTHER"),
        ("好的 continue", "RESUMPTION"),
        ("じゃあ continue で", "RESUMPTION"),
        ("continue してください", "RESUMPTION"),
    ],
)
def test_the_continue_keyword_as_a_noun_is_a_mention(message: str, expected: str) -> None:
    _reads(message, expected)


# 8. Chinese: a go said not to be meant ("不是让你继续的意思", "我没说要恢复") holds nothing; "没"
# before the go word alone is no such form.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("「一键续费」是按钮上的字，不是让你继续的意思", "OTHER"),
        ("我没说要恢复", "OTHER"),
        ("并没有叫你往下做", "OTHER"),
        ("没说继续", "OTHER"),
        ("没问题，继续", "RESUMPTION"),
        ("不是这个意思，你继续写就行", "RESUMPTION"),
        ("就这样，继续吧", "RESUMPTION"),
        ("没继续做的部分还剩多少", "STATUS_REQUEST"),
    ],
)
def test_chinese_a_go_said_not_to_be_meant(message: str, expected: str) -> None:
    _reads(message, expected)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # whether a check already asked for is done: where the work stands (ja-check-done; the
        # model retrained on batch "17t" read the first as an audit at 0.87)
        ("worktreeの監査は終わった？", "STATUS_REQUEST"),
        ("フックの確認は終わった？", "STATUS_REQUEST"),
        # a check asked is an audit
        ("ロックが残ってないか確認して", "AUDIT"),
        # why it stopped, alone, is a question however sure the model is of a go; a go after it
        # is a go
        ("你咋又停了", "QUESTION"),
        ("咋又停了？继续啊", "RESUMPTION"),
    ],
)
def test_a_check_done_or_why_it_stopped_keeps_its_rules_reading(
    message: str, expected: str
) -> None:
    assert classify(message).type == expected, classify(message)
