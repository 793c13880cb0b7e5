"""Issue #45's eleventh round, the rules for Japanese and Chinese and the slips
(docs/interruptions.md, "Eleventh round: the rules (Japanese, Chinese, slips)"): families by
form, each with the form and the negated, later, conditional or asked variants that must stay
what they are. New messages, none a corpus row."""

from __future__ import annotations

import subprocess
import sys

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


# Chinese status frames: not done yet?, how long still, how much of it, which part now, which
# round; a bare "not yet" is still a hold, and a question about code is still a question.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("还没弄好吗？", "STATUS_REQUEST"),
        ("部署还没结束呢？", "STATUS_REQUEST"),
        ("迁移还要很久吗", "STATUS_REQUEST"),
        ("还得多久？", "STATUS_REQUEST"),
        ("数据导入处理了多少了", "STATUS_REQUEST"),
        ("你现在正在改哪个文件？", "STATUS_REQUEST"),
        ("回归测试跑到第几轮了？", "STATUS_REQUEST"),
        ("还没做完", "OTHER"),
        ("还没", "OTHER"),
        ("还没好，先别合并", "OTHER"),
        ("这个正则为什么这么慢？", "QUESTION"),
    ],
)
def test_chinese_status_frames_are_status_requests(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Japanese status frames: what it works on now, how late, the state in a word, the status
# asked for without a question, a report with no object; a go, a task to report something and
# a question about code stay what they are.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("いま何に取り掛かってる？", "STATUS_REQUEST"),
        ("リリースはどのくらい遅れそう？", "STATUS_REQUEST"),
        ("進捗、一言で", "STATUS_REQUEST"),
        ("進捗ちょうだい", "STATUS_REQUEST"),
        ("続ける前に、ここまでの作業を簡単に教えて", "STATUS_REQUEST"),
        ("手短に報告お願いします", "STATUS_REQUEST"),
        ("ログ出力の実装に取り掛かって", "RESUMPTION"),
        ("報告の書式はなぜこうなってるの？", "QUESTION"),
        ("このキャッシュはなぜ遅れて更新されるの？", "QUESTION"),
    ],
)
def test_japanese_status_frames_are_status_requests(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Chinese gos: the paused work picked up, all the way through, back to a part of it, "开工开工",
# the rest all done ("…也都写了吧"); negated, later or asked they are not gos, and a service
# brought up is a task, not a go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("麻烦把停掉的任务重新拉起来", "RESUMPTION"),
        ("暂停的任务接着恢复一下吧", "RESUMPTION"),
        ("开干开干！", "RESUMPTION"),
        ("一路改完吧", "RESUMPTION"),
        ("一路冲到发版", "RESUMPTION"),
        ("回到导出那块", "RESUMPTION"),
        ("剩下几个接口的 handler 也都写了吧", "RESUMPTION"),
        ("剩下的测试也都补了吧", "RESUMPTION"),
        ("先别把任务拉起来", "OTHER"),
        ("明天再把任务拉起来", "OTHER"),
        ("明天一路写完", "OTHER"),
        ("剩下的明天也都写了吧", "OTHER"),
        ("把服务拉起来", "OTHER"),
        ("暂停", "OTHER"),
    ],
)
def test_chinese_gos_by_form(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


@pytest.mark.parametrize(
    "message", ["剩下几个接口的 handler 都写了吗？", "回到导出那块吗？", "能一路写完吗？"]
)
def test_asking_about_the_rest_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


# The audit word not asking for an audit: one the user did, a table for it, a question about what
# it checks; asking for one, or whether it is done, stays what it is.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("監査用のカラムが足りない", "OTHER"),
        ("監査ってどういう順番で見てるの？", "QUESTION"),
        ("我上周自己审计过了，不用管", "OTHER"),
        ("审计都查哪些东西？", "QUESTION"),
        ("ロックを監査して", "AUDIT"),
        ("監査お願い", "AUDIT"),
        ("审计一下锁", "AUDIT"),
        ("帮我把 journal 审计一遍", "AUDIT"),
        ("worktreeの監査は終わった？", "STATUS_REQUEST"),
        ("审计过了吗？", "STATUS_REQUEST"),
    ],
)
def test_the_audit_word_not_asking_for_an_audit(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Japanese gos: a bare "続行" ending the message, "再開しよ", "続きやろっか", "続きから書いて";
# negated, later or asked they are not gos.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("テストは直した、続行", "RESUMPTION"),
        ("細かいことはいいから続行！", "RESUMPTION"),
        ("お待たせ、再開しよ", "RESUMPTION"),
        ("会議終わった。続きしよっか", "RESUMPTION"),
        ("決済画面の続きから書いて", "RESUMPTION"),
        ("続行しないで", "OTHER"),
        ("明日続行", "OTHER"),
        ("明日続きやろっか", "OTHER"),
    ],
)
def test_japanese_gos_by_form(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


@pytest.mark.parametrize("message", ["続行？", "処理の続行はどこで判定してる？"])
def test_asking_about_going_on_is_not_a_go(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


# The shipped model, trained on such messages, reads most of them already; the rule reads the form
# itself (a model trained without them did not: docs/interruptions.md, item 62).
@pytest.mark.parametrize(
    "message", ["差分見た、続行", "お待たせ、再開しよ", "決済画面の続きから書いて"]
)
def test_japanese_gos_are_read_by_the_rule(message: str) -> None:
    assert classify(message).rule == "ja-resumption", classify(message)


# Japanese: a question after a permission to go on is what is asked now; "そのあと続けて" is a go
# after the agent's own step, not a later time; a reaction or a log line reported asks nothing.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("続けていいけど、その前に一つ：キャッシュのTTLってどう決まってるの", "QUESTION"),
        ("続けていいけど、その前にテストを足して", "RESUMPTION"),
        ("ジャーナルの状態だけ確認して、そのあと続けて", "RESUMPTION"),
        ("へぇ〜そういう設計なんだ", "OTHER"),
        ("Redisの接続がタイムアウトしてるログが出てる", "OTHER"),
        ("Redisの接続がタイムアウトしてるログが出てる？", "QUESTION"),
        ("タイムアウトのエラーが出てるけど、続けて", "RESUMPTION"),
        ("へぇ、で、進捗は？", "STATUS_REQUEST"),
    ],
)
def test_japanese_what_is_asked_now_decides(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


def test_japanese_a_go_after_a_meeting_is_not_a_go_now() -> None:
    assert classify("ジャーナルの状態だけ確認して、会議のあとで続けて").type != "RESUMPTION"


# Chinese: a go after an event that happens of itself holds ("测试绿了再继续"), unlike the agent's
# own step first ("先把lint修了再继续"); 恢复 naming a thing (a flag, a field) is no go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("测试绿了再继续", "OTHER"),
        ("流水线变绿了再恢复", "OTHER"),
        ("预发环境上线了再接着做", "OTHER"),
        ("PR 合并了再开始", "OTHER"),
        ("先把lint修了再继续", "RESUMPTION"),
        ("恢复一下", "RESUMPTION"),
        ("恢复标志存进数据库", "OTHER"),
        ("恢复逻辑有个 bug", "OTHER"),
        ("恢复机制写在 resume.py 里", "OTHER"),
    ],
)
def test_chinese_a_go_after_an_event_holds(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Chinese: a log line or a thing the user did, reported, asks nothing; what happens to the lock or
# the journal after an event is a question, not an audit; the lock's state now is still an audit.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("服务日志里一直刷 connection reset", "OTHER"),
        ("我刚把 lock 文件加进 .gitignore 了", "OTHER"),
        ("我已经修好了，继续吧", "RESUMPTION"),
        ("日志里一直报错，为什么？", "QUESTION"),
        ("worktree 删掉之后 journal 会怎样", "QUESTION"),
        ("锁会不会已经过期了", "AUDIT"),
        ("锁过期了吗？", "AUDIT"),
    ],
)
def test_chinese_a_report_asks_nothing(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Chinese: what it does now, done by a time, how a run came out are status requests; where a thing
# is kept, how large a cost, whether a change has a risk are questions.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("你在干啥", "STATUS_REQUEST"),
        ("周五前能做完吗？", "STATUS_REQUEST"),
        ("回归测试结果怎么样？", "STATUS_REQUEST"),
        ("配置存在哪", "QUESTION"),
        ("每次启动开销有多大", "QUESTION"),
        ("这样改有没有副作用", "QUESTION"),
        ("你在干嘛，为什么停了？", "QUESTION"),
        ("结果如何解释", "QUESTION"),
    ],
)
def test_chinese_status_and_question_frames(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Questions and a remark read as status requests or OTHER: whether a design is safe, a suggestion
# asked, the reason a thing is left, the user's own share of the rest, which of two, what a
# branch guards; the rest of the work listed is a status request.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("このキューの実装はスレッドセーフですか", "QUESTION"),
        ("関数に切り出した方がテストしやすくないですか", "QUESTION"),
        ("requirementsにflask 1.xが残ってるのって理由ある？", "QUESTION"),
        ("残りは自分で直すからいいよ", "OTHER"),
        ("残りはいくつ？", "STATUS_REQUEST"),
        ("准备用 Redis 还是 Memcached？", "QUESTION"),
        ("这个 try 是在防什么情况？", "QUESTION"),
        ("现在什么情况？", "STATUS_REQUEST"),
        ("把还没做的列一下", "STATUS_REQUEST"),
    ],
)
def test_questions_and_remarks_by_form(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


_LOADS = (
    "import sys\n"
    "from taskproto.classify import interruptions\n"
    "for message in sys.argv[1:]:\n"
    "    interruptions.classify(message)\n"
    "print('taskproto.classify.slips' in sys.modules,\n"
    "      interruptions._PINYIN in interruptions._compiled)"
)


@pytest.mark.parametrize(
    ("messages", "loaded"),
    [
        (["nice work", "continue", "继续", "続けて", "ok thanks"], "False False"),
        (["jixu gan"], "True True"),
    ],
)
def test_only_a_message_with_pinyin_looks_for_it(messages: list[str], loaded: str) -> None:
    # a fresh interpreter: English and a plain go neither import slips.py nor compile the regex
    found = subprocess.run(
        [sys.executable, "-c", _LOADS, *messages], capture_output=True, text=True, check=True
    )
    assert found.stdout.strip() == loaded


# What happens to the lock or the journal is a question; whether the lock is still ours is an
# audit (already so before this round: a guard for the forms above).
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("lockファイルってgit cleanで消えたりしない？", "QUESTION"),
        ("ロックの期限が切れたらagentはどうなる？", "QUESTION"),
        ("lockまだうちのもの？", "AUDIT"),
    ],
)
def test_japanese_what_happens_to_the_lock_is_a_question(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)
