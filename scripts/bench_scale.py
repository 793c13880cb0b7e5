"""Every row of the scale goals (issue #44), against the floor measured in the same run.

    python scripts/bench_scale.py [--workdir DIR [--reuse]] [--tasks 1000] [--big 10000]
        [--agents 2] [--log 10000] [--transitions 200] [--runs 9] [--seconds 3]
        [--timeout 300] [--budget 120] [--python PYTHON]

Builds five repositories under --workdir with scripts/scale_repo.py, run by PYTHON (the checkout
measured; by default the one running this script): --tasks tasks; --big tasks; --tasks tasks of
--agents agents each (for the board); tasks of --log log entries (`transition`, the Python API);
and another, in a repository with `gc.auto=0`, for the growth of `.git`. Each is made by
`taskproto init --git --claude`; its tasks are in INIT and a few other states (some owned, some
waiting for others), with real worktrees; its objects and refs packed (`git repack -A -d`,
`git pack-refs --all`; the first repository by `git gc` itself, timed). With --reuse, a
repository built before with the same sizes is used again.

Then it drives taskproto only as users do: PYTHON's `taskproto` command, exec'd directly; the
Claude Code hook commands `taskproto init --claude` wrote into `.claude/settings.local.json`, run
with Claude Code's payloads; a real `taskproto board` over HTTP; `taskproto doctor --json`, its git
processes counted through a `git` on PATH that logs each call; and the Python API for
transitions per second and for the growth of `.git` (the apparent size of `.git/objects` before
and after, loose, then packed again). The floor is `python -I -c pass` of PYTHON, started the same
way, timed beside every timed command (before it or after it in turn). A row whose runs add up
past --budget seconds is not run again; a run past --timeout is stopped and shown as
"> N s (timed out)". Prints Markdown; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

BUILDER = Path(__file__).resolve().parent / "scale_repo.py"
FORMAT = 1  # bump when scale_repo.py or the recipes below change: --reuse then builds again
MARKER = "bench-scale.json"  # in a built repository's .git: how it was built
NOBODY = "bench-nobody"  # a session that owns no task
URL = re.compile(r"http://127\.0\.0\.1:(\d+)/\?token=(\S+)")
RATE = """
import sys, time
from pathlib import Path
from taskproto.config import load_config
from taskproto.engine import Engine
e = Engine(load_config(Path(sys.argv[1])))
name, session, seconds, count = sys.argv[2], sys.argv[3], float(sys.argv[4]), int(sys.argv[5])
flip = int(e.load(name).state == 'VALIDATION')
n, start = 0, time.perf_counter()
while (time.perf_counter() - start < seconds) if seconds else n < count:
    flip ^= 1
    e.fire(name, target='VALIDATION' if flip else 'IMPLEMENTATION', session=session)
    n += 1
