"""Japanese rules of issue #45's twentieth round (docs/interruptions.md, "Twentieth round: the
rules (Japanese and Simplified Chinese)"): kinds the twenty-second batch missed, each read from
messages of the round's own in other wordings, then its near-misses. Spliced into ``ja.py``'s
table. Text as in ``ja.py`` (lowercased, punctuation ASCII with a space after it)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# the task's own protocol objects (as ja._OBJECT)
_OBJECT = (
    r"(?:(?<![ブク])ロック|ろっく|lock|worktree|ワークツリー|ジャーナル|journal|セッション|session"
    r"|ハートビート|heartbeat|(?<!web)(?<!ウェブ)フック|hook|タスクの?記録|task\.json)"
)
# how it works, or the app's own (as ja._HOW_OR_THEIRS)
_NOT_HOW = (
    r"^(?!.*(?:なぜ|なんで|どうして|どうやって|どういう|どうすれば|仕組み|いつ(?!の)|どのタイミング"
    r"|べき|って何|とは|mutex|排他|データベース|db|redis|ログイン|ブラウザ|react|vue|ユーザー))"
)
# a clause that asks: a question mark, or か / かな / の at its end
_ASKED = r"(?=.*(?:\?|(?:か|かな|の)\W*$))"

# Before ja-hold: an audit of what a past protocol event left, whose pause or stop is a time,
# not a hold: "一時停止したときロックちゃんと解放された？", "ブランチ作った時にpost-checkout
# フック走った？", "落ちた時セッション閉じられた？" (not how it works: "ロックってどのタイミング
# で解放されるの")
PAST_AUDIT = Rule(
    "ja-audit-past",
    "AUDIT",
    _NOT_HOW
    + _ASKED
    + rf"(?=.*{_OBJECT}).*(?:た|てた|ていた|てる|の)(?:とき|時|際|あと|後|間)(?:に|は|って|で)?",
    0.85,
)

# After ja-hold: waiting or watching gone on with is no go ("様子見を続けて", "待機を継続で").
HOLDS = (
    Rule(
        "ja-keep-waiting",
        "OTHER",
        # (each form spelled whole, so a first "続けて" does not compile it: gates.py)
        r"(?:様子見|待機|保留|静観|待ち|観察|停止|中断)(?:を|は)?(?:続け|継続)",
        0.9,
    ),
)

# Before ja-finish and the status rules: what a commit changed (a question); the missing work
# done (a go).
EARLY = (
    # what a commit, PR or diff changed: its content, a question, not where the work stands
    # ("さっきのコミットで何が変わったか", "直前のコミットの変更点, ざっくり教えて"; not the work's
    # changes, "今日の変更点を教えて"); the model may not make a status of it (languages.firm)
    Rule(
        "ja-change-question",
        "QUESTION",
        r"(?:コミット|commit|pr|プルリク|差分|diff|パッチ|patch)[^,.?!;]{0,8}?(?:で|の|は|って|に)?\s?"
        r"(?:何が|なにが|何を|なにを|どこが|どこを)(?:変わ|変え|変更|入っ|入れ|追加|消え|消し)"
        # (asked, not summed up for a changelog: "このPRの変更点をまとめて")
        r"|(?:コミット|commit|pr|プルリク|差分|diff|パッチ|patch)[^,.?!;]{0,8}?の?(?:変更点|変更内容|中身)"
        r"(?:を|は|って)?(?:,\s?)?(?:ざっくり(?:と)?|簡単に|手短に|軽く)?(?:教えて|説明して|知りたい|聞かせて|は?\s?\?"
        r"|って何|は何|は\W*$)",
        0.85,
    ),
    # what is missing of the work, done: "ETLの足りないテストを書いて", "未実装の部分を実装
    # しといて", "残ってるテストを書いてください" (not asked, denied, or left: "…書いてないの？",
    # "足りないテストは書かなくていい")
    Rule(
        "ja-go-missing",
        "RESUMPTION",
        r"^(?!.*(?:\?|か\W*$|ないで|なくて|なくていい))[^,.?!;]*?(?:足りない|足りてない|未実装の?|残って(?:る|いる)"
        r"|残りの|抜けて(?:る|いる)|漏れて(?:る|いる)|欠けて(?:る|いる)|まだの|できてない|書いてない|やってない)"
        r"[^,.?!;]{0,16}?(?:を|も)\s?[^,.?!;]{0,8}?(?:実装し|書い|作っ|埋め|追加し|対応し|仕上げ|片付け"
        r"|やっ|足し|書き足し)(?:て|といて|ておいて|ちゃって)(?:ください|ね|ほしい|お願い)?\W*$",
        0.85,
    ),
)

# After ja-audit-asked: whether a protocol object is in a state, looked at: "ロックのタイムアウト
# 切れてへんか見といて", "フックがちゃんと動いてるか確認しといて" (the casual and Kansai forms; not
# how it works)
LOOK = Rule(
    "ja-audit-look",
    "AUDIT",
    _NOT_HOW + rf"(?=.*{_OBJECT}).*か(?:どうか)?(?:を)?\s?(?:見|み|確認し|チェックし|調べ|確かめ)"
    r"(?:といて|とい|ておいて|てて|て|とって|てくれ|てもらえ)",
    0.85,
)

# After ja-status-work, before ja-question (whose いつ would read it): when the work can be had
# or seen, or done by a time: "初版はいつ見れる？", "最初のバージョンっていつ頃もらえそう？",
# "夕方までに仕上がりそうかな" (not when the code does a thing: "このキャッシュはいつ無効になるの")
WHEN = Rule(
    "ja-status-when",
    "STATUS_REQUEST",
    r"いつ(?:頃|ごろ|くらい|ぐらい)?(?:に|には|なら)?[^,.?!;]{0,6}?(?:もらえ|貰え|見れ|見られ|触れ|さわれ|試せ"
    r"|でき(?:あが|上が|そう)|出来(?:あが|上が|そう)|完成|仕上が|リリースでき|マージでき|終わりそう)"
    r"|まで(?:に|には)\s?(?:間に合|仕上が|終わ|でき|完成し)(?:り|い)?そう"
    # the progress sent: "進捗送っといて", "状況をメールしておいて"
    r"|(?:進捗|状況|ステータス|現状|進み具合)(?:を|は)?\s?(?:送っ|メールし|投げ|流し|貼っ)"
    r"(?:て|といて|ておいて)",
    0.85,
)

# With ja_more.MIDDLE, before ja-question: whether the code should be so, wondered: "チップ
# タイムってミリ秒で保存すべきかな", "ミリ秒で持つべきか気になってる" (not stopping or going on
# weighed: "ここで止めるべきか迷ってる", "続けるべきか悩んでる")
SHOULD = Rule(
    "ja-should-question",
    "QUESTION",
    r"^(?!.*(?:止め|とめ|待っ|待つ|やめ|続け|進め|再開|中断|休|ストップ|一旦|いったん))"
    r".*(?:べき|ほうがいい|方がいい|ほうが良い|方が良い)(?:なの|なん|の|ん)?(?:か|かな|かね|だろうか|でしょうか)"
    r"(?:\W*$|(?:と|って)?\s?(?:気になる|気になって|迷って|悩んで|考えて|思って|知りたい))",
    0.85,
)

# After the go rules, before ja-remark: the task's own step asked for, after a decision or an
# approval ("承認が下りました. リリースお願いします", "本番にデプロイして"; not denied or asked:
# "デプロイはまだしないでね", "デプロイして大丈夫？")
DEPLOY = Rule(
    "ja-go-deploy",
    "RESUMPTION",
    r"^(?:じゃあ|では|それじゃ|なら|よし)?[^,.?!;]{0,10}?(?:デプロイ|リリース|本番反映|マージ)(?:作業)?(?:を|は)?"
    r"(?:して|しちゃって|しといて|しておいて|お願い(?:します)?|よろしく|頼む|頼みます)(?:ください|ね)?\W*$",
    0.85,
)

# a comma before a manner only ("…何が変わったか, 手短に", "コミットの変更点, ざっくり教えて") does
# not split: the clause before asks
JOINERS = (
    r"|(?:(?<=か, )|(?<=変更点, )|(?<=変更内容, )|(?<=中身, ))"
    r"(?=(?:ひとことで|一言で|ざっくり(?:と)?|手短に|簡単に|簡潔に|軽く)(?:で)?(?:いい|お願い|教えて|説明して)?\W*$)"
    # nor before "since when" after who holds it: "今ロック持ってるの誰で, いつから？" (twenty-third
    # round)
    r"|(?:(?<=誰で, )|(?<=だれで, )|(?<=誰, )|(?<=だれ, ))(?=いつから)"
    # nor after a hook named as the topic: "husky, あのでかいファイル弾いた？"
    r"|(?<=husky, )|(?<=lefthook, )|(?<=pre-commit, )|(?<=precommit, )|(?<=pre-push, )"
    # nor after a matter named as the topic: "通知の件, まだ触ってないよな"
    r"|(?<=の件, )"
)

# Twenty-first round (docs/interruptions.md, "Twenty-first round: the rules (Japanese and
# Simplified Chinese)"): after EARLY, before ja-finish, the audits and the status rules.

# a stage of the work, up to which it got ("テストまで", "レビューまで")
_STAGE = (
    r"(?:テスト|単体テスト|結合テスト|e2e|レビュー|実装|マージ|デプロイ|リリース|ステージング|本番|設計"
    r"|検証|pr|プルリク|コミット|プッシュ|push|動作確認|一通り|ドキュメント|ci)"
)
ASKED = (
    # a design's reason wished known, though its words name a state the status rules would
    # read: the code's question ("配達ステータスをenumにしなかった理由が知りたいです", "なんで
    # 進捗をファイルに書くのか気になる"; not the work's state, "進捗が知りたい"; without such a
    # word, ja-question and the rules after it read the reason)
    Rule(
        "ja-reason-question",
        "QUESTION",
        r"^(?=.*(?:ステータス|進捗|状況|状態|現状|進み具合))(?:.*(?:理由|わけ|訳|経緯|意図|狙い|根拠|背景|目的)"
        r"(?:が|を|は|って|も)?\s?(?:ぜひ)?(?:知りたい|教えて|聞きたい|聞かせて|気になる|気になって|説明して|何"
        r"|なに|ある(?:の)?\s?\?)"
        r"|.*(?:なぜ|なんで|どうして)[^,.?!;]*(?:のか|んだろう|か)(?:が|を)?\s?(?:知りたい|気になる|気になって"
        r"|教えて|聞きたい))",
        0.85,
    ),
    # the order in which the code runs: how it works, not where the work stands ("今のハンドラは
    # どの順番で呼ばれる？"; not the work's own order, "どの順番で進めてる？")
    Rule(
        "ja-order-question",
        "QUESTION",
        r"^(?!.*(?:やる|やって|進め|片付け|作業|取り(?:かか|掛か)|対応し))"
        r".*(?:どの|どういう|どんな|どのような|何の|なんの)(?:順番|順序|順)(?:で|に)",
        0.85,
    ),
    # how far the work got, asked as the stage it reached: "延滞料金の計算、テストまで書けてる？",
    # "在庫APIはマージまで行った？" (not what the code supports or reaches, "IE11まで対応
    # してる？", "最後まで回ってる？", nor the protocol's)
    Rule(
        "ja-status-how-far",
        "STATUS_REQUEST",
        rf"^(?!.*{_OBJECT}){_ASKED}.*{_STAGE}まで(?:は|って|も)?\s?(?:もう)?(?:書け|書い|でき|出来|終わっ|終わり"
        r"|済ん|済み|進ん|進め|仕上が|通っ|行っ|いっ|いけ|行け|やれ|作れ|作っ|実装でき|完了し)",
        0.85,
    ),
)

# Twenty-second round (docs/interruptions.md, "Twenty-second round: the rules (Japanese and
# Simplified Chinese)"): after ASKED, before ja-finish, the audits and the status rules.

# the agent addressed, or a thing pointed at, whose owner is asked ("君の？", "あなたの？")
_YOU = r"(?:君|きみ|あなた|あんた|お前|おまえ|そっち|claude|エージェント|agent)"
TWENTYSECOND = (
    # a go said by a loanword ("コンティニュー", "リジューム", "レッツゴー"), in full- or
    # half-width katakana ("ｺﾝﾃｨﾆｭｰで", "ﾘｼﾞｭｰﾑお願い"): the whole clause, so neither a
    # button ("コンティニューボタン") nor one denied or asked ("コンティニューしないで",
    # "コンティニューでいい？") is read; a later time or a condition still holds it (step 7)
    Rule(
        "ja-go-loanword",
        "RESUMPTION",
        r"^(?:(?:じゃあ|じゃ|では|それじゃ|なら|よし|ほな|ほんなら)\s?)?(?:コンティニュー|ｺﾝﾃｨﾆｭｰ|リジューム"
        r"|ﾘｼﾞｭｰﾑ|プロシード|ﾌﾟﾛｼｰﾄﾞ|レッツゴー|ﾚｯﾂｺﾞｰ|ゴーゴー|ｺﾞｰｺﾞｰ|ｺﾞｰ)(?:で|して|しよう|しましょう"
        r"|しちゃって)?(?:お願い(?:します)?|おねがい|よろしく|よろ|頼む|頼みます)?(?:ください|です|ね)?[!.\s〜ー]*$",
        0.85,
    ),
    # the work entered, said short after a decision ("仕様はこれで決まり. 実装入って", "じゃあ
    # コーディング取りかかって"; not asked or told: "実装入っていい？", "もう実装入ってる")
    Rule(
        "ja-go-enter",
        "RESUMPTION",
        r"^[^,.?!;]{0,8}?(?:実装|作業|コーディング|開発|修正|対応|本番作業|次の作業)に?(?:入って|入っちゃって"
        r"|取りかかって|取り掛かって)(?:ください|ちょうだい|ね|いいよ|いいです|ok)?[!.\s]*$",
        0.85,
    ),
)

# After ja_kinds.LOOK (what the audits read keeps its reading, and a clause they read compiles
# none of these), before ja-check-done and the status rules: where the work stands, a protocol
# artefact's owner or age, a step's safety.
TWENTYSECOND_LATE = (
    # what the agent is doing now, asked with its object ("いま何の処理してる？", "今って何に取り
    # 組んでる？", "そっちは今なんのテスト書いてるの"): where the work stands; the clause opens
    # with the time or the agent only, so the code's own doing is no status ("この関数はいま何の
    # 処理してるの？", "このcronって何の処理してる？")
    Rule(
        "ja-status-doing-now",
        "STATUS_REQUEST",
        r"^(?:(?:で|じゃあ|ところで|ねえ|ねぇ|ちなみに|それで)\s?)?(?:(?:そっち|君|あなた)(?:は|って|さ)?\s?)?"
        r"(?:今|いま|現在|今って|いまって|今は|いまは|今さ|いまさ)?\s?(?:何|なに|なん)(?:の(?:処理|作業|タスク"
        r"|対応|ファイル|テスト|機能|部分|修正|実装|バグ|チケット|調査|コマンド|ジョブ|ビルド))?(?:を|に)?\s?"
        r"(?:して|やって|処理して|対応して|作業して|取り組んで|取り掛かって|取りかかって|いじって|触って|書いて"
        r"|調べて|待って|回して|走らせて|実行して|抱えて)(?:る|いる|ます|ん|の)",
        0.85,
    ),
    # whose a protocol artefact is, asked ("このロックってあなたの？", "worktreeが一個余ってる
    # けど君の？", "これ君の？" after a clause naming it): a check of the protocol's state
    Rule(
        "ja-audit-whose",
        "AUDIT",
        r"^(?!.*(?:なぜ|なんで|どうして|どうやって|コード|関数|クラス|pr|プルリク|コミット|ブランチ名|アイデア"
        r"|案|意見))"
        rf"(?:.*{_OBJECT}[^,.?!;]{{0,12}}?(?:,\s?)?|(?:これ|それ|あれ|こいつ|そいつ)(?:って|は|も)?\s?)"
        rf"(?:って|は|も)?\s?{_YOU}の(?:やつ|もの|もん|仕業)?(?:\s?\?|か\W*$|だよね|でしょ|じゃない)",
        0.85,
    ),
    # how old a protocol artefact is, asked ("ロックファイルいつのやつ？", "lockファイルどれくらい
    # 古い？", "このロックいつ取られたの"; not when it would be let go, how it works: "ロック
    # っていつ解放されるの", "ロックはいつ取るの？")
    Rule(
        "ja-audit-age",
        "AUDIT",
        r"^(?!.*(?:なぜ|なんで|どうして|どうやって|仕組み|タイムアウト|有効期限|期限))"
        # (the object a lookahead, so a clause is tried only if it holds the age's words)
        rf"(?=.*{_OBJECT}).*(?:いつの|いつから|いつ(?:作|取|でき|生成|置|残|掛|か)"
        r"[^,.?!;]{0,4}?(?:た|てる)|(?:どれ|どの)(?:くらい|ぐらい)(?:前|古|経|残って)|何(?:分|時間|日)前"
        r"|何(?:分|時間|日)(?:経|たって)|古い(?:の|やつ)?\s?(?:\?|か\W*$))",
        0.85,
    ),
    # whether a step may be done, asked: the code's question, not where the work stands nor a
    # go ("デプロイして大丈夫？", "このテーブル消しても平気？"; not the work gone on with,
    # "作業再開していい？", read as before)
    Rule(
        "ja-permission-question",
        "QUESTION",
        r"^(?!.*(?:続け|続き|進め|再開|続行|作業|手を動かし|取りかか|取り掛か|お願い|頼ん|頼め|任せ))"
        # (the step's verb a lookbehind, so a clause is tried only if it holds the safety's words)
        r".*(?:(?<=して)|(?<=やって)|(?<=入れて)|(?<=ちゃって)|(?<=ても))"
        r"(?:大丈夫|いい|平気|問題ない|ok|オッケー|安全)(?:です|でしょう|なの|なん)?(?:かな|か|の)?\s?"
        r"(?:\?|か\W*$|かな\W*$)",
        0.85,
    ),
)

# Twenty-third round (docs/interruptions.md, "Twenty-third round: the rules (Japanese and
# Simplified Chinese)"): after TWENTYSECOND, before ja-finish, the audits and the status rules.

# the user's own doing, which no supposition on the agent's work is
_MINE = r"(?:私|僕|俺|わたし|ぼく|おれ|自分)(?:は|が|も)"
TWENTYTHIRD = (
    # a supposition on where the work stands, to be confirmed: "請求書の発行ってまだ手つけて
    # ないよね", "CSV取り込みはまだ始めてないでしょ", "ログイン画面もう終わってるよね" (not a
    # hold, "まだ手をつけないでね", nor the user's own)
    Rule(
        "ja-status-supposed",
        "STATUS_REQUEST",
        rf"^(?!.*(?:ないで(?!しょ|す)|{_MINE}))(?:.*まだ[^,.?!;]{{0,12}}?(?:手(?:を)?(?:つけ|付け)|着手し|始め|始まっ"
        r"|取りかかっ|取り掛かっ|やっ|触っ|いじっ|でき|出来|終わっ|書け|書い|作っ)て"
        r"(?:い)?(?:ない|ません)|.*もう[^,.?!;]{0,12}?(?:終わって|できて|出来て|済んで|書けて|仕上がって)"
        r"(?:い)?(?:る|ます))(?:です|んです|んだ)?"
        r"(?:よね|でしょう?|だろう?|だよね|ですよね|よな|んでしょ|んだよね|か(?:な)?|じゃない)[!.?\s〜ー]*$",
        0.85,
    ),
    # a go announced, or said as "on to the next": "休憩終わり, 再開するよ", "よし, 続きやるぞ",
    # "さて作業に戻ろ", "ローカルで全部グリーン, 次いって" (not asked, put off or the user's own:
    # "再開する？", "次いってもいい？", "私が再開するよ"; a later time still holds it)
    Rule(
        "ja-go-announced",
        "RESUMPTION",
        rf"^(?!.*{_MINE})(?:(?:じゃあ|じゃ|では|よし|よっしゃ|さて|なら|そしたら|はい|そろそろ)\s?)*"
        r"(?:(?:作業|仕事|実装|開発)?(?:再開|続行)(?:する|します)|続き(?:を)?(?:やる|する|やります|します)"
        r"|(?:作業|仕事|実装|開発|タスク|本題)(?:に|へ)?(?:戻る|戻ります|戻ろ(?!う)(?:っか)?)"
        # (the older rules read "次いこう", "次のステップに進んで": ja-go-verbs, ja-resumption)
        r"|(?:次|つぎ|次の(?:ステップ|タスク|段階|工程|作業|項目|チケット|フェーズ)|ステップ\s?\d+|step\s?\d+)"
        r"(?:に|へ)?\s?(?:いって|行って|移ろう))"
        r"(?:よ|ね|ぞ|か|わ|ください|ちょうだい)?[!.\s〜ー]*$",
        0.85,
    ),
)

# the hook scripts by name, beside the protocol's own objects
_HOOKS = r"(?:pre-?commit|pre-?push|commit-?msg|husky|lefthook)"
# After TWENTYSECOND_LATE, before ja-check-done and the status rules.
TWENTYTHIRD_LATE = (
    # what a protocol object was left in, or what a hook caught, asked: "kill -9したあとロック
    # 残ったまま？", "そのフック君のworktreeにも適用されてる？", "huskyあのでかいファイル弾いた？",
    # "今ロック持ってるの誰, いつから？" (not how it works, nor a hook to be written)
    Rule(
        "ja-audit-result",
        "AUDIT",
        _NOT_HOW
        + r"(?!.*(?:追加|作って|書いて|入れて|設定して|たい|とき|時に|場合|やり方|方法))"
        + _ASKED
        + rf"(?=.*(?:{_OBJECT}|{_HOOKS})).*(?:残(?:った|っちゃった|ってる|りっぱなし)|まま|っぱなし"
        r"|外れ|解除され|解放され|適用され|効いて|かかって|反映され|弾い|はじい|止めて|止め(?:た(?!い)|られた)|ブロックし|引っかけ"
        r"|引っかか|検出し|捕まえ|防い|拒否し|通し(?:た|ちゃった)|漏らし|見逃し|スルーし|素通り|仕事し"
        r"|持って(?:る|いる)(?:の)?(?:は)?(?:誰|だれ)|持ち主|いつから(?:持って|握って|掴んで|取って))",
        0.85,
    ),
    # a design choice asked: "ハッシュマップのほうが速くない？", "ここはenumの方が安全では？",
    # "金額ってdecimal使ってる？", "並び替えはマージソートで実装した？" (the code's question,
    # not where the work stands: "ログイン画面は実装した？"; not the work hurried: "急いだ
    # ほうがいいんじゃない？")
    Rule(
        "ja-design-question",
        "QUESTION",
        r"^(?!.*(?:急|早く|続け|進め|止め|待|再開|休))"
        r"(?:.*(?:ほう|方)が[^,.?!;]{0,8}?(?:速|早|軽|安全|良|いい|よく|シンプル|楽|堅|効率|きれい|綺麗|読みやす"
        r"|メモリ|素直)[^,.?!;]{0,8}?(?:ない|では|じゃない|んじゃない|でしょ)\s?(?:\?|か\W*$|\W*$)"
        r"|.*(?:[a-z][a-z0-9_.+#-]*|整数|浮動小数|文字列|enum|列挙|正規表現|トランザクション|インデックス|ハッシュ"
        r"|[ァ-ヴー]+ソート)\s?(?:を|で|に)?\s?(?:使って(?:る|ます)|使った|にしてる|にした|で?持って(?:る|ます)"
        r"|で?保存して(?:る|ます)|で?ハッシュして(?:る|ます)|で?実装した|で?書いた|採用した)(?:の)?\s?(?:\?|か\W*$))",
        0.85,
    ),
)

# Last, with ja_more.REMARKS: a failure or a flow that keeps on, told ("落ち続けてる", "メモリが
# 増え続けてる"), a go word told of ("作業続けてないよ", "始めてた"), and a prohibition ("この
# ライブラリGPLだから使っちゃダメ", "本番DBは直接触らないこと"): remarks, never a go
REMARKS = (
    Rule(
        "ja-keeps-on-remark",
        "OTHER",
        r"^(?!.*\?)[^,.?!;]*(?:落ち|失敗し|こけ|コケ|死に|止まり|出|増え|減り|鳴り|回り|吐き|返し|エラーになり"
        r"|エラーを吐き|タイムアウトし|リトライし|ループし|クラッシュし|詰まり|固まり|漏れ|待ち|赤くなり)"
        r"続け(?:てる|ている|ています|てます|とる|てん|ちゃってる)",
        0.85,
    ),
    Rule(
        "ja-go-told-remark",
        "OTHER",
        r"^(?!.*(?:\?|か\W*$))[^,.?!;]*(?:続け|進め|始め|再開し|取りかかっ|取り掛かっ)て(?:ない|なかった|た|ます"
        r"|る|いる|います|ました)(?:よ|ね|です|けど|から|わ)*\W*$",
        0.85,
    ),
    Rule(
        "ja-prohibition-remark",
        "OTHER",
        r"^(?!.*(?:\?|か\W*$|いい\W*$|続け|進め|再開|まで|一旦|いったん|しばらく|当面))[^,.?!;]*(?:(?:使っ|触っ|入れ|いじっ|弄っ|消し|変え)"
        r"(?:ちゃ|ては|たら)(?:だめ|ダメ|駄目|いけない|いけません|ng)|(?:使わ|触ら|入れ|いじら|変え)ない(?:こと|でおいて)"
        r"|(?<!か)使え(?:ません|ない)(?:ので|から|よ|です)?\W*$)",
        0.85,
    ),
)
