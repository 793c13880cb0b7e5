"""Issue #45's twentieth round, the rules for Japanese and Simplified Chinese
(docs/interruptions.md, "Twentieth round: the rules (Japanese and Simplified Chinese)"): each
rule written for a kind the twenty-second batch missed, from messages of this round's own in
other wordings (registers, word orders, particles, with and without "?"), with the near-misses
that must stay what they are (holds tested hardest). New messages, none a corpus row."""

from __future__ import annotations

import pytest

from taskproto.classify.interruptions import classify
from tests.classify_reads import reads as _check


# 1. A status request asked as "done?" with 没 at the end or as "A not A" (a particle or a
# reason after it), as when the work can be had, as its progress to be sent or its percentage.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("短信验证码对接完成没", "zh-status-done-no"),
        ("会员积分那块搞定没搞定", "zh-status-done-no"),
        ("迁移脚本做没做完", "zh-status-done-no"),
        ("排班表的接口好没好", "zh-status-done-no"),
        ("优惠券功能弄完了没哇", None),
        ("打印模板适配好了没呢，仓库那边等着用", "zh-status-done-no"),
        ("数据迁移跑完没啊", "zh-status-done-no"),
        ("部署好没", "zh-status-done-no"),
        ("单测写完没呀，下午要提测", "zh-status-done-no"),
        ("导出那块今晚能搞定不", "zh-status-done-no"),
        ("周报功能明早能做完不呀", "zh-status-done-no"),
        ("初版啥时候能出来", "zh-status-when"),
        ("预计几点能给我个初版", "zh-status-when"),
        ("大概多久能搞完", "zh-status-when"),
        ("什么时候能看到第一版", "zh-status-when"),
        ("发我一下当前进度", "zh-status"),
        ("给我发个进度", "zh-status"),
        ("把进度同步给我一下", "zh-status"),
        ("告诉我完成百分比就好", "zh-status"),
        ("报个百分比", "zh-status"),
        ("现在大概完成几成了", "zh-status"),
        ("初版はいつ見れる？", "ja-status-when"),
        ("最初のバージョンっていつ頃もらえそう？", "ja-status-when"),
        ("夕方までに仕上がりそうかな", "ja-status-when"),
        ("決済画面はいつ試せる？", "ja-status-when"),
        ("進捗送っといて", "ja-status-when"),
        ("状況をメールしておいて", None),
    ],
)
def test_a_status_asked_done_by_when_or_sent(message: str, rule: str | None) -> None:
    _check(message, "STATUS_REQUEST", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # the code's behaviour asked yes or no: a question
        ("这个接口支持分页没有", "QUESTION"),
        ("登录接口走没走限流", "QUESTION"),
        ("这个组件支不支持暗色模式", "QUESTION"),
        ("这个SDK兼容安卓5没有", "QUESTION"),
        ("缓存什么时候会失效", "QUESTION"),
        ("通知メールはいつ届くの", "QUESTION"),
        ("このキャッシュはいつ無効になるの", "QUESTION"),
        # a protocol object's state: an audit
        ("锁释放了没有", "AUDIT"),
        # a percentage told, not asked: nothing asked
        ("进度条的百分比算错了", "OTHER"),
        ("完成率那一列显示成负数了", "OTHER"),
        # not done, told: a hold or nothing asked
        ("还没做完，别催", "OTHER"),
        ("上线了，没问题", "OTHER"),
        ("这样写好不", "OTHER"),
        ("まだ終わってないから急かさないで", "OTHER"),
    ],
)
def test_the_codes_yes_or_no_a_figure_told_or_not_yet_is_no_status(
    message: str, expected: str
) -> None:
    _check(message, expected)


