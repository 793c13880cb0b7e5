"""The parts of a shell command that shell.py reads before it judges a command: variables the
command line sets and uses, here-documents and here-strings (a shell's standard input), the
commands `find -exec` and `xargs` run, and `$(git rev-parse --show-toplevel)`, a read-only query
whose answer is the worktree the command runs in. What stays unknown is marked `UNSEEN`, and a
command whose name or git subcommand is unseen is reported as unreadable (tool_guard.py denies it
in a guarded session).

Standard library only: this runs on every shell tool call.
"""

from __future__ import annotations

import os
import re

UNSEEN = "__SUBST__"  # a word, or part of one, that is only known when the command runs
# `$(git rev-parse --show-toplevel)`: known once the folder it runs in is (worktree_top); until
# then it is unseen, as any substitution
TOPLEVEL = UNSEEN + "TOPLEVEL__"
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=])([^}]*))?\}|([A-Za-z_]\w*))")
FIND_EXEC = {"-exec", "-execdir", "-ok", "-okdir"}


def expand(word: str, variables: dict[str, str], env: dict[str, str]) -> str:
    """`word` with `$name`, `${name}` and `${name:-default}` replaced by what the command line set
    (or the client's environment holds); what neither knows is left as written."""
    if "$" not in word:
        return word

    def value(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(4)
        known = variables.get(name, env.get(name))
        if known is not None and (known or match.group(2) not in (":-", ":=")):
            return known
        return match.group(3) if match.group(2) else match.group(0)

    return _VARIABLE.sub(value, word)


def known(inner: str) -> str | None:
    """The placeholder of a command substitution whose output is known before it runs (the
    worktree's top), else None."""
    return TOPLEVEL if inner.split() == ["git", "rev-parse", "--show-toplevel"] else None


def worktree_top(base: str | None, env: dict[str, str]) -> str:
    """What `git rev-parse --show-toplevel` prints, run in `base`: the nearest folder holding
    `.git`, links resolved; UNSEEN where git would answer otherwise or not at all (no such folder,
    none found, inside a `.git` folder, GIT_DIR or GIT_WORK_TREE set)."""
    if not base or not os.path.isabs(base) or "GIT_DIR" in env or "GIT_WORK_TREE" in env:
        return UNSEEN
    here = os.path.realpath(base)
    if not os.path.isdir(here):
        return UNSEEN
    while True:
        if os.path.basename(here) == ".git":
            return UNSEEN
        if os.path.lexists(os.path.join(here, ".git")):
            return here
        up = os.path.dirname(here)
        if up == here:
            return UNSEEN
        here = up


def shebang(path: str) -> str | None:
    """The program a script's `#!` line names (`sh` for `#!/bin/sh` and `#!/usr/bin/env sh`), else
    None."""
    try:
        with open(path, "rb") as fh:
            first = fh.read(256).split(b"\n", 1)[0].decode("utf-8", "replace")
    except OSError:
        return None
    words = first[2:].split() if first.startswith("#!") else []
    if words and os.path.basename(words[0]) == "env":
        words = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    return os.path.basename(words[0]) if words else None


def unseen(word: str) -> bool:
    """Whether the shell works `word` out only when the command runs."""
    return "$" in word or UNSEEN in word


def heredocs(text: str) -> tuple[list[str], dict[int, list[str]]]:
    """The command lines of `text`, here-document bodies left out, and the bodies that each line's
    `<<WORD` feeds (by the line's index), in order."""
    lines: list[str] = []
    bodies: dict[int, list[str]] = {}
    waiting: list[str] = []
    body: list[str] = []
    for line in text.splitlines():
        if waiting:
            if line.strip() == waiting[0]:
                bodies.setdefault(len(lines) - 1, []).append("\n".join(body))
                waiting.pop(0)
                body = []
            else:
                body.append(line)
            continue
        lines.append(line)
        at = line.find("<<")
        while at >= 0:
            if not line[at:].startswith("<<<"):
                word = line[at + 2 :].lstrip("-~ ").split()
                if word:
                    waiting.append(word[0].strip("'\"").rstrip(";&|)"))
                at = line.find("<<", at + 2)
            else:
                at = line.find("<<", at + 3)
    if waiting and body:  # a body never closed: the shell reads it to the end
        bodies.setdefault(len(lines) - 1, []).append("\n".join(body))
    return lines, bodies


def find_commands(args: list[str]) -> list[list[str]]:
    """The commands `find ... -exec CMD {} ;` runs (`-execdir`, `-ok`, `-okdir` too), each found
    path an unseen word."""
    found: list[list[str]] = []
    i = 0
    while i < len(args):
        if args[i] in FIND_EXEC:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+"):
                j += 1
            found.append([UNSEEN if "{}" in a else a for a in args[i + 1 : j]])
            i = j
        i += 1
    return found


def fed(name: str, words: list[str]) -> list[str]:
    """The command `xargs`/`parallel` (`name`) runs, its options gone: the words it reads from
    standard input are unseen, at the end or where `-I R`/`{}` puts them."""
    mark = "{}" if name == "parallel" else None
    i = 0
    while i < len(words) and words[i].startswith("-"):
        opt = words[i]
        if opt in ("-I", "--replace") and i + 1 < len(words):
            mark = words[i + 1]
            i += 2
            continue
        if opt.startswith("-I") and len(opt) > 2:
            mark = opt[2:]
        elif opt.startswith(("-i", "--replace=")) or opt == "-i":
            mark = opt.split("=", 1)[1] if "=" in opt else "{}"
        elif opt in ("-a", "-d", "-E", "-L", "-n", "-P", "-s", "-j", "--arg-file", "--delimiter"):
            i += 1
        i += 1
    command = words[i:]
    if name == "parallel" and ":::" in command:
        command = command[: command.index(":::")]
    if mark is not None and any(mark in w for w in command):
        return [w.replace(mark, UNSEEN) for w in command]
    return [*command, UNSEEN] if command else []


def option_c(args: list[str]) -> str | None:
    """The command string a `-c` option gives (`sh -c CMD`, `bash -lc CMD`, `su -c CMD`)."""
    for i, arg in enumerate(args):
        if arg == "-c" or (arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]):
            return args[i + 1] if i + 1 < len(args) else ""
    return None


def substitutions(text: str) -> tuple[str, list[str]]:
    """The text with `$(...)` and backquoted parts replaced by a placeholder, and those parts."""
    out: list[str] = []
    inner: list[str] = []
    i, quote = 0, ""
    while i < len(text):
        c = text[i]
        if quote == "'":
            quote = "" if c == "'" else quote
        elif c == "\\" and i + 1 < len(text):
            out.append(text[i : i + 2])
            i += 2
            continue
        elif c == "'" and not quote:
            quote = "'"
        elif c == '"':
            quote = "" if quote == '"' else '"'
        elif c == "`":
            end = text.find("`", i + 1)
            end = len(text) if end < 0 else end
            inner.append(text[i + 1 : end])
            out.append(known(inner[-1]) or UNSEEN)
            i = end + 1
            continue
        elif text.startswith("$(", i) or text.startswith("<(", i) or text.startswith(">(", i):
            depth, j = 1, i + 2
            while j < len(text) and depth:
                depth += {"(": 1, ")": -1}.get(text[j], 0)
                j += 1
            inner.append(text[i + 2 : j - 1])
            out.append((known(inner[-1]) or UNSEEN) if text[i] == "$" else UNSEEN)
            i = j
            continue
        out.append(c)
        i += 1
    return "".join(out), inner
