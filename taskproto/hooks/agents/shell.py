"""What a shell command would do, read the way an agent could write it to get around the guard.

`read_command(text, cwd, env)` returns a `ShellAction`: the paths it writes (or UNKNOWN where
the target cannot be established), the git refs it moves, the taskproto commands it runs, the
hook bypasses it asks for, and the strings of code it hands to an interpreter (scanned for
taskproto's own files). It sees through `bash -c`, `sh -c`, `eval`, `env`, `sudo`, `nohup`,
`timeout`, `xargs`, `find -exec`, `su -c`, command substitution, subshells, `cd`/`pushd`, `git
-C`, variables the command line sets, here-documents fed to a shell, scripts run by a shell or an
interpreter or by their path (a shell's `#!`), `$(git rev-parse --show-toplevel)` (the worktree's
top), `python3 -m taskproto`. A shell command cannot be fully understood: a target it
cannot establish it reports as UNKNOWN (the guard decides by the task's state); a command whose
name, git subcommand or shell input it cannot establish it reports as unreadable (the guard denies
it in a session that works on a task: shellwords.py).

Standard library only (`os`, `shlex`): this runs on every shell tool call.
"""

from __future__ import annotations

import os
import shlex

from taskproto.hooks.agents.commands import (
    UNKNOWN,
    ShellAction,
    absolute,
    config_env_bypass,
    writes,
)
from taskproto.hooks.agents.gitcmd import git_command
from taskproto.hooks.agents.shellwords import (
    TOPLEVEL,
    UNSEEN,
    expand,
    fed,
    find_commands,
    heredocs,
    option_c,
    shebang,
    substitutions,
    unseen,
    worktree_top,
)

__all__ = ["UNKNOWN", "ShellAction", "read_command"]

SEPARATORS = {";", "&&", "||", "|", "&", ";;", "|&", "\n"}
REDIRECTS = {">", ">>", ">|", "&>", "&>>"}
INPUTS = {"<", "<<", "<<<", "<&", "<<-"}
# the shell's words that open a compound command or a part of one: the command after them runs
RESERVED = {"{", "!", "if", "then", "elif", "else", "while", "until", "do"}


def _defines(words: list[str]) -> bool:
    """Whether `words` open a function's definition (`f ()`, `function f`): its body is read as
    the commands it runs, since the script may call it."""
    return len(words) > 2 and (words[0] == "function" or words[1] == "()")


HARMLESS_TARGETS = {"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"}
SHELLS = {"sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "busybox", "fish"}
INTERPRETERS = {"perl", "ruby", "node", "nodejs", "php", "lua", "Rscript", "deno", "bun", "tclsh"}
# wrapper -> options that take a value (the wrapped command follows the options)
WRAPPERS: dict[str, set[str]] = {
    "sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"},
    "doas": {"-u", "-C"},
    "nohup": set(),
    "time": {"-f", "-o"},
    "command": set(),
    "builtin": set(),
    "exec": {"-a"},
    "nice": {"-n"},
    "ionice": {"-c", "-n", "-p"},
    "chrt": set(),
    "taskset": set(),
    "setsid": set(),
    "stdbuf": {"-i", "-o", "-e"},
    "timeout": {"-s", "-k", "--signal", "--kill-after"},
    "watch": {"-n", "-d"},
    "unbuffer": set(),
    "caffeinate": set(),
    "flock": {"-w", "-E"},
}
CODE_WRITE_HINTS = (
    "open(",
    "write",
    "unlink",
    "remove",
    "rename",
    "rmtree",
    "mkdir",
    "makedirs",
    "system(",
    "subprocess",
    "popen",
    "spawn",
    "exec",
    "shutil",
    "touch",
    "chmod",
    "symlink",
    "link(",
    "copy",
    "truncate",
    "fs.",
    "File.",
    "IO.",
    "print >",
    "`",
    "os.",
    "Path(",
)
MAX_SCRIPT = 256 * 1024
# Variables a command may not set or drop for itself: taskproto's, and the agent clients' markers
# (clients/detect.py) by which the CLI knows it acts for an agent.
_HIDDEN = {
    "CLAUDECODE",
    "CLAUDE_CODE_SESSION_ID",
    "CODEX_SESSION_ID",
    "CODEX_THREAD_ID",
    "GEMINI_CLI",
}
MAX_DEPTH = 8


