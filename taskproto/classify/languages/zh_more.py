"""Simplified Chinese rules of issue #45's eighteenth round (docs/interruptions.md, "Eighteenth
round: the rules (Simplified Chinese and Japanese)"), spliced into ``zh_hans.py``'s table: each
written for a kind, from messages of the round's own, not a batch's wording. Text as in
``zh_hans.py`` (lowercased, punctuation ASCII with a space after it)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# the verbs of telling and explaining, which a go word may govern instead of the work
# (not 分析 or 展开, the work's own: "继续分析吧"; not 再说, "以后再说": deal with it later)
_TELL = r"(?:讲解|讲|说明|说说|说|解释|介绍(?!页)|聊)"
_GO = r"(?:继续|接着|往下|接下去)"
# the task's own protocol objects (as zh_hans._OBJECT, without the lock's many neighbours)
_OBJECT = r"(?:锁|lock|工作树|worktree|会话|session|钩子(?!函数)|hook|journal)"

# Before zh-nudge, whose "你能继续" reads a go: what the go word governs is telling.
FIRST = (
    # asked to go on explaining: a question, not a go ("继续讲模块拆分, 我没听懂", "你接着
    # 解释一下", "往下讲讲分片"; not held, "别继续讲了", nor a go word before the work: "继续写
    # 说明文档", whose verb is 写); the model does not make a go of it (languages.firm)
    Rule(
        "zh-go-on-explaining",
        "QUESTION",
        # (each part spelled whole, so a first "继续" does not compile it: gates.py)
        rf"^(?!.*(?:别|不要|不用|不必|甭|先不|停))(?:.*{_GO}{_TELL}(?!明(?:文档|书|页))"
        rf"|.*{_GO}(?:给我|跟我|和我|帮我|为我|向我|再){_TELL}|.*{_TELL}下去)",
        0.85,
    ),
)

# After zh-hold, before the audit rules: the protocol's present state asked short.
AUDITS = (
    # which worktree or lock is a task's, whether this session is new or reused: "搜索任务对应
    # 哪个工作树", "这个会话是新开的还是复用的" (not how the protocol does it: "会话是每次新建
    # 还是复用的", zh-question's)
    Rule(
        "zh-audit-which",
        "AUDIT",
        r"^(?!.*(?:为什么|为啥|怎么|如何|每次|一般|应该|用户|登录|redis|数据库))(?:.*任务\S{0,3}?(?:对应|用的|用着|占着|挂着|绑定)"
        rf"(?:的是)?(?:哪个|哪一个|哪|什么)\S{{0,3}}?{_OBJECT}"
        rf"|.*(?:这个|这次|当前|现在|本次|目前)的?{_OBJECT}\S{{0,3}}?是?(?:新开|新建|新起|新的|复用|重用|旧的|上次)"
        r"\S{0,6}?(?:还是|吗|\?|没))",
        0.85,
    ),
)

# After zh-status, before zh-audit: the work's state against a design question.
MIDDLE = (
    # only one part of the work left, asked; coding or testing now: "是不是只剩联调了",
    # "剩下的就只有写文档了吧？", "现在是在写代码还是在跑测试" (not who may do a thing: "是不是只有
    # 管理员能删", nor where the code runs: "这段代码是在主线程还是在子线程跑的")
    Rule(
        "zh-status-left",
        "STATUS_REQUEST",
        r"(?:是不是|是否)(?:就|只)?(?:只)?(?:剩|差)下?|(?:只|就)(?:剩|差)下?[^,.?!;]{1,12}?了?(?:吗|吧|呢|没|\?)"
        r"|剩下的?\S{0,3}?(?:是不是|是否)?(?:就|只)(?:有|是)[^,.?!;]{1,12}?了(?:吗|吧|呢|\?)?\W*$"
        r"|^(?:你)?(?:现在|目前|这会儿|此刻)(?:是)?(?:在|正在)[^,.?!;]{1,10}?还是(?:在|正在)",
        0.85,
    ),
    # how many the code has, which way it is built: "状态机一共有几个状态", "分页是按游标还是按
    # 偏移量" (not the work's count: "一共还剩几个", "一共做了几个了", zh-status's before)
    Rule(
        "zh-design-question",
        "QUESTION",
        r"一共(?!还|剩|做|完成|写|改|弄)(?:有)?几(?:个|种|张|层|类|步|条|套)(?![^,.?!;]*了\W*$)"
        r"|(?<![在])是?(按|用|存|放|走|靠)[^,.?!;还]{1,10}?还是\1",
        0.85,
    ),
)

# After zh-question, before the go rules: a question said as wondering, doubt or not
# understanding ("我想知道X能不能Y", "我很好奇订单号的生成规则", "不确定这个脚本跑得通"); not a
# wish or a hold in the same words ("我在想要不要先停一下", "不知道要不要继续"), nor a suggestion
# ("我在想是不是可以用 Redis"); the audit and the work's status in those words are the rules'
# before ("想知道锁是不是还被占着", "想知道你做到哪一步了")
LATE = (
    Rule(
        "zh-wonder-question",
        "QUESTION",
        r"^(?!.*(?:要不要|该不该|应不应该|是不是该|是不是应该|是不是要|是不是可以|可不可以|不如|干脆|还是先"
        r"|停|暂停|歇|缓|先别|先不|继续|接着|往下))(?:我|俺)?(?:真的?|很|挺|有点儿?|有些|一直|还是|就是|实在|确实)?"
        r"(?:(?:想知道|好奇(?!心)|纳闷|(?:在|正在)?琢磨|在想|不确定|想弄清楚?|想搞清楚?|想了解|想弄明白|想搞明白|没想通|想不通"
        r"|不太?懂|不太?明白|不太?理解|看不懂|没看明白|没弄明白|没搞懂|没太懂|疑惑|困惑|迷惑|拿不准|吃不准)"
        r"\S{0,2}?[^,.?!;\s]{3}"
        # not knowing, said of a question ("不知道这个正则能不能匹配全角"; not "我不清楚这块的
        # 业务", said of a thing)
        r"|(?:不知道|不清楚|搞不清楚?|弄不清楚?)(?=.*(?:能不能|会不会|是不是|有没有|可不可以|([^\s,.?!;])不\1"
        r"|为什么|为啥|怎么|什么|哪|谁|多少|几|是否|如何|吗|呢|\?)))",
        0.85,
    ),
    # follow the project's ways, keep a name: an instruction, not a go ("继续沿用旧的命名",
    # "照着原来的模式写", "按项目现有的风格来"); a remark, so a go before it stands ("继续, 沿用
    # 项目原来的写法")
    Rule(
        "zh-follow-remark",
        "OTHER",
        # (not the work done as agreed: "按之前商量的把对接做完"; nor praise: "继续保持")
        r"^(?!.*(?:吗|呢|\?))(?:.*(?:沿用|遵循|遵守|照着?|按照?|参照|保持|保留|维持|延续|继续用)(?:项目|原来|原有|现有|已有"
        r"|之前|以前|老的?|旧的?|既有|团队|仓库|代码库|一贯|统一)\S{0,8}?(?:写法|风格|模式|规范|约定|命名|名字|名称"
        r"|格式|习惯|样式|范式|惯例|pattern|style)|.*继续(?:沿用|遵循|遵守|保留|延续|使用旧|用旧|用原来|用老))",
        0.7,
    ),
)

# After zh-resumption: the agent's turn, said ("变量配好了, 到你了").
LAST = (
    # your turn, said at the end of a clause (not asked, "轮到你了吗", not yet, "还没轮到你",
    # nor a thing sent, "文件发到你了")
    Rule(
        "zh-your-turn",
        "RESUMPTION",
        r"^(?:现在|那|那就|接下来|然后|下面)?(?:就)?(?:轮到|该|到)你(?:了|啦|上了|上场了|出场了|来了)\W*$"
        r"|^(?:剩下的|后面的|接下来的|其余的)?(?:都|就)?交给你(?:了|啦|吧)\W*$",
        0.85,
    ),
)
