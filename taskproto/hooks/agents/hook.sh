#!/bin/sh
# taskproto agent-client hook: installed by `taskproto init --claude|--codex|--gemini`, removed by
# `taskproto init --uninstall`. Run as `/bin/sh hook.sh PYTHON CLIENT EVENT`, the client's JSON
# payload on stdin. The lifecycle events (a turn's end, a prompt, compaction, the session's end, a
# notification) decide "nothing to do" here, without starting Python, when they are sure: the
# session owns no task (so says the stamp Python left, or no task.json names it) and, for a prompt,
# it works in no task's worktree; or, for a heartbeat of the owner, the stamp says it is not due.
# A session start of a session that owns no task shows the free tasks Python listed last time
# (offer_cache.py), while nothing that list was made from has changed. While the tasks' index
# (state/index.py, appended to after every change of any task) is not newer than the stamp or the
# list, no task changed, and none is looked at: the work does not grow with the tasks.
# Everything else, and anything this script does not fully understand, goes to Python with the
# exact payload on stdin. docs/agents.md; tests/hooks/agents/test_hook_fastpath.py compares the two.
# TASKPROTO_HOOK_FASTPATH=0 turns the shell's decision off. The hook commands `init` writes run it
# through a launcher (clients/launcher.py: `/bin/sh agent.sh PYTHON CLIENT EVENT`), which reads it
# with `.` and sets $hook_sh to its path ($0 is then the launcher's).
python=$1 client=$2 event=$3
case $0 in */taskproto-hooks/agent.sh) ;; *) hook_sh=$0 ;; esac
entry=${hook_sh%/*}/entry.py
set -f  # no pathname expansion, except where it is turned on for one glob
# The programs below run with LC_ALL=C: they match and move bytes, and a locale's loading is about
# a tenth of their start. (Python is given the environment as it came.)
consumed= line= nl= more= made= last=

py() {  # hand the hook to Python, with the payload as it came
    [ -n "$made" ] && LC_ALL=C rm -f -- "$made"  # this turn's activity record (prepare)
    [ -n "$start" ] && cd -- "$start" 2>/dev/null
    [ -z "$consumed" ] && exec "$python" -I -S "$entry" "$client" "$event"
    if [ -n "$more" ]; then  # more than one line: what was read, then the rest
        { printf '%s\n' "$line"; printf '%s' "$rest"; exec cat; } | "$python" -I -S "$entry" "$client" "$event"
        exit $?
    fi
    printf "%s$nl" "$line" | "$python" -I -S "$entry" "$client" "$event"
    exit $?  # (Python's parent is this shell: common.client_pid skips shells)
}

start=
case $client:$event in
claude:Stop | claude:PostToolUse | claude:SubagentStop | claude:PreCompact | codex:Stop | \
    codex:PostToolUse | codex:PreCompact | gemini:AfterTool | gemini:AfterAgent | gemini:PreCompress)
    kind=heartbeat ;;
claude:UserPromptSubmit | codex:UserPromptSubmit | gemini:BeforeAgent) kind=prompt ;;
claude:SessionEnd | codex:SessionEnd | gemini:SessionEnd) kind=end ;;
claude:Notification | codex:PermissionRequest | gemini:Notification) kind=notify ;;
claude:SessionStart | codex:SessionStart | gemini:SessionStart) kind=start ;;
*) kind= ;;  # tool calls, unknown events: Python always
esac
case ${TASKPROTO_HOOK_FASTPATH-1} in
print-kind) printf '%s\n' "${kind:-python}"; exit 0 ;;  # for the tests: the table above
0) kind= ;;
esac
[ -z "${TASKPROTO_CHANNEL-}" ] || kind=  # in an agent's sandbox: its channel answers (Python)
[ -n "$kind" ] && [ -f "$entry" ] || py

# --- the payload: one line of JSON ---------------------------------------------------------------
consumed=1
IFS= read -r line && nl='\n'
if [ -n "$nl" ]; then
    rest=
    if IFS= read -r rest; then more=1 rest="$rest
"; elif [ -n "$rest" ]; then more=1; fi
    [ -z "$more" ] || py
fi
[ ${#line} -le 65536 ] || py

# A strict reader of the JSON grammar (RFC 8259). Only a valid object whose session_id and cwd (and
# the activity's detail) are plain strings counts; anything else goes to Python. The line is split
# once at its quotes (fields alternate between the text around strings and the strings' contents)
# and a string's escapes at its backslashes: dash's `${x#pattern}` is quadratic in what it matches,
# so a long string is never matched that way. $expect: v1 (the top object), v (a value), va (a
# value or `]`), k (a key), ko (a key or `}`), colon, ce (`,` or the end of the container), end.
string_part() {  # a piece of a string's contents: valid escapes? $open: its closing quote is escaped
    open=
    case $1 in *[[:cntrl:]]*) return 1 ;; *\\*) ;; *) return 0 ;; esac
    esc=1 whole=$1 e=
    IFS='\'
    set -- $1
    shift  # the text before the first backslash
    for sub do
        if [ -n "$e" ]; then e= ; continue; fi  # this backslash was the escaped character
        case $sub in
        '') e=1 ;;  # the next backslash is the escaped character
        [/bfnrt]* | u[0-9a-fA-F][0-9a-fA-F][0-9a-fA-F][0-9a-fA-F]*) ;;
        *) return 1 ;;
        esac
    done
    case $whole in *\\) if [ -n "$e" ]; then e=; else open=1; fi ;; esac  # the last one, split off
    [ -z "$e" ]
}
value_done() {  # a value ended; in the top object, keep the ones read ($1: s for a string)
    expect=ce
    [ "$stack" = o ] || return 0
    case $key in session_id | cwd | message | tool_name | reason | source | notification_type) ;;
    *) return 0 ;; esac
    case $seen in *" $key "*) return 1 ;; esac  # a repeated key: Python takes the last
    seen="$seen$key "
    if [ "$1" = s ]; then
        [ -z "$esc" ] || return 1
        eval "v_$key=\$str"
    else
        case $key in session_id | cwd) return 1 ;; esac
    fi
}
close() {
    stack=${stack%?}
    if [ -z "$stack" ]; then expect=end; else value_done o; fi
}
tokens() {  # the text between two strings (or before the first, after the last)
    t=$1
    [ ${#t} -le 512 ] || return 1
    while :; do
        t=${t#"${t%%[! ]*}"}  # JSON's other blanks (tab, CR) send the payload to Python
        case $t in '') return 0 ;; esac
        case $expect in
        colon) case $t in :*) t=${t#?} expect=v ;; *) return 1 ;; esac ;;
        ce)
            case $t:$stack in
            ,*o) t=${t#?} expect=k ;;
            ,*a) t=${t#?} expect=v ;;
            '}'*o | ']'*a) t=${t#?}; close || return 1 ;;
            *) return 1 ;;
            esac ;;
        ko) case $t in '}'*) t=${t#?}; close || return 1 ;; *) return 1 ;; esac ;;
        va | v | v1)
            case $expect:$t in
            v1:'{'*) ;;
            v1:*) return 1 ;;
            va:']'*) t=${t#?}; close || return 1; continue ;;
            esac
            case $t in
            '{'*) t=${t#?} stack=${stack}o expect=ko ;;
            '['*) t=${t#?} stack=${stack}a expect=va ;;
            true*) t=${t#true}; value_done o || return 1 ;;
            false*) t=${t#false}; value_done o || return 1 ;;
            null*) t=${t#null}; value_done o || return 1 ;;
            [-0-9]*)
                n=${t%%[!0-9eE.+-]*}
                t=${t#"$n"} m=${n#-}
                int=${m%%[!0-9]*}
                case $int in '' | 0?*) return 1 ;; esac
                m=${m#"$int"}
                case $m in .*) m=${m#.} d=${m%%[!0-9]*}; [ -n "$d" ] || return 1; m=${m#"$d"} ;; esac
                case $m in
                '') ;;
                [eE]*) m=${m#?} m=${m#[+-]}; case $m in '' | *[!0-9]*) return 1 ;; esac ;;
                *) return 1 ;;
                esac
                value_done o || return 1 ;;
            *) return 1 ;;
            esac ;;
        *) return 1 ;;  # k, end: nothing but a string may come
        esac
    done
}
parse() {  # (`case` where it can, not `[`: this runs for every field of every payload)
    stack= expect=v1 first=1 instr= open= str= esc= key= seen=' '
    IFS='"'
    for f in $1; do
        case $first:$instr:$open in
        1:*) first= ;;
        ::)  # a quote opens a string
            case $expect in v | va | k | ko) ;; *) return 1 ;; esac
            instr=1 str= esc= keep=  # keep: the top object's keys and the values read
            case $stack:$expect:$key in
            o:k* | o:v:session_id | o:v:cwd | o:v:message | o:v:tool_name | o:v:reason | \
                o:v:source | o:v:notification_type) keep=1 ;;
            esac ;;
        :1:1) case $keep in 1) str=$str'"' ;; esac ;;  # an escaped quote: the string goes on
        :1:)  # a quote closes the string
            instr=
            case $expect in
            k | ko)
                case $stack in o) case $esc in ?*) return 1 ;; esac; key=$str ;; esac
                expect=colon ;;
            *) value_done s || return 1 ;;
            esac ;;
        esac
        case $instr in
        1)
            case $f in  # a piece with no backslash or control character is fine as it is
            *[[:cntrl:]\\]*) string_part "$f" || return 1 ;;
            *) open= ;;
            esac
            case $keep in 1) str=$str$f ;; esac ;;  # (copying every string would be quadratic)
        *)
            case $expect:$f in  # the commonest: a colon after a key, a comma in an object
            colon::) expect=v ;;
            ce:,) case $stack in *o) expect=k ;; *) expect=v ;; esac ;;
            *) tokens "$f" || return 1 ;;
            esac ;;
        esac
    done
    unset IFS
    [ -z "$instr" ] && [ "$expect" = end ]
}
v_session_id= v_cwd= v_message= v_tool_name= v_reason= v_source= v_notification_type=
parse "$line" || { unset IFS; py; }
sid=$v_session_id
case $sid in '' | .* | *[!A-Za-z0-9._-]*) py ;; esac
[ ${#sid} -le 128 ] || py
if [ "$kind" = start ]; then  # a /clear hands the task over: Python
    [ "$v_source" != clear ] && [ "${TASKPROTO_QUICK-}" != 0 ] || py
fi
detail=
for d in "$v_message" "$v_tool_name" "$v_reason" "$v_source" "$v_notification_type"; do
    [ -n "$d" ] && { detail=$d; break; }
done
plain() { case $1 in *[!\ -~]* | *[\"\\]*) return 1 ;; esac; }  # printable ASCII, nothing to escape
plain "$detail" && [ ${#detail} -le 200 ] || py

# --- where: the real cwd, the repository around it, taskproto's root -----------------------------
start=$PWD
cwd=${v_cwd:-${GEMINI_CWD:-${CLAUDE_PROJECT_DIR:-}}}
case $cwd in /*) ;; *) py ;; esac
plain "$cwd" && cd -P -- "$cwd" 2>/dev/null || py
cwd=$PWD
plain "$cwd" || py
[ -z "${GIT_DIR-}" ] || py
d=$cwd main=
while :; do
    [ "$d" = / ] && d=
    if [ -d "$d/.git" ]; then
        [ -e "$d/.git/commondir" ] && py
        common=$d/.git main=${d:-/}
        break
    elif [ -f "$d/.git" ]; then
        IFS= read -r g <"$d/.git" || py
        case $g in "gitdir: "?*) g=${g#gitdir: } ;; *) py ;; esac
        case $g in *[[:space:]]*) py ;; /*) ;; *) g=$d/$g ;; esac
        cd -P -- "$g" 2>/dev/null && [ -f commondir ] || py  # a separate git dir: Python decides
        IFS= read -r c <commondir || py
        case $c in *[[:space:]]*) py ;; esac
        cd -P -- "$c" 2>/dev/null || py
        common=$PWD
        case $common in */.git) main=${common%/.git} ;; *) py ;; esac
        break
    elif [ -e "$d/.git" ] || { [ -f "$d/HEAD" ] && [ -d "$d/objects" ] && [ -d "$d/refs" ]; }; then
        py  # a bare repository, or a git dir itself
    fi
    [ -n "$d" ] || break
    d=${d%/*}
done
if [ -z "$main" ]; then  # in no repository: Python looks the session up in the registry
    [ "$kind" = notify ] && exit 0
    [ "$kind" = start ] && py
    state=${XDG_STATE_HOME:-}
    if [ -z "$state" ]; then [ -n "${HOME-}" ] || py; state=$HOME/.local/state; fi
    [ -e "$state/taskproto/sessions/$sid.json" ] && py
    cd -- "$start" 2>/dev/null
    exit 0
fi
# core.bare (a bare repository named .git keeps taskproto's root inside it), in any spelling git
# reads (`bare` alone is true), or a config that includes another file: Python decides
if [ -f "$common/config" ]; then
    [ -r "$common/config" ] || py
    while IFS= read -r l || [ -n "$l" ]; do
        case $l in
        *[iI][nN][cC][lL][uU][dD][eE]*) py ;;
        *[bB][aA][rR][eE]*=*) ;;
        *[bB][aA][rR][eE]*) py ;;
        *) continue ;;
        esac
        case ${l#*=} in *[tT][rR][uU][eE]* | *[yY][eE][sS]* | *[oO][nN]* | *1*) py ;; esac
    done <"$common/config"
fi
has() {  # has FILE WORD: FILE (a small one) holds WORD (0), or not (1); read here, no grep
    [ -r "$1" ] || return 2
    while IFS= read -r l || [ -n "$l" ]; do case $l in *"$2"*) return 0 ;; esac; done <"$1"
    return 1
}
# a `root` setting: Python reads it (and refuses a broken one). A pyproject.toml may be long, and
# dash reads a byte per system call: grep reads it faster beyond a few KB
if [ -e "$main/.taskproto.toml" ]; then
    [ -f "$main/.taskproto.toml" ] || py
    has "$main/.taskproto.toml" root; [ $? = 1 ] || py
elif [ -e "$main/pyproject.toml" ]; then
    LC_ALL=C grep -qsF taskproto -- "$main/pyproject.toml"
    case $? in 0) LC_ALL=C grep -qsF root -- "$main/pyproject.toml"; [ $? = 1 ] || py ;; 1) ;; *) py ;; esac
fi
case ${TASKPROTO_ROOT-} in '') root=$main/.taskproto ;; /*) root=$TASKPROTO_ROOT ;; *) root=$main/$TASKPROTO_ROOT ;; esac
if ! [ -d "$root" ]; then  # taskproto is not set up here: nothing to record, no task to own
    [ "$kind" != start ] && ! [ -e "$root" ] && ! [ -L "$root" ] && { cd -- "$start" 2>/dev/null; exit 0; }
    py
fi
cd -P -- "$root" 2>/dev/null || py
root=$PWD tasks=$PWD/tasks index=$PWD/index.jsonl
cd -- "$start" 2>/dev/null || py
plain "$root" || py

# --- the activity record, for the board (activity.py reads the file's time when it has none) ------
# `sh` writes its own records (Python's is `<session>.json`; the board takes the newest): each a
# new file, never one rewritten or renamed over (`sh` cannot tell a hard link, and a rename is a
# process, `mv`). The session's first is `<session>.sh`; the next ones `<session>+1.sh`,
# `<session>+2.sh`, ... up to +$SLOTS (`+` is in no plain session id), made in that order, so the
# last one is found by halving (`newest`). The next Python run of the session (a tool call, a
# session end, or the turn after the last slot) puts the newest at `<session>.sh` and removes the
# rest (activity.sweep). In a turn that finds the session owns no task the record is made before
# the task files are listed and read, and marked so: a stamp (below). Handing over to Python, `py`
# removes the record of this turn ($made): it was no stamp.
act=$root/activity
QUIET=', "quiet": "owns no task"'
SLOTS=64
slot=-  # the session's last numbered record (0: none), once `newest` has looked
newest() {  # $slot, and $last: the session's newest record's name
    lo=0 hi=$((SLOTS + 1))
    while [ $((hi - lo)) -gt 1 ]; do  # slot $lo is there (or 0), slot $hi is not (or past the last)
        slot=$(((lo + hi) / 2))
        if [ -e "$act/$sid+$slot.sh" ]; then lo=$slot; else hi=$slot; fi
    done
    slot=$lo last=$act/$sid+$lo.sh
    [ "$slot" != 0 ] || last=$act/$sid.sh
}
prepare() {  # prepare [MARK]: the session's next record, a new file, its time now
    [ -d "$act" ] && ! [ -L "$act" ] || py  # not made yet (Python makes it), or a planted link
    [ -n "$last" ] || newest
    if [ "$slot" = 0 ] && ! [ -e "$last" ] && ! [ -L "$last" ]; then
        rec=$last
    else
        [ "$slot" -lt "$SLOTS" ] || py  # every slot taken: Python sweeps them
        rec=$act/$sid+$((slot + 1)).sh
        ! [ -L "$rec" ] || py  # a dangling link
    fi
    set -C  # a new file (O_EXCL): never through a link, nor anything planted meanwhile
    { printf '{"session": "%s", "client": "%s", "event": "%s", "cwd": "%s", "detail": "%s"%s}\n' \
        "$sid" "$client" "$event" "$cwd" "$detail" "${1-}" >"$rec"; } 2>/dev/null || py
    set +C
    made=$rec
}
record() { [ -n "$made" ] || prepare; made=; }
if [ "$kind" = notify ]; then record; exit 0; fi

# --- the offer Python left (offer_cache.py): made from the task files as they are now? ----------
# `opened` opens it on fd 3 and reads its first line (once: $opened keeps the answer). It holds
# for every task when the tasks' index (state/index.py: the one write path appends a line to it
# after every change of any task, so its mtime is the tasks' generation) is not newer ($indexed),
# and else for a task when neither its task.json nor its folder (unless a heartbeat was the last
# change there) is newer; and the tasks folder and the journals must not be newer either
# (`vouches`): then a session its OWNERS do not list owns none of them. A start shows it only
# when it holds for every task ($vouched, when a turn has found so already) and nothing else it
# was made from is newer either (`fresh`).
opened= indexed=
opened() {
    [ -z "$opened" ] || return "$opened"
    opened=1
    [ -d "$tasks" ] || return 1
    c=$root/cache/quiet/offer/$client
    [ -f "$c" ] && ! [ -L "$c" ] && { command exec 3<"$c"; } 2>/dev/null || return 1
    c=/dev/fd/3  # the file read, whatever may be renamed over its name meanwhile
    [ -f "$c" ] || return 1
    IFS=' ' read -r fmt form free until alive dead beats lapsed owners size extra <&3 || return 1
    [ "$fmt" = taskproto-offer-2 ] && [ -n "$size" ] && [ -z "$extra" ] || return 1
    case $form:$free:$size in plain:[01]:* | json:[01]:*) ;; *) return 1 ;; esac
    case $size in *[!0-9]* | ??????????*) return 1 ;; esac
    [ -f "$index" ] && ! [ -L "$index" ] && ! [ "$index" -nt "$c" ] && indexed=1
    opened=0
}
vouched=  # every task was found unchanged
vouches() {  # vouches TASK_FILE...: for these tasks (each its task.json), and the tasks there are
    opened || return 1
    for j in "$tasks" "$common/refs/taskproto/tasks" "$common/packed-refs"; do
        [ "$j" -nt "$c" ] && return 1
    done
    [ -z "$indexed" ] || { vouched=1; return 0; }  # no task changed since: none is looked at
    for j do  # (inline: it runs over every task at a start, when a task changed since)
        [ "$j" -nt "$c" ] && return 1
        j=${j%/task.json}
        if [ "$j" -nt "$c" ]; then
            [ -f "$j/heartbeat.json" ] && ! [ "$j" -nt "$j/heartbeat.json" ] || return 1
        fi
    done
}
# --- does the session own a task? ----------------------------------------------------------------
# Two stamps say what the session owned as of their mtime. Python's (quiet.py): `<task> <pid>`, or
# `- -` for no task. And `sh`'s activity record, marked $QUIET when it was made in a turn that found
# no task naming the session: it was made before the task files were listed and read, and a file of
# its very mtime counts as changed. With no task, the newer of the two holds. The stamp's own task
# must be unchanged since (its folder, task.json), and every task that changed since (its task.json,
# or its folder unless its heartbeat was the last change there; every task when the tasks folder or
# packed-refs changed) must not name the session: one grep. A journal that moved must still have
# its task.json (Python rebuilds a lost one). Without a stamp: no task.json may name it. (Python
# parses only the files that name it.) No grep when there is something to grep and the offer
# Python left holds for those tasks (`vouches`: it was made from them as they are now): it lists
# the sessions that own one, and Python answers a session it lists. No task is looked at when
# neither the tasks' index nor the tasks folder nor the journals changed since the stamp (or in
# its tick): every change of a task through taskproto appends to the index after its task.json
# is written (`unmoved`).
owner=$root/cache/quiet/owner/$sid due=$root/cache/quiet/due/$sid
lf='
'
since() { [ -e "$1" ] && ! [ "$1" -ot "$stamp" ]; }  # changed since the stamp, or in its tick
unmoved() {  # no task changed since the stamp: the index (a regular file, there) is not newer,
    # nor the tasks folder (a task made or removed), the journals (one moved) or packed-refs
    [ -n "$stamp" ] && [ -f "$index" ] && ! [ -L "$index" ] && ! since "$index" &&
        ! since "$tasks" && ! since "$common/refs/taskproto/tasks" && ! since "$common/packed-refs"
}
pending() {  # $list: the task files to grep, one a line
    list= all=
    ! unmoved || return 0  # (the checks below grow with the tasks)
    if [ -z "$stamp" ] || since "$tasks" || since "$common/packed-refs"; then all=1; fi
    set +f
    if [ -z "$all" ] && since "$common/refs/taskproto/tasks"; then
        for j in "$common/refs/taskproto/tasks"/*; do
            { [ -e "$j" ] || [ -L "$j" ]; } && ! [ -f "$tasks/${j##*/}/task.json" ] && py
        done
    fi
    set -- "$tasks"/*/task.json
    set -f
    if [ "$1" = "$tasks/*/task.json" ]; then [ -e "$1" ] || [ -L "$1" ] || return 0; fi  # none
    if [ -n "$all" ]; then
        for j do case $j in "$own") ;; *) list=$list$j$lf ;; esac; done
        return 0
    fi
    # (as few commands a task as can be: this loop runs over every task on every turn)
    for j do
        case $j in "$own") continue ;; esac
        if [ "$j" -ot "$stamp" ]; then  # unchanged since; and its folder?
            d=${j%/task.json}
            [ "$d" -ot "$stamp" ] && continue
            [ -f "$d/heartbeat.json" ] && ! [ "$d" -nt "$d/heartbeat.json" ] && continue
        fi
        list=$list$j$lf
    done
}
mentions() {  # mentions FILE...: one of the task files names the session (1: none does)
    [ $# -gt 0 ] || return 1
    LC_ALL=C grep -qsF -e "\"$sid\"" -- "$@"
    case $? in 0) return 0 ;; 1) return 1 ;; *) py ;; esac
}
task=- own= pid= stamp=
# A prompt is never dropped on a stamp (a file in the cache could be planted): no stamp, no offer,
# every task.json is read (one grep), and Python answers when one names the session.
if [ "$kind" = prompt ]; then :
elif [ -f "$owner" ] && ! [ -L "$owner" ]; then
    IFS=' ' read -r task pid <"$owner" || py
    case $task in -) ;; '' | .* | *[!A-Za-z0-9._-]*) py ;; *) own=$tasks/$task/task.json ;; esac
    if [ -n "$own" ]; then
        [ -f "$own" ] && ! [ "$own" -nt "$owner" ] && ! [ "${own%/task.json}" -nt "$owner" ] || py
    fi
    stamp=$owner
