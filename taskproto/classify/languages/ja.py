"""Japanese interruption rules: character patterns, no word boundaries (Japanese has no spaces,
and ``\\b`` never falls between two kana). Punctuation is ASCII with a space after it ("。" ->
". ", "、" -> ", ", "？" -> "? "). The verb comes last in Japanese, so these rules look at
a clause's end or anywhere in it, where the English ones look at its start."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import ja_kinds, ja_more
from taskproto.classify.languages.table import Language

# A go: the request or volitional forms of continue / resume / proceed / go back. Not "落ち続け"
# (keeps failing): a verb stem before 続け makes it "keep doing" ("計画どおり続けて" is a go, and
# so is "やっぱり続けて", "やはり続けて": after all).
_STEM = r"(?<![いきしちにひみぎじびぴえけせねへめれげぜべぺ])(?<!(?<![お通ぱは])り)"
# (nor a go told of, denied or asked done: "始めてない", "続けてた", "もう始めてる？")
_TOLD = r"(?!ない|なかっ|ません|ます|る|た|い[るま]|くれた)"
VERB = (
    rf"(?:{_STEM}(?:続け|つづけ)(?:て{_TOLD}|よう|ましょう|ちゃって|てください)|続き(?:を|から)?(?:お願い|やって|して|書いて|進めて|(?:やろ|しよ)(?:う|っ)?か?[!.\s]*$)"
    r"|続行(?:して|しよう|しましょう|お願い|おねがい|で(?!き))|再開(?:して|しよ|しましょう|お願い|おねがい)"
    # a bare "続行!" ending the message ("気にしないで続行！"; not "処理の続行")
    r"|(?<!の)続行[!.\s]*$"
    # (not "巻き戻って", "払い戻して": rolled back, refunded)
    rf"|進め(?:て{_TOLD}|ちゃって|よう|ましょう)|進(?:んで|もう|みましょう)|(?<!巻き)(?<!巻)戻って|戻ろう|どうぞ"
    rf"|始めて{_TOLD}|始めよう|開始して|やろう|行こう|ゴーサイン|^(?:(?:じゃあ|じゃ|では|それでは|それじゃ|なら)、?)?再開(?:ok|で)?\W*$|その調子で\W*$"
    # "go ahead and do it", "get to it", "on to the implementation", "the rest, please"
    r"|進めと(?:いて|いてください)|進めておいて|取り(?:かか|掛か)って(?!る|い)|(?:実装|作業|次)に(?:入って|移って)"
    r"|続き(?:を)?よろしく"
    # (the English word named, not said: "ループの continue が効いてない", "那个 continue 写错了"
    # read with the Chinese table's words)
    # (nor spelled as it: "拼成continue了")
    r"|(?<!の)(?<!の )(?<!的)(?<!的 )(?<!那个)(?<!这个)(?<!那个 )(?<!这个 )(?<!成)(?<!成 )"
    r"(?<!个)(?<!个 )"
    # (nor the keyword as a noun: "continueの位置がずれてる", "continue文", "continue语句")
    r"(?:continue|go ahead|keep going)(?!\.[a-z0-9]|\s?(?:の|が|文|句|キーワード|的|语句|关键字"
    r"|后面|前面|多了|少了)))"
)
_PROTOCOL = (
    r"(?:(?<![ブク])ロック|lock|worktree|ワークツリー|ジャーナル|journal|セッション|session|task\.json"
    r"|タスクの状態|状態ファイル|プロトコル|ブランチ|遷移)"
)
# the task's own protocol objects asked about now, in kanji, katakana or kana
_HELD = (
    r"(?:(?<![ブク])ロック|ろっく|lock|worktree|ワークツリー|ジャーナル|じゃーなる|journal|セッション"
    r"|せっしょん|session|フック|ふっく|hook|task\.json)"
)
# not the code's lock or session, nor how they work
_NOT_OURS = (
    r"^(?!.*(?:なぜ|なんで|どうして|どう(?:やって|いう|すれば)|仕組み|理解|mutex|ミューテックス|排他"
    r"|データベース|db|ユーザー|ログイン|ブラウザ|redis|分散))"
)
_CHECK = r"(?:確認|チェック|検証|点検|検査|調べ|見て|監視|確かめ)"
# The task's protocol objects by kind (a lock and its file, a session and its heartbeat, a
# worktree, a hook, the journal and its entries, the task's record): not a block or a clock
# (ブロック, クロック), nor a web hook
_OBJECT = (
    r"(?:(?<![ブク])ロック|ろっく|lock|worktree|ワークツリー|ジャーナル|じゃーなる|journal|セッション"
    r"|せっしょん|session|ハートビート|heartbeat|(?<!web)(?<!web )(?<!ウェブ)フック|ふっく|hook"
    r"|タスク記録|タスクの記録|task\.json)"
)
# a present state, or whether it is right: still, now, whose, which branch it points to, still
# there or alive, down, missing entries, disabled, ended properly, matches the record
_NOW = (
    r"(?:まだ|今|いま|現在|ちゃんと|正しく|正しい|誰|だれ|どのブランチ|指して|指してる|なって(?:る|ない)"
    r"|残って|生きて|死んで|落ちて|止まって|来て|切れて|欠けて|抜けて|漏れ|消えて|無効|有効"
    r"|インストール|入って|走った|走って|動いて|実行され|終了|終わって|解放|合って|違う|違って"
    # written in it, new or reused: "ジャーナルに載ってる？", "このセッション新規？"
    r"|載って|記録され|新規|使い回|使いまわ|再利用|流用"
    r"|ずれ|食い違|おかし|ゾンビ|孤立|僕の|私の|自分の|うちの|俺の)"
)
# how it works, when it would, or the app's own lock, session or hook ("ロックっていつ解放される
# の", "worktreeはどこに作られるの", "Reactのフック", "ログインセッション")
_HOW_OR_THEIRS = (
    r"^(?!.*(?:なぜ|なんで|どうして|どうやって|どういう|どうすれば|仕組み|理解|いつ(?!の)|何秒|何分|どこに"
    r"|どのくらい|どれくらい|べき|って何|とは|mutex|ミューテックス|排他|データベース|db|redis|分散"
    r"|ログイン|ブラウザ|react|vue|web|ユーザー(?:の|が)?(?:セッション|ロック)))"
)

RULES = (
    Rule(
        "ja-dont-stop",
        "RESUMPTION",
        r"(?:止まら|止め|やめ|休ま|待た)(?:ないで|ずに)|止まるな",
        0.9,
    ),
    Rule(
        "ja-nudge",
        "RESUMPTION",
        r"(?:質問|確認)は(?:いい|もういい|いらない|もうない|ない)(?:から|ので|です)?.*"
        + VERB
        + r"|(?:待って|待た)(?:ないで|ずに).*"
        + VERB
        + r"|(?:なんで|なぜ|どうして)(?:続け|進め|再開し)ないの",
        0.8,
    ),
    Rule(
        "ja-negated-resumption",
        "OTHER",
        # the verbs in kanji or in kana ("つづけないで": a slip of the IME's or a choice)
        r"(?:続け|つづけ|進め|すすめ|続行し|再開し|さいかいし|進ま|すすま|戻ら|もどら)"
        r"(?:ないで|ないでください|ちゃだめ|ては(?:いけない|だめ)|るな)"
        r"|(?:続け|つづけ|進め|すすめ|続行す|再開す)る(?:の|こと)は(?:やめ|待っ|ストップ|なし)"
        r"|(?:続け|つづけ|進め|すすめ|続行す|再開す)る前に"
        r"|(?:続き|続け|再開)\S*(?:明日|あした|後で|あとで)|(?:終わって|終わった)から(?:再開|続け)"
        # a go said before, taken back: "さっきの続けては無しで", "続行は取り消し"
        r"|(?:続け|続行|再開|進め)(?:て|る)?(?:の)?(?:は|も)?(?:無し|なし|取り消し|取り消す|取り消して|撤回)"
        # later, or after an event the user waits for ("レビューが終わってから再開して"), then a go
        r"|(?:(?:明日|あした|後で|あとで|また今度|来週|午後|週明け)(?:に|から|は)?.*"
        r"|(?:が|に)(?:終わって|終わった|済んで|済んだ|通って|通った|なって|なった|出て|出た"
        r"|来て|来た|きて|きた)(?:から|ら)\S*)" + VERB,
        0.9,
    ),
    ja_kinds.PAST_AUDIT,  # what a past pause or stop left, asked (ja_kinds.py)
    Rule(
        "ja-hold",
        "OTHER",
        r"^(?:ちょっと|少し|一旦|いったん)?(?:待って|まって|待った|ストップ|止めて|とめて|止まって(?!る|た|い)|やめて"
        r"|中断して(?!た|る)|一時停止|ちょい待ち)|(?:待って|まって|待ってください|ストップ|止めて|やめて"
        r"|中断して)(?:ください)?\W*$|^まだ(?:です|だよ|だめ|ダメ)?\W*$"
        r"|(?:今日|きょう)はここまで|ここまでにしよう"
        # a hold asked as a request: "一旦保留にしといてもらえる？", "止めといてくれる？"
        r"|(?:保留|ストップ|中断|ペンディング|後回し)(?:に)?(?:し)?(?:といて|ておいて|て)(?:もらえ|くれ)"
        r"(?:る|ます|ない|ません)(?:か)?\W*$"
        r"|(?:止め|(?<![ぁ-んァ-ン一-龥])とめ|待っ)(?:といて|ておいて|て)(?:もらえ|くれ)(?:る|ます|ない|ません)(?:か)?\W*$",
        0.8,
    ),
    *ja_kinds.HOLDS,  # waiting gone on with (ja_kinds.py)
    *ja_more.FIRST,  # a wait asked; asked to go on explaining (ja_more.py)
    ja_more.GO_DONE_ASKED,  # whether a go was done, asked in the past (ja_more.py)
    ja_more.AUDIT_WHY,  # why an artefact is wrong, a hook passed, a lock's time (ja_more.py)
    ja_more.NOW_WHICH,  # which part the agent is on now, asked (ja_more.py)
    *ja_kinds.EARLY,  # what a commit changed; the missing work done (ja_kinds.py)
    *ja_kinds.ASKED,  # a reason, an order of calls; how far the work got (ja_kinds.py)
    *ja_kinds.TWENTYSECOND,  # a go as a loanword, the work entered (ja_kinds.py)
    *ja_kinds.TWENTYTHIRD,  # a supposition on the work; a go announced (ja_kinds.py)
    # a request to finish, not a question about what is left: "残りを終わらせて"
    Rule(
        "ja-finish",
        "RESUMPTION",
        r"(?:終わらせ|仕上げ|片付け|やり切っ|やりきっ|完了させ|完成させ)て(?:ください|くれ|ね|ちょうだい"
        r"|しまって|ほしい|欲しい)?\W*$|やっちゃ(?:って|え|おう)\W*$"
        # the rest, the same way: "残りも同じようにやって"
        r"|残り\S{0,12}?(?:全部|同じように|同じ感じで|この調子で|同様に)\S{0,8}?(?:やって|して|進めて"
        r"|直して|書いて)(?:ください|ちょうだい|おいて|ね)?\W*$"
        # the rest, gone on with: "残りのファイルもリネームしていって"
        r"|残り\S{0,12}?(?:も|を)\S{0,12}?(?:し|やっ|直し|書い|進め|片付け)ていって(?:ください|ね|ほしい)?\W*$",
        0.85,
    ),
    Rule(
        "ja-audit",
        "AUDIT",
        # (not an audit the user did, a table for it, or a question about what it is:
        # "ロックは昨日自分で監査しといた", "監査用のテーブル", "監査って何をチェックしてるの")
        r"(?<!自分で)(?<!自分が)監査(?!ログ|の仕組み|用|って|とは|は\S{0,12}?(?:やった|した|済ん|終わ))"
        r"(?!しといた|しておいた|した|済み)|audit|サニティチェック|sanity ?check|整合|健全性"
        r"|doctor\S{0,8}?(?:実行|走らせ|回し|かけ)|違反して|違反がない"
        rf"|{_PROTOCOL}.*{_CHECK}",
        0.85,
    ),
    Rule(
        "ja-audit-protocol",
        "AUDIT",
        r"プロトコル(?:に沿|違反|通り|どおり|が破られ|上の問題)|照合|孤立"
        rf"|^(?!.*(?:なぜ|なんで|どうして|どう|何|理解|認識)).*{_PROTOCOL}.*(?:うちの|自分の|こっちの|私たちの"
        r"|我々の|持って|握って|合って|残って|期限切れ|切れて|壊れ)\S*\s*\?"
        rf"|(?:古い|残った|孤立した)\S*{_PROTOCOL}"
        r"|(?:状態|ロック|worktree|ジャーナル|journal|task\.json)\S*(?:正しい|クリーン|整合|一致|同期"
        r"|きれい|有効|健全)",
        0.85,
    ),
    # the present state of the task's lock, session or hook, asked: who holds it, its state
    # told, whether it is still there ("ロックの持ち主って誰？", "ろっくのじょうたいおしえて",
    # "セッションがまだ生きてるか教えて"; not "ロックの持ち主はどうやって決まるの")
    Rule(
        "ja-audit-state",
        "AUDIT",
        _NOT_OURS + rf"(?:.*{_HELD}\S{{0,4}}?(?:持ち主|もちぬし|所有者|オーナー|owner)"
        r"\S{0,6}?(?:誰|だれ|どこ|\?)"
        rf"|.*(?:誰|だれ)が{_HELD}\S{{0,4}}?(?:持って|握って|取って|使って)"
        rf"|.*{_HELD}の?(?:状態|じょうたい)\S{{0,3}}?(?:教えて|おしえて|見せて|みせて|確認|かくにん)"
        # asked how it is: "ロックの状態どう？"
        rf"|.*{_HELD}の?(?:状態|じょうたい)\S{{0,2}}?(?:どう|は\s?\?)"
        rf"|.*{_HELD}\S{{0,12}}?(?:残って|生きて|壊れて|有効|開いて|解放され|外れて|消えて)\S{{0,6}}?か(?:どうか)?"
        r"(?:を)?(?:教えて|おしえて))",
        0.85,
    ),
    # the same, any present state or correctness of the task's own protocol object asked (a
    # question mark, か, の or ない at the end): "セッション、まだハートビート来てる？",
    # "worktree、いまどのブランチ指してる？", "ジャーナル、エントリ欠けてない？",
    # "誰かフックを無効にしてない？"
    Rule(
        "ja-audit-asked",
        "AUDIT",
        _HOW_OR_THEIRS
        + r"(?=.*(?:\?|(?:か|かな|の|ない|ません)\W*$"
        + r"|(?:の)?か(?:が|は|どうか)?(?:気になる|知りたい)))"
        + rf"(?:.*{_OBJECT}.*{_NOW}|.*{_NOW}.*{_OBJECT})",
        0.85,
    ),
    ja_kinds.LOOK,  # a protocol object looked at, said casually (ja_kinds.py)
    *ja_kinds.TWENTYSECOND_LATE,  # doing now; whose, how old; a step's safety (ja_kinds.py)
    *ja_kinds.TWENTYTHIRD_LATE,  # what an object was left in; a design asked (ja_kinds.py)
    # whether a check already asked for is done ("worktreeの監査は終わった？"): where the work
    # stands, not a new check (the model does not make an audit of it: languages.firm)
    Rule(
        "ja-check-done",
        "STATUS_REQUEST",
        r"(?:監査|チェック|確認|点検|検査)(?:は|って|も)?(?:もう)?(?:終わった|済んだ|完了した|終わってる"
        r"|済んでる)(?:の|か)?\s*\?$",
        0.85,
    ),
    Rule(
        "ja-status",
        "STATUS_REQUEST",
        r"(?:進捗|進み具合|進行状況|状況|現状|ステータス(?!バー|コード)|調子)(?:は|を|って|どう|状況"
        r"|ある|あり)|どんな感じ|もう\S*(?:た|終わり|完了)\s*\?"
        r"|(?:通って|終わって|動いて|回って|落ちて)(?:る|います)?(?:の|か)?\s*\?"
        r"|^(?:進捗|状況|ステータス)\W*$|(?:どの|どんな)(?:状態|状況|段階|フェーズ|ステップ)"
        r"|どこまで(?:進ん|でき|いっ|行っ|やっ|来)|(?:何|なに)を(?:やった|した|終わらせた|済ませた"
        r"|完了)|今まで(?:に)?(?:何|なに)|(?:何か|なにか)?(?:進展|更新|アップデート|ニュース)(?:は|ある"
        r"|あった)|(?:終わった|完了した|できた|通った|済んだ|準備できた)(?:の|か)?\s*\?"
        # (not the user's own share, nor the reason a thing is left: "残りは自分でやる", "3.9が
        # 残ってるのって理由ある？")
        r"|残り(?!は自分)|残って(?![^,.?!]*理由)|あと(?:何|どれ|どの)|いつ終わ|(?:失敗|落ちて|残って)\S*(?:いくつ|何個|何件)"
        r"|(?:今|いま)(?:何|なに)(?:の作業)?を(?:して|やって)|どうなった"
        r"|(?:進捗|状況|ステータス(?!バー|コード)|現状|進み具合)を?(?:教えて|報告|共有|聞かせて|知りたい)"
        r"|まで(?:に)?(?:あと)?(?:何|なに)が(?:足りない|残って|必要)"
        r"|(?:進んだ|進んでる|進んでいる|進みました|はかどって\S*)(?:か|の)?\s*\?"
        r"|どこまで(?:終わ|済ん|完了)|どこまで\S{0,12}?済み"
        # "how far" said as "which part up to": "今どのあたりまで終わっていますか"
        r"|どの(?:あたり|辺|へん)まで(?:終わ|済ん|完了|進ん|進み|でき|いっ|行っ|やっ|来)"
        r"|(?:何|なに)の作業(?:中|して)|まだ(?:足りない|終わって(?:ない|いない)|できて(?:ない|いない))"
        r"|(?:どんな|どう)(?:かんじ|感じ)|^(?:もう)?(?:おわった|終わった)\W*$"
        r"|(?:マージ|デプロイ|プッシュ|push|merge|レビュー|対応|修正|実装|リリース)済み"
        r"|うまく(?:いった|いって|行った|行って)\S*\s*\?"
        # a summary (the noun) of the work: "作業状況のサマリーください" ("READMEのサマリーを
        # 書いて" is a task)
        # (or said with a verb: "今日やったことを要約して", "作業内容まとめて")
        r"|(?:作業|進捗|状況|やったこと|進んだこと|終わったこと|今日の作業|昨日の作業|これまで|今日の分)\S{0,4}?"
        r"(?:の|を)?(?:サマリー|まとめ|要約|summary|報告)\S{0,2}?(?:ください|下さい|お願い|を?(?:教えて|送って"
        r"|ちょうだい)|して)|(?:作業|やったこと|進んだこと|終わったこと|これまで)\S{0,4}?を?(?:まとめ|要約し)て"
        # what it works on now, how late, the state in a word, a report with no object:
        # "今は何に取りかかってる？", "予定よりどれくらい遅れてる？", "いまの状態、ひとことで",
        # "ステータスちょーだい", "ざっくりでいいので報告お願いします" ("バグを報告して" is a task)
        r"|(?:何|なに)に取り(?:かか|掛か)って|(?:どれ|どの)(?:くらい|ぐらい)遅れ"
        r"|^(?:ひとことで|一言で|ざっくり|手短に|簡単に)\W*$|ここまでの(?:変更|作業|進捗|成果)"
        r"|(?:ステータス|進捗|状況)\S{0,2}?(?:ちょうだい|ちょーだい|くれ|ほしい|欲しい)"
        r"|^(?!.*を)\S*(?:報告|共有)(?:を)?(?:お願い|して(?:ください|ほしい)?|ください|ちょうだい)",
        0.85,
    ),
    Rule(
        "ja-status-work",
        "STATUS_REQUEST",
        r"どうなって(?:る|いる|ます)|どのくらい進|詰まって(?![^,.?!]*(?:気がする|気がします|っぽい|みたい|かも))|ハマって|行き詰|次は(?:何|なに)"
        r"|次の(?:予定|ステップ)は|^今どこ|(?:いくつ|何個|何件)\W*$|緑|赤\W*$"
        r"|^(?!.*(?:なぜ|なんで|どうして|何を|誰)).*(?:され|し)た\s*\?|どんな様子|の方はどう"
        r"|もうすぐ終わ|途中経過|今(?:何|なに)(?:して|やって)|(?:何か)?新しいこと(?:ある|あった)"
        r"|^(?!.*(?:なぜ|なんで|どうして))(?:.*)(?:テスト|ビルド|チェック|マージ|デプロイ|リリース|CI|ci|pr)\S*"
        r"(?:通った(?!ら|場合|時|とき)|通って|終わ|済ん"
        r"|マージされ|グリーン|緑|赤|落ちて|返ってき)|次にやること|ここまでで(?:何|なに)",
        0.85,
    ),
    *ja_more.MIDDLE,  # wondering; a design question counted; the rest handed over (ja_more.py)
    ja_kinds.WHEN,  # when the work can be had; its progress sent (ja_kinds.py)
    ja_more.TELL,  # an order to tell what the code does (ja_more.py)
    Rule(
        "ja-question",
        "QUESTION",
        r"なぜ|なんで|どうして|どう(?:やって|いう|動|なって|すれば|処理|決め|決ま|スケール|なる)"
        r"|(?:何|なに)(?:を|が|の|で|って)|どこ|どれ|どの|誰|だれ|いつ|説明して|意味|って何|(?<![あ後])とは"
        # which of two, asked without "?" ("どっちで決めるべき"; not "どっちでもいい", cut
        # before でも, nor the bare "どっち" left of it)
        r"|(?:どっち|どちら)(?!でも)(?=\S)"
        # whether a design is safe, a suggestion asked ("…読みやすくないですか"), the reason
        r"|(?:安全|スレッドセーフ|冪等)(?:です|でしょう)?か\W*$|くない(?:です|でしょう)?か\W*$|理由(?:ある|は|って)"
        r"|分からない|わからない|理解できない|質問(?:が|です|：|:|して)|ちょっと質問"
        r"|(?:理由|わけ|訳|経緯|仕組み|意図|狙い|根拠|背景|目的|違い)を(?:教えて|説明|聞かせて|知りたい)"
        # explained plainly or in detail: "もう少し噛み砕いて教えて"
        # whether, asked to be told ("ロールバックできるか教えて"); a go left, asked whether done
        # ("続けといてくれた？")
        r"|か(?:どうか)?(?:を)?(?:教えて|おしえて)(?:ください|ほしい|くれ)?\W*$"
        r"|(?:続け|進め|再開し)(?:といて|ておいて|て)くれた(?:の|んだ)?か?\s*\?"
        r"|(?:噛み砕いて|かみくだいて|詳しく|くわしく|わかりやすく|分かりやすく)\S{0,4}?(?:教えて|説明)|理解(?:する)?の?を?(?:手伝って|助けて)",
        0.85,
    ),
    ja_kinds.SHOULD,  # whether the code should be so, wondered (ja_kinds.py)
    # the agent's own step first, then the go, one clause ("テストが通るようにしてから続けて"):
    # nothing beside the go for the model to read as a hold (a later time still holds)
    Rule(
        "ja-go-in-order",
        "RESUMPTION",
        r"^[^,.?!;]*?ようにしてから" + VERB + r"(?:ください|ね|ほしい)?\W*$",
        0.9,
    ),
    Rule("ja-resumption", "RESUMPTION", VERB, 0.9),
    # a go said with another verb (outside VERB, so a first "続けて" does not compile it):
    # the rest handed over or gone on to ("続きを頼んだ", "その先もお任せします",
    # "続きいこ"), an English go verb said as a Japanese one ("resumeして"), leave to work
    # again ("もう手を動かしていいです"; not asked: "作業していいですか？"); a later time or
    # an event beside it still holds (step 7)
    Rule(
        "ja-go-verbs",
        "RESUMPTION",
        r"(?:続き|その先|この先|残り)\S{0,2}?(?:を|も|は)?(?:頼(?:んだ|む|みます|みたい)"
        r"|(?:お)?任せ(?:る|た|ます|します)|(?:いこ|行こ)う?(?:か|よ)?[!.\s]*$)"
        r"|(?:resume|proceed)(?:して|しよう|しましょう|で|お願い)"
        r"|(?:手を動かし|作業(?:を)?(?:再開)?し)て(?:も)?(?:いい|良い|ok|オッケー|大丈夫)(?:です|よ|ですよ)?"
        r"[!.\s]*$"
        # on to the next ("次いこ", "次のステップ行っていいよ"), resumed from a place ("…の
        # とこから再開で"), a go left to be done ("続けといて")
        r"|^\S{0,12}?次(?:の\S{0,8}?)?(?:に|へ)?(?:いこ|行こ)う?(?:か|よ)?(?:次)?[!.\s]*$"
        r"|次\S{0,10}?(?:行って|いって|進んで)(?:も)?(?:いい|ok|大丈夫)(?:よ|です)?[!.\s]*$"
        r"|から(?:再開|続行)(?:で|ね)?(?:お願い)?[!.\s]*$|手を動かして(?:ください|ね|くれ)?[!.\s]*$"
        # the go asked for by its noun alone, after news or a check: "再開よろしく", "続行で",
        # "そのあと出荷集計の続きを" (not a thing's resuming named, "処理の再開で落ちる", nor asked)
        r"|(?<!の)(?:再開|続行)(?:で|を)?(?:よろしく|お願い|おねがい|頼む|頼みます)?(?:します|です|ね|ね〜)?[!.\s]*$"
        r"|(?:^|の)続き(?:を|も)(?:よろしく|お願い|頼む)?(?:します|です|ね)?[!.\s]*$|"
        + _STEM
        + r"続け(?:といて|ておいて)(?:ください|ね|くれ|ほしい)?[!.\s]*$",
        0.85,
    ),
    Rule(
        "ja-go-ahead",
        "RESUMPTION",
        r"^(?:承認(?:します)?|次へ|次のステップ|先へ|いいよ進めて|やっちゃって|やっちゃえ|やっちゃおう"
        r"|やっていいよ)\W*$",
        0.8,
    ),
    ja_kinds.DEPLOY,  # the task's own step asked for (ja_kinds.py)
    ja_more.AGREED,  # a go as agreed or as planned (ja_more.py)
    *ja_more.LATE,  # a follow or keep instruction (ja_more.py)
    # a remark: an instruction to change something or a warning, that asks nothing and holds
    # nothing ("ハンドラにログを追加して", "lockファイルを手で編集しないで"): last, so it
    # decides only a clause no other rule read, and after a go it does not take the go back
    Rule(
        "ja-remark",
        "OTHER",
        r"^(?!.*\?$).*(?:を|に)\S{0,12}?(?:追加|削除|変更|リネーム|書き換え|足|消|入れ)"
        r"(?:して|て)(?:ください|ね|おいて|くれ|ほしい)?\W*$"
        # "don't edit the lock file by hand": a warning, not a hold of the work
        r"|^(?!.*\?$).*(?:を|に|は)\S{0,12}?(?:し|い|わ|さ|ら)ないで(?:ください|ね)?\W*$"
        # a reaction, a log line or a state reported: "へぇ〜そういう仕組みか", "…失敗してるログが
        # 出てる" (asking nothing)
        r"|^(?:へぇ|へー|ほぉ|ほー|ふーん|ふむ)|^(?!.*\?$).*(?:ログ|エラー|警告|例外)が(?:出て|出まくって)"
        r"(?:る|います|ます)\W*$"
        # an observation, hedged: "メモリ足りてないっぽい", "ログが多すぎる気がする"
        r"|^(?!.*\?$).*(?:っぽい|っぽいです|っぽいね|気がする|気がします)\W*$",
        0.7,
    ),
    *ja_more.REMARKS,  # a permission to ignore, an error pointed at (ja_more.py)
    *ja_kinds.REMARKS,  # a failure that keeps on, a prohibition (ja_kinds.py)
)

LANGUAGE = Language(
    code="ja",
    rules=RULES,
    fillers=(
        r"(?:はい|うん|ええ|了解(?:です)?|りょうかい|わかりました|分かりました|わかった|分かった"
        r"|ありがとう(?:ございます)?|じゃあ|では|よし|さて|なるほど|いいね|いいですね|オッケー"
        r"|ok|そうですね)(?=[\s,!.]|$)"
    ),
    # a comma after a protocol object named as the topic does not split: "カラオケのセッション、
    # まだハートビート来てる？" asks about the session (each noun a lookbehind of its own width,
    # read where the comma's space ends)
    joiners="|".join(
        rf"(?<={noun}, )"
        for noun in "ロック ろっく lock worktree ワークツリー ジャーナル journal セッション session"
        " ハートビート フック hook タスク記録 pid"
        # nor after "as agreed": "打ち合わせ通り、上限を組み込んで" is one request
        " 通り どおり とおり".split()
    )
    + r"(?<!ブロック, )(?<!クロック, )"
    + ja_kinds.JOINERS,
    # not after an event the user waits for ("CIが通ったら続けて" is one hold, not a go)
    connectives=(
        r"(?<=てから)(?<!ようにしてから)(?<!が終わってから)(?<!が済んでから)(?<!が通ってから)(?<!になってから)"
        # (not before an order to tell: "…条件があったら教えて" asks what the condition is)
        r"|(?<=たら)(?!\s?(?:教えて|知らせて))(?<!が終わったら)(?<!通ったら)(?<!になったら)(?<!が来たら)(?<!がきたら)"
        r"(?<!が出たら)"
        # (not "何でも", "どれでも": anything, no "but")
        r"|(?<=けど)|(?<=けれど)|(?=ただし)|(?<!何)(?<!なん)(?<!どれ)(?<!どこ)(?<!いつ)(?<!誰)(?=でも)"
        r"|(?=それから)"
        # after "before" / "until", as English splits before them: "続ける前に|今の進捗を教えて",
        # "ロックを確認するまで|進めないで" (the request is the other part)
        r"|(?<=る前に)|(?<=るまで)"
    ),
    later=(
        # (not the user's own look later: "最後までやっちゃって, あとで見る")
        r"明日|あした|あす|明後日|(?<!その)(?<!この)(?:後で|あとで)(?!(?:私|僕|俺|自分)?(?:が|で)?(?:見る|見ます|見とく"
        r"|見ておく|確認する|確認します|チェックする|レビューする|目を通す))|後ほど|のちほど|今夜|今晩|夕方|午後"
        r"|来週|週明け|また今度|(?:会議|ミーティング|mtg|打ち合わせ|昼休み|休憩|昼ご?飯|ランチ|call|standup"
        r"|デイリー|朝会)の?(?:後|あと)|戻(?:ったら|ってから)|帰(?:ったら|ってから)"
        # by form: a weekday, a clock time, a span, "after" an event
        r"|[月火水木金土日]曜|週末|\d{1,2}(?:時|:\d{2})|[一二三四五六七八九十]{1,2}時|正午|昼から"
        r"|\d+\s?(?:分|時間)後|(?<!そ)(?:の|が)(?:後|あと)(?!の|も)で?|明け(?:に|から|で|後|たら)|(?:完了|終了|リリース|デプロイ|マージ|承認|会議|昼食)後|(?:終わ|済ん|通っ|落ち着い|戻っ|帰っ)(?:て|で)から"
    ),
    # an event with its own subject ("CIが通ったら", "Pedroがレビューしたら"), not the agent's
    # own step ("テストを書き終わったら続けて": a go in order)
    # (or the user's coming back from something: "コーヒー買ってきたら")
    # (a person's approval, with its object: "田中さんがPRを承認したら")
    conditions=(
        r"が[^\s,.!?を]{0,12}?(?<!よかっ)(?<!でき)たら(?!いい|どう)|次第|て(?:き|来)たら"
        # "nightlyのジョブが成功してから" (not the agent's own step: "テストが通るようにしてから",
        # "漏れがないか見てから")
        r"|が[^\s,.!?をるか]{1,12}?[てで]から"
        # something received from someone first: "部長のOKをもらえたら", "返事もらってから"
        r"|(?:もら|貰)(?:えたら|ったら|ってから|えてから)"
        r"|(?:さん|くん|君|様|氏|ちゃん|チーム|先輩|部長|課長|リード)が[^\s,.!?]{0,16}?たら"
        # an event in the passive or a change of state: "マージされたら", "緑になったら"
        r"|(?:された|になった)ら"
        # the tests passing, their subject left out: "テスト全部通ったら続けていいよ"
        r"|通ったら"
        # only in that case: "夜間ビルドが通った場合だけコードに戻って"
        r"|場合(?:だけ|のみ|に限り|に限って)|(?:時|とき)(?:だけ|のみ)"
    ),
    retractions=r"やっぱ(?:り)?|やはり(?:やめ|待|なし|止め)|取り消し|取り消す|撤回|(?:な|無)しで|(?:な|無)しにして",
    approvals=r"承認|ゴーサイン|lgtm|許可します",
    negations=r"ない|ません|未|まだ|ず(?:に)?$|不",
    # a courtesy that leaves the timing to the agent ("よければ", "手が空いたら"): not a condition
    courtesies=(
        # (opening a clause: "結果が良ければ" is a condition on the results)
        r"(?:^|(?<=[\s,]))(?:もし)?(?:よければ|よかったら|良ければ|良かったら|よろしければ|できれば|出来れば"
        r"|(?:お)?好きなタイミングで|都合のいい(?:とき|時)に|都合がよければ|手が(?:空|あ)いたら)[\s,]*"
    ),
)
