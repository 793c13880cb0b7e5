#!/usr/bin/env bash
# Install the real agent clients (Claude Code, Codex CLI, Gemini CLI) into a cache
# folder outside the repository, for the tests under tests/clients.
#
# Idempotent: a client already installed at its pinned version is skipped.
# No npm: print why and exit 0 (the client tests then skip with a message).
# npm present but an install fails: exit non-zero, so CI sees it.
set -euo pipefail

CLIENTS_DIR="${TASKPROTO_CLIENTS_DIR:-$HOME/.cache/taskproto-clients}"

# Pinned versions, checked with `npm view <pkg> version` and run offline here.
PACKAGES=(
    "@anthropic-ai/claude-code@2.1.330"
    "@openai/codex@0.169.0"
    "@google/gemini-cli@0.61.0"
)

if ! command -v npm >/dev/null 2>&1; then
    echo "install-clients: npm not found; agent client tests will be skipped." >&2
    exit 0
fi

mkdir -p "$CLIENTS_DIR"

installed_version() {
    # Prints the installed version of package $1 in CLIENTS_DIR, or nothing.
    local pkg_json="$CLIENTS_DIR/node_modules/$1/package.json"
    [ -f "$pkg_json" ] || return 0
    node -e 'process.stdout.write(require(process.argv[1]).version)' "$pkg_json"
}

missing=()
for spec in "${PACKAGES[@]}"; do
    name="${spec%@*}"
    want="${spec##*@}"
    have="$(installed_version "$name")"
    if [ "$have" = "$want" ]; then
        echo "install-clients: $name $want already installed"
    else
        missing+=("$spec")
    fi
done

if [ "${#missing[@]}" -gt 0 ]; then
    echo "install-clients: installing ${missing[*]} into $CLIENTS_DIR"
    # Saved (exactly) into the cache's own package.json: with --no-save, a later
    # install of one client would prune the others as extraneous. Optional deps
    # stay on: Claude Code and Codex ship their native binaries that way.
    npm install --prefix "$CLIENTS_DIR" --save-exact --no-fund --no-audit --loglevel=error \
        "${missing[@]}"
fi

status=0
for bin in claude codex gemini; do
    path="$CLIENTS_DIR/node_modules/.bin/$bin"
    if [ -x "$path" ] && version="$("$path" --version 2>/dev/null </dev/null)"; then
        echo "install-clients: $bin -> $path ($version)"
    else
        echo "install-clients: $bin at $path does not run" >&2
        status=1
    fi
done
exit "$status"
