"""The forms whose reading the model (``model.py``) may not change (issue #45): each a rule
whose meaning its pattern reads whole, and the type the model, trained on words, once read it
as; and "go" itself denied, of which the model may not make a go (docs/interruptions.md,
"Eighteenth round: the lead's part")."""

from __future__ import annotations

import re
from importlib import import_module

# "go" itself denied, in any language beside the English word: "Tests grün → kein go", "pas de go"
NO_GO = re.compile(r"\b(?:no|kein\w*|pas de|sans|sin|sem|nada de)[ -]go\b|(?:不|别|没有?) ?go\b")

# Rules whose reading the model may not change to these types, however sure it is: never to a
# go, and to another type only in a message of one clause (a second clause may still ask for
# what the model reads: "¿por qué el worktree está en detached HEAD? … revísalo" asks a check
# too). Each is a form whose meaning the rule reads whole; the model, trained on words, once read
# each as the type named (docs/interruptions.md).
_AUDIT, _GO, _STATUS, _QUESTION = (
    frozenset({"AUDIT"}),
    frozenset({"RESUMPTION"}),
    frozenset({"STATUS_REQUEST"}),
    frozenset({"QUESTION"}),
)
FIRM: dict[str, frozenset[str]] = {
    # the app's own session, lock or hook ("die Session des Users"), or how the protocol works:
    # no check of the protocol answers it (not French's fr-question-how: its "quand" also reads
    # a past event, "… quand t'as crashé ?"; fr-question-whenever is its event in the present)
    "de-question-how": _AUDIT,
    "de-question-detect": _AUDIT,
    "fr-question-detect": _AUDIT,
    "es-question-how": _AUDIT,
    "fr-question-whenever": _AUDIT,
    "ja-check-done": _AUDIT,
    "zh-question-what-happens": _AUDIT,
    # why the work stopped ("你咋又停了"): a question, as English's "Why did you stop?" is
    "zh-why-stopped": _GO,
    # a step told done, a thing sent: a report ("我把对账写完了", "文件发到你了"), not the
    # imperative "把对账写完", nor asked
    "zh-told-done": _GO | _STATUS,
    # a request to go on explaining ("继续讲, 我没听懂", "説明を続けて"): its go word governs
    # telling, not the work
    "zh-go-on-explaining": _GO,
    "ja-go-on-explaining": _GO,
    # whether a go was done, asked in the past ("続けといてくれた？"): never a go itself
    "ja-go-done-asked": _GO,
    "es-explain-question": _GO,
    "pt-explain-question": _GO,
    "de-explain-question": _GO,
    "fr-explain-question": _GO,
    # why a protocol artefact is in a state it should not be ("journal里为什么有个会话开了没关"):
    # a check of it answers, not an explanation
    "zh-audit-why": frozenset({"QUESTION"}),
    # an order to tell why or where the code does a thing ("どこでリークしてるか教えて"): the
    # code's question, not where the work stands
    "ja-tell-question": _STATUS,
    # a go verb denied inside its own words ("setz … nicht fort", "va pas jusqu'au bout")
    "de-go-denied": _GO,
    "fr-go-denied": _GO,
    # how the code behaves, or what a change will do: the code's question, not where the work
    # stands ("那个 join 走全表了吗", "A atualização vai quebrar os testes?")
    "zh-behaviour-question": _STATUS,
    "pt-effect-question": _STATUS,
    # the app summed up for me ("resume pra mim a arquitetura"): an explanation, not the work's
    # summary; why a protocol artefact is wrong ("¿por qué el journal tiene una sesión sin
    # cierre?"): a check of it, not how it works
    "es-summary-question": _STATUS,
    "pt-summary-question": _STATUS,
    "es-audit-why": _QUESTION,
    "pt-audit-why": _QUESTION,
    # a judgment asked, or which of two ways the code takes: the design's question, not where
    # the work stands ("Ist es schlau, X synchron laufen zu lassen?", "… depuis l'API ou depuis
    # la base ?")
    "de-judgment-question": _STATUS,
    "fr-judgment-question": _STATUS,
    "de-either-question": _STATUS,
    "fr-either-question": _STATUS,
    # a fault told, in one clause: a remark, not a question ("le SQL a une erreur de syntaxe")
    "de-fault-remark": _QUESTION | _STATUS,
    "fr-fault-remark": _QUESTION | _STATUS,
    # how many are done so far: where the work stands, never nothing asked ("用例过了几条")
    "zh-status-counted": frozenset({"OTHER"}),
    # the twentieth round's (de_twentieth.py, fr_twentieth.py): an order to mark the task is no
    # check of its record and no go ("markier den Task als erledigt"); a past protocol event
    # asked is a check ("… freigegeben, als du pausiert hast?"); what a command does, a
    # threshold of the protocol, a question "in your opinion" are the code's questions; when
    # the user gets a piece of the work is where it stands
    "de-mark-remark": _AUDIT | _GO | _STATUS,
    "fr-mark-remark": _AUDIT | _GO | _STATUS,
    "de-audit-past": _QUESTION | _STATUS,
    "fr-audit-past": _QUESTION | _STATUS,
    "de-command-question": _AUDIT | _STATUS,
    "fr-command-question": _AUDIT | _STATUS,
    "de-threshold-question": _AUDIT | _STATUS,
    "fr-threshold-question": _AUDIT | _STATUS,
    "fr-opinion-question": _STATUS,
    "de-status-when": _QUESTION,
    "fr-status-when": _QUESTION,
    # the twentieth round's Spanish and Portuguese forms, each read whole: when the work is
    # ready, or its status sent, is where it stands, not the code's question ("¿cuándo tendré
    # la primera versión?"); what a change did, how a thing was done, in my opinion, an
    # upgrade's effect are the code's questions, not where the work stands; what the tool can
    # do is a question, no check of the protocol answers it ("¿se puede ejecutar el doctor
    # desde otro directorio?"); a past protocol event is an audit, not an explanation
    "es-status-when": _QUESTION,
    "pt-status-when": _QUESTION,
    "es-status-send": _QUESTION,
    "pt-status-send": _QUESTION,
    "es-change-asked": _STATUS,
    "pt-change-asked": _STATUS,
    "es-how-done-asked": _STATUS,
    "pt-how-done-asked": _STATUS,
    "es-opinion-asked": _STATUS,
    "pt-opinion-asked": _STATUS,
    "es-effect-asked": _STATUS,
    "pt-effect-asked": _STATUS,
    "es-tool-asked": _AUDIT,
    "pt-tool-asked": _AUDIT,
    "es-audit-past": _QUESTION,
    "pt-audit-past": _QUESTION,
    # the twenty-first round's (es_twentieth.py, pt_twentieth.py): a hold asked as a question
    # and a feeling told are no check asked ("¿puedes parar un momento?", "uf, algo no me
    # cuadra"); what time the work is done, or whether it reached its end, is where it stands;
    # a doubt on a fact of the code is its question; who holds the lock is the protocol's state
    "es-hold-asked": _AUDIT,
    "pt-hold-asked": _AUDIT,
    "es-feeling-remark": _AUDIT,
    "pt-feeling-remark": _AUDIT,
    "es-status-what-time": _QUESTION | _GO,
    "pt-status-what-time": _QUESTION | _GO,
    "es-status-reached-end": _QUESTION,
    "pt-status-reached-end": _QUESTION,
    "es-doubt-fact": _STATUS,
    "pt-doubt-fact": _STATUS,
    "es-audit-who-holds": _QUESTION | _STATUS,
    "pt-audit-who-holds": _QUESTION | _STATUS,
    # what a commit or PR changed: its content, a question, not where the work stands ("刚才那个
    # 提交改了些什么", "さっきのコミットで何が変わったか")
    "zh-change-question": _STATUS,
    "ja-change-question": _STATUS,
    # whether the code does a thing, asked yes or no ("这个接口支持分页没有"): not where the work
    # stands
    "zh-yesno-question": _STATUS,
    # the twenty-first round's German and French forms (de_twentieth.py, fr_twentieth.py), each
    # read whole: whether the agent found out what it looked into, impatience at the work, when
    # the user first sees it, a status as a fragment or an overview are where the work stands,
    # not the code's questions; a doubt on a fact of the code is its question; a casual check an
    # audit
    "de-status-found-out": _QUESTION,
    "fr-status-found-out": _QUESTION,
    "de-status-impatient": _QUESTION,
    "fr-status-impatient": _QUESTION,
    "de-status-first-time": _QUESTION,
    "fr-status-first-time": _QUESTION,
    "de-status-fragment": _QUESTION,
    "fr-status-fragment": _QUESTION,
    "de-status-overview": _QUESTION,
    "de-sure-question": _STATUS,
    "fr-sure-question": _STATUS,
    "de-audit-casual": _QUESTION | _STATUS,
    # the twenty-first round's: whether a part of the code was written ("down方法写了没"), which
    # of two ways is better ("用推送还是轮询比较好"), why the code does a thing in an order
    # ("どの順番で呼ばれる"), a design's reason wished known: the code's questions, not where the
    # work stands; still not done, said impatiently, and how far the work got: where it stands
    "zh-part-question": _STATUS,
    "zh-choice-question": _STATUS,
    "ja-reason-question": _STATUS,
    "ja-order-question": _STATUS,
    "zh-status-impatient": _QUESTION,
    "ja-status-how-far": _QUESTION,
    # the twenty-second round's Spanish and Portuguese forms (es_twentysecond.py,
    # pt_twentysecond.py), each read whole: what the agent has in hand, a recap of the work, what
    # works and what is left, how it goes asked for somebody else, a ticket's status, how much is
    # done are where the work stands; whose a protocol object is, and its age, are its state; a
    # complaint, an explanation praised and a failure told since when ask nothing; a doubt is
    # the code's question
    "es-status-in-hand": _QUESTION,
    "pt-status-in-hand": _QUESTION,
    "es-status-recap": _QUESTION,
    "pt-status-recap": _QUESTION,
    "es-status-done-left": _QUESTION,
    "pt-status-done-left": _QUESTION,
    "es-status-ticket": _QUESTION,
    "pt-status-ticket": _QUESTION,
    "es-status-passed-on": _QUESTION,
    "pt-status-passed-on": _QUESTION,
    "es-status-how-much": _QUESTION,
    "es-audit-whose": _QUESTION | _STATUS,
    "es-audit-age": _QUESTION | _STATUS,
    "pt-audit-age": _QUESTION | _STATUS,
    "es-complaint-remark": _QUESTION | _STATUS,
    "pt-complaint-remark": _QUESTION | _STATUS,
    "es-praise-remark": _QUESTION | _STATUS,
    "pt-praise-remark": _QUESTION | _STATUS,
    "es-failing-since-remark": _STATUS,
    "pt-failing-since-remark": _STATUS,
    "es-doubt-question": _STATUS,
    "pt-doubt-question": _STATUS,
    # the twenty-third round's: a protocol object's state asked as what happened to it, or its
    # owner as an order (an audit); a status asked as an order, "did you get to finish", a
    # passive "already done?", a day's summary, "what about X, closed?", a supposition (never a
    # go, nor a question)
    "es-audit-befallen": _QUESTION | _STATUS,
    "es-status-update-me": _QUESTION | _GO | frozenset({"OTHER"}),
    "es-status-done-passive": _QUESTION | _GO,
    "es-status-supposed": _QUESTION | _GO,
    "pt-audit-state-asked": _QUESTION | _STATUS,
    "pt-audit-show-owner": _QUESTION | _STATUS,
    "pt-status-update-me": _QUESTION | _GO | frozenset({"OTHER"}),
    "pt-status-got-to-finish": _QUESTION | _GO,
    "pt-status-done-passive": _QUESTION | _GO,
    "pt-status-recap-day": _QUESTION | _GO,
    "pt-status-what-about": _QUESTION | _GO,
    "pt-status-supposed": _QUESTION | _GO,
    # the twenty-second round's: a go asked about in the indicative ("et après tu reprends ?")
    # is no go; whose or how old a protocol object is, an audit; a doubt said, a question
    "fr-go-asked-plan": _GO,
    "de-audit-whose": _QUESTION | _STATUS,
    "fr-audit-whose": _QUESTION | _STATUS,
    "de-audit-age": _QUESTION | _STATUS,
    "fr-audit-age": _QUESTION | _STATUS,
    "de-doubt-question": _STATUS | _AUDIT,
    "fr-doubt-question": _STATUS | _AUDIT,
    "de-status-recap": _QUESTION | frozenset({"OTHER"}),
    # the twenty-second round's: where the work stands asked as what the agent does now, how
    # much is done, a ticket, a fragment or for someone else; a protocol artefact's owner, age or
    # release doubted; a step's safety asked (the code's question); a finish denied (a hold)
    "ja-status-doing-now": _QUESTION,
    "zh-status-how-much": _QUESTION,
    "zh-status-ticket": _QUESTION,
    "zh-status-fragment": _QUESTION,
    "zh-status-relayed": _QUESTION,
    "ja-audit-whose": _QUESTION | _STATUS,
    "ja-audit-age": _QUESTION | _STATUS,
    "zh-audit-whose": _QUESTION | _STATUS,
    "zh-audit-age": _QUESTION | _STATUS,
    "zh-audit-casual": _QUESTION | _STATUS,
    "ja-permission-question": _STATUS | _GO,
    "zh-negated-finish": _GO,
    # the twenty-third round's (ja_kinds.py, zh_twentythird.py)
    "zh-status-list-left": _QUESTION | _GO | {"OTHER"},
    "zh-status-supposed": _QUESTION | _GO | {"OTHER"},
    "ja-status-supposed": _QUESTION | _GO | {"OTHER"},
    "zh-audit-hook-caught": _QUESTION | _STATUS,
    "ja-audit-result": _QUESTION | _STATUS,
    "zh-design-question": _STATUS,
    "zh-used-question": _STATUS,
    "ja-design-question": _STATUS,
    "zh-what-question": _STATUS,
    "zh-prohibition-remark": _QUESTION | _STATUS,
    "ja-prohibition-remark": _QUESTION | _STATUS,
    "ja-keeps-on-remark": _STATUS,
    # the twenty-third round's (German, French): a protocol object's state asked, an audit; where
    # the work stands asked as an order or a supposition, a status; what a thing the agent
    # named is, or why (abbreviated), the code's question; a go to the next step, never held
    "de-audit-state-asked": _QUESTION | _STATUS,
    "fr-audit-state-asked": _QUESTION | _STATUS,
    "de-status-order": _GO | _QUESTION | frozenset({"OTHER"}),
    "fr-status-order": _GO | _QUESTION | frozenset({"OTHER"}),
    "de-status-supposed": _GO | _QUESTION,
    "fr-status-supposed": _GO | _QUESTION,
    "de-question-mentioned": _STATUS | _AUDIT,
    "fr-question-mentioned": _STATUS | _AUDIT,
    "fr-question-why-short": _STATUS | _GO,
}


