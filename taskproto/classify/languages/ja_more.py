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
