"""Simplified Chinese interruption rules: character patterns, no word boundaries (``\\b`` never
falls between two Chinese characters). Punctuation is ASCII with a space after it ("，" -> ", ",
"。" -> ". ", "？" -> "? "). Same order as the English table."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages.table import Language

# A go. Not "继续失败" (keeps failing), not "恢复按钮" (the resume button).
VERB = (
    r"(?:继续(?!失败|报错|挂|出错|红|卡)|接着(?:做|来|弄|干|写|改)|往下(?:做|走|写|弄)"
    r"|恢复(?!按钮|键)|开始(?:吧|实现|做|干|写)|回(?:去|到)(?:干活|任务|工作)|推进|进入下一步"
    r"|(?:做|干|写|弄)下去"
    r"|continue|go ahead|keep going)"
)
_PROTOCOL = (
    r"(?:锁|lock|worktree|工作树|journal|日志|会话|session|task\.json|任务状态|状态文件|协议|分支"
    r"|状态转换|任务文件)"
)
_CHECK = r"(?:检查|确认|验证|校验|核对|查一下|查查|看看|看一下)"

RULES = (
    Rule("zh-dont-stop", "RESUMPTION", r"(?:别|不要|不用|无需|不必)(?:停|暂停|等)", 0.9),
    Rule(
        "zh-nudge",
        "RESUMPTION",
        r"(?:别|不要|不用)(?:再)?(?:问|等)(?:了)?.*"
        + VERB
        + r"|^(?:你)?(?:能|可以|能不能|可不可以)(?:继续|接着)",
        0.8,
    ),
    Rule(
        "zh-negated-resumption",
        "OTHER",
        r"(?:别|不要|先别|先不要|还不要|暂时别|暂时不要|不能|不准|先不)(?:再)?(?:继续|接着|往下|恢复"
        r"|开始|推进)|别(?:再)?继续|^等.*(?:再|才)(?:继续|开始|接着|恢复)|(?:继续|开始)之前"
        r"|(?:明天|晚点|稍后|回头|下次|以后|待会)(?:再)?(?:继续|接着|恢复|开始|做)",
        0.9,
    ),
    Rule(
        "zh-hold",
        "OTHER",
        r"^(?:等一下|等等|等一等|等会|稍等|等下|停|停下|停止|暂停|先停|先暂停|打住|慢着|且慢|还没|先别"
        r"|等)|今天先到这|什么都(?:别|不要)",
        0.8,
    ),
    Rule(
        "zh-status",
        "STATUS_REQUEST",
        r"(?:进度(?!条)|进展|情况|状态(?!栏|码))(?:怎么样|如何|怎样|呢)|^(?:进度|进展|状态|情况)\W*$"
        r"|有(?:没有|什么)?(?:新)?(?:进展|进度|更新|消息)|(?:汇报|报告|总结|说下|说一下|讲讲)(?:一下)?"
        r"(?:目前的|现在的)?(?:进度|进展|状态|情况)|(?:到|做到|进行到|走到)(?:了)?(?:哪|什么程度)"
        r"|(?:在|是)哪一步|(?:做|弄|搞)(?:完|好)了(?:吗|没)|(?:完成|通过|结束|跑完|合并|部署|搞定)了"
        r"(?:吗|没)|(?:还剩|还差|剩下|还有)(?:什么|多少|几个|哪些)|(?:还要|还需要)多(?:久|长时间)"
        r"|(?:现在|目前)(?:在)?(?:做什么|干什么|忙什么)|怎么样了|(?:进行|进展)得怎么样"
        r"|(?:什么|啥)情况|^好了(?:吗|没)|做了(?:什么|哪些|啥)|卡在哪|卡住|绿(?:的|了)(?:吗|没)"
        r"|接下来|下一步(?:做什么|打算|是什么|干什么)|还有多久|^你现在在哪\W*$|还(?:缺|差)什么"
        r"|了(?:吗|没有?)\W*$",
        0.85,
    ),
    Rule(
        "zh-audit",
        "AUDIT",
        r"审计(?!日志)|audit|一致性|完整性|sanity check|健康检查"
        rf"|(?:跑|运行|执行).*doctor|违反(?:了)?协议|协议违规|{_CHECK}.*{_PROTOCOL}"
        r"|(?:和|与|状态|锁|worktree|journal).*(?:一致|同步)(?:吗|\?)",
        0.85,
    ),
    Rule(
        "zh-question",
        "QUESTION",
        r"为什么|为啥|怎么(?!样了)|如何|什么|哪(?:个|里|儿|些)|谁|多少|是否|(?:吗|呢)\W*$"
        r"|解释|说明一下|讲讲|介绍一下|不太?明白|不太?懂|没懂|不太?理解|问个问题|有个问题|区别"
        r"|(?:什么|啥)意思|意思是",
        0.85,
    ),
    Rule("zh-resumption", "RESUMPTION", VERB, 0.9),
    Rule("zh-go-ahead", "RESUMPTION", r"^(?:批准了?|下一步|走吧|开干|干吧|上吧)\W*$", 0.8),
)

LANGUAGE = Language(
    code="zh-Hans",
    rules=RULES,
    fillers=(
        r"(?:好|好的|好吧|行|嗯|嗯嗯|ok|可以|没问题|谢谢|多谢|明白了|懂了|知道了|收到|那|那就|然后|对"
        r"|是的|是|很好)(?=[\s,!.]|$)"
    ),
    connectives=r"(?=然后|但是|不过|可是)",
)
