#!/bin/sh
# taskproto git hook: installed by `taskproto init`, removed by `taskproto init --uninstall`.
# A hook that was here before is kept beside this file as <hook>.taskproto-chained
# and runs first; its failure stops git as it did before.
hook=@HOOK@
ours() {
    [ -f @ENTRY@ ] && exec @PYTHON@ -I -S @ENTRY@ "$hook" "$@"
    echo "taskproto: $hook hook skipped: @ENTRY@ is gone; run \`taskproto init\` to reinstall it" >&2
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
case $hook in reference-transaction) [ "$1" = committed ] || exit 0 ;; esac
ours "$@"