# 2. A go after a decision or an approval, as the task's own verb, what is missing of the work,
# or after the agent's own step ("after": not a condition then).
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("方案定下来了，就用Redis那套，动手吧", "zh-go-own-verb"),
        ("评审通过了，合进去吧", "zh-go-own-verb"),
        ("审批下来了，发布吧", "zh-go-own-verb"),
        ("上线审批过了，部署吧", "zh-go-own-verb"),
        ("签字流程走完了，可以发版了", "zh-go-own-verb"),
        ("心跳那块，重新开工", "zh-go-own-verb"),
        ("复工吧", "zh-go-own-verb"),
        ("把ETL缺的测试补上吧", "zh-go-missing"),
        ("按区域排班还没做的部分实现一下", "zh-go-missing"),
        ("把还没写的单测写了", "zh-go-missing"),
        ("把漏掉的接口补齐", "zh-go-missing"),
        ("做完这个之后继续下一个", "zh-go-after-step"),
        ("修完这个bug以后，接着做登录页", "zh-resumption"),
        ("先把单测补完之后接着写导出", "zh-go-after-step"),
        ("改完样式以后接着做详情页", "zh-go-after-step"),
        ("你把lint修完了，再继续", "zh-resumption"),
        ("承認が下りました。リリースお願いします", "ja-go-deploy"),
        ("ステージングにデプロイしてください", "ja-go-deploy"),
        ("ゾーン別シフトの足りないところを実装して", "ja-go-missing"),
        ("ETLの足りないテストを書いて", "ja-go-missing"),
        ("未実装の部分を実装しといて", "ja-go-missing"),
        ("残ってるテストを書いてください", "ja-go-missing"),
    ],
)
def test_a_go_after_a_decision_as_the_tasks_verb_or_after_a_step(message: str, rule: str) -> None:
    _check(message, "RESUMPTION", rule)


@pytest.mark.parametrize(
    "message",
    [
        # told, held or not yet: no go
        "上线了",
        "先别上线吧",
        "还不能部署吧",
        "等审批下来再上线吧",
        "缺的测试不用补",
        "别把没做的部分实现了",
        "デプロイはまだしないでね",
        "足りないテストは書かなくていい",
        # "after" an event, or someone else's step: a hold (the agent's own step opens the
        # clause with its verb; a subject, an event or no object is a wait)
        "CI跑完之后再继续",
        "老王review完之后再继续",
        "跑完之后再继续",
        "我看完之后再继续",
        "测试跑完以后接着做",
        "等测试跑完之后再继续",
        "修完这个bug以后明天再接着做登录页",
    ],
)
def test_a_step_told_held_or_waited_for_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type != "RESUMPTION", (message, found)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("可以上线了吗", "STATUS_REQUEST"),
        ("缺的测试补上了吗", "STATUS_REQUEST"),
        ("デプロイして大丈夫？", "QUESTION"),
    ],
)
def test_the_tasks_step_asked_is_no_go(message: str, expected: str) -> None:
    _check(message, expected)


# 3. An audit of what a past pause or stop left, or of a protocol object looked at (casual and
# Kansai forms).
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("一時停止したときロックちゃんと解放された？", "ja-audit-past"),
        ("ストップしたときロック外れた？", "ja-audit-past"),
        ("落ちた時セッション閉じられた？", "ja-audit-past"),
        ("フックがちゃんと動いてるか確認しといて", "ja-audit-look"),
        ("ハートビート途切れてへんか見てて", "ja-audit-look"),
        ("worktree残ってへんか見といてくれる？", None),
    ],
)
def test_a_past_event_or_a_look_at_the_protocol_is_an_audit(message: str, rule: str | None) -> None:
    _check(message, "AUDIT", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # a pause or a stop asked for is still a hold
        ("いったん一時停止して", "OTHER"),
        ("ストップして", "OTHER"),
        ("一旦ストップで", "OTHER"),
        # how it works, or a look later of the user's own
        ("ロックってどのタイミングで解放されるの", "QUESTION"),
        ("ロックの仕組みはあとで自分で見とく", "OTHER"),
    ],
)
def test_a_pause_asked_or_the_design_is_no_audit(message: str, expected: str) -> None:
    _check(message, expected)


