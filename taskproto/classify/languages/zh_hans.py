"""Simplified Chinese interruption rules: character patterns, no word boundaries (``\\b`` never
falls between two Chinese characters). Punctuation is ASCII with a space after it ("，" -> ", ",
"。" -> ". ", "？" -> "? "). Same order as the English table."""

from __future__ import annotations

from taskproto.classify.interruption_rules import Rule
from taskproto.classify.languages import zh_kinds, zh_more, zh_twentythird
from taskproto.classify.languages.table import Language

# A go. Not "继续失败" (keeps failing), not "恢复按钮" (the resume button), nor 恢复 in a
# thing's name ("恢复出厂设置那个功能先隐藏掉": the verb is 隐藏), nor 推进 done, told or asked
# of ("你都推进了啥").
VERB = (
    r"(?:继续(?!失败|报错|挂|出错|红|卡|按钮|键)|接着(?:\S{0,6}?)(?:做|来|弄|干|写|改|搞|补|修|实现|完成|撸|整|推|跑|开发)"
    r"|往下(?:做|走|写|弄|推|搞|干)|做第\S{1,3}步|开绿灯|绿灯|走起|放手(?:做|干|去做)"
    # (nor a thing restored, told: "分支已经恢复了", "数据库刚恢复过来")
    r"|(?<!已经)(?<!已)(?<!刚)(?<!都)恢复(?!过来|回来|正常|好了"
    r"|按钮|键|标志|字段|逻辑|功能|机制|流程|状态|出厂|默认|备份|数据|密码|原状|原样"
    r"|[^,.?!;]{0,8}?(?:功能|按钮|选项|开关|接口|页面|入口|菜单|模块))"
    r"|开始(?:吧|实现|做|干|写)|回(?:去|到)(?:干活|任务|工作|代码)|推进(?!了)|进入下一步"
    r"|回(?:去|到)(?:\S{0,8}?)(?:弄|做|写|改|搞)|进行(?:下一|第)"
    # "…下去" with the work's verb, not judged ("这样改下去不行")
    r"|(?:做|干|写|弄|建|搞|改|补|修|推|跑|撸|整)下去(?![^,.?!;]*(?:不行|不好|不是办法|会|吗|呢))|(?:做|干|弄|搞|开始|进入)下一(?:个|步|项|阶段|部分|点)|进入第\S"
    r"|进入\S{1,6}?(?:第\S{1,3}|下一)(?:个|步|项|阶段|部分|点)"
    # finishing what is left is going on with it ("go ahead and finish the hooks"), as with 接着
    r"|剩下(?:的|那|这)[^,.?!;]{0,20}?(?:做|干|弄|写|搞|跑|改)完"
    # go on with another verb, at the clause's end ("出牌策略, 接着调"; not "接着调用 init": then)
    r"|接着(?:调|测|优化|重构|查|排查|debug|调试|迭代)(?:吧|啊|呀)?\W*$"
    # what the agent has in hand, finished first: "你先把手上的做完" (the current work)
    r"|把手(?:上|头|里)(?:的|这个|那个)\S{0,6}?(?:做|弄|写|搞|改|干)完"
    # pick the paused work up, all the way through, back to a part of it: "把暂停的任务拉起来",
    # "一路写完", "一路推到 merge", "回到通知那块"
    r"|(?:任务|活儿?|工作|暂停的\S{0,8}?)(?:重新)?(?:拉|捡)起来"
    # (not done already, asked or judged: "昨天一口气改完了", "一口气写完容易出 bug")
    r"|(?:一路|一口气|一鼓作气)\S{0,8}?(?:写|做|推|干|改|跑|弄|冲|撸|搞|整|补)(?:完|到|下去)"
    r"(?![^,.?!;]*(?:了|吗|呢|容易|会|不行|不好))"
    r"|^(?:先)?回到\S{1,12}?(?:那块|那边|那部分|那里)\W*$"
    # (the English word named, not said: "那个 continue 写错了", "循环里的 continue")
    r"|(?<!那个)(?<!这个)(?<!那个 )(?<!这个 )(?<!里的)(?<!中的)(?<!里的 )(?<!中的 )(?<!成)(?<!成 )"
    # (nor one of them counted, "多了一个continue"; nor the keyword as a noun: "continue的位置不对",
    # "continue语句", "continue后面多了个分号")
    r"(?<!个)(?<!个 )(?:continue|go ahead|keep going)"
    r"(?!\.[a-z0-9]|\s?(?:的|语句|关键字|后面|前面|之后|之前"
    r"|那行|这行|这一行|多了|少了|多余|写错|拼错|用错|不对|有问题|没生效|不生效)))"
)
_PROTOCOL = (
    r"(?:锁|lock|worktree|工作树|journal|日志|会话|session|task\.json|任务状态|状态文件|协议|分支"
    r"|状态转换|任务文件)"
)
# the task's own protocol objects asked about now (not "日志" or "分支", which an app has too)
_HELD = r"(?:锁|lock|工作树|worktree|会话|session|钩子|hook|journal|任务记录|task\.json)"
# not a lock, a session or a hook of the code, nor how they work
_NOT_OURS = (
    r"^(?!.*(?:为什么|为啥|怎么|如何|应该|会怎样|会怎么样|能不能|用户|登录|浏览器|前端|数据库|mutex|互斥"
    r"|分布式|redis|行锁|表锁|读写锁|自旋|乐观|悲观))"
)
_CHECK = r"(?:检查|确认|确保|保证|验证|校验|核对|查一下|查查|看看|看一下|看下|排查|过一遍)"
# The task's protocol objects by kind (a lock, its file; a session; a worktree; a hook; the
# journal; the task's record or state): not an app's door or screen lock ("锁屏", "解锁"), a
# React or web hook, a package manager's lock file
_OBJECT = (
    r"(?:(?<![解门密智车枷])锁(?!屏|定|价|单|座|车|仓|客|库存)|lock|工作树|worktree|会话|session"
    r"|钩子(?!函数)|hook|journal|任务的?记录|任务状态|状态文件|task\.json)"
)
# a present state, or whether it is right: still, now, whose, which branch it points to,
# whether it ran, is on, lost entries, expired, ended properly, a zombie
_NOW = (
    r"(?:还|现在|目前|当前|这会儿|此刻|刚才|刚刚|仍然|依然|是不是|有没有|是否|对不对|对吗|对么|正常"
    r"|对不上|不对|一致|一样|同步|指向|指的是|指着|分支|谁|丢|少了|缺|漏|过期|失效|活着|僵尸|死"
    r"|断|结束|收尾|退出|跑了|跑过|触发|生效|装上|装好|装了|启用|禁用|关了|关掉|跳过|被|干净"
    r"|残留|孤儿|在不在|有效|完整|释放|放掉|放了|对应|属于)"
)
# how it works, or when it would ("锁什么时候会过期", "worktree是怎么建的", "锁是按任务还是按仓库"),
# or the app's own lock, session or hook ("用户会话", "redis锁", "React的hook")
_HOW_OR_THEIRS = (
    r"^(?!.*(?:为什么|为啥|为何|怎么|如何|咋|会怎|会发生|会不会|应该|需不需要|要不要|能不能|可不可以"
    r"|什么时候|何时|多久|多长|多少|几秒|是什么|是啥|干嘛|存在哪|放在哪|存哪|每次|一般|原理|机制|设计"
    r"|安全吗|是\S{1,8}还是|用户|登录|浏览器|前端|数据库|mutex|互斥|分布式|redis|行锁|表锁|读写锁|自旋"
    r"|乐观|悲观|react|vue|web|聊天|客服|yarn|npm|pnpm|package|cargo|poetry))"
)

