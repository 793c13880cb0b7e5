#!/bin/sh
# taskproto git hook: installed by `taskproto init`, removed by `taskproto init --uninstall`.
# A hook that was here before is kept beside this file as <hook>.taskproto-chained
# and runs first; its failure stops git as it did before.
# The names below are shell-quoted when installed: no path is ever expanded as code.
hook=@HOOK@
entry=@ENTRY@
python=@PYTHON@
ours() {
    [ -f "$entry" ] && [ -x "$python" ] && exec "$python" -I -S "$entry" "$hook" "$@"
    gone=$entry; [ -f "$entry" ] && gone=$python
    # --- interpreter or entry gone (recovery, issue #16): block only commits on a task's branch ---
    case $hook in pre-commit|commit-msg|pre-merge-commit)
        branch=$(git symbolic-ref --quiet --short HEAD 2>/dev/null) || branch=
        if [ -n "$branch" ] && ! git for-each-ref --format='%(refname:strip=3)' refs/taskproto/tasks/ 2>/dev/null |
            while IFS= read -r task; do case $branch in "$task"|"$task"-*) exit 1 ;; esac; done; then
            printf 'taskproto: %s is gone, so the %s hook cannot check this commit on task branch %s; run `taskproto doctor --fix` to reinstall the hooks\n' "$gone" "$hook" "$branch" >&2
            exit 1
        fi ;;
    esac
    # --- end of the recovery part ---
    printf 'taskproto: %s hook skipped: %s is gone; run `taskproto init` to reinstall it\n' "$hook" "$gone" >&2
    case $hook in pre-push|post-rewrite|reference-transaction) exec cat >/dev/null ;; esac
    exit 0
}
chained="$0.taskproto-chained"
if [ -x "$chained" ]; then
    case $hook in
    pre-push|post-rewrite|reference-transaction)
        # git writes these hooks' input once: keep it for both.
        input=$(cat)
        if [ -n "$input" ]; then printf '%s\n' "$input"; fi | "$chained" "$@" || exit $?
        if [ -n "$input" ]; then printf '%s\n' "$input"; fi | ours "$@"
        exit $? ;;
    *) "$chained" "$@" || exit $? ;;
    esac
fi
# reference-transaction: "prepared" guards task branches and journals, "committed" marks approvals stale
case $hook in reference-transaction) [ "$1" = aborted ] && exit 0 ;; esac
ours "$@"