elif [ -e "$owner" ] || [ -L "$owner" ]; then py
fi
if [ "$kind" = start ]; then opened || py; fi  # no offer to show: Python answers
if [ "$task" = - ]; then
    l= r=$act/$sid.sh
    [ -d "$act" ] && newest && r=$last
    [ -f "$r" ] && ! [ -L "$r" ] && { IFS= read -r l <"$r" || [ -n "$l" ]; }
    case $kind:$l in
    prompt:*) ;;  # a prompt trusts no stamp
    *"$QUIET}") { [ -z "$stamp" ] || [ "$r" -nt "$stamp" ]; } && stamp=$r ;;
    esac
    prepare "$QUIET"  # the next stamp: made before the task files are listed
fi
if [ "$kind" = start ] && [ "$task" = - ] && [ "$owners" != '?' ]; then
    # a start shows the offer only if it holds for every task (`fresh`, below), and then the
    # offer says who owns one: nothing to look at here
    case ,$owners, in *,"$sid",*) py ;; esac
else
    pending
    IFS=$lf
    set -- $list
    unset IFS
    if [ $# -gt 0 ] && [ "$kind" != prompt ] && [ "$task" = - ] && opened && [ "$owners" != '?' ] &&
        vouches "$@"; then
        # the offer was made from these tasks as they are now: no grep, unless it lists the session
        case ,$owners, in *,"$sid",*) py ;; esac
        set --
        [ -n "$vouched" ] || vouched=$all  # every task: a start's offer needs no other look
    fi
    mentions "$@" && py  # Python finds out (and leaves a stamp)
