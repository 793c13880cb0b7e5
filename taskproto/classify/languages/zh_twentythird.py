"""Simplified Chinese rules of issue #45's twenty-third round (docs/interruptions.md,
"Twenty-third round: the rules (Japanese and Simplified Chinese)"): kinds the twenty-fifth batch
missed in any language, each read from messages of the round's own in other wordings, then its
near-misses. Spliced into ``zh_hans.py``'s table, each tuple holding the older rules it goes
beside (``zh_kinds.py`` and ``zh_hans.py`` have no room left). Text as in ``zh_hans.py``
(lowercased, punctuation ASCII with a space after it)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import zh_kinds, zh_more

# a no, a wait or a hold beside the words below: never read by these rules
_NO = r"别|不要|先别|先不|不用|不必|甭|暂时|等等|等一下|停"

# Before zh-negated-resumption and zh-hold: where the work stands, said as an order to list what
# is left or as a supposition (zh-hold reads a clause opening with 还没, zh-resumption "开始吧").
FIRST = (
    # what is left of the work, listed for the user: "还没做的列出来给我看看", "把剩下的待办整理
    # 成清单发我", "说一下剩余的任务" (not done, "把剩下的TODO做完", a go; nor an app's to-do
    # list, "给待办列表加个排序")
    Rule(
        "zh-status-list-left",
        "STATUS_REQUEST",
        rf"^(?!.*(?:{_NO}|页面|样式|组件|按钮|字段|排序|功能|接口|表结构|加个|添加|显示|展示|实现|做完|写完|搞定"
        r"|干掉|清掉|处理掉|补上|吗|\?))"
        r"(?=.*(?:剩下|剩余|还没做|还没搞|还没弄|没做完|没搞完|没弄完|未完成|待办|todo|待做|遗留|还差))"
        r".*(?:列(?:个|一个|一下|下|出来|出|成)|清单|列表|罗列|汇总|(?:说|讲|报)(?:一下|下)|说说|讲讲"
        r"|发(?:给)?我|给我看)",
        0.85,
    ),
    # a supposition on where the work stands, to be confirmed: "我猜收据那块你还没开始吧", "估计
    # 导出还没动吧", "登录页应该已经做完了吧" (something before 还没: a bare "还没开始吧" is
    # zh-hold's; not the user's own, "我还没看完吧", nor a hold beside it)
    Rule(
        "zh-status-supposed",
        "STATUS_REQUEST",
        rf"^(?!.*(?:{_NO}|我还没|我们还没|我都还没|我也还没|\?))"
        r"(?:[^,.?!;]{1,24}?还没(?:有)?(?:开始|开工|动手|着手|开搞|开干|起步|动|碰|写|做|弄|搞)"
        r"|.*(?:我猜|估计|估摸着|想必|应该|八成|多半|大概|恐怕|看样子|我看)[^,.?!;]{0,16}?(?:已经|差不多|都)?"
        r"(?:做|写|弄|搞|改|跑|修|实现|对接)(?:完|好)了)"
        r"[^,.?!;]{0,6}?(?:吧|是吧|对吧|了吧|呢吧)\W*$",
        0.85,
    ),
    zh_kinds.IN_ORDER,
)

# With zh_kinds.CASUAL_AUDITS, before zh-status (which reads "了吗"): a hook asked whether it
# caught or let through a file, or holds in a worktree; a design choice asked yes or no.
_HOOK = r"(?:pre-?commit|pre-?push|commit-?msg|husky|lefthook|钩子(?!函数)|hook)"
AUDITS = (
    *zh_kinds.CASUAL_AUDITS,
    # "pre-commit有没有拦住那个大文件", "husky把密钥文件放过去了吗", "lefthook在你的worktree
    # 里也生效吗" (not how to make it, "pre-commit怎么配置才能拦大文件", nor an order to add one)
    Rule(
        "zh-audit-hook-caught",
        "AUDIT",
        r"^(?!.*(?:怎么|如何|为什么|为啥|应该|能不能|可不可以|加一?个|配置|写一?个|装一?个|给\S{0,8}加|会|能|可以"
        r"|的时候|时|webhook|web hook|github|gitlab|react|vue))"
        r"(?=.*(?:\?|吗|么|没有?\W*$|不\W*$|有没有|是不是|是否))"
        rf".*{_HOOK}.*(?:拦|挡|拒|卡住|卡下|放过|放行|漏|检查出|查出|抓到|抓住|发现|生效|起作用|管用|跑了|跑过|触发)",
        0.85,
    ),
    # a design choice weighed, asked: "用链表是不是比数组更省内存", "这里用枚举是不是更清晰" (the
    # code's question, not where the work stands)
    Rule(
        "zh-design-question",
        "QUESTION",
        r"^(?!.*(?:继续|接着|往下|开始|进度|进展))"
        r".*是不是(?:比[^,.?!;]{1,12}?)?(?:更|会更|要更|比较)(?:快|好|省|稳|合适|高效|简单|安全|清晰|优雅"
        r"|可靠|灵活|方便|合理|划算|轻)",
        0.85,
    ),
    # what the code was written with, asked: "订单金额用decimal了吗", "密码哈希用bcrypt了没有"
    # (not the agent's doing, "你用pnpm装好了吗", nor a tool of the work, "lint用上了吗")
    Rule(
        "zh-used-question",
        "QUESTION",
        r"^(?!.*(?:你|您|测试|单测|用例|lint|(?<![a-z])(?:ci|pr)(?![a-z])))[^,.?!;]{1,20}?"
        r"(?:用|采用|改用|换成|存成)\s?(?:[a-z][a-z0-9_.+#-]*|整数|浮点数?|定点数?|字符串|枚举|常量|正则|事务|索引"
        r"|协程|线程池|连接池|乐观锁|悲观锁|哈希|递归|位运算|位图|位棋盘|泛型)\s?了(?:吗|么|没有?)\W*$",
        0.85,
    ),
)

# After zh_more.LATE, before the go rules: a thing the user names, asked what it is ("你刚才
# 说的幂等键是啥"; not the work's state, "现在状态是啥": zh-status's)
LATE = (
    *zh_more.LATE,
    Rule(
        "zh-what-question",
        "QUESTION",
        r"^(?!.*(?:进度|进展|状态|情况|阶段|结果|看看|查查|查一下|找找|我这边|我去))(?:[^,.?!;]{1,24}?(?:是|叫)(?:个)?(?:啥|啥东西|啥玩意儿?)"
        r"(?:呀|啊|呢)?\W*$|^啥(?:是|叫))",
        0.85,
    ),
)

# Last, with zh_more.REMARKS: a prohibition on using or touching something, told ("这个依赖
# 许可证不兼容, 不能用", "生产库不能直接改", "那个接口废弃了, 别调"): a remark, which asks
# nothing and does not take back a go before it (not asked: "能不能用", "不能用吗")
REMARKS = (
    *zh_more.REMARKS,
    Rule(
        "zh-prohibition-remark",
        "OTHER",
        r"^(?!.*(?:吗|呢|\?|为什么|为啥|能不能|可不可以|能否|是不是|继续|接着|往下|先|暂时|之前|以前|之后|以后))"
        r"[^,.?!;]{0,16}?(?:不能|不可以|不许|不准|禁止|不得|别|不要|千万别|可别)(?:再)?(?:(?:直接|手动|随便|乱|私自)"
        r"(?:改|动|删|提交|推)|(?:直接|随便|乱|私自)?(?:用|使用|采用|引入|调|调用|碰|依赖|装|接入))"
        r"(?:它|这个|那个|这玩意)?(?:了|哦|啊|呀|哈|的)?\W*$",
        0.85,
    ),
)