# 4. A question on the code: what a commit changed (not what the agent did), whether the code
# should be so, wondered.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("最后那次提交主要改了什么", "zh-change-question"),
        ("简单说下那个diff都改了什么", "zh-change-question"),
        ("上一个commit动了哪些地方，说一下", "zh-change-question"),
        ("这个PR加了哪些东西", "zh-change-question"),
        ("さっきのコミットで何が変わったか、手短に", "ja-change-question"),
        ("直前のコミットの変更点、ざっくり教えて", "ja-change-question"),
        ("そのPRで何を変えたの？", "ja-change-question"),
        ("チップタイムってミリ秒で保存すべきかな", "ja-should-question"),
        ("チップの時間をミリ秒で持つべきか気になってる", "ja-should-question"),
        ("トークンはDBに置いたほうがいいのかな", "ja-should-question"),
        ("不知道订单号要不要改成雪花算法", "zh-wonder-question"),
        ("我在琢磨计时是不是应该存成毫秒", "zh-wonder-question"),
    ],
)
def test_a_commits_change_or_a_design_wondered_is_a_question(message: str, rule: str) -> None:
    _check(message, "QUESTION", rule)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # what the agent did: where the work stands
        ("你改了什么，简单说下", "STATUS_REQUEST"),
        ("今天都改了哪些", "STATUS_REQUEST"),
        ("上次提交之后你又动了哪些", "STATUS_REQUEST"),
        ("今日の変更点を教えて", "STATUS_REQUEST"),
        # a commit's change to be written somewhere: an instruction
        ("このコミットの変更点をREADMEに書いて", "OTHER"),
        # stopping or going on weighed, a suggestion: no question
        ("止めるべきか迷ってる", "OTHER"),
        ("続けるべきかな", "OTHER"),
        ("我在想是不是该停一下", "OTHER"),
        ("我在想是不是可以用Redis", "OTHER"),
        ("不知道要不要继续", "OTHER"),
    ],
)
def test_the_works_changes_or_stopping_weighed_is_no_code_question(
    message: str, expected: str
) -> None:
    _check(message, expected)


# 5. Never a go: waiting or watching gone on with, a go after an event the user waits for (said
# by 再), "then" told of what happened, a go word inside a verb that cannot go on.
@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("继续等审批", "zh-keep-waiting"),
        ("接着等客户回复吧", "zh-keep-waiting"),
        ("还是继续观望吧", "zh-keep-waiting"),
        ("依旧待命", "zh-keep-waiting"),
        ("继续等等看", "zh-keep-waiting"),
        ("审批来了，但是是别的部门批的，继续等", "zh-keep-waiting"),
        ("数据到了你再接着做", "zh-event-then-go"),
        ("设计稿出来了再开始", "zh-event-then-go"),
        ("领导的意见下来你再动手", "zh-event-then-go"),
        ("他回复了，你再推进", "zh-event-then-go"),
        ("测试跑完了你再继续", "zh-event-then-go"),
        ("接着就报错了", "zh-then-told"),
        ("接着又挂了", "zh-then-told"),
        ("点了保存，接着页面就没反应了", "zh-then-told"),
        ("様子見を続けて", "ja-keep-waiting"),
        ("待機を継続で", "ja-keep-waiting"),
        ("保留を続けてください", "ja-keep-waiting"),
        ("承認は来たけど別部署のだから、まだ様子見を続けて", "ja-keep-waiting"),
    ],
)
def test_waiting_an_event_waited_for_or_then_told_is_no_go(message: str, rule: str) -> None:
    _check(message, "OTHER", rule)


@pytest.mark.parametrize(
    "message",
    [
        "処理が続行できなくなった",
        "続行できないエラーが出る",
        "服务的连续性断了",
        "继续。不对，等我先在本地试一下",
        "続けて…いや、やっぱりまずローカルで試させて",
        "プレイテストのフィードバックが来たら続けて",
    ],
)
def test_a_go_word_in_a_fact_or_a_go_taken_back_is_no_go(message: str) -> None:
    found = classify(message)
    assert found.type == "OTHER", (message, found)


@pytest.mark.parametrize(
    "message",
    [
        # the agent's own step first: a go in order
        "先把测试跑完了再继续",
        "接着就做吧",
        "不用等了，继续",
        "このまま続行でお願い",
        "引き続き実装を続けて",
    ],
)
def test_a_go_beside_these_forms_stays_a_go(message: str) -> None:
    _check(message, "RESUMPTION")
