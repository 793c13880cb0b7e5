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
    # why a protocol artefact is in a state it should not be, or how long a lock has left: an
    # audit, not a design question ("journal里为什么有个会话开了没关", "为啥还残留着一个旧的
    # worktree", "锁的TTL还剩多少"); not how it works ("锁为什么会过期", "会话什么时候关")
    Rule(
        "zh-audit-why",
        "AUDIT",
        r"^(?!.*(?:用户|登录|浏览器|前端|数据库|redis|mutex|互斥|分布式|行锁|表锁|读写锁|应该|一般|每次))"
        rf"(?:(?=.*(?:为什么|为啥|为何|怎么会|咋会|咋))(?=.*{_OBJECT})"
        r".*(?:开了没关|没关|没释放|没放|没清理|没删|没结束|没收尾|没退出|没记|还开着|还在|残留|留着|多了|少了"
        r"|丢了|重复|两个|孤儿|僵尸|卡住|过期了|失效了)"
        rf"|.*{_OBJECT}\S{{0,3}}?(?:ttl|过期时间|有效期|剩余时间|租期|租约)\S{{0,3}}?(?:还剩|剩|还有)"
        r"(?:多少|多久|几))",
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
    # which parts are done already: "已经做好的部分有哪些", "做完的模块有哪几个" (not their
    # problems: "做好的部分有哪些问题", a question on the code)
    Rule(
        "zh-status-done-which",
        "STATUS_REQUEST",
        r"(?:做好|做完|完成|搞定|写好|写完|弄好|弄完|实现)了?的(?:部分|模块|功能|接口|页面|任务|东西|内容|活)?"
        r"\S{0,3}?(?:有)?(?:哪些|哪几|什么|啥)(?!\S{0,4}?(?:问题|bug|风险|坑|隐患|区别))",
        0.85,
    ),
    # an order to tell what the code does, or to sum it up: "如果有会超卖的情况, 告诉我", "用两句话
    # 总结一下这个服务的架构" (not the work's summary: "总结一下今天的进展", zh-status's before;
    # nor a report asked for later, "测试挂了告诉我": no case named)
    Rule(
        "zh-tell-question",
        "QUESTION",
        r"(?:情况|可能|场景|风险|漏洞|地方|case|原因)(?:的话)?(?:,\s?)?(?:就|请|麻烦)?(?:告诉我|跟我说|和我说)"
        r"|(?:总结|概括|归纳|梳理|概述)(?:一下)?(?!\S*(?:进展|进度|工作|做了|干了|今天|状态))[^,.?!;]{0,12}?"
        r"(?:架构|设计|结构|流程|原理|思路|逻辑|分层|数据流|调用链)",
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
        # (a wonder whether the code should be so is asked, since the twentieth round: "我在想
        # 时间是不是该用毫秒存", "不知道订单号要不要改成雪花算法"; stopping or going on weighed is
        # not, nor a suggestion: "是不是可以用Redis")
        r"^(?!.*(?:是不是可以|可不可以|不如|干脆|还是先"
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

# Issue #45's nineteenth round (docs/interruptions.md, "Nineteenth round: the rules (Japanese and
# Simplified Chinese)"): remarks the model read as asking, or as a go.

# no question asked in the clause: no mark, particle or question word
_ASKS_NOT = (
    r"^(?!.*(?:\?|吗|么|呢|是不是|有没有|是否|为什么|为啥|怎么|如何|什么|啥|哪|谁|多少|几|还是))"
)

# After zh-hold, before the audit and question rules: a clause that is all urgency or a choice
# left to the agent.
EARLY = (
    # urgency said beside a go: someone waits or presses, no time left ("赶紧继续, 客户等着呢",
    # "接着干, 老板在催了"): a remark, so the go before it stands; a clause of its own, never
    # the go's (not "等…再继续": a hold, zh-negated-resumption's, nor a wait at the start, "等着")
    Rule(
        "zh-urgency-remark",
        "OTHER",
        r"^(?!.*\?)(?:客户|老板|领导|甲方|用户|产品|产品经理|测试|运营|大家|他们|人家|对方|老师|导师|我)(?:都|还|正|已经)?"
        r"(?:在)?(?:等着|在等|等|催|急|着急)(?:着|呢|了|啊|呀|哪|用|要)*\W*$"
        r"|^(?:时间|工期|排期)(?:很|太|挺|有点)?(?:紧|赶)(?:了|呢|啊)*\W*$|^(?:快)?来不及了\W*$",
        0.7,
    ),
    # the choice left to the agent: "用哪个日期库你自己定", "命名你随便选" (a permission that is
    # not a go, nor a question: its 哪个 is indefinite); not asked ("你定吗", "你来选还是我选")
    # a go as agreed or as planned, said alone ("按之前说好的来", "照计划进行", "就按商量的办"):
    # the task's own work (a hold or a time beside it still holds it; not the format to keep,
    # "按之前说好的格式写", zh-follow-remark's, nor asked, "按计划能做完吗")
    Rule(
        "zh-go-agreed",
        "RESUMPTION",
        r"^(?:那|就|那就|你)*(?:按|照|按照|依照)(?:之前|刚才|原来|原定|上次|我们|咱们|昨天)?"
        r"(?:说好|商量好?|讨论好?|约定好?|定好|计划好?|规划好?|聊好?|讲好)的(?:那样|那么)?"
        r"(?:来|办|做|进行|走|弄|干|推进|执行)?(?:吧|哈|就行)?\W*$"
        r"|^(?:那|就|那就|你)*(?:按|照|按照)(?:计划|原计划|方案|原方案|规划|排期|plan)"
        r"(?:来|办|做|进行|走|推进|执行|干)(?:吧|哈|就行)?\W*$",
        0.85,
    ),
    Rule(
        "zh-choice-remark",
        "OTHER",
        r"^(?!.*(?:吗|呢|\?|还是|继续|接着|往下|恢复|开始))[^,.;!?]*(?:你|您)(?:自己|来|看)?"
        r"(?:定|决定|选|挑|拿主意|做主|随便(?:选|挑|用)?|随意|喜欢(?:哪个|什么)?就用(?:哪个|什么))"
        r"(?:吧|就行|就好|好了|就可以)?\W*$|^(?!.*(?:吗|呢|\?))[^,.;!?]*随(?:你|您)(?:选|挑|用|定|喜欢|便)"
        r"(?:吧|就行|就好|好了)?\W*$",
        0.7,
    ),
)

# After zh-resumption and the go rules, with zh-remark: a clause that asks nothing, read as
# what it says; the model may neither make a question of it nor a go (an OTHER rule's reading
# stands, languages.model), so a rule above it that reads a go, a question, a status or an
# audit in the same clause still decides.
REMARKS = (
    # a permission to ignore: "ESLint的警告可以先不管", "那些警告忽略就行", "这个报错无视掉也没事"
    # (never a go; not asked, "可以忽略吗"; a bare "先不管" leaves a thing aside before what
    # comes next, "硬编码那个先不管, 你先往前走": the model reads the rest)
    Rule(
        "zh-ignore-remark",
        "OTHER",
        _ASKS_NOT + r"(?:.*(?:可以|能|尽管|直接)(?:先)?(?:不用管|不管|忽略|无视|不理)(?:它|掉)?"
        r"|.*(?:不用管|不管|忽略|无视|不理)(?:它|掉)?(?:就行|就好|就可以|即可|也行|也没事|没事|没关系|都行))"
        r"(?:了|吧|啊|哈)*\W*$",
        0.7,
    ),
    # a fact told, a change noticed, an error pointed at, a mood: "你刚才生成的SQL有语法错误",
    # "GPS数据格式变了, 是NMEA的", "提醒一下, 我们的Python是3.9", "有点失望, bug还是挺多的"
    # (a statement of a state asks only with a question word, a particle or "?")
    Rule(
        "zh-fact-remark",
        "OTHER",
        _ASKS_NOT + r"(?:^(?:注意|提醒|友情提示|提个醒|记住|记得|顺便说|说实话|讲真|老实说)"
        r"(?!.*(?:继续|接着|往下|恢复|开始))"
        r"|.*(?:有|出现了?|还有|存在)(?:个|一个|一些|几个|好多|很多|不少)?(?:语法|拼写|逻辑|类型|编译)?"
        r"(?:错误|错|bug|问题|漏洞|typo|报错)(?:啊|呀|哦|哈|了)*\W*$"
        # a part of the code got wrong (not a keyword named: "那个 continue 写错了", a mention)
        r"|.*(?:类型|名字|名称|字段|参数|路径|变量|函数名|方法名|配置|拼写|单词|表名|列名|键名|返回值|版本号|单位|时区)"
        r"\S{0,3}?(?:写|拼|算|用|配|改|搞|弄)错了(?:啊|呀|哦|哈)*\W*$"
        r"|.*(?:格式|版本|地址|接口|字段|协议|规则|口径|需求|域名|端口|密钥|参数)\S{0,4}?(?:又|也)?(?:变|换|改)了\W*$"
        # (not a thing handed over: "都是你的")
        r"|^(?:现在|其实|本来)?是(?![^,.;!?]*你)[^,.;!?\s]{1,16}的(?:啊|呀|哦|哈)?\W*$"
        r"|^(?:有点|有些|挺|很|太|真)?(?:失望|无语|郁闷|崩溃|头疼|头大|心累|不爽))",
        0.7,
    ),
    # a bare acknowledgement is no go, as a bare "ok" ("没问题", "好的", "行吧"): the table's
    # fillers, so only a message that is nothing else is read (a clause beside it is read on its
    # own: "没问题, 继续", "好嘞, 接着冲")
    Rule(
        "zh-ack-remark",
        "OTHER",
        r"^(?:(?:没问题|好的?|行|可以|ok|收到|明白了|知道了)(?:的|啊|呀|哦|吧|哈)?[\s,.!~]*){1,3}$",
        0.7,
    ),
)