fi
# What only a start or the owner's heartbeat needs is defined below, where the shell reads it
# only for them: dash reads a function as it comes to it, about 130 instructions a byte.
if [ "$task" = - ] && [ "$kind" != start ]; then  # it owns no task
    case $kind in
    prompt) case $cwd/ in "$root"/*) py ;; esac ;;  # a prompt in a task's worktree: on that task
    end) [ "$slot" = 0 ] || py ;;  # numbered records left from its turns: Python sweeps them
    esac
    record
    exit 0
fi
# the owner's prompt is recorded, its session end is logged, its start names its task: Python
[ "$task" = - ] || [ "$kind" = heartbeat ] || py

# --- the client process, as common.client_pid finds it: $cpid; $comm its name when walked to ---
client_pid() {
    cpid= comm=
    case ${CLAUDE_PID-} in
    '' | *[!0-9]* | ????????*) ;;
    *) [ "$CLAUDE_PID" -gt 1 ] && [ -e "/proc/$CLAUDE_PID" ] && { cpid=$CLAUDE_PID; return; } ;;
    esac
    p=$PPID i=0
    while [ $i -lt 16 ]; do
        [ "$p" -gt 1 ] || py
        st=
        IFS= read -r st 2>/dev/null <"/proc/$p/stat" || [ -n "$st" ] || { cpid=$p; return; }
        head=${st%)*} tail=${st##*)}
        case ${head#*(} in
        sh | dash | bash | zsh | ash | ksh | fish | busybox) set -- $tail; p=$2 ;;
        *) cpid=$p comm=${head#*(}; return ;;
        esac
        i=$((i + 1))
        case $p in '' | *[!0-9]*) py ;; esac
    done
    py
}

if [ "$task" != - ]; then
    # --- the owner's heartbeat, not due yet -------------------------------------------------------
    case $pid in '' | *[!0-9]*) py ;; esac
    [ -f "$due" ] || py
    [ "$tasks/$task/heartbeat.json" -nt "$owner" ] && py  # rewritten in place
    client_pid  # Python re-claims from another client process
    [ "$cpid" = "$pid" ] || py
    record  # its time is now; the heartbeat is due at the due file's time
    [ "$due" -nt "$rec" ] || py
    exit 0
fi

# --- a session start: the offer, if it still holds -----------------------------------------------
offer() {
    case $cwd/ in "$root"/*) py ;; esac  # in a task's worktree: Python names the task
    fresh || py
    if [ "$until" != - ]; then
        case $until in '' | *[!0-9]*) py ;; esac
        IFS=' .' read -r up _ </proc/uptime || py
        [ "$up" -lt "$until" ] || py
    fi
    IFS=,
    set -- $alive
    unset IFS
    [ "$alive" = - ] && set --
    for p do  # still alive, and no zombie
        case $p in '' | *[!0-9]*) py ;; esac
        st=
        IFS= read -r st 2>/dev/null <"/proc/$p/stat" || py
        set -- ${st##*)}
        [ "$1" != Z ] || py
    done
    IFS=,
    for p in $dead; do [ "$p" = - ] || ! [ -e "/proc/$p" ] || py; done
    for t in $beats; do [ "$t" = - ] || [ -f "$tasks/$t/heartbeat.json" ] || py; done
    for t in $lapsed; do [ "$t" = - ] || ! [ "$tasks/$t/heartbeat.json" -nt "$c" ] || py; done
    unset IFS
    client_pid
    if [ -n "$comm" ]; then  # a script's process is named after it: its program decides
        exe=$(LC_ALL=C readlink -- "/proc/$cpid/exe" 2>/dev/null) || exe=$comm
        case ${exe##*/} in sh | dash | bash | zsh | ash | ksh | fish | busybox) py ;; esac
    fi
    IFS= read -r pre <&3 || py
    record
    if [ -n "${CLAUDE_ENV_FILE-}" ]; then
        hint="\`taskproto claim NAME\` (this session's id is already in TASKPROTO_SESSION)"
        { printf "export TASKPROTO_SESSION='%s'\nexport TASKPROTO_AGENT=1\nexport TASKPROTO_SESSION_PID=%s\n" \
            "$sid" "$cpid" >>"$CLAUDE_ENV_FILE"; } 2>/dev/null || py
    else
        hint="\`taskproto --session $sid claim NAME --pid $cpid\`"
    fi
    if [ "$form" = json ]; then sep='\n'; else sep='
