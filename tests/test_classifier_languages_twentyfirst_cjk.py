"""Issue #45's twenty-first round, the rules for Japanese and Simplified Chinese
(docs/interruptions.md, "Twenty-first round: the rules (Japanese and Simplified Chinese)"): each
rule written for a kind the twenty-third batch missed, from messages of this round's own in other
wordings (registers, word orders, particles, with and without "?"), with the near-misses that
must stay what they are (holds tested hardest). New messages, none a corpus row."""

from __future__ import annotations

import pytest

from tests.classify_reads import reads as _check


# 1. A go after a wait that is over: the wait, spent, is no condition and no later time ("等了
# 一下午" is not "下午再继续").
@pytest.mark.parametrize(
    "message",
    [
        "等了好久，环境总算搭好了，继续吧",
        "等了一上午终于审批下来了，接着做",
        "等了这么久，终于可以继续了",
        "等了俩小时服务器终于恢复了，接着搞",
        "等了半天终于编译过了，开始吧",
        "等了一下午，构建终于好了，继续",
        "等了老半天，权限终于批了，上吧",
        "熬了一晚上总算弄好了，往下走",
    ],
)
def test_a_go_after_a_wait_that_is_over_is_a_go(message: str) -> None:
    _check(message, "RESUMPTION")


@pytest.mark.parametrize(
    "message",
    [
        # a later time or a condition still holds, the wait over or not
        "等了一上午，下午再开工",
        "等了一整天，明早再继续",
        "做完了下午再继续",
        "下午再继续",
        "等了一下午了，明天再继续",
        "等CI绿了再继续",
        "等他回复了再开干",
        # waiting gone on with, a go denied after the wait
        "等了半天，还是接着等吧",
        "等了一下午，再等等吧",
        "等了半天还是没动静，先别继续",
        "等了也白等，先别动",
    ],
)
def test_a_wait_that_goes_on_or_a_later_time_still_holds(message: str) -> None:
    _check(message, "OTHER")


# 2. Where the work stands, asked impatiently, as the stage it reached, or its progress sent.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("咋还没弄完", "zh-status-impatient"),
        ("怎么还没写完啊，都下午了", "zh-status-impatient"),
        ("这都多久了还没好", "zh-status-impatient"),
        ("为啥还没做完，说好中午的", "zh-status-impatient"),
        ("怎么到现在还没搞定", "zh-status-impatient"),
        ("都一下午了还没改完", "zh-status-impatient"),
        ("报个百分比", "zh-status"),
        ("把进度甩我一下", "zh-status"),
        ("決済処理、テストまで書けてる？", "ja-status-how-far"),
        ("ログイン画面はレビューまで終わってる？", "ja-status-how-far"),
        ("在庫APIはマージまで行った？", "ja-status-how-far"),
        ("通知機能、実装まで済んでますか", "ja-status-how-far"),
        ("バッチ処理はデプロイまでいけた？", "ja-status-how-far"),
        ("検索の改修、結合テストまで進んでる？", "ja-status-how-far"),
    ],
)
def test_impatience_a_stage_reached_or_the_progress_sent_is_a_status(
    message: str, rule: str
) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the code's behaviour or the protocol's, still not so: not where the work stands
        ("页面怎么还没加载出来", "QUESTION"),
        ("锁怎么还没释放", "QUESTION"),
        # what the code supports up to, a stage to reach, a stop at a stage: no status
        ("このライブラリはIE11まで対応してる？", "QUESTION"),
        ("テストまで書いておいて", "OTHER"),
        ("レビューまで終わったら止めて", "OTHER"),
        # a figure of the code's, told
        ("CPU占用百分比", "OTHER"),
        ("进度百分比会算出负数", "OTHER"),
    ],
)
def test_the_codes_state_or_a_stage_ordered_is_no_status(message: str, expected: str) -> None:
    _check(message, expected)


