"""Issue #45's twenty-third round, the rules for Japanese and Simplified Chinese
(docs/interruptions.md, "Twenty-third round: the rules (Japanese and Simplified Chinese)"): each
rule written for a kind the twenty-fifth batch missed in any language, from messages of this
round's own in other wordings (registers, word orders, slang, pinyin, with and without "?"), with
the near-misses that must stay what they are (holds tested hardest). New messages, none a corpus
row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. An audit asked as a plain question about what happened to the protocol's state: a lock left
# after a kill, a hook that caught or let through a file, a hook in the agent's worktree, who
# holds the lock and since when.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("pre-commit把那个大文件挡下来了吗", "zh-audit-hook-caught"),
        ("husky有没有放过那个密钥文件", "zh-audit-hook-caught"),
        ("commit-msg钩子拦了我的提交没", "zh-audit-hook-caught"),
        ("pre-commit检查出那个大文件了吗？", "zh-audit-hook-caught"),
        ("那次提交pre-push有没有触发", "zh-audit-hook-caught"),
        ("刚才kill -9之后锁是不是卡住了", None),
        ("我VPN断了之后你的会话还在吗", None),
        ("さっきkill -9したけどロック残ったまま？", "ja-audit-result"),
        ("強制終了したらロック残っちゃった？", "ja-audit-result"),
        ("そのフックって君のworktreeにも適用されてる？", "ja-audit-result"),
        ("husky、あのでかいファイル引っかけた？", "ja-audit-result"),
        ("pre-commitはあの40MBのファイル弾いた？", "ja-audit-result"),
        ("pre-commit、あの巨大ファイル止めてくれた？", "ja-audit-result"),
        ("pre-commit漏らした？", "ja-audit-result"),
        ("lefthookってちゃんと仕事した？", None),
        ("今ロック持ってるの誰で、いつから？", None),
        ("ロックの持ち主って誰？", None),
    ],
)
def test_an_audit_asked_as_what_happened_to_the_protocol_is_an_audit(
    message: str, rule: str | None
) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # how it works, a hook to be written, the app's own hook, a hypothetical
        ("pre-commit怎么配置才能拦大文件", "QUESTION"),
        ("给pre-commit加一个拦大文件的检查", "OTHER"),
        ("断网的时候钩子会拦住提交吗？", "QUESTION"),
        ("github的webhook在push时也会触发吗", "QUESTION"),
        ("フックを一時的に止めたいときのやり方ある？", "QUESTION"),
        ("pre-commitフックを追加して", "OTHER"),
    ],
)
def test_how_a_hook_works_or_a_hook_to_write_is_no_audit(message: str, expected: str) -> None:
    found = classify(message)
    assert found.type == expected, (message, found)


# 2. Where the work stands, said as an order to list what is left, or as a supposition to be
# confirmed.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("还没做的列出来给我看看", "zh-status-list-left"),
        ("把剩下的TODO整理成列表发我", "zh-status-list-left"),
        ("说一下剩余的任务", "zh-status-list-left"),
        ("把待办事项清单发我", "zh-status-list-left"),
        ("没做完的活儿列一下", None),
        ("遗留的问题汇总一下发我", "zh-status-list-left"),
        ("todo还剩哪些，列出来", None),
        ("我猜收据生成那块你还没开始吧", "zh-status-supposed"),
        ("估计导出功能还没动吧", "zh-status-supposed"),
        ("支付对账应该还没开工吧", "zh-status-supposed"),
        ("退款那块八成还没写吧", "zh-status-supposed"),
        ("你还没碰权限模块吧", "zh-status-supposed"),
        ("登录页估计已经做完了吧", "zh-status-supposed"),
        ("請求書の発行ってまだ手つけてないよね", "ja-status-supposed"),
        ("たぶんPDF出力はまだ着手してないでしょ", "ja-status-supposed"),
        ("CSVインポートはまだ始めてないですよね", "ja-status-supposed"),
        ("通知の件、まだ触ってないよな", "ja-status-supposed"),
        ("決済まわり、まだ取りかかってないでしょう", "ja-status-supposed"),
        ("検索APIはさすがにまだできてないか", "ja-status-supposed"),
        ("ログイン画面もう終わってるよね？", "ja-status-supposed"),
        ("テストはもう書けてるよね", "ja-status-supposed"),
    ],
)
def test_a_status_as_a_list_of_what_is_left_or_a_supposition_is_a_status(
    message: str, rule: str | None
) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the rest done: a go, not a list asked for
        ("把剩下的TODO做完", "RESUMPTION"),
        # an app's to-do list: a remark
        ("给待办列表加个排序", "OTHER"),
        # a hold, with the words of a list or of "not yet"
        ("剩下的先别做", "OTHER"),
        ("还没开始吧", "OTHER"),
        ("还没，先别开始吧", "OTHER"),
        ("估计还没开始吧，那就先别动", "OTHER"),
        ("まだ手をつけないでね", "OTHER"),
        ("まだ始めないで", "OTHER"),
        ("まだ始めてないなら始めないで", "OTHER"),
        # the user's own, not the agent's work
        ("我还没看完吧", "OTHER"),
        ("僕はまだ手つけてないよね", "OTHER"),
    ],
)
def test_a_go_a_hold_or_the_users_own_beside_those_words_stays_what_it_is(
    message: str, expected: str
) -> None:
    found = classify(message)
    assert found.type == expected, (message, found)


# 3. A go after a prerequisite the agent meets first, after a break or a fact, announced, or in
# pinyin with an "ok".
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("把这个bug修好之后接着写导出", "zh-go-after-step"),
        ("先把冲突解决了之后继续做登录页", "zh-go-after-step"),
        ("rebase完main之后接着做这个功能", "zh-go-after-step"),
        ("把lint的报错清理掉以后继续", "zh-go-after-step"),
        ("改掉这个警告之后往下做", "zh-go-after-step"),
        ("ok jiezhe gan", "zh-resumption"),
        ("okay jixu zuo ba", "zh-resumption"),
        ("休憩終わり！再開するよ", "ja-go-announced"),
        ("よし、続きやるぞ", "ja-go-announced"),
        ("さて、作業に戻るよ", "ja-go-announced"),
        ("ローカルだと全部グリーン、次いって", "ja-go-announced"),
        ("だらだらしてないで、作業戻ろ", "ja-go-announced"),
        ("昼休み終わったので再開します", None),
        ("レビューOK、次のタスク行って", "ja-go-announced"),
    ],
)
def test_a_go_after_a_step_a_break_or_a_fact_is_a_go(message: str, rule: str | None) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        # a prerequisite the user or someone else meets, an event, a later time: holds
        "等我把review做完之后再继续",
        "PR合并完之后再继续",
        "老王把PR合并了之后继续",
        "CI跑完之后继续",
        "测试跑完以后接着做",
        "把迁移修好之后明天再继续",
        "别把冲突解决了之后继续",
        # pinyin denied or put off beside an "ok"; English beside the pinyin
        "ok bu yao jixu",
        "ok mingtian jixu",
        "ok jixu the tests",
        # announced for later, asked, or the user's own
        "明日再開するよ",
        "再開する？",
        "次いってもいい？",
        "私が再開するよ",
        # a go word told of, not asked for: a fact
        "テスト始めてないです",
        "作業続けてないよ",
        "始めてた",
        "進めてます",
        "そっちはもう始めてる？",
    ],
)
def test_a_prerequisite_of_someone_else_a_later_go_or_a_go_told_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


# 4. A question on the code's design or content, and a remark with a prohibition or on a failure
# that keeps on.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("用链表是不是比数组更省内存", "zh-design-question"),
        ("这里用枚举是不是更清晰", "zh-design-question"),
        ("订单金额用decimal了吗", "zh-used-question"),
        ("这块并发用线程池了没", "zh-used-question"),
        ("密码哈希用bcrypt了没有", "zh-used-question"),
        ("价格用float了吗", "zh-used-question"),
        ("你刚才说的幂等键是啥", "zh-what-question"),
        ("刚提到的熔断是个啥", "zh-what-question"),
        ("ハッシュマップのほうが速くない？", "ja-design-question"),
        ("ここはenumの方が安全では？", "ja-design-question"),
        ("金額ってBigDecimal使ってる？", "ja-design-question"),
        ("並び替えはマージソートで実装した？", "ja-design-question"),
        ("IDってuuidにした？", "ja-design-question"),
        ("タイムスタンプはUTCで保存してる？", "ja-design-question"),
    ],
)
def test_a_question_on_the_codes_design_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the work's state, asked with the same words
        ("你用pnpm装好了吗", "STATUS_REQUEST"),
        ("lint用上了吗", "STATUS_REQUEST"),
        ("迁移做完了吗", "STATUS_REQUEST"),
        ("ログイン画面は実装した？", "STATUS_REQUEST"),
        ("CIでテスト回した？", "STATUS_REQUEST"),
    ],
)
def test_the_works_state_asked_in_those_words_is_a_status(message: str, expected: str) -> None:
    found = classify(message)
    assert found.type == expected, (message, found)


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("这个依赖许可证不兼容，不能用", "zh-prohibition-remark"),
        ("那个接口废弃了，别调", "zh-prohibition-remark"),
        ("生产库不能直接改", "zh-prohibition-remark"),
        ("这个包有后门，禁止引入", "zh-prohibition-remark"),
        ("このライブラリGPLだから使っちゃダメ", "ja-prohibition-remark"),
        ("本番DBは直接触らないこと", "ja-prohibition-remark"),
        ("そのパッケージはライセンス的に使えません", "ja-prohibition-remark"),
        ("テストがずっと失敗し続けてる", "ja-keeps-on-remark"),
        ("メモリが増え続けてる", "ja-keeps-on-remark"),
        ("バッチがタイムアウトし続けてます", "ja-keeps-on-remark"),
    ],
)
def test_a_prohibition_or_a_failure_that_keeps_on_is_a_remark(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # asked: a question
        ("这个库不能用吗", "QUESTION"),
        ("这个库为什么不能用", "QUESTION"),
        ("このAPI使っていい？", "QUESTION"),
        # a go before the remark stands: the remark takes nothing back
        ("继续写吧，这个库不能用", "RESUMPTION"),
        ("続けて。そのライブラリは使っちゃダメ", "RESUMPTION"),
        # a hold stays a hold
        ("先别继续，这个库不能用", "OTHER"),
        ("まだ続けないで、そのライブラリは使っちゃダメ", "OTHER"),
    ],
)
def test_a_prohibition_asked_or_beside_a_go_or_a_hold(message: str, expected: str) -> None:
    found = classify(message)
    assert found.type == expected, (message, found)
