"""Issue #45's nineteenth round, the rules for Japanese and Simplified Chinese
(docs/interruptions.md, "Nineteenth round: the rules (Japanese and Simplified Chinese)"): each
rule written for a kind the twenty-first batch missed, from messages of this round's own in other
wordings, with the near-misses that must stay what they are (holds tested hardest). New messages,
none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A remark, an observation or an instruction is no question: a statement of a state asks
# only with a question word, a particle or "?".
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("刚才那个正则有bug，少转义了一个点", "zh-fact-remark"),
        ("这个函数的返回值类型写错了", "zh-fact-remark"),
        ("你生成的迁移有个拼写错误", "zh-fact-remark"),
        ("导出那段代码有逻辑错误", "zh-fact-remark"),
        ("提醒一下，我们的Python是3.9", "zh-fact-remark"),
        ("注意，生产库是只读的", "zh-fact-remark"),
        ("记住我们用的是pnpm不是npm", "zh-fact-remark"),
        ("友情提示：测试环境的域名换了", "zh-fact-remark"),
        ("支付网关的回调地址换了，现在是https的", "zh-fact-remark"),
        ("对方的接口格式又变了", "zh-fact-remark"),
        ("银行那边的对账文件是GBK编码的", None),
        ("说实话有点失望，测试还是一堆红的", "zh-fact-remark"),
        ("挺无语的，这个bug又出现了", "zh-fact-remark"),
        ("さっき作ってくれたSQL、構文エラーあるよ", "ja-error-remark"),
        ("このファイル、型エラーが残ってるね", None),
        ("READMEに誤字があります", "ja-error-remark"),
        ("テストにバグが入ってるみたい", "ja-error-remark"),
    ],
)
def test_a_remark_or_a_fact_told_is_no_question(message: str, rule: str | None) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # asked: a particle, a question word, "?"
        ("你刚才生成的SQL有语法错误吗", "QUESTION"),
        ("这个函数的返回值类型是什么", "QUESTION"),
        ("为什么这个bug又出现了", "QUESTION"),
        ("对账文件是什么编码的", "QUESTION"),
        ("このファイルに型エラーある？", "QUESTION"),
        # a go or a hold beside the remark decides
        ("继续，注意生产库是只读的", "RESUMPTION"),
        ("支付网关的地址换了，接着写回调", "RESUMPTION"),
        ("先停一下，对方的接口格式变了", "OTHER"),
        ("风控的文档给了，都是你的了，继续", "RESUMPTION"),
    ],
)
def test_a_remark_asked_or_beside_a_go_or_hold_is_read_as_before(
    message: str, expected: str
) -> None:
    _check(message, expected)


def test_a_change_asked_is_no_remark() -> None:
    found = classify("对方的接口格式变了吗？")
    assert found.type != "OTHER", found


# 6. Never a go: a permission to ignore, a choice left to the agent, a bare acknowledgement, a
# thing restored told.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("ESLint的警告可以先不管", "zh-ignore-remark"),
        ("那些警告忽略就行", "zh-ignore-remark"),
        ("这个弃用提示无视掉也没事", "zh-ignore-remark"),
        ("类型检查的报错可以直接忽略", "zh-ignore-remark"),
        ("日期库你随便选", "zh-choice-remark"),
        ("用哪个日期库你自己定", "zh-choice-remark"),
        ("命名你来定吧", "zh-choice-remark"),
        ("图表库随你挑", "zh-choice-remark"),
        ("没问题哈", "zh-ack-remark"),
        ("好的好的", "zh-ack-remark"),
        ("行行行，好的", "zh-ack-remark"),
        ("その警告はスルーでいいです", "ja-ignore-remark"),
        ("lintの警告は気にしなくていいよ", "ja-ignore-remark"),
        ("型エラーの警告は放っておいていい", "ja-ignore-remark"),
        ("deprecatedの警告はいったん無視して大丈夫", "ja-ignore-remark"),
        ("warningは無視でok", "ja-ignore-remark"),
        ("そのログは見なくていいです", "ja-ignore-remark"),
        ("我不小心删了个分支，已经恢复了", None),
        ("数据库昨天挂了，刚恢复过来", None),
        ("配置文件都恢复好了", None),
        ("服务已经恢复正常", None),
    ],
)
def test_a_permission_an_ack_or_a_restore_told_is_no_go(message: str, rule: str | None) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # asked
        ("这个警告可以忽略吗", "QUESTION"),
        ("この警告って無視していいの？", "QUESTION"),
        # a go beside it decides; a hold beside it holds
        ("警告先不管，你接着写", "RESUMPTION"),
        ("警告可以先不管，但先别继续", "OTHER"),
        ("lintの警告は無視でいいからそのまま続けて", "RESUMPTION"),
        ("警告は無視していいよ、続けて", "RESUMPTION"),
        ("警告は無視していいけど、まだ続けないで", "OTHER"),
        ("没问题，继续吧", "RESUMPTION"),
        ("好的，接着做", "RESUMPTION"),
        # resume, not restore
        ("好了，可以恢复任务了", "RESUMPTION"),
        ("恢复吧", "RESUMPTION"),
        ("分支找回来了，你恢复任务吧", "RESUMPTION"),
        ("分支恢复了，不过先别继续", "OTHER"),
    ],
)
def test_near_permissions_and_restores_are_read_as_before(message: str, expected: str) -> None:
    _check(message, expected)


# 2. A go with urgency, after a concession ("やっぱり": after all), or as agreed.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("赶紧接着做，用户都在等着呢", "zh-resumption"),
        ("快点接着做，老板在催了", "zh-resumption"),
        ("接着写，甲方等着要", "zh-resumption"),
        ("继续吧，来不及了", "zh-resumption"),
        ("按之前说好的，把每日限额做进去", "zh-go-agreed"),
        ("就按我们商量的来", "zh-go-agreed"),
        ("照计划进行吧", "zh-go-agreed"),
        ("按原计划推进", "zh-go-agreed"),
        ("那就按昨天讨论好的办", "zh-go-agreed"),
        ("さっきは止めちゃったけど、やっぱり続けてください", "ja-resumption"),
        ("やはり続けてください", "ja-resumption"),
        ("打ち合わせ通り、日次の上限を組み込んで", "ja-go-agreed"),
        ("計画どおりエンドポイントを実装して", "ja-go-agreed"),
        ("予定通り、通知のテンプレートを仕上げて", None),
        ("話した通りにキャッシュを入れて", "ja-go-agreed"),
        ("決めたとおり、CSV出力を作って", "ja-go-agreed"),
    ],
)
def test_a_go_with_urgency_after_all_or_as_agreed_is_a_go(message: str, rule: str | None) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        # held beside the urgency or the agreement: a hold
        "客户等着呢，不过你先别继续",
        "先别继续，客户还在等回复",
        "等客户回复了再继续",
        "按之前说好的，先别动数据库",
        "按计划来，不过明天再开始",
        "按之前说好的格式写",
        "やっぱり続けないで",
        "やっぱり止めて",
        "やっぱり続けるのはやめて",
        "落ち続けてる",
        "打ち合わせ通り、明日から続けて",
        "計画どおり、まだ待ってて",
        "決めた通りに組み込まないで",
    ],
)
def test_a_hold_beside_urgency_after_all_or_as_agreed_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER", (message, found)


@pytest.mark.parametrize("message", ["按计划能按时做完吗", "計画通りに進んでる？", "客户等着呢？"])
def test_the_plan_or_the_wait_asked_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type not in ("RESUMPTION", "OTHER"), (message, found)


# 3. An audit asked as why about a protocol artefact, whether a commit went through a hook, the
# time a lock has left, the task's record.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("journal里为什么有个会话开了没关？", "zh-audit-why"),
        ("为啥还残留着一个旧的worktree", "zh-audit-why"),
        ("为什么锁到现在还没释放", "zh-audit-why"),
        ("锁的TTL还剩多少，看一下", "zh-audit-why"),
        ("这个任务的锁租期还剩多久？", "zh-audit-why"),
        ("任务的记录是不是少了几条", None),
        ("这次任务的记录完整吗", None),
        ("ジャーナルにセッションが開きっぱなしで閉じられてないのはなぜ？", "ja-audit-why"),
        ("なんでロックがまだ解放されてないの？", "ja-audit-why"),
        ("どうしてworktreeが二つ残ってるの", "ja-audit-why"),
        ("前回のコミットってlintのフック通った？", "ja-audit-why"),
        ("このタスクのロック、TTLあとどれくらい？", "ja-audit-why"),
        ("ロックの有効期限あと何分？", "ja-audit-why"),
    ],
)
def test_why_an_artefact_is_wrong_or_a_locks_time_left_is_an_audit(
    message: str, rule: str | None
) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # how it works, or the app's own: no check of the protocol answers it
        ("锁为什么会过期", "QUESTION"),
        ("用户会话为什么没关", "QUESTION"),
        ("任务记录一般存在哪里", "QUESTION"),
        ("ロックはなぜ期限切れになるの？", "QUESTION"),
        # the work's own state, no hook named
        ("ビルドってもう通った？", "STATUS_REQUEST"),
    ],
)
def test_why_of_the_design_or_the_apps_own_is_no_audit(message: str, expected: str) -> None:
    _check(message, expected)


def test_the_apps_own_session_is_no_audit() -> None:
    found = classify("ユーザーのセッションがなぜ残ってるの？")
    assert found.type != "AUDIT", found


# 4. Which parts are done: a status request; 5. an order to tell what the code does, or to sum
# it up: a question.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("已经完成的页面有哪些", "STATUS_REQUEST", "zh-status-done-which"),
        ("做完的模块有哪几个", "STATUS_REQUEST", "zh-status-done-which"),
        ("完成了的功能都有哪些？", "STATUS_REQUEST", "zh-status-done-which"),
        ("写好的接口有哪些了", "STATUS_REQUEST", "zh-status-done-which"),
        ("如果有会重复预订的情况，告诉我", "QUESTION", "zh-tell-question"),
        ("要是有超卖的可能，跟我说", "QUESTION", "zh-tell-question"),
        ("有并发冲突的风险就告诉我", "QUESTION", "zh-tell-question"),
        ("用两句话总结一下这个应用的架构", "QUESTION", "zh-tell-question"),
        ("帮我概括一下支付模块的设计", "QUESTION", "zh-tell-question"),
        ("重複登録が起こるパターンがあれば教えて", "QUESTION", "ja-tell-question"),
        ("タイムアウトする条件があったら教えてください", "QUESTION", "ja-tell-question"),
        ("この関数が遅い理由がわかったら教えて", "QUESTION", "ja-tell-question"),
        ("メモリが漏れる可能性があるなら教えて", "QUESTION", "ja-tell-question"),
        ("どこでメモリリークしてるか教えて", "QUESTION", "ja-tell-question"),
        ("なんでこのクエリが遅いのか教えて", "QUESTION", "ja-tell-question"),
        ("アプリの構成を2行でまとめて", "QUESTION", "ja-tell-question"),
        ("決済モジュールの設計をざっくり説明して", "QUESTION", "ja-tell-question"),
    ],
)
def test_done_parts_asked_or_an_order_to_tell(message: str, expected: str, rule: str) -> None:
    _check(message, expected, rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the work's summary, where it stopped: a status request
        ("总结一下今天的进展", "STATUS_REQUEST"),
        ("どこまで進んだか教えて", "STATUS_REQUEST"),
        ("どこで止まってるか教えて", "STATUS_REQUEST"),
        # a report asked for later, no case named: no question
        ("如果测试挂了，告诉我", "OTHER"),
    ],
)
def test_the_works_summary_or_a_later_report_is_no_code_question(
    message: str, expected: str
) -> None:
    _check(message, expected)


# Whether a go was done, asked in the past, is no go (the retrained model read "続けといてくれ
# た？" as one); a go asked for stays a go.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("もう続けといてくれたんですか？", "ja-go-done-asked"),
        ("進めてくれたの？", "ja-go-done-asked"),
        ("もう再開した？", None),
        ("続けた？", None),
    ],
)
def test_a_go_done_asked_is_no_go(message: str, rule: str | None) -> None:
    found = classify(message)
    assert found.type not in ("RESUMPTION", "OTHER"), (message, found)
    assert rule is None or found.rule == rule, (message, found)


@pytest.mark.parametrize(
    "message", ["続けてもらえますか？", "再開していい？", "そのまま進めといて"]
)
def test_a_go_asked_for_stays_a_go(message: str) -> None:
    _check(message, "RESUMPTION")


# 4. Which part the agent is on now, asked: a status request; a hold in the same words holds.
@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        ("今いじってるのってどのファイル？", "STATUS_REQUEST", "ja-status-now-which"),
        ("現在取りかかってるのは何", "STATUS_REQUEST", "ja-status-now-which"),
        ("いま作業してるところはどこ", "STATUS_REQUEST", "ja-status-now-which"),
        ("今触ってるのはどのモジュール？", "STATUS_REQUEST", "ja-status-now-which"),
        ("今のハンドラはどの順番で呼ばれる？", "QUESTION", None),
        ("今やってるのは後回しでいい", "OTHER", None),
        ("今やってるのは何でもいいから止めて", "OTHER", None),
        ("今いじってるのはどれでもいいから一回止めて", "OTHER", None),
    ],
)
def test_the_part_worked_on_now_asked_is_a_status(
    message: str, expected: str, rule: str | None
) -> None:
    _check(message, expected, rule)