RULES = (
    Rule("zh-dont-stop", "RESUMPTION", r"(?:别|不要|不用|无需|不必|甭)(?:停|暂停|等)", 0.9),
    *zh_more.FIRST,  # asked to go on explaining, before a go (zh_more.py)
    Rule(
        "zh-nudge",
        "RESUMPTION",
        r"(?:别|不要|不用)(?:再)?(?:问|等)(?:了)?.*"
        + VERB
        + r"|^(?:你)?(?:能|可以|能不能|可不可以)(?:继续|接着)|怎么(?:不|没)(?:继续|接着|往下)",
        0.8,
    ),
    *zh_twentythird.FIRST,  # the rest listed, a supposition; own step, "after", a go
    Rule(
        "zh-negated-resumption",
        "OTHER",
        r"(?:别|不要|先别|先不要|还不要|暂时别|暂时不要|不能|不准|先不|不用|不必|无需|没必要|甭)(?:再)?"
        # on its own, in haste: "不要擅自进入下一步", "别急着往下写"
        r"(?:擅自|私自|自行|随便|贸然|急着|着急)?(?:继续|接着|往下|恢复"
        r"|开始|推进|把?剩下(?:的|那|这)|进入下一)|别(?:再)?继续|(?:别|不要|先别|先不要|暂时别|不用)把\S{0,12}?(?:拉|捡)起来|^等.*(?:再|才)(?:继续|开始|接着|恢复)"
        # waited for inside the clause: "上架功能等法务审完再继续" (not 等 as "etc.", "登录等功能")
        r"|等(?!一下|等|会|下|一等|级|于|号|式|额|比|宽|同|价|差|功能|模块|页面|接口|字段|部分)"
        r"[^,.?!;]{1,20}?(?:再|才)(?:继续|开始|接着|恢复|往下|推进)|(?:继续|开始|(?<!请)恢复)之前"
        r"|(?:明天|晚点|稍后|回头|下次|以后|待会|开完会|会后|开会后|下午|晚上|一会儿|等会儿?)(?:再)?"
        r"(?:继续|接着|恢复|开始|做)"
        r"|(?:review|评审|审核|审查|我看完|我确认|我回来|我同意)\S{0,3}?(?:之后|以后|后)?再(?:继续|接着"
        r"|往下|恢复|开始)"
        # an event that happens of itself, then the go: "CI 绿了再恢复" ("先把lint修了再继续" is the
        # agent's own step, a go)
        r"|(?:绿|变绿|通过|合并|批准|审批|上线|部署|发布|发版|封版|回来|合进去)了?再(?:继续|接着|往下|恢复|开始)"
        # someone's approval or answer first: "领导批了再推进", "客户回复了再接着写"
        r"|(?:批|点头|拍板|签字|回复|答复|回话|同意)了再(?:继续|接着|往下|恢复|开始|推进)"
        # not (yet) the time to go on: "现在还不是恢复的时候", "还没到继续的时机"
        # (its gate words are "的时候", "的时机", "的阶段": "不是" is too common to gate it)
        r"|(?:不是|没到|不到)\S{0,3}?(?:继续|接着|恢复|开始|推进|往下)\S{0,6}?的(?:时候|时机|阶段)"
        # "现在恢复还太早", "继续为时过早"
        r"|(?:继续|接着|恢复|开始|往下)\S{0,4}?(?:太早|为时过早|还早)"
        # the go said before, taken back: "刚说的继续收回", "继续那句撤回"
        r"|(?:继续|接着|恢复|开始|往下|推进)[^,.?!;]{0,6}?(?:收回|撤回|作废|不算数?|取消掉?)(?!\S*(?:吗|呢))"
        # a go said not to be meant: "不是让你继续的意思", "我没说要恢复", "并没有叫你往下做"
        r"|(?:不是|并不是|没|没有|并没有)(?:说(?:要|让|叫)?|让|叫|要)(?:你)?(?:继续|接着|恢复|往下|推进)"
        # a go meant, not said: "本来想让你接着写 X 的" (a go said after it decides:
        # "..., 还是继续吧")
        r"|(?:本来|原本|本想|原来)(?:是)?(?:想|打算|准备|要)[^,.?!;]{0,12}?(?:继续|接着|恢复|推进|往下|开始)",
        0.9,
    ),
    Rule(
        "zh-hold",
        "OTHER",
        # (停 and 等 opening a noun are no hold: "停车场的报表", "等级规则")
        r"^(?:等一下|等等|等一等|等会|稍等|等下|停(?!车|牌|售|服|电|用|留|靠|机坪|机位)|停下|停止|暂停(?!的)|先停|先暂停|打住|慢着|且慢"
        r"|还没(?!\S*?(?:吗|呢)\W*$)|先别"
        # on second thought, a hold ("想了想还是缓缓", "改主意了"; "想了想还是继续吧" is a go)
        r"|想了想(?:还是)?(?:缓缓|缓一缓|先缓|算了|先别|先不|别|不要|停|等等)|^改主意了?\W*$"
        r"|还是(?:缓缓|缓一缓|先缓|先放一放|先放放)"
        r"|等(?!级|于|号|式|额|比|宽|同|价|差))|今天先到这|什么都(?:别|不要)|^(?:现在|暂时|今天)?(?:不要|别)(?:了|吧)?\W*$",
        0.8,
    ),
    *zh_kinds.HOLDS,  # waiting gone on with, a go after an event, "then" told (zh_kinds.py)
    *zh_kinds.ASKED_NOT,  # a finish denied, a hold asked, a backchannel; impatience, a choice
    *zh_more.EARLY,  # a clause of urgency, a choice left to the agent (zh_more.py)
    *zh_more.AUDITS,  # the protocol's state asked short (zh_more.py)
    # a question about the protocol's state now, not its design ("锁还是我们的吗？")
    Rule(
        "zh-audit-state",
        "AUDIT",
        # (not the code's own: "用户的登录会话现在还有效吗")
        r"^(?!.*(?:为什么|为啥|怎么|如何|是不是应该|会怎样|会怎么样|用户|登录|浏览器|数据库|mutex|互斥|分布式"
        r"|redis|行锁|表锁|读写锁))(?:.*(?:别人|其他人|别的会话|别的agent|谁)"
        rf"(?:拿着|持有|占着|在用|有)\S*{_PROTOCOL}|.*{_PROTOCOL}\S*\s?\S{{0,4}}?(?:还是我们的|是我们的"
        r"|还有效|有效吗|还?完整吗|完好吗"
        r"|过期|失效|对得上|对不上|(?:一致|同步|干净|对上)了?吗)|.*孤儿|.*(?:还有|剩下|残留|留下)\S*(?:旧|过期|没清理)"
        rf"\S*{_PROTOCOL}|.*(?:违反|违背|破坏)(?:了)?协议)",
        0.8,
    ),
    # the present state of the task's lock, session, worktree or hook, asked: who has it, how
    # many are open, whether it is still there, who disabled it, whether it matches
    # ("锁现在还在你手上吗", "现在开着几个工作树", "钩子是不是被谁关了"; not "数据库的锁现在还在吗",
    # "会话过期了会怎样")
    Rule(
        "zh-audit-now",
        "AUDIT",
        _NOT_OURS + rf"(?:.*{_HELD}\S{{0,6}}?(?:还|现在|目前)?(?:在|归)(?:你|谁|我们|别人|哪个)"
        r"(?:手上|手里|那|这|名下)?(?=.*(?:吗|呢|\?|没有?\W*$))"
        rf"|.*{_HELD}\S{{0,6}}?(?:在|归)谁"
        rf"|.*(?:现在|目前|还|当前)\S{{0,4}}?(?:挂着|开着|留着|有|剩|残留)(?:着)?几个\S{{0,3}}?{_HELD}"
        rf"|.*{_HELD}\S{{0,6}}?(?:是不是|有没有)被(?:谁|人|别人)?(?:禁用|删|关|改|动|停|卸|覆盖)"
        rf"|.*{_HELD}\S{{0,6}}?被(?:谁|别人)(?:禁用|删|关|改|动|停|卸|覆盖)"
        rf"|.*{_HELD}\S{{0,6}}?(?:还|现在)(?:正常|在|存在|活着|开着|有效|干净|完整)(?:吗|不|没|呢)"
        rf"|.*(?:现在|当前)的?{_HELD}是(?:我|你|谁)"
        rf"|.*{_HELD}\S{{0,12}}?(?:和|跟|与)\S{{0,16}}?(?:一样|相同|一致|对得上)(?:吗|不|没)"
        # said as a request: "锁的状态看一下" (and in pinyin, "suo de zhuangtai kan yixia")
        rf"|.*{_HELD}的?状态(?:\s?(?:看|查|检查|确认|说|报)(?:一下|下)))",
        0.85,
    ),
    # the same, any present state or correctness of the task's own protocol object asked (a
    # question mark, 吗, 没(有) or 不 at the end, 是不是, 有没有, 谁, 哪): "锁文件里的进程号还在
    # 跑吗", "worktree现在指的是哪个分支", "会话退出的时候有没有正常收尾", "钩子现在装上了没有"
    Rule(
        "zh-audit-asked",
        "AUDIT",
        _HOW_OR_THEIRS
        + r"(?=.*(?:\?|吗|么|没有?\W*$|不\W*$|是不是|有没有|是否|对不对|在不在|谁|哪))"
        + rf"(?:.*{_OBJECT}.*{_NOW}|.*{_NOW}.*{_OBJECT})",
        0.85,
    ),
    # why the agent stopped, asked: a question ("怎么停了？", "为啥突然不动了"), not a go
    # ("怎么不继续": zh-nudge) nor a status request; a rule of its own, so the model's reading
    # of a status request must be very sure to replace it
    Rule(
        "zh-why-stopped",
        "QUESTION",
        r"^(?:你|它)?(?:怎么|为什么|为啥|咋)(?:突然|又|就)?(?:停|停下|停住|不动|不干|没动静)(?:了|啦)(?:呢|啊)?\W*$",
        0.85,
    ),
    # the rest, all of it done: "剩下几个 handler 也都实现了吧" (a go; "剩下几个？" asks)
    Rule(
        "zh-rest-done",
        "RESUMPTION",
        r"(?:剩下|其余|其他)[^,.?!;]{0,20}?(?:都|也)\S{0,2}?(?:实现|做|写|改|补|弄|搞|修)(?:了|掉|完)吧\W*$",
        0.85,
    ),
    # whether the code may do something, or does, asked yes or no: "两个任务会不会互相卡住",
    # "那条 SQL 走索引了没" ("今天会不会做完" asks for the work's status)
    Rule(
        "zh-behaviour-question",
        "QUESTION",
        r"会不会(?![^,.?!;]*(?:做完|写完|弄完|搞完|完成|搞定|做好|弄好|上线|合并|延期|来不及))"
        # (asked: "查询走索引了" tells)
        r"|(?:走|命中|用上|用到|打到)了?(?:索引|缓存|全表|主库|从库)\S{0,3}?(?:吗|没|不|呢|\?)"
        # a property of the code, its figure ("复杂度大概多少"; not the work's: "覆盖率补到多少了")
        r"|(?:复杂度|耗时|延迟|内存占用|占用|上限|qps|吞吐量?|并发数)\S{0,3}?(?:大概|大约|约)?是?多少"
        # whether it has something, asked to be recalled: "那个接口有没有频率限制来着"
        r"|(?:有没有|是不是|是否|能不能)[^,.?!;]{0,24}?来着\W*$",
        0.85,
    ),
    *zh_twentythird.AUDITS,  # whose a lock is, how old; a hook's catch; a design asked
    *zh_kinds.CHANGE,  # what a commit changed, a part written, asked (zh_kinds.py)
    zh_kinds.PART_ASKED,
    # how many so far, counted at the end: "表写了几张了", "待办里还挂着几条", "用例过了几条"
    # (where the work stands, never nothing asked: languages.firm)
    Rule(
        "zh-status-counted",
        "STATUS_REQUEST",
        r"(?:了|着)几(?:个|张|条|项|篇|页|处|次|轮|批|份)了?(?:呢|啊)?\W*$",
        0.85,
    ),
    Rule(
        "zh-status",
        "STATUS_REQUEST",
        r"(?:进度(?!条)|进展|情况|状态(?!栏|码))\s?(?:怎么样|如何|怎样|呢)|^(?:进度|进展|状态|情况)\W*$"
        r"|有(?:没有|什么)?(?:新)?(?:进展|进度|更新|消息)|(?:汇报|报告|总结|说下|说一下|讲讲|说说|聊聊|讲一下)(?:一下)?"
        r"(?:目前的|现在的)?(?:进度|进展|状态|情况)|(?:到|做到|进行到|走到)(?:了)?(?:哪|什么程度)"
        r"|(?:在|是)哪一步|(?:做|弄|搞)(?:完|好)了(?:吗|没)|(?:做|弄|搞|写|改|修|跑|测)(?:完|好|通)了?没有?\W*$"
        # still in a state: "流水线还红着吗", "CI 还挂着呢？"
        r"|还(?:红|绿|挂|卡|跑|堵|锁|排|开)着(?:吗|呢|没有?)|(?:完成|通过|结束|跑完|合并|部署|搞定)了"
        r"(?:吗|没)|(?:还剩|还差|剩下|还有)(?:什么|多少|几个|哪些)|(?:还要|还需要)多(?:久|长时间)"
        r"|(?:现在|目前)(?:在)?(?:做什么|干什么|忙什么)|怎么样了|(?:进行|进展)得怎么样"
        r"|(?<!防)(?:什么|啥)情况|^好了(?:吗|没)|做了(?:什么|哪些|啥)|卡在哪|卡住|绿(?:的|了)(?:吗|没)"
        r"|接下来|下一步(?:做什么|打算|是什么|干什么)|还有多久|^你现在在哪\W*$|还(?:缺|差)什么"
        r"|(?:现在|目前)在?干嘛|完成了(?:哪些|什么)|快(?:好|完)了|卡点|新消息|中间进度|情况如何"
        r"|那边怎么样|(?:有)?反馈了(?:吗|没)"
        r"|(?:现在|目前|当前)(?:是|在|处于)?(?:什么|哪个|啥)(?:状态|阶段|步骤)"
        r"|还(?:要|需要|得)\S{0,4}?(?:多久|多长时间|几分钟|几个?小时|几天)|(?:绿|红)的还是(?:红|绿)"
        r"|还在(?:跑|运行|构建|部署|编译|做|写|改|忙)|什么时候(?:能|可以|会)?(?:做完|好|完成|搞定|合并|上线"
        r"|结束)|(?:在|正在)(?:做|弄|搞|写)(?:哪|什么|啥)|(?:进展|进行|推进)(?:得)?(?:顺利|还顺利)"
        r"|还(?:缺|差|剩)(?:哪|什么|几|多少)|^(?:做|弄|搞|写|改)完了\W*$|目前为止|做了多少"
        r"|^(?:现在|目前)(?:怎么样|咋样)"
        # a summary (the noun) of the work: "给个工作进展的 summary", "发个今天工作的总结"
        # ("帮我总结一下这篇文章" is a task)
        r"|(?:进展|进度|工作|做了的|做的事|干了啥|做了啥)的? ?(?:summary|总结|汇总|小结|摘要)"
        # can it pass now, what is done: "lint现在能过吗？", "说说哪些已经搞定了"
        r"|(?:能|可以)(?:过|通过|跑通|跑过|编译过)了?吗|(?:哪些|什么)(?:已经)?(?:搞定|完成|做完|做好)了"
        r"|了(?:吗|没有?)\W*$"
        # the status asked for by its noun first, how a part is going, what changed since
        r"|(?:进度|进展|状态|情况)\S{0,4}?(?:汇报|报告|同步|更新|说|讲)(?:一下|下)"
        r"|(?:怎么样|咋样|如何)了|(?:弄|做|搞|写|改|进行)得(?:怎么样|咋样|如何)"
        r"|(?:改|动|弄|写|加|删)了(?:什么|哪些|啥)|(?:做|弄|搞|写|改)完了(?:哪些|什么|啥|多少)"
        r"|(?:啥|什么)进度|进度(?:咋样|怎样)"
        # not done yet, how long still, how much, which one now, which round: "还没做完吗",
        # "还要很久吗", "迁移弄了多少了", "你手上正在动的是哪个模块", "压测跑到第几轮了"
        r"|还没\S{0,4}?(?:完|好|结束|搞定)\S{0,2}?(?:吗|呢)|(?:还要|还需要|还得)(?:很|多)久"
        r"|(?:弄|搞|写|改|迁|跑|完成|处理)了多少|(?:在|正在)(?:动|改|忙|弄|搞)\S{0,3}?(?:哪|什么|啥)"
        r"|到(?:了)?第几(?:轮|步|个|批|阶段|页|条|项)"
        # what it does now, done by a time, how a run came out: "你在干嘛呢", "下班前能搞定吗",
        # "CI 结果如何"
        r"|^你?(?:在|正在)干(?:嘛|啥|什么)|前(?:能|可以)(?:搞定|做完|完成|弄完|弄好|做好|上线|收尾|合进去|合入|提测|交付)"
        # done yet, asked yes or no: "能提测了不", "什么时候能给我 review"
        r"|能(?:提测|收尾|交付|合进去|合入)了?(?:吗|不|没)|什么时候(?:能|可以)给我"
        r"|^\S{0,12}?\s?结果(?:如何|怎么样|咋样)\W*$"
        # the rest of the work listed: "把剩下的活列一下"
        r"|(?:剩下|还没做|没做完)的\S{0,4}?(?:列|说|讲|报)(?:一下|下|出来)"
        # what was got done (since a time), how many are done so far: "你都推进了啥",
        # "集群里几台机器升级完了" ("这几台机器升级完了" tells, "几台都升级完了" too)
        r"|(?:推进|完成|搞定|处理|干|弄|搞)了(?:啥|什么|哪些|多少)"
        r"|(?<![这那有前后好头])几(?:台|个|张|条|项|篇|处|次|轮|批|份|家|组|套|间|节)[^都已就,.?!;]{0,10}?"
        r"(?:完|好|通|过)了(?:吗|呢|没有?)?\W*$"
        # how many of them done, how far it got, how long still: "五个子任务完成几个了",
        # "覆盖率补到多少了", "还得一阵子吗" ("写好几个了" is "quite a few": left)
        r"|(?:完成|做完|写完|搞定|做好|弄完|跑完|改完|修完|测完)了?几(?:个|张|条|项|篇|处|批|份)了?(?:呢|啊|吗)?\W*$"
        r"|(?:补|提|涨|升|加|做|写|跑|推|迁)到(?:了)?多少了|还(?:要|得|需要)(?:一阵子?|一会儿?|好久|挺久)(?:吗|呢)"
        r"|(?:已完成|做完了?|完成了?)的?\S{0,3}?(?:和|跟|与)(?:未完成|没做完|没完成)"
        + zh_kinds.SEND,
        0.85,
    ),
    *zh_kinds.STATUS,  # done yet, by when; the code's yes or no (zh_kinds.py)
    *zh_more.MIDDLE,  # the work's state against a design question (zh_more.py)
    Rule(
        "zh-audit",
        "AUDIT",
        # (not an audit the user did, or a question about what it checks: "锁那块我昨天自己审计
        # 过了", "审计到底检查哪些东西？")
        r"审计(?!日志|表|字段|记录|模块|服务|过了|完了|到底|是什么|都?(?:检查|查)(?:哪些|什么|啥))"
        r"|audit|一致性|完整性|sanity check|健康检查|(?<!身)体检(?!报告|中心|表)"
        rf"|{_PROTOCOL}\S{{0,4}}?(?:全|都|全部|统统|挨个|逐个|从头)?(?:过一遍|过一下|检查一遍|查一遍|排查一遍"
        r"|核对一遍|捋一遍|检查一下|核对一下)"
        rf"|(?:跑|运行|执行).*doctor|违反(?:了)?协议|协议违规|{_CHECK}.*{_PROTOCOL}"
        # the 把 construction puts the object first: "把锁仔细排查一遍"
        rf"|把\s?{_PROTOCOL}\S{{0,8}}?{_CHECK}"
        r"|(?:和|与|状态|锁|worktree|journal|task\.json).*(?:一致|同步|干净|有效|正确|对不对)"
        r"|符合协议|孤立|" + _PROTOCOL + r".*(?:对一下|对一对|核对|比对|对比|对(?:个|一下|下)?账)",
        0.85,
    ),
    # a step told done by its subject ("我把对账写完了", "你把导出做完了吧"): a report, never the
    # imperative go "把对账写完" (languages.firm)
    Rule(
        "zh-told-done",
        "OTHER",
        r"^(?:我|我们|你|你们|他|她)(?:已经|刚|刚刚|都|也)?把[^,.;!?]{1,20}?(?:完|好)了(?:吧|啊|哈|呀)?\W*$"
        # sent to you: "文件发到你了", "日志传给你了" (not "交给你了", a go)
        r"|^[^,.;!?]{0,16}?(?:发|传|寄)(?:到|给)你(?:了|啦)\W*$",
        0.85,
    ),
    # what will happen after an event: how the protocol works, which no check answers, however
    # sure the model is of an audit ("worktree 删掉之后 journal 会怎样"; languages.firm)
    Rule("zh-question-what-happens", "QUESTION", r"会(?:怎样|怎么样|发生什么)", 0.85),
    Rule(
        "zh-question",
        "QUESTION",
        # (not a question word made indefinite by 都/也: "什么都没发生", "谁都可以")
        r"为什么|为啥|为何|何必|怎么(?!样了|都|也)|如何|什么(?!都|也)|哪(?:个|里|儿|些)(?!都|也)|谁(?!都|也)|多少|是否"
        r"|(?:吗|呢)\W*$"
        # where it is kept, how large, whether there is a risk: "state 存在哪", "开销有多大",
        # "有没有回溯爆炸的风险"
        r"|(?:打算|准备|应该|该)[^,.;!?]{0,20}?还是|是(?:干|做)(?:嘛|啥|什么)(?:用)?的|(?:存|放|写|定义|配置)在哪|有多(?:大|少|慢|快|高|长)|有没有\S{0,12}?(?:风险|隐患|副作用|影响)"
        r"|(?<!谢)(?<!谢你的)解释|说明一下|讲讲|介绍一下|^我?不太?(?:明白|懂|理解)|没懂|问个问题|有个问题|区别"
        r"|(?:什么|啥)意思|意思是"
        # asked as "A or not A": "高并发下会不会超卖", "重试有没有做退避"; a retelling asked for
        # which of two, the same verb after each: "价格是前端算还是后端算" (after the status
        # rule: "测试是绿的还是红的" asks for the work's state)
        r"|是[^,.?!;还]{1,8}?([^\s,.?!;])还是[^,.?!;]{1,8}?\1\W*$"
        r"|会不会|有没有(?:做|加|处理|考虑|实现)|(?:讲|说|解释)(?:一遍|清楚)|没看懂|帮我(?:理解|弄懂|搞懂|捋一下)|告诉我(?:为什么|为啥|怎么)",
        0.85,
    ),
    *zh_twentythird.LATE,  # wondering; a follow instruction; a thing asked what it is
    # the agent's own step first, then the go, one clause ("先把测试跑完再继续"; an event that
    # happens of itself, "CI绿了再继续", is zh-negated-resumption's, before): nothing beside the go
    # for the model to read as a hold (a later time or a condition still holds it)
    Rule(
        "zh-go-in-order",
        "RESUMPTION",
        r"^(?:你|那)?(?:就)?先把[^,.?!;]{1,24}?(?:做|写|跑|修|改|弄|搞|补|提交|处理|调|测)(?:完|好|通|掉|了)了?"
        r"(?:再|然后)(?:继续|接着\S{0,4}|往下\S{0,3}|恢复|推进)(?:吧|啊|哈)?\W*$",
        0.9,
    ),
    Rule("zh-resumption", "RESUMPTION", VERB, 0.9),
    *zh_more.LAST,  # the agent's turn, said (zh_more.py)
    *zh_kinds.GOES,  # the task's own step, what is missing of it (zh_kinds.py)
    zh_kinds.GO_SLANG,  # a go in slang (zh_kinds.py)
    # a part of the work to be finished, or done too, asked for: a go ("然后把对账写完",
    # "顺着把过号重排也做了吧"; not asked, "把对账写完了吗", nor told, "我把对账写完了", nor held,
    # "别把对账写完", whose 别 no opening word allows)
    Rule(
        "zh-finish",
        "RESUMPTION",
        r"^(?:行吧|好吧|那行|也行)?(?:你|现在|那|就|再|然后|顺着|顺便|顺手|接着|直接|安心|赶紧|麻溜|一口气)*把[^,.?!;]{1,24}?"
        r"(?:也|都)?(?:一起|一并)?(?:做|写|搞|弄|实现|开发|跑|改|补|修|对接|接)完(?:吧|就行|哈|啊)?\W*$"
        r"|^(?:顺着|顺便|顺手|接着|再|那就|就|你)*把[^,.?!;]{1,24}?也(?:一起|一并|顺便)?"
        r"(?:做|写|实现|搞|弄|补|加|改)(?:了|掉)吧\W*$",
        0.85,
    ),
    Rule(
        "zh-go-ahead",
        "RESUMPTION",
        r"^(?:可以|能|现在|那就)?(?:批准了?|下一步|走吧|开干|干吧|上吧|冲(?:吧|啊|鸭)?|搞起来?|开搞"
        r"|开工(?:吧|了|啦)?|干起来|(?:开工|开干|干活)(?:开工|开干|干活|吧|啦)+)\W*$",
        0.8,
    ),
    # a remark: an instruction to change something, a suggestion, a warning, an acknowledgement,
    # that asks nothing and holds nothing ("给X加个日志", "最好也支持 --json", "千万别 force push",
    # "哦"): last, so it decides only a clause no other rule read, and after a go it does not take
    # the go back ("继续吧，别手动改lock文件")
    Rule(
        "zh-remark",
        "OTHER",
        r"^(?!.*\?$)(?:(?:给|在|把|帮我|麻烦)\S*.*(?:加|添加|删掉|删除|去掉|改成|换成|重命名|拆|补)"
        r"(?:个|一个|一下|上|掉|成|些)|.*最好|(?:千万|绝对|可)?(?:别|不要)(?:手动|手工|直接|随便|乱)"
        r"|(?:千万|绝对|可)(?:别|不要))|^(?:哦|噢|喔|嗯+|啊|哈+|好吧|行吧|这样啊|原来如此)\W*$"
        # a log line or a thing the user did, reported: "日志里一直报 offset commit 失败",
        # "lock 文件我已经加进 gitignore 了"
        r"|^(?!.*\?$)(?:.*(?:日志|log)里?\S{0,4}?(?:一直|老是|总是|不停地?)?(?:报|刷|打印|出现)"
        r"|.*我(?:已经|刚才?|昨天|刚刚)[^,.?!;]{0,20}?了\W*$"
        r"|我\S{0,4}?(?:推进|做|写|改|弄|搞|完成|处理|修)了(?:不少|很多|好多|一些|一大半|大半|一部分|挺多)\W*$)",
        0.7,
    ),
    # the rest the same way, or all of it filled in: "剩下的都照这样改", "全部补齐" (not in VERB)
    Rule(
        "zh-rest",
        "RESUMPTION",
        r"^(?:剩下的|其余的|其他的)(?:都|也)?(?:照|按)(?:这样|这个|同样的?|着)\S{0,4}?(?:改|做|弄|写|来"
        r"|处理)(?!\S*(?:吗|没))|^(?:把)?(?:剩下的|其余的)?(?:全部|都)(?:补齐|补上|补全)(?:吧)?\W*$",
        0.85,
    ),
    *zh_twentythird.REMARKS,  # ignore it, a fact told, an acknowledgement, a prohibition
)

