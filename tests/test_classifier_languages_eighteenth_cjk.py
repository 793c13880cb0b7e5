"""Issue #45's eighteenth round, the rules for Simplified Chinese and Japanese
(docs/interruptions.md, "Eighteenth round: the rules (Simplified Chinese and Japanese)"): the kinds
the twentieth batch left, each written for the kind rather than the batch's wording, with messages
of its own (none a corpus row) and the variants that must stay what they are. The holds are tested
hardest: a go read where the user held is the worst error."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _reads


# 1. A question said as wondering, doubt or not understanding is a question (about the code or a
# design choice); about the protocol's state an audit, about the work a status request.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("我想知道这个解析器能不能处理嵌套的引号", "zh-wonder-question"),
        ("我很好奇订单号的生成规则", "zh-wonder-question"),
        ("不确定这个迁移脚本在空表上跑得通", "zh-wonder-question"),
        ("我在琢磨这个限流器扛不扛得住突发流量", "zh-wonder-question"),
        ("一直没想通缓存为什么放在网关层", None),
        ("不知道这个正则能不能匹配全角字符", "zh-wonder-question"),
        ("想了解一下积分过期的计算方式", "zh-wonder-question"),
        ("拿不准这个排序在数据量大时稳不稳", "zh-wonder-question"),
        ("没太懂你把鉴权拆成两层的用意", "zh-wonder-question"),
        ("パーサーがネストした括弧に対応できるのか気になる", "ja-wonder-question"),
        ("注文番号の採番ルールがよくわからん", "ja-wonder-question"),
        ("このミドルウェアの役割がいまいち掴めてない", "ja-wonder-question"),
        ("キャッシュをサービス層に置いた理由がいまいちピンとこない", "ja-wonder-question"),
        ("リトライで二重課金が起きないのか疑問", "ja-wonder-question"),
        ("バリデーションをフロントに寄せた意図が知りたい", "ja-wonder-question"),
        ("ポイント失効の計算方法を理解したい", "ja-wonder-question"),
    ],
)
def test_a_question_said_as_wondering_is_a_question(message: str, rule: str | None) -> None:
    _reads(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("我想知道锁现在是不是还被占着", "AUDIT"),
        ("好奇这次会话是新开的还是复用的", "AUDIT"),
        ("想知道你做到哪一步了", "STATUS_REQUEST"),
        ("ロックがまだ握られてるのか気になる", "AUDIT"),
        ("ロック、まだ残ってるか気になる", "AUDIT"),
        ("どこまで進んだのか気になる", "STATUS_REQUEST"),
    ],
)
def test_wondering_about_the_protocol_or_the_work_is_an_audit_or_a_status(
    message: str, expected: str
) -> None:
    _reads(message, expected)


# ... not a wish, a hold or a suggestion in the same words, a thing not known, a bug's cause
@pytest.mark.parametrize(
    "message",
    [
        "我在想要不要先停一下",
        "我在想是不是可以用Redis",
        "不知道要不要继续",
        "我不清楚这块的业务",
        "好奇心害死猫",
        "ここで一回止めたほうがいいのかな",
        "続けたほうがいいのか気になる",
        "コンテナが起動時に落ちる原因がさっぱり分からん",
        "CIが落ちてるのが気になる",
    ],
)
def test_a_wish_or_a_hold_in_wondering_words_is_no_question(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER", (message, found)


# 2. Asked to go on explaining is a question: the go word governs telling, not the work.
@pytest.mark.parametrize(
    "message",
    [
        "继续讲模块拆分，我没听懂",
        "继续解释",
        "你接着讲讲那个状态机",
        "继续给我讲讲鉴权流程",
        "刚才那段没讲完，继续讲",
        "你能继续讲讲吗",
        "接着聊聊缓存失效那块",
        "説明を続けてください",
        "その話の続きを聞かせて",
        "さっきの説明の続きお願い",
        "解説の続きをどうぞ",
        "続けて説明して",
        "もうちょっと説明続けてもらえる？",
    ],
)
def test_asked_to_go_on_explaining_is_a_question(message: str) -> None:
    _reads(message, "QUESTION")


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # held: a hold
        ("别继续讲了", "OTHER"),
        ("不用继续解释了，我懂了", "OTHER"),
        ("説明を続けないで", "OTHER"),
        # the work's verb after the go word, or the go's object the text of a file: a go
        ("继续写说明文档", "RESUMPTION"),
        ("实验数据已经传上去了，继续分析吧", "RESUMPTION"),
        ("继续吧，文档以后再说", "RESUMPTION"),
        ("READMEの説明の続きを書いて", "RESUMPTION"),
        ("前回の会話の続きから再開して", "RESUMPTION"),
    ],
)
def test_a_go_word_before_the_work_or_held_is_read_as_before(message: str, expected: str) -> None:
    _reads(message, expected)


# 3. A go in clipped, colloquial or loan form: pinyin with the words said beside a go, the agent's
# turn said, the rest handed over; a later look of the user's own does not hold it.
@pytest.mark.parametrize(
    "message",
    [
        "meiwenti, jixu ba",
        "jixu ba xiongdi",
        "hao, jixu",
        "好了，环境变量我配好了，到你了",
        "变量设好了，轮到你了",
        "该你上了",
        "剩下的都交给你了",
        "あとはよろしく",
        "環境変数設定したよ、あとは任せた",
        "バトンタッチ",
        "ゴー",
        "最後までやっちゃって、あとで見る",
    ],
)
def test_a_clipped_or_colloquial_go_is_a_go(message: str) -> None:
    _reads(message, "RESUMPTION")


@pytest.mark.parametrize(
    "message",
    [
        "还没轮到你",
        "文件发到你了",
        "bie jixu",
        "mingtian jixu",
        "あとで見てから続けて",
        "明日また続けて",
    ],
)
def test_near_clipped_gos_are_no_go(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER", (message, found)


# 4. Where the work stands against how the code is built.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("是不是只剩联调了", "STATUS_REQUEST"),
        ("剩下的就只有写文档了吧？", "STATUS_REQUEST"),
        ("现在是在写接口还是在跑用例", "STATUS_REQUEST"),
        ("你目前在改样式还是在修bug", "STATUS_REQUEST"),
        ("就差打包了吗", "STATUS_REQUEST"),
        ("一共还剩几个", "STATUS_REQUEST"),
        ("状态机一共有几个状态", "QUESTION"),
        ("分页是按游标还是按偏移量", "QUESTION"),
        ("密码是存哈希还是存明文", "QUESTION"),
        ("这段代码是在主线程跑还是在子线程跑", "QUESTION"),
        ("ステートマシンの状態っていくつある？", "QUESTION"),
        ("通知の種類は全部でいくつあるの", "QUESTION"),
        ("残りいくつある？", "STATUS_REQUEST"),
        ("失敗してるテストっていくつある？", "STATUS_REQUEST"),
    ],
)
def test_the_works_state_against_a_design_question(message: str, expected: str) -> None:
    _reads(message, expected)


# 5. The protocol's present state asked short: released, which worktree is a task's, whether this
# session is new; not how the protocol does it.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("锁放掉了没有", "AUDIT"),
        ("支付任务对应的是哪个工作树", "AUDIT"),
        ("搜索任务对应哪个工作树", "AUDIT"),
        ("这个会话是新开的还是复用的", "AUDIT"),
        ("当前的worktree是新建的吗", "AUDIT"),
        ("锁对应哪个任务", "AUDIT"),
        ("この手順、ジャーナルに載ってる？", "AUDIT"),
        ("ロックの状態どう？", "AUDIT"),
        ("ロック見て、詰まってる気がする", "AUDIT"),
        ("このセッションって新規？", "AUDIT"),
        ("会话是每次新建还是复用的？", "QUESTION"),
        ("锁什么时候释放？", "QUESTION"),
    ],
)
def test_the_protocols_state_asked_short_is_an_audit(message: str, expected: str) -> None:
    _reads(message, expected)


# 6. Never a go: the keyword counted or pointed at, a go only on a condition, follow or keep.
@pytest.mark.parametrize(
    "message",
    [
        "循环里多写了一个continue",
        "continue后面少了个冒号",
        "ループにcontinueが一個多い",
        "只有CI绿了才继续",
        "只有夜间构建通过了才回到代码上",
        "除非构建通过，否则别回到代码上",
        "构建过了才继续",
        "继续沿用旧的命名",
        "照着原来的模式写",
        "按项目现有的风格来",
        "保留之前的命名规范",
        "引き続きタブを使って",
        "既存のパターンを踏襲して",
        "今まで通りスペース2つを使って",
        "夜間ビルドが通った場合だけコードに戻って",
        "テストが通ったときだけ再開して",
    ],
)
def test_a_go_word_that_follows_keeps_or_waits_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER", (message, found)


@pytest.mark.parametrize(
    "message",
    [
        # a go before a follow instruction stands (a remark, not a hold); praise to keep it up,
        # the work done as agreed, the keyword named then a go
        "继续，沿用项目原来的写法",
        "続けて、既存のパターンを踏襲して",
        "不错，这块继续保持",
        "请按之前商量的把对接做完",
        "那个continue写错了，改完继续",
        "待たないで進めて",
    ],
)
def test_a_go_beside_a_follow_instruction_stays_a_go(message: str) -> None:
    _reads(message, "RESUMPTION")


# A wait asked as a request, stopping weighed: a hold, not a question.
@pytest.mark.parametrize(
    "message",
    [
        "ごめん、ちょっとだけ待っててもらえる？",
        "少しだけ待っててくれる？",
        "一瞬待ってもらっていい？",
        "ここは中断したほうが無難",
    ],
)
def test_a_wait_asked_is_a_hold(message: str) -> None:
    _reads(message, "OTHER", "ja-hold-asked")
