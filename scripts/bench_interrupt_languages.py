"""The interruption decision's cost per language, before and after a change, against the floor.

    python scripts/bench_interrupt_languages.py [--before main] [--runs 21]

Two trees are measured in the same run with the same interpreter (this one): `before`, the
package as it is at the git revision `--before` (exported to a temporary folder), and `after`,
this checkout. Four figures:

- the decision in a fresh process, as a hook makes it: `python -I -c` that imports the classifier
  and classifies one message, timed from here exactly as the floor `python -I -c pass` is (one
  `subprocess.run` each, no wrapper around either side), interleaved run by run: wall time, and
  CPU time (user + system of the process and what it waited for, from `getrusage`), which the
  other processes of a loaded machine disturb less;
- the same, timed inside that process (CPU time of import + first classify, which compiles the
  rules the message reaches), where the process start's noise is not;
- the warm decision, per message, over each language's corpus (train split) in one process;
- the UserPromptSubmit hook of a session that owns a task, as installed (`sh hook.sh`, then
  Python: the engine records the interruption), one prompt per language.

Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
MESSAGES = {
    "en": "continue",
    "en (no rule matches)": "nice work",
    "de": "weiter machen bitte",
    "es": "sigue, por favor",
    "fr": "vas-y, continue",
    "pt-BR": "pode continuar",
    "ja": "続けて",
    "zh-Hans": "继续",
    # messages the rules read weakly, so the model (languages/model.py) is asked: its weights
    # are read and its features made in these, and never for a go or an English message
    "de (model)": "Schon alles grün bei den Checks?",
    "es (model)": "¿Todo verde en el CI?",
    "fr (model)": "On tient toujours les délais ?",
    "pt-BR (model)": "Tá tudo verde no CI?",
    "ja (model)": "続ける前にlockを点検して",
    "zh-Hans (model)": "我们赶得上进度吗？",
}
CORPORA = {
    "en": DATA / "interruptions.tsv",
    **{
        code: DATA / "interruptions_i18n" / f"{code}.train.tsv"
        for code in ("de", "es", "fr", "pt-BR", "ja", "zh-Hans")
    },
}
OWNER = "bench-owner"

_DECIDE = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from taskproto.classify.interruptions import classify; classify(sys.argv[2])"
)
_INSIDE = """
import sys, time
sys.path.insert(0, sys.argv[1])
t0 = time.process_time()
from taskproto.classify.interruptions import classify
result = classify(sys.argv[2])
print(time.process_time() - t0, result.type)
"""
_WARM = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from taskproto.classify.interruptions import classify
out = {}
for spec in sys.argv[2:]:
    code, _, path = spec.partition("=")
    lines = open(path, encoding="utf-8").read().splitlines()
    messages = [l.partition("\\t")[2] for l in lines if l.strip() and not l.startswith("#")]
    for m in messages:  # every rule compiled once
        classify(m)
    each = []
    for m in messages:
        start = time.perf_counter()
        for _ in range(20):
            classify(m)
        each.append((time.perf_counter() - start) / 20)
    out[code] = [statistics.median(each), max(each)]
print(json.dumps(out))
"""


