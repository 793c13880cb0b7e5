"""Claims per second through a shared remote: git daemon on 127.0.0.1, 1 and 8 racing clients.

Each client is its own clone and its own process. It loops over claim -> release of
the same task on the remote (the protocol of taskproto/remote.py: a claim commit and
a push with --force-with-lease; a lost race costs a fetch). Bounded by time and
count. Prints the floor `python -I -c pass` measured in the same run.

    PYTHONPATH=. python scripts/bench_remote.py [--seconds 5] [--max-claims 300]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchenv  # noqa: F401  (a config home of its own: the user's inbox registry untouched)

CLIENT = r"""
import json, sys, time
from pathlib import Path
from taskproto.config import load_config
from taskproto.remote import Remote, RemoteClaimHeld, RemoteError
session, gate, seconds, cap = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
remote = Remote(load_config(Path.cwd()))
(gate / f"ready-{session}").touch()
while not (gate / "go").exists():
    time.sleep(0.001)
wins = lost = 0
start = time.monotonic()
latencies = []
while time.monotonic() - start < seconds and wins < cap:
    t0 = time.monotonic()
    try:
        remote.acquire("bench", session, None)
    except (RemoteClaimHeld, RemoteError):  # RemoteError: the claim moved on every retry
        lost += 1
        continue
    latencies.append(time.monotonic() - t0)
    remote.release_claim("bench", session)
    wins += 1
elapsed = time.monotonic() - start
print(json.dumps({"wins": wins, "lost": lost, "elapsed": elapsed, "latencies": latencies}))
"""


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def floor(runs: int = 10) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-I", "-c", "pass"], check=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run(base: Path, url: str, clients: int, seconds: float, cap: int) -> dict[str, float]:
    clones = []
    for i in range(clients):
        path = base / f"c{clients}-{i}"
        git(base, "clone", "--quiet", url, str(path))
        clones.append(path)
    gate = base / f"gate{clients}"
    gate.mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CLIENT, f"s{i}", str(gate), str(seconds), str(cap)],
            cwd=c,
            stdout=subprocess.PIPE,
            text=True,
        )
        for i, c in enumerate(clones)
    ]
    while not all((gate / f"ready-s{i}").exists() for i in range(clients)):
        time.sleep(0.01)
    (gate / "go").touch()
    results = [json.loads(p.communicate()[0]) for p in procs]
    wins = sum(r["wins"] for r in results)
    elapsed = max(r["elapsed"] for r in results)
    latencies = [x for r in results for x in r["latencies"]]
    return {
        "clients": clients,
        "claims": wins,
        "lost_races": sum(r["lost"] for r in results),
        "claims_per_s": wins / elapsed,
        "median_claim_ms": 1000 * statistics.median(latencies),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--max-claims", type=int, default=300, help="per client")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        seed = base / "seed"
        seed.mkdir()
        git(seed, "init", "--quiet", "--initial-branch=main")
        (seed / ".taskproto.toml").write_text('remote = "origin"\n')
        git(seed, "add", ".taskproto.toml")
        git(
            seed,
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@localhost",
            "commit",
            "--quiet",
            "-m",
            "seed",
        )
        srv = base / "srv"
        srv.mkdir()
        git(base, "clone", "--quiet", "--bare", str(seed), str(srv / "project.git"))
        port = free_port()
        daemon = subprocess.Popen(
            [
                "git",
                "daemon",
                "--listen=127.0.0.1",
                f"--port={port}",
                f"--base-path={srv}",
                "--export-all",
                "--enable=receive-pack",
                "--reuseaddr",
                str(srv),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            url = f"git://127.0.0.1:{port}/project.git"
            print(f"floor: python -I -c pass  {1000 * floor():.1f} ms (median of 10)")
            for clients in (1, 8):
                r = run(base, url, clients, args.seconds, args.max_claims)
                print(
                    f"{clients} client(s): {r['claims']} claims in {args.seconds:g} s -> "
                    f"{r['claims_per_s']:.1f} claims/s, median claim {r['median_claim_ms']:.0f} "
                    "ms, "
                    f"{r['lost_races']} lost races"
                )
        finally:
            daemon.terminate()
            daemon.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