print(n / (time.perf_counter() - start))
"""


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def out(cmd: list[str], cwd: Path, env: dict[str, str]) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{shlex.join(cmd)} in {cwd} failed ({proc.returncode}): {proc.stderr}")
    return proc.stdout


def timed(
    cmd: list[str],
    cwd: Path,
    env: dict[str, str],
    stdin: bytes = b"",
    timeout: float | None = None,
    ok: tuple[int, ...] = (0,),
) -> float | None:
    """Wall time of one run in seconds; None when it ran past `timeout` (it is killed)."""
    start = time.perf_counter()
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, env=env, input=stdin, capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return None
    took = time.perf_counter() - start
    if proc.returncode not in ok:
        raise SystemExit(f"{shlex.join(cmd)} in {cwd} failed: {proc.stderr.decode()}")
    return took


def objects_size(repo: Path) -> tuple[int, int]:
    """(apparent bytes, bytes of the blocks they take) of every file under .git/objects."""
    apparent = blocks = 0
    for folder, _, files in os.walk(repo / ".git" / "objects"):
        for name in files:
            st = os.lstat(os.path.join(folder, name))
            apparent += st.st_size
            blocks += st.st_blocks * 512
    return apparent, blocks


@dataclass
class Row:
    """A timed figure: `measure` times one run (seconds, None: timed out)."""

    label: str
    measure: Callable[[], float | None]
    warm: bool = True  # run once untimed before the runs
    times: list[float] = field(default_factory=list)
    timed_out: bool = False

    def due(self, budget: float) -> bool:
        return not self.timed_out and (not self.times or sum(self.times) < budget)

    def run(self) -> None:
        took = self.measure()
        if took is None:
            self.timed_out = True
        else:
            self.times.append(took)

    @property
    def median(self) -> float:
        return statistics.median(self.times)


class Bench:
    """The repositories, the commands users run in them, and the figures."""

    def __init__(self, args: argparse.Namespace, workdir: Path) -> None:
        self.args = args
        self.python = os.path.abspath(args.python)  # a venv's python: not resolved past its link
        self.tp = [str(Path(self.python).parent / "taskproto")]
        self.workdir = workdir
        self.env = {
            "PATH": os.environ["PATH"],
            "HOME": str(workdir / "home"),
            "XDG_STATE_HOME": str(workdir / "state"),
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.invalid",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        }
        # Claude Code names itself to its hooks in CLAUDE_PID: here the client is this script
        self.claude = {**self.env, "CLAUDE_PID": str(os.getpid())}
        self.floors: list[float] = []
        self.built: dict[str, dict[str, object]] = {}
        self.made = 0  # worktrees and tasks the create rows made so far
        self.beats = 0.0  # when the owners' heartbeats were last renewed
        self.board: subprocess.Popen[str] | None = None
        self.record: dict[str, object] = {}  # how the repository being built was built
        self.hooks: dict[str, list[str]] = {}  # Claude Code event -> the hook's command
        self.owner = ""  # the session that owns the long-log tasks
        self.flip = 0  # the `transition` row's next target: VALIDATION (1) or IMPLEMENTATION
        self.cards = 0  # the cards /api/tasks answered

    # --- building -----------------------------------------------------------------------------

    def git(self, repo: Path, *args: str) -> str:
        return out(["git", *args], repo, self.env)

    def cli(self, repo: Path, *args: str) -> str:
        return out([*self.tp, *args], repo, self.env)

    def repo(self, name: str, sizes: dict[str, object], build: Callable[[Path], None]) -> Path:
        """Repository `name` under the workdir, built by `build` unless --reuse finds it built
        with the same `sizes`."""
        path = self.workdir / name
        marker = path / ".git" / MARKER
        spec = {"format": FORMAT, "python": self.python, **sizes}  # init wrote its hooks
        if self.args.reuse and marker.is_file():
            record = json.loads(marker.read_text())
            if record["spec"] == spec:
                self.built[name] = {**record, "reused": True}
                say(f"{name}: reused")
                return path
        if path.exists():
            if not marker.is_file():
                raise SystemExit(f"{path} is there and was not built by this script; remove it")
            shutil.rmtree(path)
        say(f"{name}: building {sizes} ...")
        start = time.perf_counter()
        path.mkdir(parents=True)
        self.git(path, "init", "-q", "--initial-branch=main")
        self.git(path, "commit", "-q", "--allow-empty", "-m", "initial")
        self.cli(path, "init", "--git", "--claude")
        self.record = {"spec": spec}
        build(path)
        self.record["seconds"] = round(time.perf_counter() - start, 1)
        marker.write_text(json.dumps(self.record))
        self.built[name] = self.record
        say(f"{name}: built in {self.record['seconds']} s")
        return path

    def scale_repo(self, *args: str) -> None:
        out([self.python, str(BUILDER), *args], self.workdir, self.env)

    def pack(self, repo: Path, gc: bool = False) -> None:
        """Pack every object and every ref: `git repack -A -d` and `git pack-refs --all`, what
        `git gc` does besides expiring reflogs (which takes git minutes and gigabytes at 10,000
        worktrees). With `gc`, `git gc` itself, with taskproto's git hooks, as a user's gc runs;
        its time is recorded."""
        start = time.perf_counter()
        if gc:
            self.git(repo, "gc", "--quiet")
            self.git(repo, "pack-refs", "--all")
            self.record["gc_with_hooks"] = round(time.perf_counter() - start, 1)
            return
        off = ["-c", f"core.hooksPath={os.devnull}"]
        self.git(repo, *off, "repack", "-A", "-d", "-q")
        self.git(repo, *off, "pack-refs", "--all", "--prune")

    def build_all(self) -> None:
        a = self.args

        def first(repo: Path) -> None:  # packed by a user's `git gc`, timed
            self.scale_repo("tasks", str(repo), "--tasks", str(a.tasks))
            self.pack(repo, gc=True)

        def many(repo: Path, count: int, agents: int = 0) -> None:
            # packed before the worktrees are made: git packs slowly beside 10,000 of them
            sizes = ["--tasks", str(count), "--agents", str(agents), "--no-worktrees"]
            self.scale_repo("tasks", str(repo), *sizes)
            self.pack(repo)
            self.scale_repo("worktrees", str(repo))

        def long_logs(repo: Path, *names: str) -> None:
            self.scale_repo("tasks", str(repo), "--tasks", "4")  # one task of each kind
            for name in names:
                # "short": a copy of the working kind as it is, its log of a dozen entries
                entries = "0" if name == "short" else str(a.log)
                self.scale_repo("long-log", str(repo), name, "--entries", entries)
            self.pack(repo)

        def growth(repo: Path) -> None:
            self.git(repo, "config", "gc.auto", "0")  # loose: nothing packs on its own
            long_logs(repo, "growth", "short")

        def loose(repo: Path) -> None:  # as taskproto leaves them until git packs them
            self.git(repo, "config", "gc.auto", "0")
            self.scale_repo("tasks", str(repo), "--tasks", str(a.tasks))
            self.unpack(repo)

        self.tasks = self.repo(f"tasks-{a.tasks}", {"tasks": a.tasks}, first)
        self.loose = self.repo(f"tasks-{a.tasks}-loose", {"tasks": a.tasks, "loose": True}, loose)
        self.big = self.repo(f"tasks-{a.big}", {"tasks": a.big}, lambda repo: many(repo, a.big))
        self.agents = self.repo(
            f"board-{a.tasks}x{a.agents}",
            {"tasks": a.tasks, "agents": a.agents},
            lambda repo: many(repo, a.tasks, a.agents),
        )
        self.log = self.repo(
            f"log-{a.log}", {"log": a.log}, lambda repo: long_logs(repo, "biglog", "rate", "short")
        )
        self.growth = self.repo(f"growth-{a.log}", {"log": a.log}, growth)

    def unpack(self, repo: Path) -> None:
        """Every object loose, as taskproto writes them (`git fast-import` packs what it
        imports): each pack moved out of the repository and unpacked into it."""
        packs = repo / ".git" / "objects" / "pack"
        for pack in sorted(packs.glob("*.pack")):
            aside = self.workdir / "unpacking"
            aside.mkdir(exist_ok=True)
            for part in packs.glob(f"{pack.stem}.*"):
                part.rename(aside / part.name)
            with open(aside / pack.name, "rb") as data:
                subprocess.run(
                    ["git", "unpack-objects", "-q"], cwd=repo, stdin=data, env=self.env, check=True
                )
            shutil.rmtree(aside)

    def keep_owners_alive(self) -> None:
        """Renew the owned tasks' heartbeats (their leases last 30 minutes) every ten minutes,
        as their sessions' hooks would."""
        if time.monotonic() - self.beats < 600:
            return
        for repo in (self.tasks, self.loose, self.big, self.agents, self.log):
            self.scale_repo("heartbeats", str(repo))
        self.beats = time.monotonic()

    # --- what is timed ------------------------------------------------------------------------

    def floor(self) -> None:
        took = timed([self.python, "-I", "-c", "pass"], self.workdir, self.env)
        assert took is not None
        self.floors.append(took)

    def command(self, repo: Path, *args: str) -> Callable[[], float | None]:
        """One run of `taskproto ARGS` in `repo`, timed (exit 1 too: doctor's, with findings)."""
        cmd = [*self.tp, *args]
        return lambda: timed(cmd, repo, self.env, timeout=self.args.timeout, ok=(0, 1))

    def payload(self, event: str, session: str, cwd: Path, **extra: str) -> bytes:
        data = {
            "session_id": session,
            "transcript_path": str(self.workdir / "transcript.jsonl"),
            "cwd": str(cwd),
            "hook_event_name": event,
            **extra,
        }
        return json.dumps(data).encode()

    def read_hooks(self) -> None:
        # `init --claude` writes its hooks into the local settings (older versions: the shared)
        folder = self.tasks / ".claude"
        local = folder / "settings.local.json"
        settings = json.loads((local if local.exists() else folder / "settings.json").read_text())
        self.hooks = {
            event: shlex.split(entries[0]["hooks"][0]["command"])
            for event, entries in settings["hooks"].items()
        }

    def stop(self, repo: Path, first: Row | None = None) -> float | None:
        """A quiet turn's end: a session that owns no task, nothing moved since its last turn.
        The turn before it is the first since the other rows' commands (timed into `first`)."""
        data = self.payload("Stop", NOBODY, repo, stop_hook_active="false")
        took = timed(self.hooks["Stop"], repo, self.claude, data, self.args.timeout)
        if first is not None and took is not None:
            first.times.append(took)
        return timed(self.hooks["Stop"], repo, self.claude, data, self.args.timeout)

    def start(self, repo: Path, first: Row | None = None) -> float | None:
        """A new session's start (a new session id each time, as each `claude` run has), nothing
        changed since the start before it, the first since the other rows' commands (timed
        into `first`)."""
        took: list[float | None] = []
        for _ in range(2):
            self.made += 1
            session = f"bench-new-{os.getpid()}-{self.made}"
            data = self.payload("SessionStart", session, repo, source="startup")
            took.append(
                timed(self.hooks["SessionStart"], repo, self.claude, data, self.args.timeout)
            )
        if first is not None and took[0] is not None:
            first.times.append(took[0])
        return took[1]

    def list_largest(self) -> float | None:
        """`task list` of the big repository with its index at its largest: half as many lines
        again as it has tasks (half the tasks' lines twice), as just before the appender rewrites
        it (state/index.py). The lines are added before the timed run and the file put back after
        it, neither timed."""
        index = self.big / ".taskproto" / "index.jsonl"
        whole = index.read_bytes()
        lines = whole.splitlines(keepends=True)
        index.write_bytes(whole + b"".join(lines[: len(lines) // 2]))
        try:
            return self.command(self.big, "task", "list")()
        finally:
            index.write_bytes(whole)

    def worktree_add(self) -> float | None:
        """A plain `git worktree add -b X PATH HEAD` in the repository of `task create`; removed
        after, untimed."""
        self.made += 1
        branch = f"bench-wt-{os.getpid()}-{self.made}"
        path = self.workdir / "worktrees" / branch
        cmd = ["git", "worktree", "add", "-q", "-b", branch, str(path), "HEAD"]
        took = timed(cmd, self.tasks, self.env, timeout=self.args.timeout)
        self.git(self.tasks, "worktree", "remove", "--force", str(path))
        self.git(self.tasks, "branch", "-q", "-D", branch)
        return took

    def task_create(self) -> float | None:
        """`taskproto task create NAME` (no agents); removed after with `task remove`, untimed."""
        self.made += 1
        name = f"bench-create-{os.getpid()}-{self.made}"
        took = timed(
            [*self.tp, "task", "create", name], self.tasks, self.env, timeout=self.args.timeout
        )
        self.cli(self.tasks, "task", "remove", name)
        return took

    def transition(self) -> float | None:
        self.flip ^= 1
        target = "VALIDATION" if self.flip else "IMPLEMENTATION"
        cmd = [*self.tp, "transition", "biglog", target]
        env = {**self.env, "TASKPROTO_SESSION": self.owner}
        return timed(cmd, self.log, env, timeout=self.args.timeout)

    def start_board(self) -> None:
        """`taskproto board` on a free port of 127.0.0.1; ready once its first doctor run is in."""
        self.board = subprocess.Popen(
            [*self.tp, "board", "--port", "0", "--no-open"],
            cwd=self.agents,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        found: list[re.Match[str]] = []
        lines: list[str] = []

        def read() -> None:
            assert self.board is not None and self.board.stdout is not None
            for line in self.board.stdout:
                lines.append(line)
                match = URL.search(line)
                if match and not found:
                    found.append(match)

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + self.args.timeout
        while not found:
            if self.board.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("the board did not start:\n" + "".join(lines))
            time.sleep(0.05)
        self.port, self.token = int(found[0].group(1)), found[0].group(2)
        while True:
            try:
                status, body = self.get("/api/doctor")
                if status == 200 and json.loads(body)["finished"] is not None:
                    return
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("the board's doctor did not finish:\n" + "".join(lines))
            time.sleep(0.2)

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.args.timeout)
        headers = {"Host": f"127.0.0.1:{self.port}", "Authorization": f"Bearer {self.token}"}
        try:
            conn.request("GET", path, headers=headers)
            resp = conn.getresponse()
            return resp.status, resp.read()
        finally:
            conn.close()

    def board_tasks(self) -> float | None:
        start = time.perf_counter()
        try:
            status, body = self.get("/api/tasks")
        except TimeoutError:
            return None
        took = time.perf_counter() - start
        if status != 200:
            raise SystemExit(f"/api/tasks answered {status}: {body[:200]!r}")
        self.cards = len(json.loads(body)["tasks"])
        return took

    def stop_board(self) -> None:
        if self.board is not None:
            self.board.terminate()
            try:
                self.board.wait(10)
            except subprocess.TimeoutExpired:
                self.board.kill()
                self.board.wait(5)

    # --- counted ------------------------------------------------------------------------------

    def git_calls(self, repo: Path, *args: str) -> list[str]:
        """The git commands one `taskproto ARGS` runs (a `git` on PATH that logs each call)."""
        with tempfile.TemporaryDirectory() as tmp:
            log, shim = Path(tmp) / "calls", Path(tmp) / "git"
            real = shutil.which("git", path=self.env["PATH"])
            shim.write_text(f'#!/bin/sh\necho "$*" >> "{log}"\nexec "{real}" "$@"\n')
            shim.chmod(0o755)
            env = {**self.env, "PATH": f"{tmp}{os.pathsep}{self.env['PATH']}"}
            subprocess.run([*self.tp, *args], cwd=repo, env=env, capture_output=True, check=False)
            return log.read_text().splitlines() if log.exists() else []

    def doctor_report(self, repo: Path) -> tuple[dict[str, object], int]:
        """`doctor --json`'s report (it exits 1 when it has findings), and the most memory doctor
        or any of its git children held, in KB (wait4's ru_maxrss, as `/usr/bin/time -f %M`: git
        2.39's `worktree list` held 3.4 GiB at 10,000 tasks, docs/performance.md)."""
        cmd = [*self.tp, "doctor", "--json"]
        with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            proc = subprocess.Popen(cmd, cwd=repo, env=self.env, stdout=out, stderr=err)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            stdout, stderr = out.read().decode(), err.read().decode()
        try:
            found: dict[str, object] = json.JSONDecoder().raw_decode(stdout)[0]
        except ValueError:
            raise SystemExit(f"doctor --json in {repo} failed: {stderr}") from None
        return found, usage.ru_maxrss

    def api(self, repo: Path, task: str, seconds: float, count: int = 0) -> float:
        """Transitions of `task` through the Python API in one process: for `seconds`, or
        `count` of them; the rate."""
        owner = self.show(repo, task)["owner"]["session"]
        args = [self.python, "-c", RATE, str(repo), task, owner, str(seconds), str(count)]
        return float(out(args, repo, self.env).split()[-1])

    def show(self, repo: Path, task: str) -> dict[str, object]:
        found: dict[str, object] = json.loads(self.cli(repo, "task", "show", task, "--json"))
        return found

    def entries(self, repo: Path, task: str) -> int:
        """The task's log entries, all of them (task.json holds the latest few)."""
        return int(self.show(repo, task)["log_count"])  # type: ignore[call-overload]

    def growth_per_transition(self, task: str, n: int) -> tuple[float, float, float]:
        """(loose apparent, loose blocks, packed apparent) bytes per transition of `task`: `n`
        transitions through the API with everything packed before, then packed again."""
        self.pack(self.growth)
        apparent0, blocks0 = objects_size(self.growth)
        self.api(self.growth, task, 0, n)
        apparent1, blocks1 = objects_size(self.growth)
        self.pack(self.growth)
        apparent2, _ = objects_size(self.growth)
        return (apparent1 - apparent0) / n, (blocks1 - blocks0) / n, (apparent2 - apparent0) / n


@dataclass
class Results:
    """What one run found, besides the timed rows."""

    rows: dict[str, Row]
    doctor_calls: list[str]  # the git commands of `doctor --json`, --big tasks
    doctor_calls_small: list[str]  # the same, --tasks tasks
    doctor_report: dict[str, object]
    doctor_rss: int  # KB, the most memory of `doctor --json` or its git children, --big tasks
    create_calls: list[str]  # the git commands of one `task create`
    rates: list[float]  # transitions/s, the long task
    short_rates: list[float]  # the same, a task of a dozen entries
    rate_log: tuple[int, int]  # the long task's log entries before and after
    growth: tuple[float, float, float]  # Bench.growth_per_transition, the long task
    growth_short: tuple[float, float, float]  # the same, a task of a dozen entries
    biglog: int  # log entries of the `transition` row's task at the end
    loads: tuple[tuple[float, ...], tuple[float, ...]]  # load averages at the start and end


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--workdir",
        type=Path,
        help="build and keep the repositories here (default: a temporary "
        "folder, removed at the end)",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="use the repositories an earlier run built in "
        "--workdir with the same sizes and --python",
    )
    parser.add_argument(
        "--tasks",
        type=int,
        default=1000,
        help="tasks of the repositories of the 1,000-task rows "
        "(task list, board, Stop and start, task create)",
    )
    parser.add_argument(
        "--big",
        type=int,
        default=10000,
        help="tasks of the repository of the 10,000-task rows (task list, doctor)",
    )
    parser.add_argument("--agents", type=int, default=2, help="agents per task, for the board")
    parser.add_argument(
        "--log",
        type=int,
        default=10000,
        help="log entries of the tasks of the transition, transitions/s and .git growth rows",
    )
    parser.add_argument(
        "--transitions",
        type=int,
        default=200,
        help="transitions whose objects the .git growth rows weigh",
    )
    parser.add_argument(
        "--runs", type=int, default=9, help="runs of each timed row, and of transitions/s"
    )
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="seconds of each run of transitions/s"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=300.0,
        help="seconds after which a run is stopped and shown as timed out",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=120.0,
        help="a row is not run again once its runs add up to this many seconds",
    )
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="the python of the checkout measured (a venv's, "
        "its `taskproto` command beside it; default: this one)",
    )
    args = parser.parse_args()
    start = os.getloadavg()
    if args.workdir is None:
        with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
            bench = Bench(args, Path(tmp))
            report(bench, measure(bench, start))
            return 0
    args.workdir.mkdir(parents=True, exist_ok=True)
    bench = Bench(args, args.workdir.resolve())
    report(bench, measure(bench, start))
    return 0