# 3. Not asked at all: a hold asked as a question, a backchannel with a particle, a feeling that
# something is off (a question word made indefinite).
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("可以先暂停一下吗？", "zh-hold-asked"),
        ("你能不能先停下", "zh-hold-asked"),
        ("麻烦先停停可以吗", "zh-hold-asked"),
        ("可以等我一下吗", "zh-hold-asked"),
        ("你先缓一缓行不行", "zh-hold-asked"),
        ("能暂停么", "zh-hold-asked"),
        ("能否先停一会儿", "zh-hold-asked"),
        ("请你先住手好吗", "zh-hold-asked"),
        ("嗯哪", "zh-backchannel"),
        ("嗯啦", "zh-backchannel"),
        ("哦哦", "zh-backchannel"),
        ("对对对", "zh-backchannel"),
        ("是呢", "zh-backchannel"),
        ("好的呢", "zh-backchannel"),
        ("总觉得哪儿怪怪的", "zh-feeling-remark"),
        ("好像哪里出了问题", "zh-feeling-remark"),
        ("感觉什么地方不对劲", "zh-feeling-remark"),
        ("哎，似乎哪里漏了", "zh-feeling-remark"),
        ("我觉得哪里有点问题", "zh-feeling-remark"),
        ("总感觉有什么不对", "zh-feeling-remark"),
    ],
)
def test_a_hold_asked_a_backchannel_or_a_feeling_asks_nothing(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a go asked, a stop denied: gos
        ("能继续吗", "RESUMPTION"),
        ("能不能别停", "RESUMPTION"),
        ("嗯嗯，继续", "RESUMPTION"),
        # a go opened by an acknowledgement the model reads (not a backchannel of the rule)
        ("好嘞，接着冲", "RESUMPTION"),
        # a pause or a parking lot as a noun: no hold asked
        ("停车场模块能先做吗", "QUESTION"),
        # asked: a question
        ("对吗", "QUESTION"),
        ("是吗", "QUESTION"),
        ("你觉得哪里不对？", "QUESTION"),
        ("能帮我看看吗", "QUESTION"),
        # an instruction given flatly, not a go
        ("那个函数太长了，拆开", "OTHER"),
        ("这个类太大了，拆分成三个模块", "OTHER"),
        ("把重试逻辑抽成一个装饰器", "OTHER"),
        ("表名统一改成复数", "OTHER"),
    ],
)
def test_a_go_asked_a_question_or_a_flat_instruction_stays_what_it_is(
    message: str, expected: str
) -> None:
    _check(message, expected)


# 4. The code's questions read as status: a part of the code written, which of two ways, a
# design's reason, the order in which the code runs.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("空值校验加了没有", "zh-part-question"),
        ("异常处理做了没啊", "zh-part-question"),
        ("回滚逻辑写了没", "zh-part-question"),
        ("这个表的索引建了没", "zh-part-question"),
        ("那个字段的默认值设了没", "zh-part-question"),
        ("重试分支加没加", "zh-part-question"),
        ("这里用枚举还是常量更合适", "zh-choice-question"),
        ("分页做游标还是offset好", "zh-choice-question"),
        ("缓存用redis还是本地内存比较好", "zh-choice-question"),
        ("日志写文件还是打到标准输出更方便", "zh-choice-question"),
        ("注文の状態を文字列で持たせた理由が知りたいです", "ja-reason-question"),
        ("なんでステータスをenumにしなかったのか知りたい", "ja-reason-question"),
        ("在庫状況のキャッシュを5分にした根拠を聞きたい", "ja-reason-question"),
        ("ジョブのステータスをDBに持たせた意図が気になる", "ja-reason-question"),
        ("進捗をファイルに書く設計にした背景を教えてほしい", "ja-reason-question"),
        ("どうして現状のテーブル設計にしたのか教えて", "ja-reason-question"),
        ("ミドルウェアってどの順番で実行されるの？", "ja-order-question"),
        ("フックはどういう順序で走る？", "ja-order-question"),
        ("このイベントはどの順で発火する?", "ja-order-question"),
        ("リスナーはどのような順序で登録される？", "ja-order-question"),
    ],
)
def test_a_part_written_a_choice_a_reason_or_an_order_is_a_question(
    message: str, rule: str
) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the work itself done: where it stands
        ("迁移写完了没", "STATUS_REQUEST"),
        ("進捗が知りたい", "STATUS_REQUEST"),
        # a way decided, a go weighed: no question
        ("还是继续比较好", "RESUMPTION"),
        ("还是先停一下吧", "OTHER"),
    ],
)
def test_the_work_done_a_way_decided_or_a_go_weighed_is_no_question(
    message: str, expected: str
) -> None:
    _check(message, expected)


# 5. The record's state doubted: an audit.
@pytest.mark.parametrize(
    "message",
    ["这个状态靠谱吗", "看板上显示这个任务关了，这状态准吗", "那个状态可信吗"],
)
def test_the_records_state_doubted_is_an_audit(message: str) -> None:
    _check(message, "AUDIT", "zh-audit-record")


@pytest.mark.parametrize("message", ["这个状态机的设计靠谱吗", "状态码准吗"])
def test_a_state_machine_or_code_doubted_is_no_audit(message: str) -> None:
    _check(message, "QUESTION")