def read_command(text: str, cwd: str, env: dict[str, str]) -> ShellAction:
    action = ShellAction()
    action.text = text
    _Reader(action, env).run(text, cwd or None, 0)
    return action


def _tokens(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|()<>")
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        return list(lexer)
    except ValueError:  # an unbalanced quote: read it as plain words
        return line.split()


class _Reader:
    def __init__(self, action: ShellAction, env: dict[str, str]) -> None:
        self.action, self.env = action, env
        # GIT_* variables set for the next command (`VAR=x git`, `env VAR=x git`) or exported
        self.git_env: dict[str, str] = {}
        self.exported: dict[str, str] = {}
        self.variables: dict[str, str] = {}  # what the command line set (`g=git; $g ...`)
        self.stdin: str | None = None  # the next command's input text (a here-document), if known

    def run(self, text: str, base: str | None, depth: int) -> str | None:
        """Read a command text run in `base`; returns the folder it leaves the shell in."""
        if depth > MAX_DEPTH:
            self.action.targets.append(UNKNOWN)
            return base
        text, inner = substitutions(text)
        for part in inner:
            self.run(part, base, depth + 1)
        lines, bodies = heredocs(text)
        for at, line in enumerate(lines):
            base = self._line(_tokens(line) + [";"], base, depth, bodies.get(at, []))
        return base

    def _line(
        self, tokens: list[str], base: str | None, depth: int, bodies: list[str]
    ) -> str | None:
        stack: list[str | None] = []
        words: list[str] = []
        stdin: str | None = None
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            nxt = tokens[i + 1] if i + 1 < len(tokens) else ""
            if tok.isdigit() and (nxt in REDIRECTS or nxt in INPUTS or nxt == ">&"):
                i += 1  # the fd number of a redirection
                continue
            if tok in REDIRECTS or (tok == ">&" and not nxt.isdigit() and nxt != "-"):
                if nxt and nxt not in SEPARATORS and nxt not in HARMLESS_TARGETS:
                    target = self._word(nxt, base)
                    self.action.targets.append(absolute(target, base, self.env))
                i += 2
                continue
            if tok in INPUTS or tok == ">&":
                if tok in ("<<", "<<-"):
                    stdin = bodies.pop(0) if bodies else None
                elif tok == "<<<":
                    stdin = nxt
                elif tok == "<" and nxt:
                    stdin = self._read_script(self._word(nxt, base), base)
                i += 2
                continue
            if tok == "(":
                stack.append(base)  # a subshell: its `cd` does not outlive it
            elif tok == ")":
                base = self._segment(words, base, depth, stdin)
                words, stdin = [], None
                base = stack.pop() if stack else base
            elif tok in SEPARATORS:
                base = self._segment(words, base, depth, stdin)
                words, stdin = [], None
            else:
                words.append(tok)
            i += 1
        return base

    def _segment(
        self, words: list[str], base: str | None, depth: int, stdin: str | None = None
    ) -> str | None:
        """One simple command (`stdin`: its input's text, where a here-document gives it);
        returns the folder later commands run in (after a `cd`)."""
        self.git_env = {}
        while words and (words[0] in RESERVED or _defines(words)):
            # `{ cmd`, `then cmd`, `do cmd`, `! cmd`, `f() { cmd`, `function f { cmd`: cmd runs
            words = words[2:] if _defines(words) else words[1:]
        assigned: dict[str, str] = {}
        while words and "=" in words[0].split("/")[0] and not words[0].startswith("="):
            if words[0].startswith("TASKPROTO_"):
                self.action.env_taskproto.append(words[0].split("=")[0])
            name, _, value = words[0].partition("=")
            value = self._word(value, base)  # and `~` as the shell expands it after `=`:
            tilde = value == "~" or value.startswith("~/")
            assigned[name] = self.env.get("HOME", "~") + value[1:] if tilde else value
            self._git_variable(f"{name}={assigned[name]}", self.git_env)  # as expanded
            words = words[1:]  # VAR=value
        if not words:  # `g=git`: the shell's own variable, for the commands after it
            self.variables.update(assigned)  # and theirs, where the shell exports it (HOME)
            self.exported.update({k: v for k, v in self.git_env.items() if k in self.env})
            return base
        words = [self._word(w, base) for w in words]
        words, base = self._unwrap(words, base, depth)
        if not words:
            return base
        if unseen(words[0]):
            self._unreadable(f"the command's name, {words[0]}")
            return base
        name, args = os.path.basename(words[0]), words[1:]
        self.stdin = stdin
        try:
            path = absolute(words[0], base, self.env) if "/" in words[0] else UNKNOWN
            if path != UNKNOWN and shebang(path) in SHELLS:  # a shell script run by its path
                return self._shell("sh", [path], base, depth)  # read as `sh FILE` reads it
            return self._command(name, args, base, depth)
        finally:
            self.stdin = None

    def _word(self, word: str, base: str | None) -> str:
        """`word` as the shell has it when the command runs in `base`: the variables it knows, and
        the worktree's top where `$(git rev-parse --show-toplevel)` asks for it."""
        word = expand(word, self.variables, self.env)
        if TOPLEVEL in word:
            word = word.replace(TOPLEVEL, worktree_top(base, {**self.env, **self.exported}))
        return word

    def _unreadable(self, what: str) -> None:
        self.action.unreadable.append(what.replace(UNSEEN, "$(...)"))

    def _unwrap(
        self, words: list[str], base: str | None, depth: int
    ) -> tuple[list[str], str | None]:
        """Strip wrappers (`env VAR=x`, `sudo -u u`, `timeout 5`, ...) down to the real command."""
        while words:
            name = os.path.basename(words[0])
            if name == "env":
                words = words[1:]
                while words and (words[0].startswith("-") or "=" in words[0]):
                    opt = words[0]
                    if (
                        opt in ("-u", "--unset", "-C", "--chdir", "-S", "--split-string")
                        and len(words) > 1
                    ):
                        if opt in ("-u", "--unset") and words[1] in _HIDDEN:
                            self.action.env_taskproto.append(words[1])
                        if opt in ("-C", "--chdir"):
                            base = absolute(words[1], base, self.env)
                        if opt in ("-S", "--split-string"):
                            self.run(words[1] + " " + shlex.join(words[2:]), base, depth + 1)
                            return [], base
                        words = words[2:]
                        continue
                    if "=" in opt and opt.startswith("TASKPROTO_"):
                        self.action.env_taskproto.append(opt.split("=")[0])
                    if "=" in opt:
                        self._git_variable(opt, self.git_env)

                    words = words[1:]
                continue
            if name in ("xargs", "parallel"):
                words = fed(name, words[1:])  # its arguments come from its input
                continue
            if name not in WRAPPERS:
                return words, base
            takes_value = WRAPPERS[name]
            words = words[1:]
            while words and (
                words[0].startswith("-") or name in ("sudo", "doas") and "=" in words[0]
            ):
                self._git_variable(words[0], self.git_env)  # `sudo HOME=x git`: git's
                words = words[2:] if words[0] in takes_value else words[1:]
            if name in ("timeout", "nice") and words and words[0].replace(".", "").isdigit():
                words = words[1:]  # the duration
            if name == "flock" and words:
                words = words[1:]  # the lock file
            if name == "watch" and len(words) == 1:
                return _tokens(words[0]), base
        return words, base

    def _command(self, name: str, args: list[str], base: str | None, depth: int) -> str | None:
        act = self.action
        if name in ("read", "for", "select", "mapfile", "readarray", "getopts") or "-v" in args:
            for a in set(args) & {"HOME", "XDG_CONFIG_HOME"}:  # assigned a value not known here
                self._git_variable(f"{a}={UNSEEN}", self.exported)
        if name in ("export", "declare", "typeset", "readonly", "local", "unset"):
            act.env_taskproto += [
                a.split("=")[0]
                for a in args
                if a.split("=")[0] in _HIDDEN or a.startswith("TASKPROTO_")
            ]
            for a in args:  # exported: by export, `-x`, or a variable the shell exports (HOME)
                if name == "export" or "=" in a and ("-x" in args or a.split("=")[0] in self.env):
                    self._git_variable(self._word(a, base), self.exported)
            return base
        if name in ("cd", "pushd"):
            return absolute(args[0], base, self.env) if args and args[0] != "-" else None
        if name == "popd":
            return None  # the folder it returns to is not known here
        if name in SHELLS or name in ("eval", "source", "."):
            return self._shell(name, args, base, depth)
        if name.startswith("python") or name in INTERPRETERS or name in ("awk", "gawk", "mawk"):
            self._interpreter(name, args, base, depth)
            return base
        if name == "find":
            for run in find_commands(args):
                self._segment(run, base, depth + 1)
            return base
        if name in ("su", "runuser", "script") and (line := option_c(args)) is not None:
            self.run(line, base, depth + 1)
            return base
        if name == "taskproto" or name.endswith("/taskproto"):
            sub = next((a for a in args if not a.startswith("-")), "")
            if unseen(sub):
                self._unreadable(f"taskproto's command, {sub}")
            act.taskproto.append(args)
        elif name in ("uvx", "pipx") and args and "taskproto" in args[:3]:
            act.taskproto.append(args[args.index("taskproto") + 1 :])
        elif name == "git":
            git_command(act, args, base, self.env, {**self.exported, **self.git_env})
        else:
            writes(act, name, args, base, self.env)
        return base

    @staticmethod
    def _git_variable(word: str, into: dict[str, str]) -> None:
        name, _, value = word.partition("=")
        if name.startswith("GIT_") or name in ("HOME", "XDG_CONFIG_HOME"):  # git's settings' homes
            into[name] = value

    def _shell(self, name: str, args: list[str], base: str | None, depth: int) -> str | None:
        outer, self.exported = self.exported, {**self.exported, **self.git_env}  # `HOME=x sh -c`
        after = self._shell_run(name, args, base, depth)
        if name in SHELLS:  # a child shell's variables end with it
            self.exported = outer
        return after

    def _shell_run(self, name: str, args: list[str], base: str | None, depth: int) -> str | None:
        if name == "eval":
            return self.run(" ".join(args), base, depth + 1)
        stdin = self.stdin
        command = option_c(args)
        if command is not None:
            self.run(command, base, depth + 1)
            return base
        script = next((a for a in args if not a.startswith("-")), None)
        if script is None or "-s" in args:  # a shell reading its commands from its input
            if stdin is None:
                self.action.targets.append(UNKNOWN)
                self._unreadable(f"the commands {name} reads from its input")
            else:
                self.run(stdin, base, depth + 1)
            return base
        text = self._read_script(script, base)
        if text is None:
            self.action.targets.append(UNKNOWN)
            self._unreadable(f"the script {script}, which is not there to read")
            return base
        after = self.run(text, base, depth + 1)
        return after if name in ("source", ".") else base

    def _read_script(self, path: str, base: str | None) -> str | None:
        full = absolute(path, base, self.env)
        if full == UNKNOWN:
            return None
        try:
            with open(full, "rb") as fh:
                return fh.read(MAX_SCRIPT).decode("utf-8", "replace")
        except OSError:
            return None

    def _interpreter(self, name: str, args: list[str], base: str | None, depth: int) -> None:
        act = self.action
        if name.startswith("python") and len(args) >= 2 and args[0] == "-m":
            if args[1].split(".")[0] == "taskproto":
                act.taskproto.append(args[2:])
                return
        code: str | None = None
        for i, arg in enumerate(args):
            if arg in ("-c", "-e", "-E", "--eval", "-r") and i + 1 < len(args):
                code = args[i + 1]
                break
        if code is None and name in ("awk", "gawk", "mawk"):
            code = next((a for a in args if not a.startswith("-")), "")
            if ">" not in code and "system" not in code:
                return
        if code is None:
            script = next((a for a in args if not a.startswith("-")), None)
            code = self._read_script(script, base) if script else self.stdin
            if code is None:
                act.targets.append(UNKNOWN)
                return
        act.code.append(code)
        if "git" in code and (
            why := config_env_bypass({**self.exported, **self.git_env}, self.env)
        ):
            act.bypass = act.setting = why  # `HOME=x python3 -c '...git commit...'`
        if any(hint in code for hint in CODE_WRITE_HINTS):
            act.targets.append(UNKNOWN)
