"""How each agent client names its events and how it wants to be answered.

Seen with the real clients (docs/agents-clients-notes.md): all three block a tool
call on exit 2 with the reason on stderr; Claude Code and Codex take SessionStart
context as plain stdout; Gemini CLI only takes the JSON `additionalContext` form.
"""

from __future__ import annotations

from taskproto import plainjson as json

# What taskproto does at an event: session_start, prompt, tool, heartbeat, end; notify (the client
# waits for the user: only its activity is recorded, for the board).
KINDS = {
    "claude": {
        "SessionStart": "session_start",
        "UserPromptSubmit": "prompt",
        "PreToolUse": "tool",
        "PostToolUse": "heartbeat",
        "Stop": "heartbeat",
        "SubagentStop": "heartbeat",
        "PreCompact": "heartbeat",
        "SessionEnd": "end",
        "Notification": "notify",
    },
    "codex": {
        "SessionStart": "session_start",
        "UserPromptSubmit": "prompt",
        "PreToolUse": "tool",
        "PostToolUse": "heartbeat",
        "Stop": "heartbeat",
        "PreCompact": "heartbeat",
        "SessionEnd": "end",
        "PermissionRequest": "notify",
    },
    "gemini": {
        "SessionStart": "session_start",
        "BeforeAgent": "prompt",
        "BeforeTool": "tool",
        "AfterTool": "heartbeat",
        "AfterAgent": "heartbeat",
        "PreCompress": "heartbeat",
        "SessionEnd": "end",
        "Notification": "notify",
    },
}

CLIENTS = tuple(KINDS)

# What `init` installs: event -> matcher ("" for lifecycle events). The tool matchers keep reads
# from starting a process at all.
INSTALLED = {
    "claude": {
        "SessionStart": "",
        "UserPromptSubmit": "",
        "PreToolUse": "Write|Edit|MultiEdit|NotebookEdit|Bash",
        "Stop": "",
        "PreCompact": "",
        "SessionEnd": "",
        "Notification": "",
    },
    # Codex reports its shell tool as "Bash" (apply_patch heredocs included).
    "codex": {
        "SessionStart": "",
        "UserPromptSubmit": "",
        "PreToolUse": "Bash|apply_patch|Write|Edit",
        "Stop": "",
    },
    "gemini": {
        "SessionStart": "",
        "BeforeAgent": "",
        "BeforeTool": "write_file|replace|run_shell_command",
        "AfterAgent": "",
        "SessionEnd": "",
        "Notification": "",
    },
}


def kind(client: str, event: str) -> str | None:
    return KINDS.get(client, {}).get(event)


def context(client: str, event: str, text: str) -> str:
    """Stdout that puts `text` in front of the model at this event."""
    if not text:
        return ""
    if client == "gemini" or event != "SessionStart":
        # Gemini only reads the JSON form; for prompts all three take it.
        return json.dumps(
            {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}
        )
    return text + "\n"


# The client's last event -> what the session is doing. Claude Code sends Notification when it
# asks the user (a permission, or input after a long wait); Gemini CLI its Notification; Codex
# PermissionRequest. Stop / AfterAgent end a turn: the agent waits for the next prompt.
WORKING, WAITING, IDLE, ENDED = "working", "waiting", "idle", "ended"
STATUS = {
    "UserPromptSubmit": WORKING,
    "BeforeAgent": WORKING,
    "PreToolUse": WORKING,
    "BeforeTool": WORKING,
    "PostToolUse": WORKING,
    "AfterTool": WORKING,
    "PreCompact": WORKING,
    "PreCompress": WORKING,
    "SubagentStop": WORKING,
    "Notification": WAITING,
    "PermissionRequest": WAITING,
    "SessionStart": IDLE,
    "Stop": IDLE,
    "AfterAgent": IDLE,
    "SessionEnd": ENDED,
}


def activity_status(event: str, waiting_on_user: bool = False) -> str:
    """working / waiting / idle / ended; an idle agent whose task waits on the user is waiting."""
    found = STATUS.get(event, WORKING)
    if found == IDLE and waiting_on_user:
        return WAITING
    return found