'; fi
    printf '%s%s' "$pre" "taskproto: this session ($sid) owns no task."
    [ "$free" = 0 ] || printf '%sTo work on a free task, claim it first: %s.' "$sep" "$hint"
    # the rest: a short one line by line here (the file holds no NUL), a long one by `cat`
    [ "$size" -le 2048 ] || LC_ALL=C exec cat <&3
    while IFS= read -r l <&3; do printf '%s\n' "$l"; done
    printf '%s' "$l"  # the last line, when no newline ends it
    exit 0
}
fresh() {
    if [ -z "$vouched" ]; then
        set --
        if [ -z "$indexed" ]; then  # a task changed since the offer: each one is looked at
            set +f
            set -- "$tasks"/*/task.json
            set -f
            [ "$1" = "$tasks/*/task.json" ] && ! [ -e "$1" ] && set --  # no task
        fi
        vouches "$@" || return 1
    fi
    here=${hook_sh%/*}  # (and the launcher, $0: written anew when the package moved)
    for j in "$main/.taskproto.toml" "$main/pyproject.toml" "$root/workflows" "$hook_sh" "$0" \
        "$here/offer.py"; do
        [ "$j" -nt "$c" ] && return 1
    done
    set +f
    set -- "$root"/workflows/*.toml "$here"/../../machine/builtin/*.py
    set -f
    for j do [ "$j" -nt "$c" ] && return 1; done
    return 0
}
offer
