"""Japanese interruption rules: character patterns, no word boundaries (Japanese has no spaces,
and ``\\b`` never falls between two kana). Punctuation is ASCII with a space after it ("。" ->
". ", "、" -> ", ", "？" -> "? "). The verb comes last in Japanese, so these rules look at
a clause's end or anywhere in it, where the English ones look at its start."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.table import Language

# A go: the request or volitional forms of continue / resume / proceed / go back. Not "落ち続け"
# (keeps failing): a verb stem before 続け makes it "keep doing" ("計画どおり続けて" is a go).
_STEM = r"(?<![いきしちにひみぎじびぴえけせねへめれげぜべぺ])(?<!(?<![お通])り)"
VERB = (
    rf"(?:{_STEM}続け(?:て|よう|ましょう|ちゃって|てください)|続き(?:を|から)?(?:お願い|やって|して)"
    r"|続行(?:して|しよう|しましょう|お願い|で)|再開(?:して|しよう|しましょう|お願い)"
    r"|進め(?:て|ちゃって|よう|ましょう)|進(?:んで|もう|みましょう)|戻って|戻ろう|どうぞ"
    r"|始めて|始めよう|開始して|やろう"
    r"|continue|go ahead|keep going)"
)
_PROTOCOL = (
    r"(?:ロック|lock|worktree|ワークツリー|ジャーナル|journal|セッション|session|task\.json"
    r"|タスクの状態|状態ファイル|プロトコル|ブランチ|遷移)"
)
_CHECK = r"(?:確認|チェック|検証|点検|調べ|見て|監視)"

RULES = (
    Rule("ja-dont-stop", "RESUMPTION", r"(?:止まら|止め|やめ|休ま|待た)ないで|止まるな", 0.9),
    Rule(
        "ja-nudge",
        "RESUMPTION",
        r"(?:質問|確認)は(?:いい|もういい|いらない)(?:から|ので).*"
        + VERB
        + r"|(?:待って|待た)(?:ないで|ずに).*"
        + VERB
        + r"|(?:なんで|なぜ|どうして)(?:続け|進め|再開し)ないの",
        0.8,
    ),
    Rule(
        "ja-negated-resumption",
        "OTHER",
        r"(?:続け|進め|続行し|再開し|進ま|戻ら)(?:ないで|ないでください|ちゃだめ|ては(?:いけない|だめ)"
        r"|るな)|(?:続け|進め|続行す|再開す)る(?:の|こと)は(?:やめ|待っ|ストップ|なし)"
        r"|(?:続け|進め|続行す|再開す)る前に"
        r"|(?:明日|あした|後で|あとで|また今度|来週|午後|週明け)(?:に|から|は)?.*"
        + VERB
        + r"|(?:続き|続け|再開)\S*(?:明日|あした|後で|あとで)"
        r"|(?:終わって|終わった)から(?:再開|続け)",
        0.9,
    ),
    Rule(
        "ja-hold",
        "OTHER",
        r"^(?:ちょっと|少し|一旦|いったん)?(?:待って|まって|待った|ストップ|止めて|とめて|止まって|やめて"
        r"|中断して|一時停止|ちょい待ち)|(?:待って|まって|待ってください|ストップ|止めて|やめて"
        r"|中断して)(?:ください)?\W*$|^まだ(?:です|だよ|だめ|ダメ)?\W*$"
        r"|(?:今日|きょう)はここまで|ここまでにしよう",
        0.8,
    ),
    Rule(
        "ja-audit",
        "AUDIT",
        r"監査(?!ログ|の仕組み)|audit|サニティチェック|sanity ?check|整合|健全性"
        r"|doctor(?:を|で)?(?:実行|走らせ|回し|かけ)|違反して|違反がない"
        rf"|{_PROTOCOL}.*{_CHECK}",
        0.85,
    ),
    Rule(
        "ja-audit-protocol",
        "AUDIT",
        r"プロトコル(?:に沿|違反|通り|どおり)|照合"
        r"|(?:状態|ロック|worktree|ジャーナル|journal)\S*(?:正しい|クリーン|整合|一致|同期)",
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
        r"|残り|残って|あと(?:何|どれ|どの)|いつ終わ|(?:失敗|落ちて|残って)\S*(?:いくつ|何個|何件)"
        r"|(?:今|いま)(?:何|なに)(?:の作業)?を(?:して|やって)|どうなった",
        0.85,
    ),
    Rule(
        "ja-status-work",
        "STATUS_REQUEST",
        r"どうなって(?:る|いる|ます)|どのくらい進|詰まって|ハマって|行き詰|次は(?:何|なに)"
        r"|次の(?:予定|ステップ)は|^今どこ|(?:いくつ|何個|何件)\W*$|緑|赤\W*$"
        r"|^(?!.*(?:なぜ|なんで|どうして|何を|誰)).*(?:され|し)た\s*\?",
        0.85,
    ),
    Rule(
        "ja-question",
        "QUESTION",
        r"なぜ|なんで|どうして|どう(?:やって|いう|動|なって|すれば|処理|決め|スケール|なる)"
        r"|(?:何|なに)(?:を|が|の|で|って)|どこ|どれ|どの|誰|だれ|いつ|説明して|意味|って何|とは"
        r"|分からない|わからない|理解できない|質問",
        0.85,
    ),
    Rule("ja-resumption", "RESUMPTION", VERB, 0.9),
    Rule(
        "ja-go-ahead",
        "RESUMPTION",
        r"^(?:承認(?:します)?|次へ|次のステップ|先へ|いいよ進めて)\W*$",
        0.8,
    ),
)

LANGUAGE = Language(
    code="ja",
    rules=RULES,
    fillers=(
        r"(?:はい|うん|ええ|了解(?:です)?|りょうかい|わかりました|分かりました|わかった|分かった"
        r"|ありがとう(?:ございます)?|じゃあ|では|よし|さて|なるほど|いいね|いいですね|オッケー"
        r"|ok|そうですね)(?=[\s,!.]|$)"
    ),
    connectives=r"(?<=てから)|(?<=たら)|(?<=けど)|(?<=けれど)|(?=ただし)|(?=でも)|(?=それから)",
)