LANGUAGE = Language(
    code="zh-Hans",
    rules=RULES,
    fillers=(
        r"(?:好|好的|好吧|行|嗯|嗯嗯|ok|可以|没问题|谢谢|多谢|明白了|懂了|知道了|收到|那|那就|然后|对"
        r"|是的|是|很好)(?=[\s,!.]|$)"
    ),
    # a comma after a protocol object named as the topic does not split: "这个任务的锁，现在在谁
    # 手上？" asks about the lock (each noun a lookbehind of its own width)
    joiners="|".join(
        rf"(?<={noun}, )"
        for noun in "锁 锁文件 lock 工作树 worktree 会话 session 钩子 hook journal 任务记录 进程号"
        " pid".split()
    )
    # nor after a case named before an order to tell of it: "如果有超卖的情况, 告诉我"
    + "".join(
        rf"|(?<={noun}, )(?=(?:就|请)?(?:告诉我|跟我说))" for noun in "情况 可能 场景 风险".split()
    )
    + r"(?<!解锁, )(?<!门锁, )(?<!密码锁, )(?<!智能锁, )"
    + zh_kinds.JOINERS,
    # and after "before", as English splits before it: "继续之前|先汇报一下进度"
    # (not "as before": "按之前说好的来", "跟之前一样")
    connectives=r"(?=然后|但是|不过|可是)|(?<=之前)(?<!按之前)(?<!照之前)(?<!跟之前)(?<!像之前)|(?<=以前)",
    later=(
        r"明天|后天|今晚|今天晚上|晚点|晚些|稍后|待会|等会|一会儿|回头|下周|周一|改天"
        r"|开完会(?!了(?!再))|会后"
        r"|明(?:早|晚|儿)|傍晚"
        # (not a break that is over: "吃完饭了，我们继续"; "吃完饭了再继续" is later)
        r"|开会后|吃完饭(?!了(?!再))|午饭后|饭后|等我回来|我回来(?:之?后|以后|再)"
        # by form: a weekday, a clock time, a span, "after" an event
        # (not "第二点": a point of a list, nor "做完再继续": the agent's own step in order)
        r"|(?:周|星期|礼拜)[一二三四五六日天末]|(?<!第)(?:\d{1,2}(?:点|:\d{2})|(?:[二三四五六七八九十两]"
        r"|十[一二])点|一点(?:钟|半))|\d+\s?(?:分钟|小时|天)(?:之?后|以后)" + zh_kinds.PART_OF_DAY
    ),
    # "站会结束后再继续": an event's end, not the agent's own step ("把lint修完再继续")
    conditions=(
        # only on a condition, unless: "只有夜间构建通过了才回到代码上", "除非CI绿了"
        r"只有[^,.?!;]{1,24}?才|除非|了才(?:能|可以)?(?:继续|回|接着|往下|恢复|开始|推进)"
        rf"|{zh_kinds.AFTER}|^等(?!了|一下|等|会|下|一等|级|于|号|式|额|比|宽|同|价|差)\S|(?:的话)$"
        r"|(?:结束|散会|下班|午休|开完|忙完|上线|发布|发版|封版|合并|部署|评审|审批|批准)(?:完)?后"
    ),
    retractions=(
        r"算了|还是(?:停|别|不要|先停|先别|等|缓缓|缓一缓|先缓)|不(?:用|要)了|不继续了|别(?:做|弄|干)了|先不要"
        r"|收回|撤回|改主意|想了想还是(?!继续|接着|往下|恢复|推进|开始)"
    ),
    approvals=r"批准|同意|lgtm|方案(?:没问题|通过|可以)|审批通过|准了",
    negations=r"不|没|别|未",
    # a courtesy that leaves the timing to the agent ("你方便的话", "有空就"): not a condition
    courtesies=(
        r"(?:如果|要是)?(?:你|您)?(?:方便|愿意|乐意|想|可以|有空)的话[\s,]*(?:就)?"
        r"|(?:你|您)?有空(?:就|时|的时候)[\s,]*"
    ),
)