def measure(b: Bench, load: tuple[float, ...]) -> Results:
    args = b.args
    (b.workdir / "home").mkdir(exist_ok=True)
    b.build_all()
    b.keep_owners_alive()
    b.read_hooks()
    biglog = b.show(b.log, "biglog")
    b.owner = biglog["owner"]["session"]  # type: ignore[index]
    b.flip = int(biglog["state"] == "VALIDATION")
    say("starting the board ...")
    b.start_board()
    try:
        # the first Stop and start after the other rows' commands (a task created and removed
        # among them), timed beside the rows that follow them
        moved = Row("stop moved", lambda: None)
        changed = Row("start changed", lambda: None)
        rows = [
            Row("list", b.command(b.tasks, "task", "list")),
            Row("list big", b.command(b.big, "task", "list"), warm=False),
            Row("list largest", b.list_largest, warm=False),
            Row("board", b.board_tasks),
            Row("stop", lambda: b.stop(b.tasks, moved)),
            Row("start", lambda: b.start(b.tasks, changed)),
            Row("list loose", b.command(b.loose, "task", "list")),
            Row("stop loose", lambda: b.stop(b.loose)),
            Row("start loose", lambda: b.start(b.loose)),
            Row("doctor", b.command(b.big, "doctor", "--json")),
            # nothing taken from earlier runs: as the first run after an install or an upgrade
            Row("doctor full", b.command(b.big, "doctor", "--json", "--full"), warm=False),
            Row("transition", b.transition),
            Row("worktree add", b.worktree_add),
            Row("create", b.task_create),
        ]
        say("warming up ...")
        for row in rows:
            if row.warm:
                row.measure()
        moved.times.clear()
        changed.times.clear()
        report_big, rss_big = b.doctor_report(b.big)
        small_calls = b.git_calls(b.tasks, "doctor", "--json")
        big_calls = b.git_calls(b.big, "doctor", "--json")
        made = f"bench-count-{os.getpid()}"
        create_calls = b.git_calls(b.tasks, "task", "create", made)
        b.cli(b.tasks, "task", "remove", made)
        for i in range(args.runs):
            b.keep_owners_alive()
            say(f"run {i + 1} of {args.runs} ...")
            for k, row in enumerate(rows):
                if not row.due(args.budget):
                    continue
                pair = [row.run, b.floor]
                for step in pair if (i + k) % 2 else pair[::-1]:
                    step()
        say("transitions per second ...")
        rate_before = b.entries(b.log, "rate")
        rates, short_rates = [], []
        for _ in range(args.runs):  # the short task's beside the long one's: the disk decides
            rates.append(b.api(b.log, "rate", args.seconds))
            short_rates.append(b.api(b.log, "short", args.seconds))
        rate_after = b.entries(b.log, "rate")
        say("the growth of .git ...")
        growth = b.growth_per_transition("growth", args.transitions)
        growth_short = b.growth_per_transition("short", args.transitions)
    finally:
        b.stop_board()
    return Results(
        rows={row.label: row for row in [*rows, moved, changed]},
        doctor_calls=big_calls,
        doctor_calls_small=small_calls,
        doctor_report=report_big,
        doctor_rss=rss_big,
        create_calls=create_calls,
        rates=rates,
        short_rates=short_rates,
        rate_log=(rate_before, rate_after),
        growth=growth,
        growth_short=growth_short,
        biglog=b.entries(b.log, "biglog"),
        loads=(load, os.getloadavg()),
    )


