"""Train the interruption classifier's second opinion for non-English messages (issue #45).

    python scripts/train_interrupt_model.py [--hold-out SPLIT ...] [--out PATH]

Reads every labelled message of tests/data/interruptions_i18n/ except the held-out splits named
(by default ``heldout6``, the split that measures this model and is never trained on), trains a
softmax regression over ``taskproto.classify.languages.model.features`` hashed into its buckets
(AdaGrad, a fixed seed: the same data gives the same weights), and writes the weights as 16-bit
integers to taskproto/classify/languages/model.bin. Standard library only; under a minute on a
loaded 2-core machine.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from array import array
from collections.abc import Sequence
from pathlib import Path

from taskproto.classify import languages
from taskproto.classify.interruptions import _normalise
from taskproto.classify.languages.model import BUCKETS, SCALE, TYPES, buckets

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "tests" / "data" / "interruptions_i18n"
OUT = ROOT / "taskproto" / "classify" / "languages" / "model.bin"
EPOCHS = 30
RATE = 0.2
L2 = 1e-4


def load(held_out: Sequence[str]) -> list[tuple[int, dict[int, int]]]:
    rows: list[tuple[int, dict[int, int]]] = []
    for path in sorted(CORPORA.glob("*.tsv")):
        if path.stem.split(".")[-1] in held_out:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            label, _, message = line.partition("\t")
            normal = languages.detect(_normalise(message))[2]
            rows.append((TYPES.index(label), buckets(normal)))
    return rows


def train(rows: list[tuple[int, dict[int, int]]]) -> tuple[list[float], list[list[float]]]:
    data = []
    for label, counts in rows:
        norm = 1 / math.sqrt(sum(c * c for c in counts.values()) or 1)
        data.append((label, [(row, c * norm) for row, c in sorted(counts.items())]))
    weights = [[0.0] * 5 for _ in range(BUCKETS)]
    squares = [[1e-8] * 5 for _ in range(BUCKETS)]
    bias = [0.0] * 5
    shuffle = random.Random(1)
    for _ in range(EPOCHS):
        shuffle.shuffle(data)
        for label, values in data:
            scores = bias[:]
            for row, v in values:
                for k in range(5):
                    scores[k] += weights[row][k] * v
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for k in range(5):
                grad = exps[k] / total - (k == label)
                bias[k] -= RATE * grad * 0.1
                for row, v in values:
                    g = grad * v + L2 * weights[row][k]
                    squares[row][k] += g * g
                    weights[row][k] -= RATE * g / math.sqrt(squares[row][k])
    return bias, weights


def _int16(value: float) -> int:
    return max(-32768, min(32767, round(value * SCALE)))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--hold-out",
        action="append",
        help="a split never trained on, e.g. heldout6 (the default), repeatable",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where the weights go")
    args = parser.parse_args(argv)
    held_out = args.hold_out or ["heldout6"]
    rows = load(held_out)
    bias, weights = train(rows)
    table = array("h", [_int16(w) for row in weights for w in row])
    table.extend(_int16(b) for b in bias)
    if sys.byteorder == "big":
        table.byteswap()
    args.out.write_bytes(table.tobytes())
    print(f"{len(rows)} messages (held out: {', '.join(held_out)}) -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
