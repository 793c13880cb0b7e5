"""Issue #45's sixteenth round, the rules for Simplified Chinese and Japanese
(docs/interruptions.md, "Sixteenth round: the rules (Simplified Chinese, Japanese)"): the forms
the eighteenth batch missed, each family with messages of its own (none a corpus row) and the
variants that must stay what they are. The holds are tested hardest: a go read where the user
held is the worst error."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _reads


# 1. Chinese: the present state of the task's own lock, session, worktree or hook, asked (who
# has it, how many are open, still there, disabled by whom, the same as the record): an audit.
@pytest.mark.parametrize(
    "message",
    [
        "锁这会儿还在你手里吗",
        "lock现在归谁",
        "目前开着几个worktree",
        "现在还留着几个会话",
        "pre-commit钩子是不是被人删了",
        "会话现在还有效吗",
        "工作树还存在吗？",
        "当前的会话是你开的吗",
        "任务记录里的状态跟实际的分支一致吗",
        "把锁的状态说一下",
        "suo de zhuangtai kan yixia",
    ],
)
def test_chinese_the_protocol_state_asked_is_an_audit(message: str) -> None:
    found = classify(message)
    assert found.type == "AUDIT" and found.rule in {"zh-audit-now", "zh-audit-state"}, (
        message,
        found,
    )


# ... not how it works, nor the code's own lock or session: no audit rule reads them (the
# model may still: it reads "用户的登录会话现在还有效吗" as an audit)
@pytest.mark.parametrize(
    "message",
    [
        "锁为什么现在还在你手里",
        "会话过期了会怎样",
        "数据库的行锁现在还在吗",
        "用户的登录会话现在还有效吗",
        "redis分布式锁现在归谁",
        "钩子被禁用的话会怎么样",
    ],
)
def test_chinese_how_the_lock_works_or_the_codes_lock_is_no_audit(message: str) -> None:
    found = classify(message)
    assert found.rule not in {"zh-audit-now", "zh-audit-state", "zh-audit"}, (message, found)
    assert found.type != "RESUMPTION", (message, found)


# 2. Chinese gos: 接着 + a verb at the clause's end, the rest named with 那/这 finished, what the
# agent has in hand finished first.
@pytest.mark.parametrize(
    "message",
    [
        "排序那块，接着优化",
        "登录页的样式，接着调吧",
        "把剩下那几个接口写完",
        "剩下这批数据跑完就行",
        "那个需求不急，先把手上的做完",
        "你先把手头这个改完",
    ],
)
def test_chinese_gos_by_form(message: str) -> None:
    _reads(message, "RESUMPTION", "zh-resumption")


# ... and their holds, negations and mentions
@pytest.mark.parametrize(
    "message",
    [
        "初始化以后接着调用 init",
        "明天再把剩下那几个接口写完",
        "别把剩下那批跑完",
        "先别把剩下那几个接口写完",
        "接着调的话明天吧",
        "这里拼成continue了",
        "代码里写成 continue 了",
    ],
)
def test_chinese_near_gos_stay_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 3. Chinese status requests: how many done, how far, how long still, done and not done listed
@pytest.mark.parametrize(
    "message",
    [
        "三个页面做完几个了",
        "十条用例跑完几条了",
        "单测补到多少了",
        "文档写到多少了",
        "还要一会儿吗",
        "还得好久吗",
        "把已完成和没做完的分别说一下",
        "jindu zenmeyang",
        "zhuangtai ruhe",
    ],
)
def test_chinese_status_requests_by_form(message: str) -> None:
    _reads(message, "STATUS_REQUEST", "zh-status")


# ... told, or a target asked, not a status request
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我推进了不少", "OTHER"),
        ("我改了一大半", "OTHER"),
        ("我写了很多", "OTHER"),
    ],
)
def test_chinese_work_told_is_a_remark(message: str, expected: str) -> None:
    _reads(message, expected, "zh-remark")


def test_chinese_a_target_asked_is_no_status() -> None:
    found = classify("覆盖率要补到多少")
    assert found.rule != "zh-status", found


# 4. Chinese questions on the code without "?": a property's figure, a limit recalled (来着),
# which of two with the same verb after each
@pytest.mark.parametrize(
    "message",
    [
        "这个排序的复杂度大概多少",
        "这个正则的耗时大约是多少",
        "支付那边有没有重试上限来着",
        "是不是有个超时配置来着",
        "运费是下单时算还是发货时算",
        "图片是前端压还是后端压",
    ],
)
def test_chinese_questions_by_form(message: str) -> None:
    assert classify(message).type == "QUESTION", classify(message)


# ... the work's state asked as A or B stays a status request; a hold with 还是 stays a hold
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("流水线是绿的还是红的？", "STATUS_REQUEST"),
        ("想了想还是缓缓", "OTHER"),
        ("我是觉得还是先停吧", "OTHER"),
    ],
)
def test_chinese_near_questions(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# 5. Japanese: the present state of the task's lock or session, asked: who holds it, its state
# told (in kana too), whether it is still there
@pytest.mark.parametrize(
    "message",
    [
        "ロックのオーナーって今だれ？",
        "セッションの所有者は誰になってる",
        "誰がロック持ってるの？",
        "ロックの状態を見せて",
        "せっしょんのじょうたいおしえて",
        "ロックがまだ生きてるか教えて",
        "worktreeが残ってるかどうか教えて",
    ],
)
def test_japanese_the_protocol_state_asked_is_an_audit(message: str) -> None:
    found = classify(message)
    assert found.type == "AUDIT" and found.rule.startswith("ja-audit"), (message, found)


# ... not how it works, nor the code's own lock
@pytest.mark.parametrize(
    "message",
    [
        "ロックの持ち主はどうやって決まるの？",
        "ロックの状態ってなぜファイルに持つの？",
        "DBのロックの持ち主は誰？",
        "ミューテックスのロックがまだ生きてるか教えて",
    ],
)
def test_japanese_how_the_lock_works_is_no_audit(message: str) -> None:
    found = classify(message)
    assert found.rule != "ja-audit-state", (message, found)
    assert found.type != "RESUMPTION", (message, found)


# 6. Japanese: a go, but first tell me whether X: the question decides; a go left, asked
# whether done, asks
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("続ける前に、このAPIが冪等か教えて", "ja-question"),
        ("進める前に、この関数がスレッドセーフかどうか教えてください", "ja-question"),
        ("再開の前に、キャッシュ消して大丈夫か教えて", "ja-question"),
        ("続けといてくれた？", "ja-go-done-asked"),
    ],
)
def test_japanese_asked_first(message: str, rule: str) -> None:
    _reads(message, "QUESTION", rule)


# 7. Japanese: a hold asked as a request ("…保留にしといてもらえる？") is a hold, not a question
@pytest.mark.parametrize(
    "message",
    [
        "決済のやつは一旦保留にしといてもらえる？",
        "その作業、ストップしてもらえますか",
        "ビルドの件は後回しにしておいてくれる？",
        "いったん止めといてくれる？",
        "ちょっと待ってもらえますか",
    ],
)
def test_japanese_a_hold_asked_as_a_request_is_a_hold(message: str) -> None:
    _reads(message, "OTHER", "ja-hold")


# ... a summary asked, a hold lifted: not holds
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("今の状況を簡単にまとめてくれる？", "STATUS_REQUEST"),
        ("保留を解除してもらえる？", None),
    ],
)
def test_japanese_near_holds(message: str, expected: str | None) -> None:
    found = classify(message)
    assert found.rule != "ja-hold", (message, found)
    if expected is not None:
        assert found.type == expected, (message, found)


# 8. Japanese gos: the rest gone on with after a decision; the agent's own step first, then the
# go (one clause: the model cannot read the step as a hold)
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("その方針でOK。残りのテストも直していって", "ja-finish"),
        ("残りのページも翻訳していってください", None),
        ("lintが通るようにしてから続けて", "ja-go-in-order"),
        ("ビルドが通るようにしてから進めて", "ja-go-in-order"),
    ],
)
def test_japanese_gos_by_form(message: str, rule: str | None) -> None:
    _reads(message, "RESUMPTION", rule)


# ... held by a time or an event, or negated: never gos
@pytest.mark.parametrize(
    "message",
    [
        "明日、lintが通るようにしてから続けて",
        "lintが通るようにしてから続けないで",
        "CIが通ったら続けて",
        "残りのテストは明日直していって",
        "残りのファイルもリネームしていってから、止めて",
    ],
)
def test_japanese_near_gos_stay_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 9. A go word in a file's name is no go (the rules find none; the model had to veto it)
@pytest.mark.parametrize(
    "message",
    [
        "resume.pdfのプレビューが真っ白になる",
        "附件 resume.docx 打不开",
        "continue.shが実行権限なしで落ちる",
    ],
)
def test_a_go_word_in_a_file_name_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION" and not found.rule.endswith("-veto"), (message, found)


@pytest.mark.parametrize("message", ["resume.", "please resume.", "continue. thanks"])
def test_a_go_word_before_a_full_stop_is_still_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", classify(message)
