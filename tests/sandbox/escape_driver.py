"""Run inside `taskproto agent exec`: every escape, by the most direct means a program has (shell,
Python, git plumbing, /proc). Prints one JSON object: each escape's exit status and output.

argv[1] is a JSON object of the paths and values the escapes aim at (the environment is the
sandbox's own: nothing of the test's gets in but through the command line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

P = json.loads(sys.argv[1])
PY = sys.executable


def raw(request: dict[str, object]) -> str:
    """Python that sends `request` to the agent's channel itself, exiting with the answer's code."""
    return (
        "import json, os, socket, sys; s = socket.socket(socket.AF_UNIX); "
        "s.connect(os.environ['TASKPROTO_CHANNEL']); "
        f"s.sendall({json.dumps(request).encode()!r}); s.shutdown(socket.SHUT_WR); "
        "a = json.loads(b''.join(iter(lambda: s.recv(65536), b''))); print(a); sys.exit(a['code'])"
    )


# (id, "sh" or "py", code): each must fail; the test also checks that nothing outside changed.
ESCAPES: list[tuple[str, str, str]] = [
    ("write the main worktree (shell)", "sh", f"echo x > '{P['main']}/README.md'"),
    ("create a file in the main worktree (Python)", "py", f"open({P['main']!r} + '/new.txt', 'w')"),
    ("write another agent's worktree", "sh", f"echo x > '{P['qa']}/x.txt'"),
    ("write task.json", "py", f"open({P['task_json']!r}, 'a').write(' ')"),
    ("replace task.json", "sh", f"cp '{P['task_json']}' /tmp/t && mv /tmp/t '{P['task_json']}'"),
    ("delete task.json", "sh", f"rm '{P['task_json']}'"),
    (
        "hold the task's lock (flock)",
        "py",
        f"import fcntl; fcntl.flock(open({P['task_json']!r} + '.lock'), fcntl.LOCK_EX)",
    ),
    ("read task.json", "sh", f"cat '{P['task_json']}'"),
    ("write the agent's own status file", "sh", f"echo {{}} > '{P['status']}'"),
    ("write in taskproto's root", "sh", f"touch '{P['root']}/planted'"),
    (
        "move main (git plumbing, the repository's git dir)",
        "sh",
        f"git --git-dir='{P['common']}' update-ref refs/heads/main HEAD",
    ),
    (
        "move main from the main worktree",
        "sh",
        f"cd '{P['main']}' && git update-ref refs/heads/main refs/heads/t-dev",
    ),
    (
        "move another agent's branch",
        "sh",
        f"git --git-dir='{P['common']}' update-ref refs/heads/t-qa HEAD",
    ),
    (
        "write a journal (update-ref)",
        "sh",
        f"git --git-dir='{P['common']}' update-ref refs/taskproto/tasks/t HEAD",
    ),
    (
        "write a journal's ref file",
        "py",
        f"open({P['common']!r} + '/refs/taskproto/tasks/t', 'w').write('0' * 40)",
    ),
    (
        "git replace in the repository",
        "sh",
        f"cd '{P['main']}' && git replace -f refs/heads/main refs/heads/t-dev",
    ),
    ("write packed-refs", "py", f"open({P['common']!r} + '/packed-refs', 'a').write('')"),
    (
        "write an object into the repository",
        "py",
        f"import os; os.makedirs({P['common']!r} + '/objects/ff', exist_ok=True); "
        f"open({P['common']!r} + '/objects/ff/planted', 'w')",
    ),
    (
        "push into the repository",
        "sh",
        f"c=$(git commit-tree 'HEAD^{{tree}}' -p HEAD -m x) && git push -q '{P['main']}' $c:main",
    ),
    (
        "git config of the repository",
        "sh",
        f"git --git-dir='{P['common']}' config core.hooksPath /tmp",
    ),
    ("git config of the agent's own git dir", "sh", "git config core.hooksPath /tmp"),
    ("plant a git hook", "sh", f"echo 'exit 0' > '{P['common']}/hooks/pre-commit'"),
    (
        "point the worktree at the repository's git dir",
        "sh",
        f"echo 'gitdir: {P['real_gitdir']}' > .git",
    ),
    ("delete the worktree's .git", "sh", "rm -f .git && test ! -e .git"),
    (
        "point the agent's git dir at other objects",
        "sh",
        'echo /tmp > "$(git rev-parse --git-dir)/objects/info/alternates"',
    ),
    ("write the client's settings", "sh", "echo '{}' > .claude/settings.local.json"),
    (
        "plant a client's settings where there were none",
        "sh",
        "echo '{}' > .codex/hooks.json || "
        "{ mkdir -p .gemini && echo '{}' > .gemini/settings.json; }",
    ),
    ("read ~/.ssh (shell)", "sh", f"cat '{P['home']}/.ssh/id_ed25519'"),
    ("read ~/.ssh (Python)", "py", f"print(open({P['home']!r} + '/.ssh/id_ed25519').read())"),
    ("read git credentials", "sh", f"cat '{P['home']}/.git-credentials'"),
    ("read ~/.aws", "sh", f"cat '{P['home']}/.aws/credentials'"),
    ("read ~/.config/gcloud", "sh", f"ls '{P['home']}/.config/gcloud/' | grep ."),
    (
        "reach the ssh agent socket",
        "py",
        f"import socket; s = socket.socket(socket.AF_UNIX); s.connect({P['ssh_sock']!r})",
    ),
    ("see a user process in /proc", "sh", f"test -e /proc/{P['user_pid']}/cmdline"),
    ("kill a user process", "sh", f"kill -TERM {P['user_pid']}"),
    ("read the board's memory", "py", f"open('/proc/{P['board_pid']}/mem', 'rb').read(1)"),
    (
        "find the board token in /proc",
        "py",
        "import glob, sys; token = sys.argv[1][::-1].encode(); "
        "found = [p for p in glob.glob('/proc/[0-9]*/*') if p.endswith(('/cmdline', '/environ'))"
        " and token in open(p, 'rb').read()]; sys.exit(0 if found else 1)",
    ),
    ("read the session registry", "sh", f"ls '{P['state_home']}/taskproto'"),
    # the review's escapes (issue #38's first paragraph), each by the agent's most direct means
    (
        "release the owner's claim through an exported session",
        "sh",
        f"export TASKPROTO_SESSION=s1; {PY} -m taskproto release t",
    ),
    (
        "approve the plan from a detached process with a clean environment",
        "sh",
        f"cd '{P['main']}' && env -i PATH=\"$PATH\" setsid {PY} -m taskproto --session s1 "
        "approve t --plan </dev/null",
    ),
    (
        "plant the sh hook's stamp",
        "sh",
        f"mkdir -p '{P['root']}/cache/quiet/owner' && touch '{P['root']}/cache/quiet/owner/s1'",
    ),
    # through the agent's channel (docs/sandbox.md, "The channel"): as the agent only
    (
        "the channel: release the owner's claim with --session",
        "sh",
        "taskproto --session s1 release t",
    ),
    ("the channel: approve the plan", "sh", "taskproto approve t --plan"),
    ("the channel: resume the paused task", "sh", "taskproto resume t"),
    (
        "the channel: read the user's key through --results",
        "sh",
        f"taskproto handoff t --to REVIEW --decision NO --results '{P['home']}/.ssh/id_ed25519'",
    ),
    (
        "the channel's socket, raw: approve as the owner",
        "py",
        raw({"kind": "cli", "argv": ["--session", "s1", "approve", "t", "--plan"]}),
    ),
]
# Judged by what they change (nothing, the test checks), not by their exit status: a hook answers
# 0 whatever it could not write, and doctor exits 0 on a task it finds healthy.
EFFECT_ONLY: list[tuple[str, str, str]] = [
    (
        "lift the pause with the prompt hook and a forged continue",
        "sh",
        f'echo \'{{"session_id": "s1", "hook_event_name": "UserPromptSubmit", '
        f'"prompt": "continue working", "cwd": "{P["main"]}"}}\' | '
        f"TASKPROTO_SESSION=s1 {PY} -m taskproto hook claude UserPromptSubmit",
    ),
    ("doctor --fix from inside", "sh", f"cd '{P['main']}' && {PY} -m taskproto doctor --fix"),
    (
        "the channel's socket, raw: the owner's forged continue",
        "py",
        raw(
            {
                "kind": "hook",
                "client": "claude",
                "event": "UserPromptSubmit",
                "payload": json.dumps(
                    {"session_id": "s1", "hook_event_name": "UserPromptSubmit", "prompt": "go on"}
                ),
            }
        ),
    ),
]


def attempt(kind: str, code: str) -> tuple[int, str]:
    # the token only reversed on any command line here, so finding it means finding another's
    argv = ["sh", "-c", code] if kind == "sh" else [PY, "-c", code, P["token_reversed"]]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    return proc.returncode, (proc.stdout + proc.stderr).strip()[-300:]


# independent of each other (each fails, or changes nothing): tried four at a time
with ThreadPoolExecutor(max_workers=4) as pool:
    outcomes = list(pool.map(lambda e: attempt(e[1], e[2]), EFFECT_ONLY + ESCAPES))
tried = dict(zip([e[0] for e in EFFECT_ONLY + ESCAPES], outcomes, strict=True))
results = {name: tried[name] for name, _, _ in ESCAPES}
effects = {name: tried[name] for name, _, _ in EFFECT_ONLY}

pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
print(json.dumps({"results": results, "effects": effects, "pids": pids, "env": dict(os.environ)}))