def timed(
    cmd: list[str], env: dict[str, str], cwd: Path, stdin: bytes = b""
) -> tuple[float, float]:
    """Wall time and CPU time (the process and every process it waited for) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, capture_output=True, check=False)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} failed ({proc.returncode}): {proc.stderr.decode()}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return took, cpu


def out(cmd: list[str], env: dict[str, str], cwd: Path) -> str:
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"{cmd} failed: {proc.stderr}")
    return proc.stdout


def export(revision: str, into: Path) -> Path:
    """The package as it is at `revision`, in `into`."""
    archive = subprocess.run(
        ["git", "archive", revision, "taskproto"], cwd=ROOT, capture_output=True, check=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def repository(base: Path, env: dict[str, str]) -> Path:
    """A repository with taskproto's Claude Code hooks and task t1, owned by OWNER from this
    process (the client, as Claude Code names itself in CLAUDE_PID)."""
    repo = base / "repo"
    repo.mkdir()
    taskproto = str(Path(sys.executable).parent / "taskproto")
    out(["git", "init", "-q", "--initial-branch=main"], env, repo)
    out(["git", "commit", "-q", "--allow-empty", "-m", "initial"], env, repo)
    out([taskproto, "init", "--git", "--claude"], env, repo)
    out([taskproto, "task", "create", "t1"], env, repo)
    out(
        [taskproto, "claim", "t1", "--pid", str(os.getpid())],
        {**env, "TASKPROTO_SESSION": OWNER},
        repo,
    )
    return repo


def payload(repo: Path, prompt: str) -> bytes:
    data = {
        "session_id": OWNER,
        "transcript_path": str(repo.parent / "transcript.jsonl"),
        "cwd": str(repo),
        "hook_event_name": "UserPromptSubmit",
        "prompt": prompt,
    }
    return json.dumps(data, ensure_ascii=False).encode()


def last_type(repo: Path) -> str:
    task = json.loads((repo / ".taskproto" / "tasks" / "t1" / "task.json").read_text())
    return str(task["interruptions"][-1]["type"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git revision of the `before` tree")
    parser.add_argument("--runs", type=int, default=21, help="interleaved runs per figure")
    args = parser.parse_args()
    python = sys.executable
    with tempfile.TemporaryDirectory(prefix="bench-languages-") as tmp:
        base = Path(tmp)
        trees = {"before": export(args.before, base / "before"), "after": ROOT}
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(base / "home"),
            "XDG_STATE_HOME": str(base / "state"),
            "GIT_AUTHOR_NAME": "bench",
            "GIT_AUTHOR_EMAIL": "bench@example.invalid",
            "GIT_COMMITTER_NAME": "bench",
            "GIT_COMMITTER_EMAIL": "bench@example.invalid",
        }
        (base / "home").mkdir()
        repo = repository(base, env)
        hook_env = {**env, "CLAUDE_PID": str(os.getpid())}
        floor = [python, "-I", "-c", "pass"]
        cases: dict[tuple[str, str, str], tuple[list[str], dict[str, str], bytes]] = {}
        for tree, root in trees.items():
            script = str(root / "taskproto" / "hooks" / "agents" / "hook.sh")
            for label, message in MESSAGES.items():
                decide = [python, "-I", "-c", _DECIDE, str(root), message]
                cases[(tree, "decision", label)] = (decide, env, b"")
                if label != "en (no rule matches)":
                    hook = ["/bin/sh", script, python, "claude", "UserPromptSubmit"]
                    cases[(tree, "hook", label)] = (hook, hook_env, payload(repo, message))
        # which tree decided: "weiter machen bitte" is a resumption only after the change
        for tree in trees:
            cmd, run_env, stdin = cases[(tree, "hook", "de")]
            timed(cmd, run_env, repo, stdin)  # (its timing is not kept)
            print(f"<!-- {tree}: 'weiter machen bitte' recorded as {last_type(repo)} -->")
        times: dict[object, list[float]] = {key: [] for key in cases}
        times["floor"] = []
        cpus: dict[object, list[float]] = {key: [] for key in times}
        inside: dict[tuple[str, str], list[float]] = {}
        keys = [*cases, "floor"]
        for i in range(args.runs + 1):  # the first run warms the .pyc files and is dropped
            turn = keys[i % len(keys) :] + keys[: i % len(keys)]
            for key in turn:
                cmd, run_env, stdin = cases[key] if key != "floor" else (floor, env, b"")
                took, cpu = timed(cmd, run_env, repo, stdin)
                if i:
                    times[key].append(took)
                    cpus[key].append(cpu)
            for tree, root in trees.items():
                for label, message in MESSAGES.items():
                    result = out([python, "-I", "-c", _INSIDE, str(root), message], env, repo)
                    if i:
                        inside.setdefault((tree, label), []).append(float(result.split()[0]))
        warm = {
            tree: json.loads(
                out(
                    [python, "-I", "-c", _WARM, str(root)]
                    + [f"{code}={path}" for code, path in CORPORA.items()],
                    env,
                    repo,
                )
            )
            for tree, root in trees.items()
        }
    med = {key: statistics.median(values) * 1000 for key, values in times.items()}
    cpu_med = {key: statistics.median(values) * 1000 for key, values in cpus.items()}
    load = os.getloadavg()
    head = out(["git", "rev-parse", "--short", "HEAD"], env, ROOT).strip()
    before = out(["git", "rev-parse", "--short", args.before], env, ROOT).strip()
    print(
        f"python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1/5/15 min) at the end; median of "
        f"{args.runs} interleaved runs; before = {args.before} ({before}), after = this checkout "
        f"({head}, with its working tree)\n"
    )
    floor_ms, floor_cpu = med["floor"], cpu_med["floor"]
    print(
        f"`python -I -c pass` (the floor): **{floor_ms:.1f} ms** wall, **{floor_cpu:.1f} ms** CPU\n"
    )
    print("The decision in a fresh process (`python -I -c` importing the classifier and")
    print("classifying one message): wall and CPU time of the process, and the CPU time of")
    print("import + first classify inside it:\n")
    print(
        "| message | wall before ms | wall after ms | after × floor | CPU before ms "
        "| CPU after ms | after × floor | inside before ms | inside after ms |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, message in MESSAGES.items():
        b, a = med[("before", "decision", label)], med[("after", "decision", label)]
        cb, ca = cpu_med[("before", "decision", label)], cpu_med[("after", "decision", label)]
        ib = statistics.median(inside[("before", label)]) * 1000
        ia = statistics.median(inside[("after", label)]) * 1000
        print(
            f"| {label}: `{message}` | {b:.1f} | {a:.1f} | {a / floor_ms:.2f} | {cb:.1f} "
            f"| {ca:.1f} | {ca / floor_cpu:.2f} | {ib:.1f} | {ia:.1f} |"
        )
    print("\nThe warm decision per message, over each corpus (English: all of it; the others:")
    print("their train split), median and slowest:\n")
    print("| corpus | before µs | after µs | after, slowest µs |")
    print("|---|---:|---:|---:|")
    for code in CORPORA:
        b_med = warm["before"][code][0] * 1e6
        a_med, a_max = (x * 1e6 for x in warm["after"][code])
        print(f"| {code} | {b_med:.1f} | {a_med:.1f} | {a_max:.1f} |")
    print("\nThe UserPromptSubmit hook of the session that owns the task (`sh hook.sh`, then")
    print("Python records the interruption through the engine):\n")
    print(
        "| prompt | wall before ms | wall after ms | after × floor | CPU before ms "
        "| CPU after ms | after × floor |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, message in MESSAGES.items():
        if label == "en (no rule matches)":
            continue
        b, a = med[("before", "hook", label)], med[("after", "hook", label)]
        cb, ca = cpu_med[("before", "hook", label)], cpu_med[("after", "hook", label)]
        print(
            f"| {label}: `{message}` | {b:.1f} | {a:.1f} | {a / floor_ms:.2f} | {cb:.1f} "
            f"| {ca:.1f} | {ca / floor_cpu:.2f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
