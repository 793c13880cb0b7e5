#!/bin/sh
# taskproto git hook: installed by `taskproto init`, removed by `taskproto init --uninstall`.
# A hook that was here before is kept beside this file as <hook>.taskproto-chained
# and runs first; its failure stops git as it did before.
# The names below are shell-quoted when installed: no path is ever expanded as code.
hook=@HOOK@
entry=@ENTRY@
python=@PYTHON@
set -f  # no pathname expansion: input lines are split into fields below
# --- the fast path: "nothing to do" decided here, without starting Python ----------------------
# Only the commonest no-op is decided (a branch or ref that is no task's, trailers off); anything
# unusual (a bare repository, a `root` setting, settings that a run would parse) goes to Python,
# which decides as before. docs/hooks.md; tests/hooks/git/test_hook_fastpath.py compares the two.
# `#@only HOOK...` to `#@end`: lines the installer writes only into those hooks' scripts (bash
# parses every line before the first decision: each hook gets only what it runs; install.render).
input= consumed=
read_input() { # git writes these hooks' input once: keep it, to hand on to Python if need be
    consumed=1 input= busy=
    while IFS= read -r line || [ -n "$line" ]; do
        input="$input$line
"
        # shellcheck disable=SC2086 # split into fields on purpose (globbing is off)
        [ -n "$busy" ] || check_line $line || busy=1
    done
}
# check_line FIELDS...: false when this input line is one Python must look at
check_line() {
    case $hook in
#@only reference-transaction
    reference-transaction)
        [ $# -eq 3 ] || return 0
        case $3 in
        refs/taskproto/tasks/* | refs/replace/*) [ "$phase" = prepared ] && return 1 ;;
        refs/heads/*)
            is_task "${3#refs/heads/}" && return 1
            # an agent session the user started: the tool guard's branch rule (session_branches.py)
            [ -n "$sess" ] && [ "$phase" = prepared ] && return 1 ;;
        esac
        # in a task's or an agent's worktree only its own branch and git's own refs move (refs.py)
        [ -n "$inwt" ] && [ "$phase" = prepared ] || return 0
        case $3 in
        HEAD) return 1 ;;  # HEAD alone may leave its branch: detached.py decides
        */*) case $3 in refs/bisect/* | refs/rewritten/* | refs/worktree/* | refs/stash | refs/remotes/*) ;; *) return 1 ;; esac ;;
        esac ;;
#@end
#@only pre-push
    pre-push)
        [ $# -eq 4 ] || return 0
        [ "$2" = 0000000000000000000000000000000000000000 ] && return 0
        case $3 in refs/heads/*) ;; *) return 0 ;; esac
        settings prohibited_patterns protected_branches commit_trailers && return 1
        case $1 in refs/heads/*) is_task "${1#refs/heads/}" && return 1 ;; HEAD) is_task "$branch" && return 1 ;; esac ;;
#@end
    esac
    return 0
}
# mentions FILE WORD...: FILE exists and holds one of the words (as read_settings' byte test). A
# .taskproto.toml is small: read here, line by line (a grep is a process of its own, about 1 ms).
# A pyproject.toml may be long, and dash reads a byte per system call: grep reads it faster
# beyond a few KB. An unreadable file counts as mentioning them (Python decides).
mentions() {
    f=$1; shift
    [ -f "$f" ] || return 1
    [ -r "$f" ] || return 0
    case $f in
    */pyproject.toml)
        # bytes matched: LC_ALL=C spares grep loading a locale (about a tenth of its start)
        for w in "$@"; do LC_ALL=C grep -qF -e "$w" "$f" 2>/dev/null && return 0; done
        return 1 ;;
    esac
    while IFS= read -r l || [ -n "$l" ]; do
        for w in "$@"; do case $l in *"$w"*) return 0 ;; esac; done
    done <"$f"
    return 1
}
# settings WORD...: the settings file a run reads mentions one of the words (then Python parses it)
settings() {
    if [ -f "$main/.taskproto.toml" ]; then mentions "$main/.taskproto.toml" "$@"; return $?; fi
    mentions "$main/pyproject.toml" taskproto && mentions "$main/pyproject.toml" "$@"
}
# is_task BRANCH: true when BRANCH is a task's or an agent's branch (layout.Layout.branch_owner)
is_task() {
    b=$1
    case $b in '' | */* | .*) return 1 ;; esac
    [ -f "$tasks/$b/task.json" ] && return 0
    case $b in -*) return 1 ;; esac
    rest=$b head=
    while :; do
        case $rest in *-*) ;; *) return 1 ;; esac
        head=${head:+$head-}${rest%%-*}
        rest=${rest#*-}
        [ -n "$rest" ] && [ -d "$tasks/$head/agents/$rest" ] && [ -f "$tasks/$head/task.json" ] && return 0
    done
}
# bare CONFIG: the config may set core.bare (`bare = true|yes|on|1`, or `bare` alone, any case),
# or include another file that may: read here, as a grep was a process of its own in every hook
# run. It matches more lines than git would read as core.bare (then Python decides), never fewer;
# an unreadable config goes to Python too.
bare() {
    [ -f "$1" ] || return 1
    [ -r "$1" ] || return 0
    while IFS= read -r l || [ -n "$l" ]; do
        case $l in
        *[iI][nN][cC][lL][uU][dD][eE]*) return 0 ;;
        *[bB][aA][rR][eE]*=*) ;;
        *[bB][aA][rR][eE]*) return 0 ;;
        *) continue ;;
        esac
        case ${l#*=} in *[tT][rR][uU][eE]* | *[yY][eE][sS]* | *[oO][nN]* | *1*) return 0 ;; esac
    done <"$1"
    return 1
}
head_branch() {
    branch=
    IFS= read -r h <"$gd/HEAD" 2>/dev/null || [ -n "$h" ] || return 0
    case $h in "ref: refs/heads/"*) branch=${h#ref: refs/heads/} ;; esac
}
# nothing_to_do: exit status 0 when the run is a no-op for sure; sets $input for stdin hooks
nothing_to_do() {
    [ "${TASKPROTO_HOOK_FASTPATH-1}" = 0 ] && return 1
    [ -f "$entry" ] || return 1
    # the git dir and the main worktree, as git/files.py finds them: here, git's run in the main
    # worktree (no GIT_DIR, a .git folder); anywhere else, `elsewhere`, read below the first
    # decision (bash parses every line before it)
    inwt= sess=
    if [ -z "${GIT_DIR-}" ] && [ -d .git ] && ! [ -f .git/commondir ] && ! [ -f .git/gitdir ]; then
        gd=.git c=.git main=.
        [ -f .git/HEAD ] || return 1
        # a bare repository (also one named .git, with linked worktrees): its folder is the main one
        bare .git/config && return 1
    elif [ -n "${later-}" ]; then elsewhere || return 1
    else return 4; fi
    settings root && return 1  # a root setting (or a file to parse for it): Python reads it
    if [ -n "${TASKPROTO_ROOT-}" ]; then
        case $TASKPROTO_ROOT in /*) root=$TASKPROTO_ROOT ;; *) root=$main/$TASKPROTO_ROOT ;; esac
    else root=$main/.taskproto; fi
    tasks=$root/tasks
    case $hook in
#@only reference-transaction
    reference-transaction)
        if [ -n "${later-}" ] && [ -f "$gd/gitdir" ]; then task_worktree || return 1; fi
        # a git `agent start` started: its worktree's rule holds wherever it runs (refs.py)
        [ "${TASKPROTO_AGENT-}" = 1 ] && [ -n "${TASKPROTO_TASK-}" ] && [ -n "${TASKPROTO_AGENT_NAME-}" ] && inwt=1
        # an agent's git: whether it is a session the user started, held to its task's branches,
        # Python decides (session_branches.agent_session, asked by refs.py), not a copy here
        [ "${TASKPROTO_AGENT-}" = 1 ] && sess=1
        phase=${1-}
        case $phase in prepared) [ "${TASKPROTO_INTERNAL-}" = 1 ] && return 0 ;; committed) ;; *) return 0 ;; esac ;;
#@end
#@only pre-push
    pre-push)
        [ -n "${PRE_COMMIT_LOCAL_BRANCH-}" ] && return 1
        head_branch ;;
#@end
    esac
    [ -d "$tasks" ] || return 0  # no task at all
#@only pre-push post-rewrite reference-transaction
    read_input  # git writes these hooks' input on stdin
#@end
    case $hook in
#@only pre-commit pre-merge-commit post-checkout post-merge post-rewrite
    pre-commit|pre-merge-commit|post-checkout|post-merge|post-rewrite)
        head_branch; is_task "$branch" && return 1; return 0 ;;
#@end
#@only commit-msg
    commit-msg)
        head_branch; is_task "$branch" || return 0
        settings prohibited_patterns protected_branches commit_trailers && return 1
        return 0 ;;  # trailers are off (the default)
#@end
#@only reference-transaction
    reference-transaction)
        [ -z "$busy" ] && return 0
        return 3 ;;  # `packing` decides (defined below the first decision: rarely needed)
#@end
#@only pre-push
    pre-push)
        [ -n "$busy" ] && return 1
        return 0 ;;
#@end
    esac
    return 1
}
settled() {  # nothing to do: exit (reference-transaction: "prepared" guards task branches and
    # journals, "committed" marks approvals stale, "aborted" has nothing to undo)
#@only reference-transaction
    case $hook in reference-transaction) [ "$1" = aborted ] && exit 0 ;; esac
#@end
    nothing_to_do "$@"; decision=$?
    [ "$decision" = 0 ] && exit 0
}
chained="${0%.legacy}.taskproto-chained"  # moved to <hook>.legacy by pre-commit: still ours
if ! [ -x "$chained" ]; then  # the commonest run, decided before the shell reads the rest below
    settled "$@"
    decided=1
fi
#@only reference-transaction
# packing: true when no update of the run moves a ref, as in `git pack-refs` (run by gc): in its
# "prepared" phase it writes each loose ref's own value into packed-refs (old value the zero id,
# the loose ref holding the new one already: refs.py `_stays`); then it deletes each loose copy
# that packed-refs holds with the same value (refs.py `_pruned`). Decided on what git leaves on
# disk, never on a process's name (anyone can spell one): a real deletion holds packed-refs.lock
# from its "prepared" phase to its end and leaves packed-refs without the ref; a prune holds
# neither. The "committed" phase of the packed-refs write goes to Python (once per pack). One
# read or grep per ref: gc finds few loose refs, as taskproto keeps them packed (git/reffiles.py).
packing() {
    [ -f "$c/packed-refs" ] || [ -f "$c/packed-refs.lock" ] || return 1
    n=0
    while IFS=' ' read -r o nw r rest; do
        [ -n "$o$nw$r$rest" ] || continue
        [ -n "$r" ] && [ -z "$rest" ] || return 1
        if [ "$nw" = 0000000000000000000000000000000000000000 ]; then
            [ "$o" != "$nw" ] || return 1
            if [ "$phase" = prepared ] && [ -e "$c/packed-refs.lock" ]; then return 1; fi
            LC_ALL=C grep -qxF -e "$o $r" "$c/packed-refs" 2>/dev/null || return 1
        else
            [ "$phase" = prepared ] && [ "$o" = 0000000000000000000000000000000000000000 ] || return 1
            [ -f "$c/$r" ] && [ -r "$c/$r" ] || return 1  # packed, or odd: Python decides
            IFS= read -r v <"$c/$r" && [ "$v" = "$nw" ] || return 1
        fi
        n=$((n + 1))
    done <<PRUNED
$input
PRUNED
    [ "$n" -gt 0 ]
}
#@end
# elsewhere: git's run in a linked worktree (GIT_DIR set), a .git file, or GIT_DIR set by hand:
# the git dir, the common dir and the main worktree
elsewhere() {
    if [ -n "${GIT_DIR-}" ]; then gd=$GIT_DIR
    elif [ -d .git ]; then gd=.git
    elif [ -f .git ]; then
        IFS= read -r l <.git || return 1
        case $l in "gitdir: "?*) gd=${l#gitdir: } ;; *) return 1 ;; esac
        case $gd in /*) ;; *) gd=./$gd ;; esac
    else return 1; fi  # a bare repository, or git run in an odd place: Python decides
    [ -f "$gd/HEAD" ] || return 1
    if [ -f "$gd/commondir" ]; then  # a linked worktree: the main one holds the common dir
        IFS= read -r c <"$gd/commondir" || return 1
        case $c in /*) ;; *) c=$gd/$c ;; esac
        c=$(cd "$c" 2>/dev/null && pwd -P) || return 1
        case $c in */.git) main=${c%/.git} ;; *) return 1 ;; esac
    else c=$gd; fi
    bare "$c/config" && return 1
    if [ -f "$gd/commondir" ]; then :
    elif [ -z "${GIT_DIR-}" ]; then main=.
    elif [ -n "${GIT_WORK_TREE-}" ]; then return 1
    else
        case $gd in .git) main=. ;; */.git) main=${gd%/.git} ;; *) return 1 ;; esac
        # git works in the folder it was started in (here), not in the main worktree: a move
        # from an agent's worktree through the main repository's git dir (Python decides)
        [ "$hook" != reference-transaction ] || [ "$gd" -ef .git ] || return 1
    fi
}
#@only reference-transaction
# task_worktree: whether this linked worktree is a task's or an agent's (inwt); a task's worktree
# is a linked one: its git dir names it (a push to `.` runs here); a path spelled otherwise: its
# branch is a task's (Python decides)
task_worktree() {
    IFS= read -r w <"$gd/gitdir" || return 1
    case ${w%/.git}/ in "$tasks"/*/code/ | "$tasks"/*/agents/*/code/) inwt=1 ;; esac
    [ -n "$inwt" ] || { head_branch; ! is_task "$branch" || inwt=1; }
}
#@end
later=1
if [ "${decision-}" = 4 ]; then settled "$@"; fi  # not the main worktree: decided now
#@only reference-transaction
[ "${decision-}" = 3 ] && packing && exit 0
#@end

ours() {
    [ -f "$entry" ] && [ -x "$python" ] && exec "$python" -I -S "$entry" "$hook" "$@"
    # the package moved (a reinstall: editable, or not): the interpreter finds it where it is now
    # and this folder's scripts are written again naming it (install.py `moved`), once
    if [ -x "$python" ] && ! [ -f "$entry" ]; then
        found=$("$python" -I -c 'import sys; from taskproto.hooks.git.install import moved; print(moved(sys.argv[1], sys.argv[2]))' "${0%/*}" "$python" </dev/null 2>/dev/null) &&
            [ -f "$found" ] && exec "$python" -I -S "$found" "$hook" "$@"
    fi
    gone=$entry; [ -f "$entry" ] && gone=$python
    # --- interpreter or entry gone (recovery, issue #16): block only commits on a task's branch ---
    case $hook in pre-commit|commit-msg|pre-merge-commit)
        branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null) || branch=
        if [ -n "$branch" ] && ! git for-each-ref --format='%(refname:strip=3)' refs/taskproto/tasks/ 2>/dev/null |
            while IFS= read -r task; do case $branch in "$task"|"$task"-*) exit 1 ;; esac; done; then
            printf 'taskproto: %s is gone, so the %s hook cannot check this commit on task branch %s; run `taskproto doctor --fix` to reinstall the hooks\n' "$gone" "$hook" "$branch" >&2
            exit 1
        fi ;;
    reference-transaction)  # what pre-commit did: a move of a task's or an agent's branch stops
        if [ "${1-}" = prepared ] && [ "${TASKPROTO_INTERNAL-}" != 1 ]; then
            tasks=$(git for-each-ref --format='%(refname:strip=3)' refs/taskproto/tasks/ 2>/dev/null)
            while IFS=' ' read -r o n r; do
                case $r in refs/heads/?*) ;; *) continue ;; esac
                for task in $tasks; do
                    case ${r#refs/heads/} in "$task"|"$task"-*)
                        printf 'taskproto: %s is gone, so the %s hook cannot check this commit on task branch %s; run `taskproto doctor --fix` to reinstall the hooks\n' "$gone" "$hook" "${r#refs/heads/}" >&2
                        exit 1 ;;
                    esac
                done
            done
        fi ;;
    esac
    # --- end of the recovery part ---
    printf 'taskproto: %s hook skipped: %s is gone; run `taskproto init` to reinstall it\n' "$hook" "$gone" >&2
    case $hook in pre-push|post-rewrite|reference-transaction) exec cat >/dev/null ;; esac
    exit 0
}

if [ -z "${decided-}" ]; then  # a hook chained: it runs first
    case $hook in
    pre-push|post-rewrite|reference-transaction)
        # git writes these hooks' input once: keep it for both.
        input=$(cat)
        if [ -n "$input" ]; then printf '%s\n' "$input"; fi | "$chained" "$@" || exit $?
        if [ -n "$input" ]; then printf '%s\n' "$input"; fi | {
            nothing_to_do "$@"; decision=$?
            [ "$decision" = 0 ] && exit 0
            [ "$decision" = 3 ] && packing && exit 0
            if [ -n "$consumed" ]; then printf '%s' "$input" | ours "$@"; else ours "$@"; fi
        }
        exit $? ;;
    *) "$chained" "$@" || exit $? ;;
    esac
    settled "$@"
fi
if [ -n "$consumed" ]; then  # the input was read to decide: hand it on
    printf '%s' "$input" | ours "$@"
    exit $?
fi
ours "$@"