def report(b: Bench, r: Results) -> None:
    """The Markdown: the machine, the goals' table, then what was measured beside them."""
    a, rows = b.args, r.rows
    floor = statistics.median(b.floors)
    code = "import platform, taskproto; print(platform.python_version(), taskproto.__file__)"
    version, where = out([b.python, "-c", code], b.workdir, b.env).split()
    how = (
        "installed as `pip install .` installs it"
        if "site-packages" in where
        else f"editable (`pip install -e`, from {Path(where).parent.parent})"
    )
    git_version = out(["git", "--version"], b.workdir, b.env).split()[-1]
    start, end = (" / ".join(f"{x:.1f}" for x in load) for load in r.loads)
    print(
        f"python {version}, git {git_version}, {os.cpu_count()} cores, load average {start} "
        f"(1/5/15 min) at the start, {end} at the end; {b.python}, taskproto {how}; {a.runs} "
        f"runs of each timed row, interleaved with the floor's (a row is not run again once its "
        f"runs add up to {a.budget:g} s; a run is stopped at {a.timeout:g} s)\n"
    )
    floor_ms = f"{floor * 1000:.1f} ms"

    def ms(row: Row) -> str:
        if not row.times:
            return f"> {a.timeout:g} s (timed out)"
        n = len(row.times)
        return f"{row.median * 1000:,.1f} ms" + (f" (median of {n})" if n > 1 else " (one run)")

    def times_floor(row: Row) -> tuple[str, float]:
        if not row.times:
            return f"> {a.timeout / floor:,.0f}×", float("inf")
        return f"{row.median / floor:.2f}×", row.median / floor

    def line(figure: str, measured: str, ratio: str, goal: str, met: bool, timed: bool) -> None:
        verdict = "met" if met else "**NOT met**"
        cells = [figure, measured, floor_ms if timed else "", ratio, goal, verdict]
        print("| " + " | ".join(cells) + " |")

    def ratio_row(figure: str, row: Row, goal: float) -> None:
        text, value = times_floor(row)
        line(figure, ms(row), text, f"≤ {goal:g}×", value <= goal, True)

    print("| figure | measured | floor (same run) | × floor | goal | |")
    print("|---|---:|---:|---:|---|---|")
    ratio_row(f"`task list`, {a.tasks:,} tasks, journals packed", rows["list"], 3)
    ratio_row(f"`task list`, {a.big:,} tasks, journals packed", rows["list big"], 10)
    ratio_row(
        f"board `/api/tasks`, {a.tasks:,} tasks × {a.agents} agents, packed", rows["board"], 5
    )
    quiet = f"quiet Stop, {a.tasks:,} tasks (a session that owns no task, nothing moved)"
    ratio_row(quiet, rows["stop"], 0.5)
    ratio_row(f"a new session's start (SessionStart), {a.tasks:,} tasks", rows["start"], 0.5)

    doctor = rows["doctor"]
    seconds = doctor.median if doctor.times else float("inf")
    constant = len(r.doctor_calls) == len(r.doctor_calls_small)
    healthy = r.doctor_report.get("healthy")
    line(
        f"`doctor --json`, {a.big:,} tasks",
        f"{ms(doctor)}; {len(r.doctor_calls)} git processes ({len(r.doctor_calls_small)} at "
        f"{a.tasks:,} tasks); " + ("healthy" if healthy else "**not healthy**: findings below"),
        times_floor(doctor)[0],
        "≤ 3 s, O(1) git processes",
        seconds <= 3 and constant,
        True,
    )
    full = rows["doctor full"]
    line(
        f"`doctor --json --full`, {a.big:,} tasks (nothing kept: a first run after an install "
        "or an upgrade)",
        ms(full),
        times_floor(full)[0],
        "≤ 3 s",
        (full.median if full.times else float("inf")) <= 3,
        True,
    )
    ratio_row(f"`transition` on a task with {a.log:,} log entries", rows["transition"], 4)
    rate = statistics.median(r.rates)
    line(
        f"transitions/s on the Python API, a {a.log:,}-entry task",
        f"{rate:.0f}/s (median of {len(r.rates)} runs of {a.seconds:g} s, "
        f"{min(r.rates):.0f}–{max(r.rates):.0f}/s; the task's log {r.rate_log[0]:,} entries "
        f"before, {r.rate_log[1]:,} after)",
        "",
        "≥ 200/s",
        rate >= 200,
        False,
    )
    loose, blocks, packed = r.growth
    line(
        f"`.git` growth per transition, a {a.log:,}-entry task, loose (`gc.auto=0`)",
        f"{loose / 1024:,.1f} KiB apparent ({blocks / 1024:,.1f} KiB in `du` blocks), over "
        f"{a.transitions} transitions",
        "",
        "≤ 4 KiB loose (apparent bytes)",
        loose <= 4096,
        False,
    )
    line(
        f"`.git` growth per transition, a {a.log:,}-entry task, packed (`git repack -A -d` after)",
        f"{packed / 1024:,.2f} KiB apparent (the objects' growth over {a.transitions} "
        "transitions, all packed)",
        "",
        "≤ 1 KiB packed",
        packed <= 1024,
        False,
    )
    add, create = rows["worktree add"], rows["create"]
    both = bool(add.times and create.times)
    extra = (create.median - add.median) / floor if both else float("inf")
    line(
        f"`task create`, no agents, {a.tasks:,} tasks",
        f"{ms(create)}; `git worktree add` {ms(add)}"
        + (f"; the difference {(create.median - add.median) * 1000:,.1f} ms" if both else ""),
        f"{extra:.2f}× (the difference)" if both else "",
        "≤ `git worktree add` + 5×",
        extra <= 5,
        True,
    )

    print()
    print("| also measured (no goal) | |")
    print("|---|---|")
    loose = "journals loose (as taskproto writes them, before git packs them)"
    after = "the first since the other rows' commands (a task created and removed among them)"
    for label, title in (
        (
            "stop moved",
            f"a Stop of a session that owns no task, {a.tasks:,} tasks, packed, {after}",
        ),
        ("start changed", f"a new session's start, {a.tasks:,} tasks, packed, {after}"),
        ("list loose", f"`task list`, {a.tasks:,} tasks, {loose}"),
        (
            "list largest",
            f"`task list`, {a.big:,} tasks, its index at its largest (half as many lines again as "
            "tasks, as just before a rewrite)",
        ),
        ("stop loose", f"quiet Stop, {a.tasks:,} tasks, {loose}"),
        ("start loose", f"a new session's start, {a.tasks:,} tasks, {loose}"),
    ):
        print(f"| {title} | {ms(rows[label])}, {times_floor(rows[label])[0]} the floor |")
    short = r.short_rates
    print(
        "| transitions/s on the Python API, a task of a dozen entries (each run beside one of "
        "the long task's; the last round's ≥ 200/s is on such a task) | "
        f"{statistics.median(short):.0f}/s ({min(short):.0f}–{max(short):.0f}/s) |"
    )
    loose, blocks, packed = r.growth_short
    print(
        f"| `.git` growth per transition, a task of a dozen entries | {loose / 1024:,.2f} KiB "
        f"loose ({blocks / 1024:,.1f} KiB in `du` blocks), {packed / 1024:,.2f} KiB packed |"
    )
    versions = sum(1 for c in r.create_calls if c.split()[:1] == ["version"])
    print(
        f"| git processes of one `task create` (no agents, {a.tasks:,} tasks) | "
        f"{len(r.create_calls)}, {versions} of them `git version` |"
    )
    words = ", ".join(" ".join(c.split()[:2]) for c in r.doctor_calls)
    print(f"| the git processes of `doctor --json`, {a.big:,} tasks | {words} |")
    print(
        f"| max RSS of `doctor --json`, {a.big:,} tasks (doctor or its largest git child) | "
        f"{r.doctor_rss:,} KB |"
    )
    if not healthy:
        print(f"| doctor's findings, {a.big:,} tasks | {r.doctor_report.get('findings')} |")
    print(f"| cards `/api/tasks` answered | {b.cards:,} |")
    print(f"| log entries of the `transition` row's task at the end | {r.biglog:,} |")
    for name, record in b.built.items():
        reused = " (built by an earlier run)" if record.get("reused") else ""
        gc = record.get("gc_with_hooks")
        hooks = (
            f"; of it, `git gc` with taskproto's git hooks (as a user's runs): {gc} s" if gc else ""
        )
        print(f"| building `{name}`{reused} | {record['seconds']} s{hooks} |")
    goals = {"tasks": 1000, "big": 10000, "agents": 2, "log": 10000}
    differ = [
        f"--{k} {getattr(a, k)} (goal: {v:,})" for k, v in goals.items() if getattr(a, k) != v
    ]
    if differ:
        print(f"\nSizes other than the goals': {', '.join(differ)}.")


if __name__ == "__main__":
    raise SystemExit(main())
