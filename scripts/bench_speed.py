"""Every row of the speed goals (issue #20), for one or more checkouts, with the floor per venv.

    python scripts/bench_speed.py --venv after=.venv/bin/python \
        [--venv before=/work/before/.venv/bin/python ...] [--runs 15] [--seconds 3] [--tasks 1000]

Each checkout is driven only through what a user runs (its `taskproto` console script, the git
hooks and Claude Code hook commands that its `taskproto init` installs) plus, for transitions per
second, its Python API, so old and new checkouts are measured the same way. The floor is
`python -I -c pass` of the same venv, started exactly as the measured commands are: exec'd by
this process through `subprocess` with the same environment, no wrapper. The cases of all venvs
are interleaved run by run, each venv first in turn, so the machine's load falls on every column
alike. Prints Markdown. `--tasks N` adds the rows of a third repository of N tasks (made through
the CLI): a quiet Stop and a new session's start there, which must not grow with the tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)
from strace_exec import traced

OWNER = "bench-owner"
NOBODY = "bench-nobody"
NEW = "bench-new-session"  # replaced by a new session's id in each run (Checkout.fill)
TASKS = 20
AFTER_API = "SessionStart, a new session, after a script's transitions on the Python API"
RUBRIC = "acceptance=pass,risks=fail,validation=pass"  # not converged: the next round
FLOOR_AFTER_API = "`python -I -c pass` at the same moment (the floor of the row above)"
# The rows timed right after the previous commands' writes (each run's first Stop, the first start
# after a transition): every process is slower then, so the floor is also timed at that moment,
# before or after the row in turn, as for AFTER_API.
PAIRED = (
    "Stop, owns no task, tasks moved since its last turn",
    "SessionStart, a new session, after a `taskproto transition`",
)
# The rows of a few milliseconds that each run may time more than once (a run of the case leaves
# the state the next finds): each timing is a sample, so the median of a difference of two such
# rows (what the hooks add to a commit) is not one sample's noise. The floor too, the same way.
REPEAT = 5
REPEATED = (
    "floor",
    "commit, hooks",
    "commit, no hooks",
    "commit, empty hooks",
    "Stop, owns no task, nothing moved since its last turn",
    "UserPromptSubmit, owns no task, nothing moved since its last turn",
    "SessionStart, a new session, nothing changed since",
    "SessionStart, a resumed session that owns no task, nothing changed since",
    "Stop, owns a task, heartbeat not due",
)


def many_rows(tasks: int) -> tuple[str, str]:
    """The rows of the repository of `tasks` tasks (`--tasks`)."""
    return (
        f"Stop, owns no task, nothing moved since its last turn, a repository of {tasks} tasks",
        f"SessionStart, a new session, nothing changed since, a repository of {tasks} tasks",
    )


def run(cmd: list[str], cwd: Path, env: dict[str, str], stdin: bytes = b"") -> float:
    """Wall time of one run, in seconds; a failure stops the benchmark."""
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, capture_output=True, check=False)
    took = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} in {cwd} failed ({proc.returncode}): {proc.stderr.decode()}")
    return took


def out(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} failed: {proc.stderr}")
    return proc.stdout


class Checkout:
    """One venv's repository, set up through its own CLI, and the commands to time."""

    def __init__(self, label: str, python: str, base: Path) -> None:
        self.label, self.python = label, os.path.abspath(python)
        self.bin = Path(self.python).parent
        self.tp = [str(self.bin / "taskproto")]
        self.base = base / label
        self.repo = self.base / "repo"
        self.env = {
            "PATH": os.environ["PATH"],
            "HOME": str(self.base / "home"),
            "XDG_STATE_HOME": str(self.base / "state"),
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.invalid",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        }
        self.flip = 0
        self.how = ""  # how the venv has taskproto (`installed`)
        self.teams = 0  # phone-a-team tasks made so far, one per timed transition
        self.phase = 0  # where tight-loop's task is: PLAN, EXECUTE, REVIEW
        self.titles = 0  # subtasks added so far
        self.sessions = 0  # new sessions started so far
        self.tasks = 0  # the tasks of the third repository (`--tasks`); none: no such rows

    def installed(self) -> str:
        """How this venv has taskproto: a regular install, or an editable one, whose finder
        module every start of the venv's Python imports (its `.pth` file), the floor's too."""
        where = out(
            [self.python, "-c", "import taskproto; print(taskproto.__file__)"], self.base, self.env
        )
        if "site-packages" in where:
            return "installed as `pip install .` installs it"
        return f"editable (`pip install -e`, from {Path(where.strip()).parent.parent})"

    def git(self, *args: str, cwd: Path | None = None) -> str:
        return out(["git", *args], cwd or self.repo, self.env)

    def cli(self, *args: str, cwd: Path | None = None, session: str | None = None) -> str:
        env = {**self.env, **({"TASKPROTO_SESSION": session} if session else {})}
        return out([*self.tp, *args], cwd or self.repo, env)

    def setup(self, teams: int, tasks: int = 0) -> None:
        """The repository, its 20 tasks, and `teams` phone-a-team tasks in DO (one per run of
        each row that moves one); with `tasks`, a third repository of that many free tasks."""
        (self.base / "home").mkdir(parents=True)
        self.repo.mkdir()
        self.git("init", "-q", "--initial-branch=main")
        self.git("commit", "-q", "--allow-empty", "-m", "initial")
        self.cli("init", "--git", "--claude")
        # a second repository with exactly the 20 tasks of the goal's `task list` row
        self.twenty = self.base / "twenty"
        self.twenty.mkdir()
        self.git("init", "-q", "--initial-branch=main", cwd=self.twenty)
        self.git("commit", "-q", "--allow-empty", "-m", "initial", cwd=self.twenty)
        self.cli("init", "--git", cwd=self.twenty)
        for i in range(1, 21):
            self.cli("task", "create", f"t{i:02d}", cwd=self.twenty)
        self.many = self.base / "many"
        if tasks:
            self.tasks = tasks
            self.many.mkdir()
            self.git("init", "-q", "--initial-branch=main", cwd=self.many)
            self.git("commit", "-q", "--allow-empty", "-m", "initial", cwd=self.many)
            self.cli("init", "--git", cwd=self.many)
            for i in range(tasks):
                self.cli("task", "create", f"m{i:05d}", "-d", "bench", cwd=self.many)
        # phone-a-team's `task create` looks its backend up on PATH; it never runs it here
        stand_in = self.base / "bin" / "codex"
        stand_in.parent.mkdir()
        stand_in.write_text("#!/bin/sh\nexit 0\n")
        stand_in.chmod(0o755)
        self.env["PATH"] = f"{stand_in.parent}{os.pathsep}{self.env['PATH']}"
        self.cli("task", "create", "loop", "--workflow", "tight-loop")
        self.cli("claim", "loop", session=OWNER + "-2")
        self.cli("task", "create", "agents", "--agents", "a1")
        self.cli("claim", "agents", session=OWNER + "-2")
        for i in range(1, teams + 1):
            self.cli("task", "create", f"team{i:02d}", "--workflow", "phone-a-team", "-d", "bench")
            self.cli("claim", f"team{i:02d}", session=OWNER + "-2")
        for i in range(1, TASKS):
            self.cli("task", "create", f"t{i:02d}")
        self.cli("claim", "t01", "--pid", str(os.getpid()), session=OWNER)
        # t20 cycles IMPLEMENTATION <-> VALIDATION (no agents: VALIDATION's guard holds)
        self.rate_task(f"t{TASKS}")
        self.nohooks = self.base / "no-hooks"
        self.nohooks.mkdir()
        # the same hooks, each an empty `sh` script: what git's starting them costs
        self.emptyhooks = self.base / "empty-hooks"
        self.emptyhooks.mkdir()
        for hook in os.listdir(self.repo / ".git" / "hooks"):
            if not hook.endswith(".sample"):
                (self.emptyhooks / hook).write_text("#!/bin/sh\nexit 0\n")
                (self.emptyhooks / hook).chmod(0o755)
        # `init --claude` writes its hooks into the local settings (older versions: the shared)
        local = self.repo / ".claude" / "settings.local.json"
        shared = self.repo / ".claude" / "settings.json"
        settings = json.loads((local if local.exists() else shared).read_text())
        self.hook_cmd = {
            event: shlex.split(entries[0]["hooks"][0]["command"])
            for event, entries in settings["hooks"].items()
        }
        self.worktree = Path(
            json.loads(self.cli("task", "show", "t01", "--json")).get("worktree")
            or self.repo / ".taskproto" / "tasks" / "t01" / "code"
        )

    def payload(self, event: str, session: str, cwd: Path, **extra: str) -> bytes:
        data = {
            "session_id": session,
            "transcript_path": str(self.base / "transcript.jsonl"),
            "cwd": str(cwd),
            "hook_event_name": event,
            **extra,
        }
        return json.dumps(data).encode()

    def cases(self) -> dict[str, tuple[list[str], Path, dict[str, str], bytes]]:
        env, repo = self.env, self.repo
        hooks_off = ["git", "-c", f"core.hooksPath={self.nohooks}"]
        commit = ["commit", "-q", "--allow-empty", "-m", "bench"]
        owner_env = {**env, "TASKPROTO_SESSION": OWNER + "-2"}
        # Claude Code names itself to its hooks in CLAUDE_PID (docs/agents-clients-notes.md): here
        # the client is this script
        claude = {**env, "CLAUDE_PID": str(os.getpid())}
        # a start of a new session, as Claude Code gives each `claude` run a new session id
        # (`fill`); and a resumed one, whose id (and activity record) is there already
        start = (
            self.hook_cmd["SessionStart"],
            repo,
            claude,
            self.payload("SessionStart", NEW, repo, source="startup"),
        )
        resumed = (
            self.hook_cmd["SessionStart"],
            repo,
            claude,
            self.payload("SessionStart", NOBODY, repo, source="resume"),
        )
        stop_nobody = (
            self.hook_cmd["Stop"],
            repo,
            claude,
            self.payload("Stop", NOBODY, repo, stop_hook_active="false"),
        )
        many: dict[str, tuple[list[str], Path, dict[str, str], bytes]] = {}
        if self.tasks:
            stop_many, start_many = many_rows(self.tasks)
            many = {
                stop_many: (
                    self.hook_cmd["Stop"],
                    self.many,
                    claude,
                    self.payload("Stop", NOBODY, self.many, stop_hook_active="false"),
                ),
                start_many: (
                    self.hook_cmd["SessionStart"],
                    self.many,
                    claude,
                    self.payload("SessionStart", NEW, self.many, source="startup"),
                ),
            }
        return {
            "floor": ([self.python, "-I", "-c", "pass"], repo, env, b""),
            "commit, hooks": (["git", *commit], repo, env, b""),
            "commit, no hooks": ([*hooks_off, *commit], repo, env, b""),
            "commit, empty hooks": (
                ["git", "-c", f"core.hooksPath={self.emptyhooks}", *commit],
                repo,
                env,
                b"",
            ),
            # the first turn of a run comes after the previous run's commands moved tasks: one
            # grep over them; the next turns have nothing changed since theirs to look at
            "Stop, owns no task, tasks moved since its last turn": stop_nobody,
            "Stop, owns no task, nothing moved since its last turn": stop_nobody,
            "UserPromptSubmit, owns no task, nothing moved since its last turn": (
                self.hook_cmd["UserPromptSubmit"],
                repo,
                claude,
                self.payload("UserPromptSubmit", NOBODY, repo, prompt="please go on"),
            ),
            # `sh`'s answer from the offer: each run ends with a `taskproto transition`, which
            # renews it (offer.refresh), so the first start of the next run comes right after one;
            # the second has nothing changed since ...
            "SessionStart, a new session, after a `taskproto transition`": start,
            "SessionStart, a new session, nothing changed since": start,
            "SessionStart, a resumed session that owns no task, nothing changed since": resumed,
            # timed after each run of transitions per second only (`main`)
            AFTER_API: start,
            # ... and Python's: what a start costs when no offer is left, or after a change made
            # outside the CLI (the MCP server, the Python API)
            "SessionStart, a new session, answered by Python": (
                start[0],
                start[1],
                {**claude, "TASKPROTO_HOOK_FASTPATH": "0"},
                start[3],
            ),
            "Stop, owns a task, heartbeat not due": (
                self.hook_cmd["Stop"],
                self.worktree,
                claude,
                self.payload("Stop", OWNER, self.worktree, stop_hook_active="false"),
            ),
            "`task show t01 --json`": ([*self.tp, "task", "show", "t01", "--json"], repo, env, b""),
            "`task list` (every task of the repository)": (
                [*self.tp, "task", "list"],
                repo,
                env,
                b"",
            ),
            "`task list` (a repository of 20 tasks)": (
                [*self.tp, "task", "list"],
                self.twenty,
                env,
                b"",
            ),
            "`transition` (lock, save, journal, hooks)": (
                [*self.tp, "transition", "t20", "@flip"],
                repo,
                owner_env,
                b"",
            ),
            # each run on another task in DO (made in `setup`): DO -> REVIEW
            "`transition`, phone-a-team (DO -> REVIEW)": (
                [*self.tp, "transition", "@team", "REVIEW"],
                repo,
                owner_env,
                b"",
            ),
            # the next task in DO (made in `setup`, two for each run): DO -> REVIEW ...
            "`round review`, phone-a-team (DO -> REVIEW)": (
                [*self.tp, "round", "review", "@team"],
                repo,
                owner_env,
                b"",
            ),
            # ... and the same task: REVIEW -> DECIDE -> DO, round 2 (two transitions, one change)
            "`round decide`, phone-a-team (REVIEW -> DECIDE -> DO)": (
                [*self.tp, "round", "decide", "@decided", "--rubric", RUBRIC],
                repo,
                owner_env,
                b"",
            ),
            # another task in DO, its one backend timed out: noted, the round lost, round 2
            "`round fail`, phone-a-team (a note, then DO -> DO, retry_round)": (
                [*self.tp, "round", "fail", "@team", "--backend", "codex", "--reason", "timeout"],
                repo,
                owner_env,
                b"",
            ),
            # PLAN -> EXECUTE -> REVIEW -> PLAN: the new phase's prompt is not shown, so the
            # package's templates are not rendered (hooks/move.py `_prompted`) ...
            "`handoff`, tight-loop (its prompt not shown)": (
                [*self.tp, "handoff", "loop", "--decision", "yes", "--to", "@phase"],
                repo,
                owner_env,
                b"",
            ),
            # ... and with --json, the prompt rendered (jinja2) and printed
            "`handoff --json`, tight-loop (its prompt rendered and shown)": (
                [*self.tp, "handoff", "loop", "--json", "--decision", "yes", "--to", "@phase"],
                repo,
                owner_env,
                b"",
            ),
            # a subtask (PLAN, EXECUTE) or a discovered task (REVIEW), a new title each run
            "`subtask add`, tight-loop": (
                [*self.tp, "subtask", "add", "loop", "@title"],
                repo,
                owner_env,
                b"",
            ),
            "`turn loop`, tight-loop": ([*self.tp, "turn", "loop"], repo, owner_env, b""),
            # WORKING and COMPLETE in turn: the status file and a journal commit
            "`agent set`": (
                [*self.tp, "agent", "set", "agents", "a1", "--status", "@status"],
                repo,
                owner_env,
                b"",
            ),
            # a repository of `--tasks` tasks: nothing changes there between the runs
            **many,
        }

    def fill(self, stdin: bytes) -> bytes:
        """A hook's payload, a new session's id put in where it asks for one."""
        if NEW.encode() not in stdin:
            return stdin
        self.sessions += 1
        return stdin.replace(NEW.encode(), f"bench-new-{self.sessions}".encode())

    def resolve(self, cmd: list[str]) -> list[str]:
        if cmd[-1] == "@flip":
            self.flip ^= 1
            return [*cmd[:-1], "VALIDATION" if self.flip else "IMPLEMENTATION"]
        if cmd[-1] == "@phase":
            self.phase = (self.phase + 1) % 3
            return [*cmd[:-1], ("PLAN", "EXECUTE", "REVIEW")[self.phase]]
        if cmd[-1] == "@status":
            self.titles += 1
            return [*cmd[:-1], ("WORKING", "COMPLETE")[self.titles % 2]]
        if cmd[-1] == "@title":
            self.titles += 1
            return [*cmd[:-1], f"bench subtask {self.titles}"]
        if "@team" in cmd:
            self.teams += 1
            return [f"team{self.teams:02d}" if word == "@team" else word for word in cmd]
        if "@decided" in cmd:  # the task `round review` just moved
            return [f"team{self.teams:02d}" if word == "@decided" else word for word in cmd]
        return cmd

    def rate_task(self, name: str) -> None:
        """A fresh task at IMPLEMENTATION, owned by the rate's session (as t20 in `setup`)."""
        self.cli("task", "create", name)
        self.cli("claim", name, session=OWNER + "-2")
        for state in ("CLASSIFIED", "REQUIREMENTS", "SYNTHESIS"):
            self.cli("transition", name, state, session=OWNER + "-2")
        self.cli("approve", name, "--plan")
        self.cli("transition", name, "IMPLEMENTATION", session=OWNER + "-2")

    def transitions_per_second(self, name: str, seconds: float) -> float:
        """Transitions of task `name` through the Python API, one process, for `seconds`."""
        script = (
            "import sys, time\n"
            "from pathlib import Path\n"
            "from taskproto.config import load_config\n"
            "from taskproto.engine import Engine\n"
            "e = Engine(load_config(Path(sys.argv[1])))\n"
            "name = sys.argv[4]\n"
            "n, end = 0, time.perf_counter() + float(sys.argv[2])\n"
            "flip = int(e.load(name).state == 'VALIDATION')\n"
            "start = time.perf_counter()\n"
            "while time.perf_counter() < end:\n"
            "    flip ^= 1\n"
            "    e.fire(name, target='VALIDATION' if flip else 'IMPLEMENTATION',"
            " session=sys.argv[3])\n"
            "    n += 1\n"
            "print(n / (time.perf_counter() - start))\n"
        )
        rate = out(
            [self.python, "-c", script, str(self.repo), str(seconds), OWNER + "-2", name],
            self.repo,
            self.env,
        )
        return float(rate.strip().splitlines()[-1])

    def record_cycles(self, index: int) -> float:
        """The mean time of a quiet Stop over two whole cycles of a session's activity records:
        `sh` makes one a turn (the first, then hook.sh's `SLOTS` numbered ones), and the turn
        after the last goes to Python, which sweeps them. A new session; its first turn untimed."""
        stop = self.cases()["Stop, owns no task, nothing moved since its last turn"]
        cmd, cwd, env, stdin = stop
        session = f"bench-cycle-{index}"
        data = stdin.replace(NOBODY.encode(), session.encode())
        first = self.repo / ".taskproto" / "activity" / f"{session}.sh"
        # the checkout's own hook script says how many numbered records it makes (an older one
        # makes none, and every turn is Python's: then any count of turns will do)
        script = next(Path(w).read_text() for w in cmd if w.endswith(".sh"))
        # a launcher (clients/launcher.py): the script it reads
        named = re.search(r"^hook_sh=(.+)$", script, re.MULTILINE)
        if named:
            script = Path(shlex.split(named.group(1))[0]).read_text()
        slots = re.search(r"^SLOTS=(\d+)$", script, re.MULTILINE)
        for _ in range(3):  # until `sh` has made the first (a turn may go to Python before)
            run(cmd, cwd, env, data)
            if first.exists() or slots is None:
                break
        else:
            raise SystemExit(f"{first} was not made: the cycle would not be whole")
        turns = 2 * ((int(slots.group(1)) if slots else 64) + 1)
        return sum(run(cmd, cwd, env, data) for _ in range(turns)) / turns

    def claim_processes(self) -> tuple[int, int]:
        """(git processes, all processes) started by one `taskproto claim` through a remote."""
        origin = self.base / "origin.git"
        self.git("init", "-q", "--bare", str(origin))
        clone = self.base / "clone"
        self.git("clone", "-q", str(self.repo), str(clone))
        # a second clone that coordinates through the bare remote
        self.git("remote", "add", "shared", str(origin), cwd=clone)
        self.git("push", "-q", "shared", "main", cwd=clone)
        (clone / ".taskproto.toml").write_text('remote = "shared"\n')
        self.cli("init", "--git", cwd=clone)
        self.cli("task", "create", "rc", cwd=clone)
        self.cli("sync", cwd=clone, session="bench-sync")
        env = {**self.env, "TASKPROTO_SESSION": "bench-remote"}
        done = traced([*self.tp, "claim", "rc"], self.base / "claim.strace", cwd=clone, env=env)
        gits = [program for program in done if os.path.basename(program) == "git"]
        return len(gits), len(done)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", action="append", required=True, help="LABEL=PYTHON")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--tasks",
        type=int,
        default=0,
        help="also time a quiet Stop and a new session's start in a repository of this many tasks",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        checkouts = []
        for spec in args.venv:
            label, _, python = spec.partition("=")
            c = Checkout(label, python, Path(tmp))
            c.setup(3 * (args.runs + 1), args.tasks)  # the warm-up's too; three rows take one each
            c.how = c.installed()
            checkouts.append(c)
        names = [n for n in checkouts[0].cases() if n != AFTER_API]
        times = {(c.label, n): [] for c in checkouts for n in names}  # type: dict[tuple[str, str], list[float]]
        for c in checkouts:  # warm: .pyc files, the flag cache
            for cmd, cwd, env, stdin in c.cases().values():
                run(c.resolve(cmd), cwd, env, c.fill(stdin))
        for i in range(args.runs):
            # each venv goes first in turn: the one right after another's heavy command (its
            # writes still being written back) is not always the same one
            turn = checkouts[i % len(checkouts) :] + checkouts[: i % len(checkouts)]
            for name in names:
                for c in turn:
                    cases = c.cases()
                    pair = [(name, cases[name]), (f"{FLOOR_AFTER_API} {name}", cases["floor"])]
                    if name not in PAIRED:
                        pair = pair[:1]
                    for key, (cmd, cwd, env, stdin) in pair[:: 1 if i % 2 else -1]:
                        repeated = key in REPEATED or key in many_rows(args.tasks)
                        for _ in range(REPEAT if repeated else 1):
                            took = run(c.resolve(cmd), cwd, env, c.fill(stdin))
                            times.setdefault((c.label, key), []).append(took)
        # before the runs below write thousands of loose objects (a clone of the repository with
        # them runs `git gc --auto` on its first push)
        procs = {
            c.label: c.claim_processes() if shutil.which("strace") else None for c in checkouts
        }
        # each run on a fresh task (its log grows by the run's transitions only), interleaved
        runs: dict[str, list[float]] = {c.label: [] for c in checkouts}
        cycles: dict[str, list[float]] = {c.label: [] for c in checkouts}
        for i in range(args.runs):
            for c in checkouts:
                cycles[c.label].append(c.record_cycles(i))
                c.rate_task(f"r{i:02d}")
                runs[c.label].append(c.transitions_per_second(f"r{i:02d}", args.seconds))
                # the first start after that script (its engine renewed the offer as it exited),
                # and the floor at the same moment: the script's writes are still being written
                # back, which slows every process then; each goes first in every other run
                cases = c.cases()
                pair = [(AFTER_API, cases[AFTER_API]), (FLOOR_AFTER_API, cases["floor"])]
                for name, (cmd, cwd, env, stdin) in pair[:: 1 if i % 2 else -1]:
                    took = run(cmd, cwd, env, c.fill(stdin))
                    times.setdefault((c.label, name), []).append(took)
        med = {k: statistics.median(v) * 1000 for k, v in times.items()}
    load = os.getloadavg()
    git_version = out(["git", "--version"], Path.cwd(), dict(os.environ)).split()[-1]
    print(
        f"python {platform.python_version()}, git {git_version}, {os.cpu_count()} cores, "
        f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1/5/15 min) at the end; "
        f"median of {args.runs} interleaved runs ({REPEAT} timings a run of the floor, the "
        "commits and the sh answers with nothing changed since the previous one)\n"
    )
    labels = [c.label for c in checkouts]
    for c in checkouts:
        print(f"- {c.label}: {c.python}, taskproto {c.how}")
    print()
    print("| case | " + " | ".join(f"{lb} ms | {lb} × floor" for lb in labels) + " |")
    print("|---|" + "---:|---:|" * len(labels))

    def row(title: str, values: dict[str, float]) -> None:
        cells = [f"{values[lb]:.1f} | {values[lb] / med[(lb, 'floor')]:.2f}" for lb in labels]
        print(f"| {title} | " + " | ".join(cells) + " |")

    row("`python -I -c pass` (floor, this venv)", {lb: med[(lb, "floor")] for lb in labels})
    row(
        "what the hooks add to a commit on a branch of no task",
        {lb: med[(lb, "commit, hooks")] - med[(lb, "commit, no hooks")] for lb in labels},
    )
    row(
        "the same hooks, each an empty `sh` script (git starting them, nothing else)",
        {lb: med[(lb, "commit, empty hooks")] - med[(lb, "commit, no hooks")] for lb in labels},
    )

    def same_moment(name: str, floor: str) -> None:
        cells = [
            f"{med[(lb, floor)]:.1f} | {med[(lb, name)] / med[(lb, floor)]:.2f} (the row above)"
            for lb in labels
        ]
        print(f"| {FLOOR_AFTER_API} | " + " | ".join(cells) + " |")

    for name in names:
        if name.startswith(("floor", "commit")):
            continue
        row(name, {lb: med[(lb, name)] for lb in labels})
        if name in PAIRED:
            same_moment(name, f"{FLOOR_AFTER_API} {name}")
        if name == "SessionStart, a new session, nothing changed since":
            row(AFTER_API, {lb: med[(lb, AFTER_API)] for lb in labels})
            same_moment(AFTER_API, FLOOR_AFTER_API)
    row(
        "Stop, owns no task, nothing moved: the mean of a session's 130 turns in a row (twice 64 "
        "`sh` turns and the one after, where Python sweeps its records)",
        {lb: statistics.median(cycles[lb]) * 1000 for lb in labels},
    )
    print()
    print("| | " + " | ".join(labels) + " |")
    print("|---|" + "---:|" * len(labels))
    print(
        f"| transitions per second, Python API (median of {args.runs} runs of "
        f"{args.seconds:g} s, each on a fresh task) | "
        + " | ".join(f"{statistics.median(runs[lb]):.0f}/s" for lb in labels)
        + " |"
    )
    print(
        "| the same, slowest and fastest run | "
        + " | ".join(f"{min(runs[lb]):.0f}–{max(runs[lb]):.0f}/s" for lb in labels)
        + " |"
    )
    if all(procs.values()):
        print(
            "| git processes for one remote claim | "
            + " | ".join(str(procs[lb][0]) for lb in labels)
            + " |"
        )
        print(
            "| processes in all for one remote claim | "
            + " | ".join(str(procs[lb][1]) for lb in labels)
            + " |"
        )
    without = ", ".join(f"{lb} {med[(lb, 'commit, no hooks')]:.1f} ms" for lb in labels)
    print(
        "\n(commit row: `git commit --allow-empty` with the hooks minus the same with "
        f"`core.hooksPath` at an empty folder; without hooks: {without})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
