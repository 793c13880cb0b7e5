"""scripts/train_interrupt_model.py --fast: the training loop compiled from
scripts/train_interrupt_model.c gives the pure script's weights, bit for bit (issue #45)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "train_interrupt_model.py"
SHIPPED = ROOT / "taskproto" / "classify" / "languages" / "model.bin"
needs_cc = pytest.mark.skipif(
    shutil.which("cc") is None, reason="no C compiler (cc) here: .ci/run installs gcc"
)


def _script(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
    )


@needs_cc
@pytest.mark.slow  # ~20 CPU s, one training of the whole corpus
def test_fast_writes_the_shipped_weights(tmp_path: Path) -> None:
    """The whole run as a user types it, corpora and features as they are in this checkout
    (whoever changed them last): byte for byte the shipped model.bin, which the slow
    test_the_shipped_weights_are_the_training_scripts checks against the pure script. In the
    default suite test_the_shipped_weights_are_made_from_this_checkout stands for it: the
    fingerprint of what the weights are made from, recomputed without training."""
    out = tmp_path / "model.bin"
    made = _script("--fast", "--out", str(out))
    assert made.returncode == 0, made.stderr
    assert out.read_bytes() == SHIPPED.read_bytes()
    assert f"-> {out}" in made.stderr
    written = (tmp_path / "model.fingerprint").read_text()
    assert written == (SHIPPED.parent / "model.fingerprint").read_text()


def _stale(trainer: ModuleType, root: Path = ROOT) -> str:
    """Which parts of the fingerprint beside ``root``'s model.bin differ from ``root``'s inputs
    (the script and the package imported from ``root``: a copy is read in a child Python)."""
    if root == ROOT:
        shipped = trainer.read_fingerprint()
        now = trainer.fingerprint(trainer.NEVER)
    else:
        code = (
            "import json, sys\n"
            f"sys.path[:0] = [{str(root / 'scripts')!r}, {str(root)!r}]\n"
            "import taskproto, train_interrupt_model as t\n"
            f"assert taskproto.__file__.startswith({str(root)!r}), taskproto.__file__\n"
            "print(json.dumps([t.read_fingerprint(), t.fingerprint(t.NEVER)]))\n"
        )
        ran = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, check=False
        )
        assert ran.returncode == 0, ran.stderr
        shipped, now = json.loads(ran.stdout)
    return ", ".join(
        name for name in sorted(shipped.keys() | now.keys()) if shipped.get(name) != now.get(name)
    )


def test_the_shipped_weights_are_made_from_this_checkout(trainer: ModuleType) -> None:
    """model.fingerprint, which the training script writes beside model.bin, is what this
    checkout's corpora, held-out splits, hyper-parameters and feature code make: a change to
    any of them without the weights made again fails here, in milliseconds (the training
    itself, byte for byte, is the slow test_fast_writes_the_shipped_weights)."""
    stale = _stale(trainer)
    assert not stale, (
        f"model.bin was not made from this checkout (it differs in: {stale}): run"
        " python scripts/train_interrupt_model.py --fast (needs cc; without --fast the same"
        " weights, in minutes) and commit model.bin and model.fingerprint"
    )


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of what the fingerprint reads: the script, the package, the corpora."""
    root = tmp_path / "checkout"
    shutil.copytree(
        ROOT / "taskproto", root / "taskproto", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(
        ROOT / "scripts", root / "scripts", ignore=shutil.ignore_patterns("__pycache__")
    )
    corpora = ROOT / "tests" / "data" / "interruptions_i18n"
    shutil.copytree(corpora, root / "tests" / "data" / "interruptions_i18n")
    return root


def test_a_copy_of_this_checkout_is_not_stale(checkout: Path, trainer: ModuleType) -> None:
    """The fingerprint reads the copy as it reads this checkout (what the tests below change)."""
    assert _stale(trainer, checkout) == ""


def test_a_training_file_changed_by_one_byte_makes_the_weights_stale(
    checkout: Path, trainer: ModuleType
) -> None:
    tsv = checkout / "tests" / "data" / "interruptions_i18n" / "de.heldout10.tsv"
    data = bytearray(tsv.read_bytes())
    data[-2] ^= 1
    tsv.write_bytes(bytes(data))
    assert _stale(trainer, checkout) == "corpus"


def test_a_split_added_is_stale_unless_held_out(checkout: Path, trainer: ModuleType) -> None:
    """The blind batch held out (NEVER) may come into the repository; any other new split is
    trained on."""
    corpora = checkout / "tests" / "data" / "interruptions_i18n"
    (corpora / f"fr.{trainer.NEVER[0]}.tsv").write_text("RESUMPTION\tvas-y\n")
    assert _stale(trainer, checkout) == ""
    (corpora / "fr.heldout99.tsv").write_text("RESUMPTION\tvas-y\n")
    assert _stale(trainer, checkout) == "corpus"


def test_a_feature_changed_in_model_py_makes_the_weights_stale(
    checkout: Path, trainer: ModuleType
) -> None:
    model = checkout / "taskproto" / "classify" / "languages" / "model.py"
    source = model.read_text()
    assert "for size in (2, 3, 4):" in source
    model.write_text(source.replace("for size in (2, 3, 4):", "for size in (2, 3):"))
    assert _stale(trainer, checkout) == "features"


def test_fast_without_a_compiler_refuses_in_one_line(tmp_path: Path) -> None:
    out = tmp_path / "model.bin"
    empty = tmp_path / "bin"
    empty.mkdir()
    made = _script("--fast", "--out", str(out), env={**os.environ, "PATH": str(empty)})
    assert made.returncode == 1
    assert made.stdout == ""
    assert made.stderr.count("\n") == 1, made.stderr
    assert "no cc on PATH" in made.stderr
    assert "without --fast, which gives the same weights" in made.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [empty]


def test_fast_with_a_compiler_that_fails_refuses_in_one_line(tmp_path: Path) -> None:
    """A cc that cannot build the loop (no C library headers, say): its first line is quoted."""
    out = tmp_path / "model.bin"
    tools = tmp_path / "bin"
    tools.mkdir()
    cc = tools / "cc"
    cc.write_text("#!/bin/sh\necho 'fatal error: math.h: No such file or directory' >&2\nexit 1\n")
    cc.chmod(0o755)
    made = _script("--fast", "--out", str(out), env={**os.environ, "PATH": str(tools)})
    assert made.returncode == 1
    assert made.stderr.count("\n") == 1, made.stderr
    assert "cc could not compile train_interrupt_model.c (fatal error: math.h" in made.stderr
    assert "without --fast, which gives the same weights" in made.stderr
    assert not out.exists()


@pytest.fixture(scope="module")
def trainer() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import train_interrupt_model
    finally:
        sys.path.remove(str(SCRIPT.parent))
    return train_interrupt_model


@needs_cc
def test_the_compiled_loop_equals_train_on_any_features(
    tmp_path: Path, trainer: ModuleType
) -> None:
    """Features the model does not make (random buckets and counts, every type, a message with
    none): the loop learns what ``train`` learns from them, bit for bit, on this Python's sum()
    (compensated since 3.12)."""
    t = trainer
    draw = random.Random(45)
    rows = [
        (draw.randrange(5), {draw.randrange(t.BUCKETS): draw.randint(1, 4) for _ in range(n)})
        for n in [draw.randint(1, 40) for _ in range(120)] + [0]
    ]
    program = t.build_fast(tmp_path)
    assert t.train_fast(rows, program) == t.train(rows)


@needs_cc
@pytest.mark.slow  # ~15 s: features of every message, a model trained, a batch read three ways
def test_fast_estimate_reads_a_batch_with_a_go_read_through_a_slip() -> None:
    """The leave-one-batch-out estimate, in seconds with --fast, on batch 13, whose "ぞっこう
    おねがい" is a go only through slips.py: the estimate's rebuilt decision, which reads the
    text unslipped, finds no clause for that go and takes nothing beside it (it stopped with a
    StopIteration traceback before)."""
    made = _script("--fast", "--hold-out-batch", "13")
    assert made.returncode == 0, made.stderr
    assert made.stderr == ""
    assert "| 13 | ja | " in made.stdout
    assert "| 13 | all | " in made.stdout
    assert "<!-- the rebuilt decision differs from classify's on " in made.stdout


def test_no_fold_of_the_estimate_trains_on_the_blind_batch_held_out(trainer: ModuleType) -> None:
    """--hold-out-batch K trains each fold without K and without the blind batch held out by
    default (until the seventeenth round a fold trained on it once it was in the repository)."""
    # (the blind batch is in the repository only once it is scored: between a round's fold-in
    # and its scoring, the fold's list is what is checked)
    blind = {(c, m) for c, _, m in trainer.messages(trainer.NEVER, keep=True)}
    for batch in ("17", "20", "18t"):
        left_out = trainer.fold(batch)
        assert set(trainer.BATCHES[batch]) <= set(left_out)
        assert set(trainer.NEVER) <= set(left_out), batch
        trained = {(c, m) for c, _, m in trainer.messages(left_out, keep=False)}
        assert not trained & blind, batch