# A form inside a broader rule whose reading the model may not change to these types (as
# FIRM, in one clause), by the module of this package and its constant that hold the form: the
# progress to be sent, or its percentage asked ("报个百分比"), which zh-status reads among
# looser words ("到目前为止做得很好" is praise, the model's OTHER). Imported only when asked.
FORMS: dict[str, tuple[str, str, frozenset[str]]] = {
    "zh-status": ("zh_kinds", "SEND", frozenset({"OTHER"})),
    # whose a protocol object is ("esse index.lock é seu?"), inside pt-audit-ask: its state, not a
    # question nor a status (the twenty-second round's, pt_twentysecond.py)
    "pt-audit-ask": ("pt_twentysecond", "WHOSE", frozenset({"QUESTION", "STATUS_REQUEST"})),
}


def kept(rule: str, found: str, clauses: int, normal: str = "") -> bool:
    """Whether the rules' reading by ``rule`` of a message of ``clauses`` clauses (its text
    ``normal``) stands against the model's ``found``: never made a go, and not made another
    type of ``FIRM`` (or of ``FORMS``, its form found in ``normal``) in one clause."""
    if found in FIRM.get(rule, ()) and (found == "RESUMPTION" or clauses < 2):
        return True
    where, name, types = FORMS.get(rule, ("", "", frozenset()))
    if found not in types or clauses > 1:
        return False
    form: str = getattr(import_module(f"{__package__}.{where}"), name)
    return re.search(form.lstrip("|"), normal) is not None
