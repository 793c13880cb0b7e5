"""Simplified Chinese rules of issue #45's twentieth round (docs/interruptions.md, "Twentieth
round: the rules (Japanese and Simplified Chinese)"): kinds the twenty-second batch missed, each
read from messages of the round's own in other wordings, then its near-misses. Spliced into
``zh_hans.py``'s table. Text as in ``zh_hans.py`` (lowercased, punctuation ASCII with a space
after it)."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule

# the agent's own steps, whose "after" is a go in order (not 跑完 alone: "跑完之后" may be a run
# that ends of itself)
_STEP = r"(?:做|写|修|改|弄|搞|补|处理|清理|重构|实现|整理|提交|调|配|解决|合并|合|rebase)"
_OWN_STEP = (
    r"(?:你|先|就|那就|然后|再)*"
    rf"(?:把[^,.?!;]{{1,16}}?(?:{_STEP}|跑)(?:完|掉|好|了)|{_STEP}(?:完|掉|好)|跑完(?!之后|以后))"
)

# the go words a hold below governs (as zh_hans.VERB's first forms)
_GO = r"(?:继续|接着|往下|恢复|开始|推进|动手|开工|开干)"
# a sentence-final particle, which does not change what is asked
_PARTICLE = r"(?:啊|呀|呢|哇|哈|啦|嘛|捏|呐|哦)*"
# the work's own verbs of finishing, whose "not yet?" asks where the work stands
_DONE = (
    r"(?:做|写|弄|搞|改|修|跑|测|调|整|配|接|装|迁|补|上|合|提|部|发|对|联|适|完|好|通|过|交|处)"
)

# Before zh-negated-resumption, whose "以后 + a go" reads a later time: the agent's own step, then
# "after" and the go, one clause ("改完样式以后接着做详情页"; not held, put off or asked, nor a
# step of someone else's or an event's: "测试跑完以后接着做", "跑完之后再继续")
IN_ORDER = Rule(
    "zh-go-after-step",
    "RESUMPTION",
    r"^(?!.*(?:别|不要|不用|不必|甭|先不|暂时|明天|后天|下午|晚上|晚点|稍后|回头|下次|下周|周[一二三四五六日末]"
    rf"|等|吗|呢|\?)){_OWN_STEP}[^,.?!;]{{0,12}}?(?:之后|以后)(?:再|就|直接)?(?:继续|接着|往下)",
    0.85,
)

# waiting, watching, standing by (not 等 as a rank or "etc.": "继续等级模块")
_WAIT = r"等(?!级|于|号|式|额|比|宽|同|价|差|功能|模块|页面|接口|字段|部分)|观望|待命"

# After zh-hold: what holds a go in words a go rule would read.
HOLDS = (
    # waiting or watching gone on with is no go: "继续等", "接着等审批", "继续观望一下"
    Rule(
        "zh-keep-waiting",
        "OTHER",
        rf"(?:继续|接着)(?:{_WAIT}|挂起|搁着|放着|晾着|停着|暂停|hold)"
        rf"|(?:仍然|依然|依旧|照旧|还是)(?:{_WAIT})",
        0.9,
    ),
    # the go after an event the user waits for, said by 再 (only then): "反馈来了你再继续", "结果
    # 出来了再继续", "我看完了你再往下" (the first part's subject is not the agent's: a clause
    # that opens with 你, 先 or 把 is the agent's own step, "你把lint修完了再继续", a go)
    Rule(
        "zh-event-then-go",
        "OTHER",
        r"(?:(?<![起接])来|到|出来|下来|过来|发来|回来)了?(?:,\s?)?(?:你)?(?:再|才)"
        + _GO
        + r"|^(?!(?:你|先|就|那就)*把)(?!你|先|就|那就)[^,.?!;]{1,20}?了(?:,\s?)?你(?:再|才)"
        + _GO,
        0.9,
    ),
    # "then", told of what happened (not a go): "接着就跑不起来了", "接着页面就没反应了" (a go
    # with 接着 asks for it: "接着就做吧")
    Rule(
        "zh-then-told",
        "OTHER",
        r"^(?![^,.?!;]*吧)[^,.?!;]*接着[^,.?!;]{0,6}?(?:就|又|便|马上|立马)[^,.?!;]{0,10}?(?:不|没|了"
        + _PARTICLE
        + r"\W*$)",
        0.85,
    ),
)

# not the task's lock, session, worktree, hook or journal: an audit's (zh_hans, before)
_NOT_OURS = r"^(?!.*(?:锁|lock|worktree|工作树|会话|session|钩子|hook|journal|任务记录))"

# Before zh-status: a change's content, asked (and a part's presence: PART_ASKED, below).
CHANGE = (
    # what a commit, PR or diff changed: the change's content, a question (not what the agent
    # did: "你改了什么", "今天都改了哪些", zh-status's); the model may not make a status of it
    # (languages.firm)
    Rule(
        "zh-change-question",
        "QUESTION",
        # (not what the agent did since one: "我上次 commit 之后你动了哪些")
        r"(?:提交|commit|pr|mr|补丁|patch|diff|改动|变更|合并请求)[^,.?!;你后来]{0,8}?(?:都|主要|具体|到底)?"
        r"(?:改|动|加|删|变|换|修)(?:了|掉了)(?:些|一些)?(?:什么|哪些|啥|哪|哪里|哪儿)",
        0.85,
    ),
)

# After zh-status (what it reads keeps its reading), before zh-audit: the work's state asked
# yes or no, or by when; the code's behaviour asked yes or no.
_STATUS = (
    # done yet, asked with 没 at the end or as "A not A", with a particle or a reason after it:
    # "电子秤对接搞定没", "固件升级好了没啊", "迁移脚本做没做完", "能搞定不" (the work's own
    # finishing verbs; "这个接口支持分页没有" asks about the code: zh-yesno-question)
    Rule(
        "zh-status-done-no",
        "STATUS_REQUEST",
        _NOT_OURS
        + rf"(?:.*(?:完|好|通|定|过|成|线|署|测|交|收尾|结束|上去|出来)了?没有?{_PARTICLE}\W*$"
        + rf"|.*({_DONE}[^\s,.?!;没]?)没\1"
        # "can it be done?" as "能…不": "今晚能搞定不", "下班前可以上线不"
        + r"|.*(?:能|可以)(?:搞定|做完|写完|弄完|弄好|做好|完成|上线|合并|提测|交付|收尾|跑通)了?不"
        + rf"{_PARTICLE}\W*$)",
        0.85,
    ),
    # when the work can be seen, had or done: "什么时候能看到第一版", "初版啥时候能出来", "大概
    # 多久能搞完", "预计几点能给我个初版" (not when the code does a thing: "缓存什么时候会失效")
    Rule(
        "zh-status-when",
        "STATUS_REQUEST",
        r"(?:什么时候|啥时候|何时|几点|哪天|多久|多长时间|多少天|几天)(?:才|就)?(?:能|可以|会|得|要)?(?:给我|给到)?"
        r"(?:看到|看见|拿到|收到|给我|给到|出来|交|交付|提测|验收|见到|用上|试用|体验|做完|写完|弄完|搞完"
        r"|做好|写好|弄好|搞好|完成|完工|搞定|弄出来|做出来|上线|合并|发布|结束|好)(?![^,.?!;]*的\W*$)",
        0.85,
    ),
    # whether the code does a thing, asked with 没有 at the end or as "A not A": "这个接口支持分页
    # 没有", "登录接口走没走限流", "这个组件支不支持暗色模式" (a question on the code; the model
    # picks among the types that ask, and may not make a status of it: languages.firm)
    Rule(
        "zh-yesno-question",
        "QUESTION",
        _NOT_OURS
        # (a state, not a change: "部署生效了没" asks where the work stands)
        + r"(?:.*(?:支持|兼容|允许|区分|包含|校验|依赖|触发|调用|考虑到?)"
        + r"[^,.?!;]{0,12}?(?<!了)没有?"
        + _PARTICLE
        + r"\W*$|.*(支|兼|走|包|区|允|校|依|触|调|考)[不没]\1)",
        0.85,
    ),
)

# Read by zh-status itself (zh_hans.py), which a message holding 进度 compiles already: the
# progress to be sent, or its percentage asked ("发我一下当前进度", "把进度同步给我", "报个
# 百分比", "告诉我完成百分比就行"; not a code's figure, "CPU占用百分比", nor one told, "进度
# 百分比会算出负数"); the model may not make nothing asked of it (languages.firm.FORMS)
SEND = (
    r"|(?:发|给|传|同步|报|甩|贴|整理)(?:给)?(?:我)?(?:一下|下|个|一个|份|一份)?(?:当前|目前|现在|最新|今天)?的?"
    r"(?:进度|进展|完成度|完成情况|status)(?!条)|(?:进度|进展|完成情况)\S{0,3}?(?:发|同步|报|甩|贴)(?:给|到)?我"
    r"|(?:告诉我|报|说|讲|给我?|发我?|来)(?:一下|下|个|一个)?(?:进度|完成|当前|目前|现在|的|大概)*"
    r"(?:百分比|完成度|完成率)|(?:进度|完成|做了|做完)(?:了|的)?(?:大概|大约)?(?:百分之|几成|多少成)"
    r"|完成(?:度|率)(?:是|有)?(?:多少|几)"
)

# what is missing of the work: "缺的测试", "还没做的部分", "漏掉的接口"
_MISSING = (
    r"(?:缺的|缺少的|没做的|没写的|没实现的|未实现的|没完成的|未完成的|漏掉的|漏了的|还差的|欠着的)"
)

# After zh-resumption, before zh-remark: a go as the task's own verb.
GOES = (
    # the task's own step asked for, after a decision or an approval: "审批过了, 上线吧", "可以
    # 发版了", "重新开工", "开始改吧" (not told, "上线了", nor asked, "可以上线了吗", nor held,
    # "先别上线吧", whose opening no form allows)
    Rule(
        "zh-go-own-verb",
        "RESUMPTION",
        r"^(?:那|那就|就|现在|直接|马上|赶紧|你|好|好了)*(?:上线|部署|发布|发版|合进去|合并|提测|推上去|动手"
        r"|开始(?:改|弄|搞|动手|开发|编码|写代码|修)|着手|开写|开改)(?:吧|呗|哈)\W*$"
        r"|^(?:那|那就|就|现在)*可以(?:上线|部署|发布|发版|合进去|合并|提测|动手|开工|开干|开始改)了\W*$"
        r"|^(?:那|那就|就|现在|好了|好|马上|赶紧)*(?:重新|接着|回来|回去)(?:开工|干活|开干|动工)(?:吧|了|啦)?\W*$"
        r"|^(?:复工)+(?:吧|了|啦)?\W*$",
        0.85,
    ),
    # what is missing of the work, done: "把ETL缺的测试补上吧", "按区域排班还没做的部分实现一下",
    # "漏掉的接口补齐" (not asked, told done or held: "缺的测试补上了吗", "缺的测试不用补")
    Rule(
        "zh-go-missing",
        "RESUMPTION",
        r"^(?!.*(?:别|不要|不用|不必|甭|先不|暂时不|吗|呢|\?))(?:你|就|那就|再|然后|顺便|直接|先)*"
        rf"(?:把?[^,.?!;]{{0,16}}?{_MISSING}[^,.?!;]{{0,10}}?"
        r"(?:补上|补齐|补全|补完|实现|写完|做完|写一下|做一下|补一下|搞定|弄完|写好|做好|开发完?)"
        # (done, told, but for the 把 of an order: "把还没写的单测写了")
        rf"|把[^,.?!;]{{0,16}}?{_MISSING}[^,.?!;]{{0,10}}?(?:写|做|补)了)(?:吧|一下|掉|啊|哈)?\W*$",
        0.85,
    ),
)

# "after", a condition a go waits for ("CI跑完之后再继续", "老王review完之后"), unless the clause
# opens with the agent's own step ("跑完lint之后再把迁移做完", "修完这个bug以后, 接着做登录页":
# a go in order). Its match starts at the clause's second character, as "(?<=\S)之后" did, so a
# clause beside the go is still held only by an "after" at its end (fields.deferred).
AFTER = (
    rf"(?<=(?:^|(?<=[,.;!?]\s))(?!{_OWN_STEP})\S)"
    r"[^,.?!;]*?(?<=\S)(?:之后|以后)"
)
# a comma before "(你)再 + a go" does not split: "反馈来了, 你再继续" is one hold (zh-event-then-go)
JOINERS = (
    r"|(?<=了, )(?=(?:你)?(?:再|才)"
    + _GO
    + ")"
    # nor before an order to tell briefly after what is asked: "那个提交改了什么, 简单说下"
    + r"|(?:(?<=什么, )|(?<=哪些, )|(?<=啥, )|(?<=哪里, )|(?<=哪儿, )|(?<=地方, ))"
    + r"(?=(?:简单|大概|简要|粗略|大致)?(?:说|讲|介绍|总结)(?:一下|下|说|讲)?\W*$)"
    # nor before "how do I answer", after what someone else asked: "领导问进度, 我怎么回他"
    + r"|(?:(?<=进度, )|(?<=进展, )|(?<=情况, )|(?<=哪了, )|(?<=样了, )|(?<=在催, ))"
    + r"(?=(?:那)?(?:我|咱)?(?:该|要|应该|得)?(?:怎么|咋|如何)(?:回|说|答|讲|交代|汇报|回复))"
)

# Twenty-first round (docs/interruptions.md, "Twenty-first round: the rules (Japanese and
# Simplified Chinese)").

# a part of the day is a later time, but not one spent waiting or working: "下午再继续" holds,
# "等了一下午, 终于好了, 开干" goes (the wait is over)
PART_OF_DAY = r"|(?<!了一)(?<!了半)(?<!了整整一)(?<!了大半)(?:晚上|下午|早上|上午|中午)"

# a request asked, which asks only whether the agent will: "能…吗", "…好吗", "…行不行"
_ASK_TAIL = (
    r"(?:吗|么|嘛|不|好吗|好不好|行吗|行不行|可以吗|可不可以|成吗|可好|呗)?(?:啊|呀|哈)?\W*$"
)
# the work's own finishing, whose "still not?" is impatience about where it stands
_FINISHED = (
    r"(?:好|完|完成|结束|搞定|弄好|做好|写好|改好|弄完|做完|写完|改完|搞完|跑完|修完|修好"
    r"|上线|交付)"
)
# a part of the code, whose presence asked is the code's content ("down方法写了没")
_PART = (
    r"(?:方法|函数|索引|校验|判空|注释|日志|默认值|约束|回滚|异常处理|重试|分支|参数|外键|事务|兜底"
    r"|降级|限流|鉴权|缓存|埋点|幂等|超时)"
)

# After zh_kinds.HOLDS, before the audits and zh-question: what asks nothing, or asks for the
# work's state, in a question's words.
_ASKED_NOT = (
    # a hold asked as a question is a hold: "能先停一下手吗", "可以先暂停下吗", "你先缓一缓行
    # 不行", "可以等我一下吗" (not a go asked, "能继续吗", nor a stop denied, "能不能别停",
    # nor a pause as a noun, "暂停功能能做吗")
    Rule(
        "zh-hold-asked",
        "OTHER",
        r"^(?:你|您)?(?:能|可以|能不能|可不可以|能否|可否|麻烦|麻烦你|请)?(?:你|您)?(?:先|暂时|稍微)?"
        r"(?:停一停|停停|停下来|停下|停|暂停|等等|等一等|等|缓一缓|缓缓|歇一下|别动|住手|打住)"
        r"(?:一下|下|一会儿?|会儿|片刻|手|我一下|我)?(?:手)?(?:,\s?)?" + _ASK_TAIL,
        0.85,
    ),
    # a backchannel with a particle, which asks nothing: "嗯呢", "嗯哪", "哦哦", "是呢", "好呢"
    # (not "对吗", "是吗", "好了吗", nor with a "?"; "好嘞" and "行" are left to the model, as
    # they open a go no rule reads: "好嘞, 接着冲", "好嘞, 开始 rebase")
    Rule(
        "zh-backchannel",
        "OTHER",
        r"^(?:(?:(?:嗯|恩|哦|噢|喔|对|是)+(?:的|呢|哪|呐|啦|呀|啊|嘞|滴|哒|咯|哈|噻)*"
        r"|(?:好|行|ok)的?(?:呢|哪|呐)+)[\s,.!~]*){1,3}$",
        0.85,
    ),
    # a feeling that something is off, a question word made indefinite by it: "唉, 感觉哪里不太
    # 对", "总觉得哪儿怪怪的", "好像什么地方漏了" (not asked: "你觉得哪里不对?", "…吗")
    Rule(
        "zh-feeling-remark",
        "OTHER",
        r"^(?!.*(?:你|您|吗|呢|\?|为什么|为啥|怎么))(?:唉|哎|嗐|嗯)?[^,.?!;]{0,6}?(?:感觉|觉得|好像|似乎"
        r"|貌似|总觉得|总感觉)[^,.?!;]{0,8}?(?:哪里|哪儿|哪块|哪|什么地方|有什么|有啥)"
        r"[^,.?!;]{0,10}?(?:不|怪|错|问题|漏|毛病|奇怪|别扭)",
        0.85,
    ),
    # still not done, said with impatience: where the work stands ("怎么还没好? 都一个小时了",
    # "咋还没弄完", "这都多久了还没好"; not the protocol's, "锁怎么还没释放", nor the code's
    # behaviour, "页面怎么还没加载出来")
    Rule(
        "zh-status-impatient",
        "STATUS_REQUEST",
        _NOT_OURS + rf"(?:.*(?:怎么|咋|为啥|为什么|怎么会)(?:都|到现在|现在)?还(?:没|不){_FINISHED}"
        rf"|.*(?:多久|半天|这么久|一上午|一下午|一天|几个小时|一个小时)了(?:都|也)?还(?:没|不){_FINISHED})",
        0.85,
    ),
    # the record's state doubted, or to be verified: a check of it ("这状态靠谱吗", "task.json
    # 里标的是done, 真的吗", "任务记录写着已完成, 帮我核实一下"; not a design's state, "这个状态
    # 机靠谱吗", nor the work's, "做完了吗")
    Rule(
        "zh-audit-record",
        "AUDIT",
        r"(?:这个?|该|那个?)?状态(?!机|码|栏|管理|字段)(?:是|显示的?)?(?:靠谱|准|准确|对|真的|可信|属实)(?:的)?"
        r"(?:吗|不|么|嘛)|(?:任务记录|记录|task\.json|看板|系统)(?:上|里)?[^,.?!;]{0,4}?(?:说|写着?|显示|标着?"
        r"|记着?)(?:的是)?[^,.?!;]{0,20}?(?:(?:靠谱|准|对|真的|可信|属实)(?:吗|不|么)|核实|核对|查证"
        r"|确认一下|确认下)",
        0.85,
    ),
    # which of two ways is better, asked without "?": "桥梁告警用推送还是轮询比较好", "这里用
    # 枚举还是常量更合适" (not a way decided, "还是用redis吧", nor a go or a hold weighed, "还是
    # 继续比较好")
    Rule(
        "zh-choice-question",
        "QUESTION",
        r"^(?!.*(?:吧|继续|接着|往下|恢复|停|等|缓缓|缓一缓|先缓|先别|算了))[^,.?!;]*?[^\s,.?!;还]{1,12}?还是[^,.?!;]{1,12}?"
        r"(?:比较|更|会更|会比较)?(?:好|合适|靠谱|划算|稳妥|稳|快|方便|合理|省事)(?:些|一些|点|一点)?"
        r"(?:呢|啊|呀)?\W*$",
        0.85,
    ),
)

# Before zh-status (in CHANGE): whether a part of the code was written, asked: the code's
# content, a question ("down方法写了没", "空值校验加了没有", "重试分支加没加"; "迁移写完了没"
# asks where the work stands: zh-status)
PART_ASKED = Rule(
    "zh-part-question",
    "QUESTION",
    _NOT_OURS + rf"(?:.*{_PART}[^,.?!;]{{0,3}}?(?:写|加|建|设|做|处理|考虑|打|配|补)了?"
    rf"(?:没有?|吗){_PARTICLE}\W*$|.*{_PART}[^,.?!;]{{0,3}}?(写|加|建|设|做|配|补)没\1)",
    0.85,
)

# Twenty-second round (docs/interruptions.md, "Twenty-second round: the rules (Japanese and
# Simplified Chinese)").

# the task's own protocol objects (as zh_hans._OBJECT), not an app's door lock or a package
# manager's lock file
_OURS = (
    r"(?:(?<![解门密智车枷])锁(?!屏|定|价|单|座|车|仓|客|库存)|lock|工作树|worktree|会话|session"
    r"|钩子(?!函数)|hook|journal|任务的?记录|task\.json)"
)
_NOT_HOW = (
    r"^(?!.*(?:为什么|为啥|为何|怎么实现|如何实现|原理|机制|设计|会不会|应该|用户|登录|浏览器|前端|数据库|mutex"
    r"|互斥|分布式|redis|行锁|表锁|读写锁|自旋|乐观|悲观|react|vue|yarn|npm|pnpm|package|cargo|poetry"
    r"|超时|过期时间|有效期))"
)
# someone else who asks where the work stands
_ASKER = (
    r"(?:领导|老板|经理|产品|pm|客户|甲方|老大|主管|leader|组长|项目经理|测试|运营|同事|他们|她|他"
    r"|上面|大老板)"
)

# After zh_kinds.HOLDS, with the twenty-first round's ASKED_NOT: a finish denied.
ASKED_NOT = (
    # a finish denied is a hold, never a go ("别把报表写完", "先不要把迁移做完", "那别急着把
    # 接口写完"; the model, trained on words, read "把…写完" as a go)
    Rule(
        "zh-negated-finish",
        "OTHER",
        r"(?:别|不要|先别|先不要|暂时别|暂时不要|不用|不必|甭|不准|不许)(?:急着|着急|急于|先|再)?把[^,.?!;]{0,24}?"
        r"(?:做|写|搞|弄|实现|开发|跑|改|补|修|对接|接|整|迁)(?:完|好|掉)",
        0.9,
    ),
    *_ASKED_NOT,
)

# After zh-status (what it reads keeps its reading), before zh-question: the twentieth round's
# status rules, then where the work stands, asked by kind.
STATUS = (
    *_STATUS,
    # where the work stands asked for someone else ("领导问进度, 我怎么回他", "客户在催, 做到
    # 哪了我该怎么说"; the comma before "how do I answer" does not split: JOINERS)
    Rule(
        "zh-status-relayed",
        "STATUS_REQUEST",
        rf"{_ASKER}(?:在|又|一直|刚|刚刚|刚才|也|还)*(?:问|催|要|打听|想知道)(?:我|咱们|我们|一下|了)?\S{{0,4}}?"
        r"(?:进度|进展|情况|做到哪|到哪了|怎么样了|咋样了|啥时候|什么时候|做得怎么样|完成得怎么样)",
        0.85,
    ),
    # how much of the work is done, asked as an amount ("雨伞柜的对接完成多少了", "注册流程搞了
    # 几成了", "迁移做完百分之几了"; not a figure of the code, "这个字段存的是完成多少")
    Rule(
        "zh-status-how-much",
        "STATUS_REQUEST",
        r"^(?!.*(?:字段|变量|参数|函数|接口返回|存的|算的|显示的|用户|订单数))"
        r".*(?:完成|做|搞|弄|写|改|接|对接|开发|实现|迁移?|联调|调|测|跑|整|落地|推进|处理|搭)(?:了|好|完|掉)?"
        r"(?:大概|大约|差不多)?(?:了(?:多少|几成|百分之\S{1,2})|(?:多少|几成|百分之\S{1,2})了)(?:呢|啊|呀)?\W*$",
        0.85,
    ),
    # where a part of the work stands, asked as a fragment: its name and "progress" ("登录页那个
    # 进度", "支付回调的进展呢", "导出功能完成情况?"; not a progress the code shows or stores:
    # "上传要能显示进度", "给下载加个进度")
    Rule(
        "zh-status-fragment",
        "STATUS_REQUEST",
        r"^(?!.*(?:显示|展示|加|添|同步|保存|记录|记不住|计算|更新|上报|回传|存|读|推送|条|百分比|查询|接口|字段"
        r"|按钮|播放|加载|再看|回头看|我看))"
        # (not the progress pushed, a go: "猛猛推进度", "赶进度")
        r"[^,.?!;]{1,16}?(?<![推赶追拉抢])(?:的|那个|这个|那块|那边|这块)?\s?(?:进度|进展|完成情况|完成度)"
        r"(?:呢|啊|呀|嘞|咧)?\W*$",
        0.85,
    ),
    # a ticket's state asked ("VID-88这个工单什么状态", "那个需求现在啥状态了"; not what states
    # a thing has, "工单有哪些状态")
    Rule(
        "zh-status-ticket",
        "STATUS_REQUEST",
        r"(?:工单|ticket|issue|需求|卡片|jira|story|bug|[a-z]{2,10}-\d+)[^,.?!;有]{0,8}?(?:现在|目前|当前)?"
        r"(?:是|在|处于|到了)?(?:什么|啥|哪个)(?:状态|阶段|进度)了?(?:呢|啊)?\W*$",
        0.85,
    ),
)

# an owner and its 的 ("你的", "谁留下的"), spelled whole: the words a clause must hold
_OWNED = "(?:{})".format(
    "|".join(
        who + what
        for who in "你 您 谁 我们 咱们 别人 其他人".split()
        for what in "的 留下的 留的 建的 创建的 拿的 占的 加的 生成的 开的".split()
    )
)

# After zh-audit-asked (what the audits read keeps its reading), before zh-status: a protocol
# artefact's owner, age or release, asked casually.
CASUAL_AUDITS = (
    # whose a protocol artefact is, asked ("这个锁是你的吗", ".git里有个index.lock, 是你的吗" (a
    # comma after "lock" does not split), "worktree是谁留下的")
    Rule(
        "zh-audit-whose",
        "AUDIT",
        _NOT_HOW
        + rf".*{_OURS}[^,.?!;]{{0,12}}?(?:,\s?)?(?:是|算)?(?:不是)?"
        # (each owner spelled with its 的, so a clause is tried only if it holds one: "你的")
        + _OWNED
        + r"(?:吗|么|吧|呢|嘛|\?|\W*$)",
        0.85,
    ),
    # how old a protocol artefact is ("这个锁多久了", "锁文件是什么时候生成的", "lock文件有多旧了";
    # not when it would expire, how it works: "锁多久会过期", "锁的超时是多久")
    Rule(
        "zh-audit-age",
        "AUDIT",
        _NOT_HOW
        + rf".*{_OURS}[^,.?!;]{{0,8}}?(?:是|都)?(?:(?:什么时候|啥时候|几点|哪天|多久以前|多久之前)"
        r"(?:生成|创建|建|留下|加|拿|上|产生|写|弄|锁)的|(?:有|都|存在|在那|挂)?(?:多久|多长时间|几天|几个小时)了"
        r"|有多(?:旧|老|久))",
        0.85,
    ),
    # a protocol artefact doubted released, or looked at, casually ("强杀之后锁没释放吧",
    # "帮我瞅瞅锁", "worktree瞄一眼")
    Rule(
        "zh-audit-casual",
        "AUDIT",
        _NOT_HOW + rf"(?:.*{_OURS}[^,.?!;]{{0,8}}?(?:没|没有|还没)"
        r"(?:释放|放掉|放开|删|删掉|清|清掉|清理|解开|解除|回收|退出|关)(?:掉|干净)?吧"
        r"|.*(?:瞅瞅|瞅一眼|瞅一下|瞅下|瞧瞧|瞧一眼|瞧一下|瞄一眼|瞄一下|瞄瞄|扫一眼|看一眼)[^,.?!;]{0,10}?"
        + _OURS
        + rf"|.*{_OURS}[^,.?!;]{{0,10}}?"
        + r"(?:瞅瞅|瞅一眼|瞅一下|瞅下|瞧瞧|瞧一眼|瞄一眼|瞄一下|扫一眼|看一眼))"
        # (its code or design looked at is a question's: "瞅一眼锁的实现")
        + r"(?![^,.?!;]*(?:实现|代码|源码|逻辑|文档))",
        0.85,
    ),
)

# After zh_kinds.GOES: a go in slang, the whole clause ("整起来", "撸起来吧", "开肝", "搞快点";
# not told, asked or held: "已经整起来了", "搞快点行吗")
GO_SLANG = Rule(
    "zh-go-slang",
    "RESUMPTION",
    r"^(?:那|那就|就|好|行|赶紧|麻溜|快)*(?:(?:整|撸|肝|动|弄|搞|卷)起来|开(?:整|撸|肝|卷)|(?:搞|弄|整|干)快(?:点|些)"
    r"|快(?:点|些)(?:搞|弄|整|干)|继续肝|接着肝|肝起来)(?:吧|呗|啊|呀|哈|咯)?[!~\s]*$",
    0.8,
)
