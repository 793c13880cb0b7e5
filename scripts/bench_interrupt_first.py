"""The interruption decision's first-message cost: import + first classify, CPU time inside a
fresh `python -I` process, the best of N runs, two trees alternated run by run (the best of many
is what a change of a few milliseconds can be read from on a shared machine, where the median
of scripts/bench_interrupt_languages.py moves by more than that between runs).

    python scripts/bench_interrupt_first.py BEFORE_TREE AFTER_TREE [--runs N]

A tree is a checkout (`git worktree add --detach /tmp/before REV`). The floor is `python -I -c
pass`'s whole-process CPU time (user + system, from the children's resource usage), the best of
N in the same run; each message's row gives the whole process's best CPU time after the change
against it too.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys

MESSAGES = (
    "continue",
    "nice work",
    "Thanks, that makes sense. Continue.",
    "ok, continue with the tests",
    "carry on tomorrow",
    "weiter machen bitte",
    "sigue, por favor",
    "vas-y, continue",
    "pode continuar",
    "続けて",
    "继续",
    "Schon alles grün bei den Checks?",
    "¿Todo verde en el CI?",
    "On tient toujours les délais ?",
    "Tá tudo verde no CI?",
    "続ける前にlockを点検して",
    "我们赶得上进度吗？",
)
FIRST = (
    "import sys, time; sys.path.insert(0, sys.argv[1]); t = time.process_time(); "
    "from taskproto.classify.interruptions import classify; classify(sys.argv[2]); "
    "print(time.process_time() - t)"
)


def once(code: list[str]) -> tuple[float, float]:
    """(the CPU time the code printed, the whole process's CPU time), in seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(code, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return float(out or 0), spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    python = [sys.executable, "-I", "-c"]
    floor = min(once([*python, "pass"])[1] for _ in range(args.runs)) * 1000
    print(f"python {sys.version.split()[0]}; best of {args.runs} alternated runs")
    print(f"the floor, `python -I -c pass`: {floor:.1f} ms CPU\n")
    print("| message | inside before ms | inside after ms | change ms | process after ms", end="")
    print(" | × floor |")
    print("|---|---:|---:|---:|---:|---:|")
    for message in MESSAGES:
        inside = {"before": 1e9, "after": 1e9}
        process = 1e9
        for _ in range(args.runs):  # alternated, so both see the same machine
            for side in inside:
                spent, whole = once([*python, FIRST, getattr(args, side), message])
                inside[side] = min(inside[side], spent)
                if side == "after":
                    process = min(process, whole)
        before, after, whole = inside["before"] * 1000, inside["after"] * 1000, process * 1000
        print(
            f"| `{message}` | {before:.1f} | {after:.1f} | {after - before:+.1f} | {whole:.1f} |"
            f" {whole / floor:.2f} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
