"""Japanese rules of issue #45's eighteenth round (docs/interruptions.md, "Eighteenth round: the
rules (Simplified Chinese and Japanese)"), spliced into ``ja.py``'s table: each written for a
kind, from messages of the round's own, not a batch's wording. Text as in ``ja.py`` (lowercased,
punctuation ASCII with a space after it)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# After ja-hold, before ja-finish.
FIRST = (
    # a wait asked as a request ("ちょっとだけ待っててもらえる？", "一瞬待ってもらっていい？"),
    # stopping weighed ("ここで一回止めたほうがいいのかな"): a hold, not a question
    Rule(
        "ja-hold-asked",
        "OTHER",
        r"(?:待っ|まっ|止め|とめ|止まっ)(?:てて|ていて|てい)(?:もらえ|くれ)(?:る|ます|ない|ません)(?:か)?\W*$"
        r"|(?:待っ|まっ|止め|止まっ)て(?:もらって|もらっても|もらえたら)(?:いい|良い|ok|大丈夫)\S{0,4}?\W*$"
        r"|(?:止め|とめ|止まっ|待っ|まっ|やめ|中断し|ストップし|休憩し)た?(?:ほう|方)が(?:いい|良い|よさそう|無難)",
        0.8,
    ),
    # asked to go on explaining: a question, not a go ("説明を続けて", "その話の続きを聞かせて",
    # "続けて説明して"; held, "説明を続けないで", is ja-negated-resumption's, before); the model
    # does not make a go of it (languages.firm)
    Rule(
        "ja-go-on-explaining",
        "QUESTION",
        # (not the text of one written on: "READMEの説明の続きを書いて"; each part holds a word
        # of its own, so a first "続けて" does not compile it: gates.py)
        r"^(?!.*(?:書い|書き|追記|作っ|作成|直し|修正|実装))(?:.*(?:説明|解説)\S{0,4}?(?:の続き|を続け|続け)"
        r"|.*(?<![会電])話(?:の続き|を続け)|.*(?:講義|レクチャー)(?:の続き|を続け)"
        r"|.*(?:続けて|続き(?:を|から)?)\S{0,4}?(?:(?:説明|解説)(?:して|を|お願い|頼む|ください)|聞かせて|教えて|話して))",
        0.85,
    ),
)

# After ja-status-work, before ja-question: a design question counted, the rest handed over.
_MIDDLE = (
    # how many the code has: "ステートマシンの状態っていくつある？" (not the work's: "残りいくつ",
    # "失敗いくつ", ja-status's before)
    Rule(
        "ja-count-question",
        "QUESTION",
        r"^(?!.*(?:残り|残って|失敗|落ち|終わ|済ん|でき|完了|あと))"
        r".*(?:って|は|が)(?:全部で|合計で?|全部)?(?:いくつ|何個|何種類|何パターン|何通り)(?:ある|あります|あるの)",
        0.85,
    ),
    # the rest handed over, the baton passed: a go ("あとはよろしく", "あとは任せた", "バトン
    # タッチ", "ゴー"; not asked, "あとは任せていい？")
    Rule(
        "ja-hand-over",
        "RESUMPTION",
        r"^(?:あと|後|残り|続き)(?:は|も)?(?:よろしく|宜しく|任せ(?:た|る|ます|ました)|頼(?:んだ|む|みます))"
        r"(?:ね|よ|わ|です)?[!.\s]*$|^バトンタッチ[!.\s]*$|^(?:ゴー|ごー|go)(?:で|です|!)*[!.\s]*$",
        0.85,
    ),
)

# After ja-status-work: a question said as wondering, doubt or not understanding ("…に対応できる
# のか気になる", "採番ルールがよくわからん", "役割がいまいち掴めてない"), not stopping or going on
# weighed ("止めたほうがいいのか気になる"); the audit and the work's status in those words are the
# rules' before ("ロックがまだ握られてるのか気になる", "どこまで進んだのか気になる")
WONDER = Rule(
    "ja-wonder-question",
    "QUESTION",
    # (nor a failure's cause not known, a bug reported: "原因がさっぱり分からん")
    r"^(?!.*(?:ほうがいい|方がいい|べき|止め|待っ|やめ|続け|進め|再開|原因))(?:.*(?:の)?か(?:が|は|どうか)?"
    r"(?:気になる|気になって|気になります|知りたい|疑問|わからない|分からない|わからん|分からん)"
    r"|.*(?:わからん|分からん|ピンと(?:こ|来)ない|掴めて(?:ない|いない|ません)|つかめて(?:ない|いない|ません)"
    r"|腑に落ちない|飲み込めない|理解が追いつかない)"
    r"|.*(?:理由|意図|狙い|仕組み|違い|根拠|役割|目的)が(?:知りたい|気になる|わからない|分からない)"
    r"|.*(?:を|が)理解したい)",
    0.85,
)
MIDDLE = (WONDER, *_MIDDLE)

# After the go rules, before ja-remark: a follow or keep instruction that is no go.
LATE = (
    # follow the project's ways, keep using a thing: "引き続きタブを使って", "既存のパターンを
    # 踏襲して" (a remark, so a go before it stands)
    Rule(
        "ja-follow-remark",
        "OTHER",
        r"^(?!.*\?$)(?:.*(?:引き続き|今まで通り|今までどおり|従来通り|従来どおり|これまで通り|これまでどおり)"
        r"\S{0,12}?(?:使って|使い続けて|維持して|残して|守って)|.*(?:に|を)(?:従って|倣って|ならって|踏襲して))",
        0.7,
    ),
)

# Issue #45's nineteenth round (docs/interruptions.md, "Nineteenth round: the rules (Japanese and
# Simplified Chinese)").

# After ja-status-work, with the wondering question: an order to tell what the code does, on a
# condition or by a question word ("二重登録が起きるケースがあれば教えて", "どこでリークしてる
# か教えて"): a question. Where the work stands, told, is ja-status-work's before ("どこまで
# 進んだか教えて"); not a later report asked ("終わったら教えて": no case or cause named).
TELL = Rule(
    "ja-tell-question",
    "QUESTION",
    r"(?:ケース|場合|パターン|条件|可能性|理由|原因|問題|リスク|抜け道|穴|方法|やり方|違い)"
    r"(?:が|は|って)?(?:ある|あり得る|ありうる)?(?:なら|のなら|んなら|あれば|あったら|わかったら|分かったら)"
    r"\S{0,3}?(?:教えて|知らせて|説明して)"
    # (where it stands is the work's: "どこで止まってるか教えて")
    # summed up, the code's shape: "アプリの構成を2行でまとめて" (not the work's: "今日の作業を
    # まとめて", ja-status's)
    r"|(?:構成|アーキテクチャ|設計|仕組み|構造|全体像|データの流れ|処理の流れ)(?:を|について)?[^,.?!;]{0,8}?"
    r"(?:まとめて|要約して|ざっくり説明して)"
    r"|(?:なぜ|なんで|どうして|どこで|どこが|何が|なにが)(?![^,.?!;]*(?:止まっ|詰まっ|進ん|作業|やって|手をつけ"
    r"|取りかか|取り掛か|いじっ|触っ))[^,.?!;]{1,24}?か(?:を)?"
    r"(?:教えて|説明して|調べて教えて)",
    0.85,
)

# With ja-remark, last: a permission to ignore, an error pointed at ("ESLintの警告は無視で
# いいよ", "SQL、構文エラーあるよ"): remarks the model read as gos; not asked ("無視していいの？").
REMARKS = (
    Rule(
        "ja-ignore-remark",
        "OTHER",
        r"^(?!.*(?:\?|か\W*$|の\W*$))(?:.*(?:無視|スルー|放置)(?:し)?(?:で|て|しても|でも)?(?:いい|良い|ok|大丈夫|構わない"
        r"|かまわない|オッケー)"
        r"|.*(?:気にしなく|放っておい|ほっとい|放っとい|見なく|直さなく)(?:て|ても)(?:いい|良い|ok|大丈夫|構わない))"
        # at the clause's end ("無視でいいから突っ走って" goes on to a go)
        r"(?:です|だ|よ|ね|わ|な)*\W*$",
        0.7,
    ),
    Rule(
        "ja-error-remark",
        "OTHER",
        r"^(?!.*(?:\?|か\W*$|の\W*$|ない\W*$))"
        r".*(?:構文|文法|型|スペル|タイポ|typo|誤字|バグ|不具合|ミス|エラー)(?:が|も)?(?:ある|あります|残って(?:る|ます)"
        r"|出て(?:る|ます)|入って(?:る|ます))(?:よ|ね|けど|みたい|っぽい|わ)*\W*$",
        0.7,
    ),
)

# After ja-hold, before the go rules: whether a go was done, asked in the past ("続けといてくれ
# た？", "もう再開した？", "進めてくれたの？"): a question, of which the model may not make a go
# (languages.firm); not a go asked ("続けてもらえる？", "再開していい？")
GO_DONE_ASKED = Rule(
    "ja-go-done-asked",
    "QUESTION",
    # (each form spelled whole, so a first "続けて" does not compile it: gates.py)
    "(?:"
    + "|".join(
        verb + done
        for verb in ("続け", "進め", "再開し")
        for done in (
            "といてくれた",
            "ておいてくれた",
            "てくれた",
            "といた",
            "ておいた",
            "てもらった",
        )
    )
    + r")(?:の|んだ|んですか|ですか|か)?\?",
    0.85,
)

# After ja-go-on-explaining, before the status rules: why a protocol artefact is wrong, whether a
# commit went through a hook, how long a lock has left ("ジャーナルにセッションが開きっぱなしなの
# はなぜ？", "前回のコミットってlintのフック通った？", "ロックのTTLあとどれくらい？"): audits, not a
# design question or the work's status; not how it works ("ロックはなぜ期限切れになるの？"), nor
# the app's own ("ユーザーのセッション")
AUDIT_WHY = Rule(
    "ja-audit-why",
    "AUDIT",
    r"^(?!.*(?:ユーザー|ログイン|ブラウザ|データベース|db|redis|mutex|べき|普通|いつも|仕組み))(?:"
    r"(?=.*(?:なぜ|なんで|どうして|何で))(?=.*(?:ロック|lock|ジャーナル|journal|セッション|session|フック|hook"
    r"|worktree|ワークツリー|タスクの?記録))"
    r".*(?:っぱなし|閉じられて(?:ない|いない)|閉じてない|解放されて(?:ない|いない)|消えて(?:ない|いない)"
    r"|残って(?:る|いる)|二つ|2つ|重複|ゾンビ|孤立|切れて(?:る|いる))"
    r"|.*(?:フック|hook)\S{0,4}?(?:を|は|って)?(?:通った|通って(?:る|いる)|かかった|効いた)"
    r"(?=.*(?:\?|か\W*$))"
    r"|.*(?:ロック|lock)[^.?!;]{0,8}?(?:ttl|有効期限|期限|残り時間)\S{0,3}?(?:あと|残り)?"
    r"(?:どれくらい|どのくらい|何分|何秒|いくつ))",
    0.85,
)

# After the go rules, before the follow instruction: a go as agreed or as planned, with the
# task's own verb ("打ち合わせ通り、日次の上限を組み込んで", "計画どおり残りを実装して"); not
# asked ("計画通りに進んでる？"), nor denied ("…組み込まないで": no request form at its end)
AGREED = Rule(
    "ja-go-agreed",
    "RESUMPTION",
    r"^(?!.*\?)(?:.*(?:打ち合わせ|打合せ|話した|話し合った|相談した|決めた|計画|予定|プラン|合意した|約束した)"
    r"(?:の)?(?:通り|どおり|とおり)(?:に)?[^.?!;]{0,30}?"
    r"(?:して|やって|入れて|組み込んで|作って|実装して|書いて|進めて|対応して|仕上げて)(?:ください|ね|お願い)?\W*$)",
    0.85,
)

# After ja-audit-why: which part the agent is on now, asked ("いま手をつけてるのはどの部分？",
# "今いじってるのってどのファイル", "現在取りかかってるのは何"): where the work stands, not a
# question on the code (not how a part works: "今のハンドラはどの順番で呼ばれる？", no verb of
# working on it)
NOW_WHICH = Rule(
    "ja-status-now-which",
    "STATUS_REQUEST",
    r"(?:今|いま|現在|目下)\S{0,3}?(?:手をつけて|手を付けて|取りかかって|取り掛かって|いじって|触って|やって"
    r"|作業して|対応して|担当して)(?:い)?る(?:の|ところ|とこ)(?:は|って)"
    # the question word ends the clause ("何でもいいから止めて" holds)
    r"(?:どの[^,.?!;\s]{1,8}|どこ|何|なに|どれ)(?:ですか|なの|かな|だ|です|\?)?\W*$",
    0.85,
)
