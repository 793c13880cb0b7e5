"""Interruptions in German, Spanish, French, Brazilian Portuguese, Japanese and Simplified Chinese
(issue #45): the same five types and the same rules as in English, on the team's corpora."""

from __future__ import annotations

import ast
import hashlib
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskproto.classify.interruptions import (
    DEFAULT_RULES,
    INTERRUPTION_TYPES,
    Classification,
    classify,
    is_approval_like,
    merge_rules,
    seed_classify,
)
from taskproto.classify.languages import CODES, detect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import snapshot_interruptions as snapshot  # noqa: E402

CORPORA = Path(__file__).parent / "data" / "interruptions_i18n"
ENGLISH = Path(__file__).parent / "data" / "interruptions.tsv"
MIN_ACCURACY = 0.95  # every split the rules were written from, and English's corpus
# The four hash-split held-out splits were each scored once, blind, then their misses were seen
# and a new batch written before the rules changed again; since the fifth split was written they
# are data the rules were written from, like the train split (docs/interruptions.md).
HELD_OUT = ("heldout", "heldout2", "heldout3", "heldout4")
# The fifth held-out split (all of it held out) was scored once, blind, by the second round's
# rules (80.7-90.8%); its misses were seen, and it became data like the others.
FIFTH = "heldout5"
# The third round (docs/interruptions.md): a sixth batch, hash-split into train6 and heldout6 and
# committed before the model (languages/model.py) was made; heldout6 was scored once, blind, at
# the end (90.0% de to 100% es, pt-BR). Since the fourth round the model is trained on all six
# batches and the rules were changed after reading heldout6's misses, so heldout6 is no longer a
# blind split: it is data like the others and has the same floor. What measures the rules and
# model on new messages is the leave-one-batch-out estimate
# (scripts/train_interrupt_model.py --hold-out-batch 5 --hold-out-batch 6) and the seventh
# batch, held out of this repository and scored by the lead after the merge.
SIXTH = ("train6", "heldout6")
# The seventh batch: written by engineers who did not see the classifier, all held out, scored
# once by the lead at 86.4% (de) to 92.7% (ja); its misses were read in the fifth round and the
# model is trained on it, so it is data like the others and has the same floor.
SEVENTH = "heldout7"
# The eighth batch, written the same way, scored once by the lead at 87.3% (zh-Hans) to 98.0%
# (es), 93.5% in all; its misses were read in the sixth round and the model is trained on it, so
# it too is data with the same floor. What will measure the sixth round is the ninth batch.
EIGHTH = "heldout8"
# The ninth batch, written the same way, scored once by the lead at 85.7% (ja) to 96.8% (fr),
# 90.6% in all; since the seventh round the model is trained on it, so it too is data with the
# same floor. What measured the seventh round is the tenth batch (TENTH).
NINTH = "heldout9"
# The tenth batch (below, TENTH_FLOORS): since the eighth round the model is trained on it, so it
# too is data with the same floor (98.7% pt-BR to 100% ja once trained on).
TENTH = "heldout10"
# The eleventh batch (below, ELEVENTH_FLOORS): since the ninth round the model is trained on it,
# so it too is data with the same floor.
ELEVENTH = "heldout11"
# The twelfth batch (below, TWELFTH_FLOORS): since the tenth round the model is trained on it, so
# it too is data with the same floor.
TWELFTH = "heldout12"
# The thirteenth batch (below, THIRTEENTH_FLOORS): since the eleventh round the model is trained
# on it, so it too is data with the same floor.
THIRTEENTH = "heldout13"
# The fourteenth batch (below, FOURTEENTH_FLOORS): since the twelfth round the model is trained
# on it, so it too is data with the same floor.
FOURTEENTH = "heldout14"
# The fifteenth batch (below, FIFTEENTH_FLOORS): since the thirteenth round the model is trained
# on it, so it too is data with the same floor.
FIFTEENTH = "heldout15"
# The sixteenth batch (below, SIXTEENTH_FLOORS): since the fourteenth round the model is trained
# on it, so it too is data with the same floor.
SIXTEENTH = "heldout16"
# The seventeenth batch (below, SEVENTEENTH_FLOORS): since the fifteenth round the model is
# trained on it, so it too is data with the same floor.
SEVENTEENTH = "heldout17"
# The eighteenth batch (below, EIGHTEENTH_FLOORS): since the sixteenth round the model is trained
# on it, so it too is data with the same floor.
EIGHTEENTH = "heldout18"
# The nineteenth batch (below, NINETEENTH_FLOORS): since the seventeenth round the model is trained
# on it, so it too is data with the same floor.
NINETEENTH = "heldout19"
# The twentieth batch (below, TWENTIETH_FLOORS): since the eighteenth round the model is trained
# on it, so it too is data with the same floor.
TWENTIETH = "heldout20"
# The twenty-first batch (below, TWENTYFIRST_FLOORS): since the nineteenth round the model is
# trained on it, so it too is data with the same floor.
TWENTYFIRST = "heldout21"
# The twenty-second batch (below, TWENTYSECOND_FLOORS): since the twentieth round the model is
# trained on it, so it too is data with the same floor.
TWENTYSECOND = "heldout22"
# The twenty-third batch (below, TWENTYTHIRD_FLOORS): since the twenty-first round the model is
# trained on it, so it too is data with the same floor.
TWENTYTHIRD = "heldout23"
# The twenty-fourth batch (below, TWENTYFOURTH_FLOORS): since the twenty-second round the model
# is trained on it, so it too is data with the same floor.
TWENTYFOURTH = "heldout24"
# The twenty-fifth batch (below, TWENTYFIFTH_FLOORS): since the twenty-third round the model is
# trained on it, so it too is data with the same floor.
TWENTYFIFTH = "heldout25"
# The twenty-sixth batch: written blind while the twenty-third round was made, held out by
# default (scripts/train_interrupt_model.py's NEVER), scored once.
TWENTYSIXTH = "heldout26"
TRAINED = (
    "train",
    *HELD_OUT,
    FIFTH,
    *SIXTH,
    SEVENTH,
    EIGHTH,
    NINTH,
    TENTH,
    ELEVENTH,
    TWELFTH,
    THIRTEENTH,
    FOURTEENTH,
    FIFTEENTH,
    SIXTEENTH,
    SEVENTEENTH,
    EIGHTEENTH,
    NINETEENTH,
    TWENTIETH,
    TWENTYFIRST,
    TWENTYSECOND,
    TWENTYTHIRD,
    TWENTYFOURTH,
    TWENTYFIFTH,
)


def load(path: Path) -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        label, sep, message = line.partition("\t")
        assert sep and label in INTERRUPTION_TYPES, f"{path.name}:{number}: bad row {line!r}"
        rows.append((label, message))
    return rows


def test_every_language_has_a_corpus_with_a_held_out_split() -> None:
    for code in CODES:
        train = load(CORPORA / f"{code}.train.tsv")
        helds = [load(CORPORA / f"{code}.{split}.tsv") for split in HELD_OUT]
        out = sum(len(held) for held in helds)
        assert len(train) + out >= 150, code
        assert 0.30 <= out / (len(train) + out) <= 0.40, code
        messages = [m for split in (train, *helds) for _, m in split]
        assert len(messages) == len(set(messages)), code
        for split in helds:
            assert set(Counter(label for label, _ in split)) == set(INTERRUPTION_TYPES), code
        fifth = load(CORPORA / f"{code}.{FIFTH}.tsv")
        assert len(fifth) >= 150, code
        assert Counter(label for label, _ in fifth).keys() == set(INTERRUPTION_TYPES), code
        assert not {m for _, m in fifth} & set(messages), code
        assert len({m for _, m in fifth}) == len(fifth), code


def test_the_sixth_batch_is_new_and_split_by_its_hash() -> None:
    for code in CODES:
        older = {m for split in ("train", *HELD_OUT, FIFTH) for _, m in load_split(code, split)}
        train, fresh = (load_split(code, split) for split in SIXTH)
        batch = [m for _, m in (*train, *fresh)]
        assert len(batch) >= 100, code
        assert len(set(batch)) == len(batch), code
        assert not set(batch) & older, code
        assert all(held_out_by_hash(m) for _, m in fresh), code
        assert not any(held_out_by_hash(m) for _, m in train), code
        assert set(Counter(label for label, _ in fresh)) == set(INTERRUPTION_TYPES), code


def load_split(code: str, split: str) -> list[tuple[str, str]]:
    return load(CORPORA / f"{code}.{split}.tsv")


def held_out_by_hash(message: str) -> bool:
    return hashlib.sha256(message.encode()).digest()[0] < 90


def decided(path: Path) -> list[tuple[str, str]]:
    """(type, rule) of each row of corpus file `path`, in order: the decisions' snapshot, which
    test_classifier_gates.py holds to the code message by message, or classified here when the
    snapshot is of other rules, weights or rows (scripts/snapshot_interruptions.py, `decided`)."""
    rows = load(path)
    found = [tuple(pair.split("\t", 1)) for pair in snapshot.decided(path)]
    assert len(found) == len(rows), path
    return [(kind, rule) for kind, rule in found]


def test_the_scores_read_the_snapshot_only_for_the_rows_it_was_made_from(tmp_path: Path) -> None:
    """A corpus file whose rows changed since the snapshot (here one row made a bare go) is
    classified, not read from it: its scores are the code's."""
    path = CORPORA / "de.heldout24.tsv"
    rows = load(path)
    label, first = next((label, m) for label, m in rows if label != "RESUMPTION")
    changed = tmp_path / path.name
    changed.write_text(
        path.read_text(encoding="utf-8").replace(
            f"{label}\t{first}\n", "RESUMPTION\tmach weiter\n", 1
        ),
        encoding="utf-8",
    )
    index = [m for _, m in load(changed)].index("mach weiter")
    assert snapshot.decided(path)[index].split("\t")[0] != "RESUMPTION"
    assert snapshot.decided(changed)[index].split("\t")[0] == "RESUMPTION"
    assert snapshot.decided(changed) == snapshot.decisions(changed)


def score(code: str, split: str) -> tuple[Counter[str], Counter[str]]:
    path = CORPORA / f"{code}.{split}.tsv"
    rows = load(path)
    pairs = zip(rows, decided(path), strict=True)
    right = Counter(label for (label, _), (kind, _) in pairs if kind == label)
    return right, Counter(label for label, _ in rows)


@pytest.mark.parametrize("code", CODES)
def test_corpus_accuracy(code: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Every split the rules were written from, each at MIN_ACCURACY at least; a failure names
    each split below it (its table and misses are printed, every split's)."""
    below = []
    for split in TRAINED:
        rows = load(CORPORA / f"{code}.{split}.tsv")
        pairs = list(zip(rows, decided(CORPORA / f"{code}.{split}.tsv"), strict=True))
        right = Counter(label for (label, _), (kind, _) in pairs if kind == label)
        total = Counter(label for label, _ in rows)
        seed = sum(seed_classify(message) == label for label, message in rows) / len(rows)
        ours = sum(right.values()) / len(rows)
        with capsys.disabled():
            cells = " ".join(f"{t[:6]} {right[t]}/{total[t]}" for t in INTERRUPTION_TYPES)
            print(
                f"\n{code:>7} {split:<8} n={len(rows):3} ours {ours:6.1%} seed {seed:6.1%}  {cells}"
            )
            for (label, message), (kind, rule) in pairs:
                if kind != label:
                    print(f"    miss: expected {label}, got {kind} ({rule}): {message!r}")
        if ours < MIN_ACCURACY:
            below.append((split, f"{ours:.1%}"))
    assert below == [], (code, below)


def test_the_seventh_batch_is_new() -> None:
    """The seventh batch repeats no message of the batches before it (its accuracy floor is
    test_corpus_accuracy's, as every trained-on split's)."""
    for code in CODES:
        older = {m for split in TRAINED if split != SEVENTH for _, m in load_split(code, split)}
        rows = load_split(code, SEVENTH)
        assert len(rows) >= 150 and not {m for _, m in rows} & older, code


def test_the_eighth_batch_is_new() -> None:
    """The eighth batch repeats no message of the batches before it (its accuracy floor is
    test_corpus_accuracy's, as every trained-on split's)."""
    for code in CODES:
        older = {m for split in TRAINED if split != EIGHTH for _, m in load_split(code, split)}
        rows = load_split(code, EIGHTH)
        assert len(rows) >= 150 and not {m for _, m in rows} & older, code


def test_the_ninth_batch_is_new() -> None:
    """The ninth batch repeats no message of the batches before it (its accuracy floor is
    test_corpus_accuracy's, as every trained-on split's)."""
    for code in CODES:
        older = {m for split in TRAINED if split != NINTH for _, m in load_split(code, split)}
        rows = load_split(code, NINTH)
        assert len(rows) >= 150 and not {m for _, m in rows} & older, code


# The tenth batch (docs/interruptions.md, "The tenth batch, scored once"): written by engineers
# who did not see the classifier, all held out, scored once by the lead after the seventh round
# was merged: 93.6% in all, ja 96.4% (the goal's 95% met), de 91.4% to fr 93.8% (not met). Its
# floors are those counts: a later round may only do better on it. Since the eighth round it is
# data: the model is trained on it (batch "10" of scripts/train_interrupt_model.py) and it is in
# TRAINED, held to MIN_ACCURACY.
TENTH_FLOORS = {"de": 148, "es": 149, "fr": 152, "pt-BR": 149, "ja": 161, "zh-Hans": 156}
# The eleventh batch: written the same way by engineers who did not see the classifier, kept out
# of this repository until the eighth round was merged, never trained on (the training script
# leaves heldout11 out by default), scored once by the lead (docs/interruptions.md, "The eleventh
# batch, scored once"): 92.7% in all, pt-BR 95.2% (met), ja 89.6% to es and zh-Hans 93.9% (not
# met). Its floors are those counts. Since the ninth round it is data: the model is trained on it
# (batch "11" of scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
ELEVENTH_FLOORS = {"de": 148, "es": 155, "fr": 146, "pt-BR": 157, "ja": 147, "zh-Hans": 154}
# The twelfth batch: written the same way by engineers who did not see the classifier, kept out
# of this repository until the ninth round was merged, never trained on (the training script
# leaves heldout12 out by default), scored once by the lead (docs/interruptions.md, "The twelfth
# batch, scored once"): 93.6% in all, ja 95.7% (met), fr 91.9% to es 94.7% (not met). Its floors
# are those counts. Since the tenth round it is data: the model is trained on it (batch "12" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWELFTH_FLOORS = {"de": 151, "es": 162, "fr": 148, "pt-BR": 158, "ja": 157, "zh-Hans": 153}
# The thirteenth batch: written the same way by engineers who did not see the classifier, kept
# out of this repository until the tenth round was merged, never trained on until then, scored
# once by the lead (docs/interruptions.md, "The thirteenth batch, scored once"): 94.3% in all, ja
# 97.6% (met), pt-BR 92.3% to es 94.9% (not met). Its floors are those counts. Since the eleventh
# round it is data: the model is trained on it (batch "13" of scripts/train_interrupt_model.py)
# and it is in TRAINED, held to MIN_ACCURACY.
THIRTEENTH_FLOORS = {"de": 154, "es": 148, "fr": 154, "pt-BR": 144, "ja": 161, "zh-Hans": 156}
# The fourteenth batch: written the same way by engineers who did not see the classifier (while
# the tenth round was made), kept out of this repository until the eleventh round was merged,
# never trained on (the training script leaves heldout14 out by default), scored once by the lead
# (docs/interruptions.md, "The fourteenth batch, scored once"): 93.3% in all, de 93.2% to ja
# 93.9%, zh-Hans 92.0% (the goal met in no language). Its floors are those counts. Since the
# twelfth round it is data: the model is trained on it (batch "14" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
FOURTEENTH_FLOORS = {"de": 151, "es": 153, "fr": 153, "pt-BR": 153, "ja": 154, "zh-Hans": 150}
# The fifteenth batch: written the same way by engineers who did not see the classifier (while
# the twelfth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout15 out by default), scored once by the lead
# (docs/interruptions.md, "The fifteenth batch, scored once"): 94.0% in all, es 96.3%, ja 96.2%
# and fr 95.5% (met), pt-BR 93.3%, de 91.7%, zh-Hans 90.7% (not met). Its floors are those
# counts. Since the thirteenth round it is data: the model is trained on it (batch "15" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
FIFTEENTH_FLOORS = {"de": 143, "es": 158, "fr": 149, "pt-BR": 152, "ja": 153, "zh-Hans": 147}


# The sixteenth batch: written the same way by engineers who did not see the classifier (while
# the thirteenth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout16 out by default), scored once by the lead
# (docs/interruptions.md, "The sixteenth batch, scored once"): 95.5% in all, es 97.4%, fr 96.3%
# and ja 96.2% (met), zh-Hans 94.9%, de 94.4%, pt-BR 93.5% (not met). Its floors are those
# counts. Since the fourteenth round it is data: the model is trained on it (batch "16" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
SIXTEENTH_FLOORS = {"de": 153, "es": 152, "fr": 156, "pt-BR": 145, "ja": 152, "zh-Hans": 149}


# The seventeenth batch: written the same way by engineers who did not see the classifier (while
# the fourteenth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout17 out by default), scored once by the lead
# (docs/interruptions.md, "The seventeenth batch, scored once"): 95.5% in all, es 97.4%, fr and
# ja 96.7%, pt-BR 96.0% (met), de 93.4%, zh-Hans 92.7% (not met). Its floors are those counts.
# Since the fifteenth round it is data: the model is trained on it (batch "17" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
SEVENTEENTH_FLOORS = {"de": 141, "es": 147, "fr": 147, "pt-BR": 144, "ja": 145, "zh-Hans": 139}
# The eighteenth batch: written the same way by engineers who did not see the classifier (while
# the fifteenth round was made), kept out of this repository until that round was merged, scored
# once by the lead (docs/interruptions.md, "The eighteenth batch, scored once"): 92.2% in all, ja
# 96.4% (met), pt-BR 93.2%, es 93.1%, fr 92.7%, de 92.0%, zh-Hans 85.7% (not met). Its floors are
# those counts. Since the sixteenth round it is data: the model is trained on it (batch "18" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
EIGHTEENTH_FLOORS = {"de": 161, "es": 163, "fr": 166, "pt-BR": 165, "ja": 162, "zh-Hans": 144}
# The nineteenth batch: written the same way by engineers who did not see the classifier (while
# the fifteenth round was made), kept out of this repository until the sixteenth round was merged,
# never trained on (the training script leaves heldout19 out by default), scored once by the lead
# (docs/interruptions.md, "The nineteenth batch, scored once"): 92.5% in all, pt-BR 94.2%, es and
# fr 93.6%, de 92.9%, ja 90.5%, zh-Hans 90.0% (none met). Its floors are those counts. Since the
# seventeenth round it is data: the model is trained on it (batch "19" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
NINETEENTH_FLOORS = {"de": 157, "es": 162, "fr": 162, "pt-BR": 161, "ja": 152, "zh-Hans": 153}
# The twentieth batch: written the same way by engineers who did not see the classifier (while
# the seventeenth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout20 out by default), scored once by the lead
# (docs/interruptions.md, "The twentieth batch, scored once"): 95.4% in all, ja 98.3%, fr and
# pt-BR 96.6%, de 95.3% (met), es 94.2%, zh-Hans 91.5% (not met). Its floors are those counts.
# Since the eighteenth round it is data: the model is trained on it (batch "20" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWENTIETH_FLOORS = {"de": 164, "es": 161, "fr": 170, "pt-BR": 169, "ja": 172, "zh-Hans": 161}
# The twenty-first batch: written the same way by engineers who did not see the classifier (while
# the eighteenth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout21 out by default), scored once by the lead
# (docs/interruptions.md, "The twenty-first batch, scored once"): 95.9% in all, fr 97.4%, de 96.9%,
# ja 97.8%, pt-BR 95.3% (met), zh-Hans 94.1%, es 93.8% (not met). Its floors are those counts.
# Since the nineteenth round it is data: the model is trained on it (batch "21" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWENTYFIRST_FLOORS = {"de": 188, "es": 182, "fr": 188, "pt-BR": 181, "ja": 180, "zh-Hans": 174}
# The twenty-second batch: written the same way by engineers who did not see the classifier (while
# the nineteenth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout22 out by default), scored once by the lead
# (docs/interruptions.md, "The twenty-second batch, scored once"): 97.0% in all, ja 99.4%, de
# 98.3%, es 97.1%, pt-BR 96.5%, fr 95.9% (met), zh-Hans 94.6% (not met). Its floors are those
# counts. Since the twentieth round it is data: the model is trained on it (batch "22" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWENTYSECOND_FLOORS = {"de": 171, "es": 168, "fr": 163, "pt-BR": 164, "ja": 169, "zh-Hans": 159}
# The twenty-third batch: written the same way by engineers who did not see the classifier (while
# the twentieth round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout23 out by default), scored once by the lead
# (docs/interruptions.md, "The twenty-third batch, scored once"): 97.1% in all, es 98.9%, fr
# 98.8%, ja 98.8%, pt-BR 97.7% (met), zh-Hans 94.8%, de 93.7% (not met). Its floors are those
# counts. Since the twenty-first round it is data: the model is trained on it (batch "23" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWENTYTHIRD_FLOORS = {"de": 164, "es": 173, "fr": 169, "pt-BR": 167, "ja": 169, "zh-Hans": 163}
# The twenty-fourth batch: written the same way by engineers who did not see the classifier (while
# the twenty-first round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout24 out by default), scored once by the lead
# (docs/interruptions.md, "The twenty-fourth batch, scored once"): 97.6% in all, de 98.9%, fr
# 98.3%, ja 98.3%, pt-BR 97.7%, zh-Hans 97.7%, es 95.1% (all met). Its floors are those counts;
# since the twenty-second round it is data: the model is trained on it (batch "24" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWENTYFOURTH_FLOORS = {"de": 182, "es": 174, "fr": 170, "pt-BR": 169, "ja": 172, "zh-Hans": 169}
# The twenty-fifth batch: written the same way by engineers who did not see the classifier (while
# the twenty-second round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout25 out by default), scored once by the lead
# (docs/interruptions.md, "The twenty-fifth batch, scored once"): 97.0% in all, ja 100.0%, de
# 98.3%, es 98.3%, fr 98.3%, zh-Hans 96.7% (met), pt-BR 90.4% (not met). Its floors are those
# counts. Since the twenty-third round it is data: the model is trained on it (batch "25" of
# scripts/train_interrupt_model.py) and it is in TRAINED, held to MIN_ACCURACY.
TWENTYFIFTH_FLOORS = {"de": 175, "es": 173, "fr": 174, "pt-BR": 160, "ja": 183, "zh-Hans": 178}
# The twenty-sixth batch: written the same way by engineers who did not see the classifier (while
# the twenty-third round was made), kept out of this repository until that round was merged, never
# trained on (the training script leaves heldout26 out by default), scored once by the lead
# (docs/interruptions.md, "The twenty-sixth batch, scored once"): 97.4% in all, fr 98.8%, es
# 98.2%, ja 97.7%, de 97.1%, pt-BR 97.1%, zh-Hans 95.5% (all met). Its floors are those counts;
# the next round makes it data and holds out a twenty-seventh batch.
TWENTYSIXTH_FLOORS = {"de": 169, "es": 167, "fr": 170, "pt-BR": 167, "ja": 173, "zh-Hans": 168}
# Each blind batch's floors: its counts when it was scored once (the comments above).
BLIND_FLOORS = {
    TENTH: TENTH_FLOORS,
    ELEVENTH: ELEVENTH_FLOORS,
    TWELFTH: TWELFTH_FLOORS,
    THIRTEENTH: THIRTEENTH_FLOORS,
    FOURTEENTH: FOURTEENTH_FLOORS,
    FIFTEENTH: FIFTEENTH_FLOORS,
    SIXTEENTH: SIXTEENTH_FLOORS,
    SEVENTEENTH: SEVENTEENTH_FLOORS,
    EIGHTEENTH: EIGHTEENTH_FLOORS,
    NINETEENTH: NINETEENTH_FLOORS,
    TWENTIETH: TWENTIETH_FLOORS,
    TWENTYFIRST: TWENTYFIRST_FLOORS,
    TWENTYSECOND: TWENTYSECOND_FLOORS,
    TWENTYTHIRD: TWENTYTHIRD_FLOORS,
    TWENTYFOURTH: TWENTYFOURTH_FLOORS,
    TWENTYFIFTH: TWENTYFIFTH_FLOORS,
    TWENTYSIXTH: TWENTYSIXTH_FLOORS,
}


@pytest.mark.parametrize("code", CODES)
def test_a_blind_batch_keeps_its_blind_score(code: str) -> None:
    """Each blind batch of the language at its floor at least; a failure names every batch below
    it, with its count and size."""
    below = []
    for batch, floors in BLIND_FLOORS.items():
        right, total = score(code, batch)
        if sum(right.values()) < floors[code]:
            below.append((batch, sum(right.values()), floors[code], total.total()))
    assert below == [], (code, below)


# Rows of a blind batch equal to an older row but for punctuation, spaces or a sound mark (their
# writers compared exact text), each scored right: two Chinese rows of the eleventh batch
# (152/162 without them), and eight of the twelfth, four Japanese and four Chinese (ja 153/160,
# zh-Hans 149/160 without them), two of which equal rows of the tenth.
KNOWN_REPEATS = {
    ("zh-Hans", ELEVENTH): {"进度咋样了", "太感谢了"},
    ("ja", TENTH): {"かんさして"},
    ("zh-Hans", TENTH): {"lint报错都清掉了吗"},
    ("ja", TWELFTH): {"auditsessionお願いします", "かんさして", "今なにやってる", "進捗とうてすか"},
    ("zh-Hans", TWELFTH): {"lint报错都清掉了吗", "ok知道了", "冲冲冲继续", "数据库迁移跑完了吗"},
}


def test_the_blind_batches_are_new_and_the_twenty_sixth_never_trained_on() -> None:
    """The tenth to twenty-sixth batches repeat no message
    of any other file of their language, the training messages included (compared without case,
    accents, punctuation or spaces), and the training script leaves the twenty-sixth out unless
    told otherwise."""
    import unicodedata

    def plain(message: str) -> str:
        text = unicodedata.normalize("NFKD", message.strip().lower())
        return "".join(c for c in text if c.isalnum())

    batches = [TENTH, ELEVENTH, TWELFTH, THIRTEENTH, FOURTEENTH, FIFTEENTH, SIXTEENTH]
    batches += [SEVENTEENTH, EIGHTEENTH, NINETEENTH, TWENTIETH, TWENTYFIRST, TWENTYSECOND]
    batches += [TWENTYTHIRD, TWENTYFOURTH, TWENTYFIFTH, TWENTYSIXTH]
    for code in CODES:
        # each file of the language read once, its messages made plain once
        plains = {
            path.stem.split(".")[1]: {plain(m) for _, m in load(path)}
            for path in CORPORA.glob(f"{code}.*.tsv")
        }
        for batch in batches:
            rows = load_split(code, batch)
            others = set().union(*(p for split, p in plains.items() if split != batch))
            known = KNOWN_REPEATS.get((code, batch), set())
            assert len(rows) >= 150, (code, batch)
            assert {plain(m) for _, m in rows} & others == known, (code, batch)
    script = (ROOT / "scripts" / "train_interrupt_model.py").read_text(encoding="utf-8")
    assert f'NEVER = ("{TWENTYSIXTH}",)' in script
    assert "held_out = args.hold_out or list(NEVER)" in script


# --- the rules, language by language: the English rules' decisions hold in each


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # German
        ("weiter machen bitte", "RESUMPTION"),
        ("Mach weiter.", "RESUMPTION"),
        ("Du kannst weitermachen.", "RESUMPTION"),
        ("warte noch", "OTHER"),  # a hold
        ("Stopp!", "OTHER"),
        ("Mach noch nicht weiter.", "OTHER"),  # a negated go
        ("Nicht weitermachen, bevor CI grün ist.", "OTHER"),
        ("Hör nicht auf.", "RESUMPTION"),  # a negated stop is a go
        ("Warum hast du aufgehört? Mach weiter.", "RESUMPTION"),  # the last clause decides
        ("Mach weiter. Nein, doch nicht, stopp.", "OTHER"),  # a hold after a go cancels it
        ("Bevor du weitermachst: wie funktioniert der Rebase?", "QUESTION"),
        ("Prüf den Lock-Status, dann mach weiter.", "RESUMPTION"),
        ("Wo stehen wir?", "STATUS_REQUEST"),
        ("Mach ein Audit der Session.", "AUDIT"),
        ("Der Resume-Button geht nicht.", "OTHER"),  # a mention, not a request
        ("Weiter oben im Diff: wozu ist dieser Cast?", "QUESTION"),  # "further up", not a go
        ("ok", "OTHER"),
        ("ja", "OTHER"),  # bare ok / yes
        ("ja, weiter", "RESUMPTION"),
        ("Verifizier die letzten Transitionen.", "AUDIT"),  # German by "letzten" alone
        ("Endlich durch?", "STATUS_REQUEST"),
        ("Wie schaut es mit dem Merge aus?", "STATUS_REQUEST"),
        ("Guck mal, ob der Lock noch uns gehört.", "AUDIT"),
        ("Einen kurzen Health-Check bitte.", "AUDIT"),
        ("Gehört der Lock noch uns?", "AUDIT"),  # the protocol's state now
        ("Hält irgendwer anders den Lock?", "AUDIT"),  # "hält" (holds) folds to "halt"
        ("Ist das Journal append-only?", "QUESTION"),  # its design
        ("Läuft der Build noch?", "STATUS_REQUEST"),  # a yes/no question about the work
        ("Hat der Build geklappt?", "STATUS_REQUEST"),
        ("Wann bist du fertig?", "STATUS_REQUEST"),
        ("Kommst du gut voran?", "STATUS_REQUEST"),
        ("Zieh den Refactor durch.", "RESUMPTION"),
        ("Mach weiter, wenn die Tests grün sind.", "OTHER"),  # a go on a condition: a hold
        ("Mach weiter, aber erst nach dem Mittag.", "OTHER"),
        ("Was passiert, wenn der Lock abläuft?", "QUESTION"),
        # Spanish
        ("sigue", "RESUMPTION"),
        ("Sigue con el deploy, por favor.", "RESUMPTION"),
        ("espera", "OTHER"),
        ("No sigas todavía.", "OTHER"),
        ("No pares, sigue.", "RESUMPTION"),
        ("¿Por qué paraste? Sigue.", "RESUMPTION"),
        ("Sigue. Bueno no, para.", "OTHER"),
        ("Resume tu progreso.", "STATUS_REQUEST"),  # Spanish "resume" summarises
        # "sigue" is "still" here, not a go: a question about the protocol's state now, an audit
        ("El lock sigue siendo nuestro, ¿verdad?", "AUDIT"),
        ("Haz una auditoría.", "AUDIT"),
        ("vale", "OTHER"),
        ("sí", "OTHER"),
        ("vale, sigue", "RESUMPTION"),
        ("Para de preguntar y sigue.", "RESUMPTION"),  # "stop asking" is a nudge, not a hold
        ("¿Ya se desplegó?", "STATUS_REQUEST"),
        ("¿Cuánto código falta?", "STATUS_REQUEST"),
        ("Mira si los worktrees están limpios.", "AUDIT"),  # "mira si": check whether
        ("Una auditoría rápida, porfa.", "AUDIT"),
        ("¿El lock todavía es nuestro?", "AUDIT"),
        ("¿Alguien más tiene el lock?", "AUDIT"),
        ("¿Los locks son por tarea o por repo?", "QUESTION"),
        ("¿Sigue corriendo el build?", "STATUS_REQUEST"),  # "sigue" + gerund: still
        ("Sigue trabajando en el parser.", "RESUMPTION"),
        ("¿Funcionó el build?", "STATUS_REQUEST"),
        ("¿Qué tests faltan?", "STATUS_REQUEST"),
        ("Sigue, pero primero espera a que termine el CI.", "OTHER"),
        ("¿Cuándo corre el hook?", "QUESTION"),  # "cuándo" asks here, it sets no condition
        ("Arregla el lint y sigue.", "RESUMPTION"),  # what is asked last: the go
        ("¿Ya está mergeado el PR?", "STATUS_REQUEST"),
        # French
        ("vas-y", "RESUMPTION"),
        ("Tu peux continuer.", "RESUMPTION"),
        ("attends", "OTHER"),
        ("Ne continue pas encore.", "OTHER"),  # "continue" is English too: the negation wins
        ("Ne t'arrête pas, continue.", "RESUMPTION"),
        ("Continue. Ah non, arrête.", "OTHER"),
        ("Ne continue pas encore : comment marche le rebase ?", "QUESTION"),
        ("On en est où ?", "STATUS_REQUEST"),
        ("Vérifie l'état du lock.", "AUDIT"),
        ("d'accord", "OTHER"),
        ("oui", "OTHER"),
        ("d'accord, continue", "RESUMPTION"),
        ("Continue uniquement si les tests passent.", "OTHER"),  # a go on a condition: a hold
        ("Jusqu'où vous êtes arrivés ?", "STATUS_REQUEST"),
        ("La migration avance bien ?", "STATUS_REQUEST"),
        ("Des progrès sur le parser ?", "STATUS_REQUEST"),
        ("Les checks sont tous au vert ?", "STATUS_REQUEST"),
        ("Si j'ai bien compris, le lock expire ?", "QUESTION"),
        ("Réexplique-moi le claim.", "QUESTION"),
        ("Passe à l'étape 4.", "RESUMPTION"),
        ("Le verrou est encore à nous ?", "AUDIT"),
        ("Quelqu'un d'autre a le lock ?", "AUDIT"),
        ("Le verrou est réentrant ?", "QUESTION"),
        ("T'as avancé ?", "STATUS_REQUEST"),
        ("Le build a marché ?", "STATUS_REQUEST"),
        ("Quels tests manquent encore ?", "STATUS_REQUEST"),
        ("ok vas y", "RESUMPTION"),
        ("Avance quand la CI est verte.", "OTHER"),
        ("Continue, mais pas avant que j'aie relu.", "OTHER"),
        ("Quand tu auras fini le lint, continue.", "RESUMPTION"),  # the agent's own step first
        # Brazilian Portuguese
        ("pode continuar", "RESUMPTION"),
        ("Segue com o PR.", "RESUMPTION"),
        ("Espera um pouco.", "OTHER"),
        ("Não continua ainda.", "OTHER"),
        ("Não para, continua.", "RESUMPTION"),
        ("Continua. Ah não, para.", "OTHER"),
        ("O login continua quebrado.", "OTHER"),  # "continua" is "still" here
        ("Como estamos?", "STATUS_REQUEST"),
        ("Roda o doctor.", "AUDIT"),
        ("beleza", "OTHER"),
        ("sim", "OTHER"),
        ("beleza, continua", "RESUMPTION"),
        ("O que falta?", "STATUS_REQUEST"),  # Portuguese by its article ("o"), not Spanish
        ("Espera o build terminar.", "OTHER"),
        ("Continua depois que o CI passar.", "OTHER"),  # a go on a condition: a hold
        ("Continua assim que o deploy terminar.", "OTHER"),
        ("Tá travada a migration?", "STATUS_REQUEST"),  # "tá" asks here, it is no "ok"
        ("Volta a trabalhar no parser.", "RESUMPTION"),
        ("Passa pra etapa 3.", "RESUMPTION"),
        ("Dá uma checada nos worktrees.", "AUDIT"),
        ("Olha o estado do lock.", "AUDIT"),  # "olha o ...": look at, no filler
        ("Uma auditoria rápida, pfv.", "AUDIT"),
        ("Quantos testes ainda falham?", "STATUS_REQUEST"),
        ("O lock ainda é nosso?", "AUDIT"),
        ("O journal e o task.json batem?", "AUDIT"),
        ("O lock é reentrante?", "QUESTION"),
        ("O build ainda tá rodando?", "STATUS_REQUEST"),
        ("O build funcionou?", "STATUS_REQUEST"),  # Portuguese by its verb's past form
        ("Terminamos?", "STATUS_REQUEST"),
        ("Volta pro código.", "RESUMPTION"),
        ("Prossiga só depois do meu ok.", "OTHER"),
        ("Continua depois do almoço.", "OTHER"),
        ("Arruma o lint e continua.", "RESUMPTION"),
        # Japanese
        ("続けて", "RESUMPTION"),
        ("続けてください。", "RESUMPTION"),
        ("待って", "OTHER"),
        ("まだ続けないで", "OTHER"),
        ("止まらないで、続けて。", "RESUMPTION"),
        ("なんで止まったの？続けて。", "RESUMPTION"),
        ("続けて。いや、やっぱりストップ。", "OTHER"),
        ("まだ続けないで。ここのrebaseはどういう仕組み？", "QUESTION"),
        ("ロックの状態を確認してから続けて。", "RESUMPTION"),
        ("ロックの状態を確認して", "AUDIT"),
        ("進捗は？", "STATUS_REQUEST"),
        ("mainのビルドがずっと落ち続けてる", "OTHER"),  # "keeps failing", not a go
        ("はい", "OTHER"),
        ("了解", "OTHER"),
        ("はい、続けて", "RESUMPTION"),
        ("CIが通ったら続けて", "OTHER"),  # a go after an event the user waits for: a hold
        ("ビルドが緑になったら進めて", "OTHER"),
        ("テストを書き終わったら続けて", "RESUMPTION"),  # after the agent's own step: a go
        ("doctorをもう一回実行して", "AUDIT"),
        ("進捗を共有して", "STATUS_REQUEST"),
        ("リリースまであと何が残ってる？", "STATUS_REQUEST"),
        ("ロックはまだうちの？", "AUDIT"),
        ("他の誰かがロックを持ってる？", "AUDIT"),
        ("hookがブロックするって理解で合ってる？", "QUESTION"),  # ブロック (block) is no lock
        ("ビルドはうまくいった？", "STATUS_REQUEST"),
        ("順調に進んでる？", "STATUS_REQUEST"),  # asks how it goes, no go
        ("つづけて", "RESUMPTION"),  # in kana
        ("PRはマージ済み？", "STATUS_REQUEST"),
        # Simplified Chinese
        ("继续", "RESUMPTION"),
        ("请继续。", "RESUMPTION"),
        ("等一下", "OTHER"),
        ("先别继续", "OTHER"),
        ("别停，继续。", "RESUMPTION"),
        ("你怎么停了？继续。", "RESUMPTION"),
        ("继续。算了，停下。", "OTHER"),
        ("先别继续：这里的 rebase 是怎么处理的？", "QUESTION"),
        ("先检查一下锁的状态，然后继续。", "RESUMPTION"),
        ("进度怎么样？", "STATUS_REQUEST"),
        ("UI 上的恢复按钮不能用", "OTHER"),
        ("好", "OTHER"),
        ("好的", "OTHER"),
        ("好，继续", "RESUMPTION"),
        ("进入下一阶段吧", "RESUMPTION"),
        ("确保worktree是干净的", "AUDIT"),
        ("你怎么没接着做？", "RESUMPTION"),  # a nudge, not a question
        ("怎么停了？", "QUESTION"),
        ("目前处于哪个阶段？", "STATUS_REQUEST"),
        ("部署还得等几个小时？", "STATUS_REQUEST"),
        ("把journal和锁核对一下", "AUDIT"),
        ("锁还是我们的吗？", "AUDIT"),
        ("我们违反协议了吗？", "AUDIT"),
        ("这个锁可重入吗？", "QUESTION"),
        ("构建还在跑吗？", "STATUS_REQUEST"),
        ("什么时候能做完？", "STATUS_REQUEST"),
        ("下午再继续", "OTHER"),
        ("review之后再继续", "OTHER"),
        ("先把lint修了再继续", "RESUMPTION"),
    ],
)
def test_language_rules(message: str, expected: str) -> None:
    assert classify(message).type == expected


# The fourth round: a go that names a later time or an event of the user's, in its clause or
# in a clause of its own next to it, is a hold, whatever rule found the go (each language's
# `later`). Written for the round, none is a corpus row; the ones marked were gos before.
@pytest.mark.parametrize(
    "message",
    [
        "Setz das übermorgen fort.",  # was a go
        "Mach nach meinem Termin weiter.",  # was a go
        "Weiter mit dem Refactoring, heute Abend.",  # was a go
        "Sigue con el parser después de mi reunión.",
        "Continúa con los tests en un rato.",  # was a go
        "Reprends le refactoring après ma réunion.",  # was a go
        "Continue le parser ce soir.",
        "Continua o refactor depois da minha call.",
        "Pode seguir com os testes daqui a pouco.",  # was a go
        "明日の朝、parserの続きを進めて",  # was a go
        "昼休みのあとで再開して",
        "晚点继续弄parser",
        "开完会继续写测试",
        "今晚接着做parser",  # was a go
    ],
)
def test_a_go_at_a_later_time_is_a_hold(message: str) -> None:
    assert classify(message).type == "OTHER"


@pytest.mark.parametrize(
    "message",
    [
        "Mach weiter nach dem Plan.",  # "nach dem Plan": as planned, not after an event
        "Mach weiter, die Doku machen wir dann zusammen.",
        "Continua depois de rodar os testes.",  # the agent's own step
        "继续，测试写完以后提交",
        "Sigue con el parser, mañana revisamos el resto juntos.",  # a go now, a plan for later
    ],
)
def test_a_go_with_the_agents_own_order_stays_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION"


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("¿Seguimos dentro del plazo?", "STATUS_REQUEST"),  # the schedule, not a go
        ("¿Vamos a tiempo con el release?", "STATUS_REQUEST"),
        ("Estamos dentro do prazo?", "STATUS_REQUEST"),
        ("残りを終わらせて", "RESUMPTION"),  # finish the rest: a go, not "what is left?"
        ("止めないで、テストを仕上げてください", "RESUMPTION"),
        ("残りはいくつ？", "STATUS_REQUEST"),
        ("明日終わらせて", "OTHER"),
        ("现在不要", "OTHER"),
        ("今晚再继续，现在不要", "OTHER"),
        # Japanese and Chinese split after "before" / "until", as English splits before them:
        # the request is the other part, the hold does not cancel it
        ("続ける前に今の進捗を教えて", "STATUS_REQUEST"),
        ("worktreeを確認するまで続けないで", "AUDIT"),
        ("CIが通るまで続けないで", "OTHER"),
        ("继续之前先汇报一下进度", "STATUS_REQUEST"),
        ("测试跑完之前不要合并", "OTHER"),
        # the kinds of the sixth batch's and the leave-one-batch-out estimate's misses, in new
        # words: "let's" go on, a step to go to, a yes/no status question, "summarise"
        ("Lass uns mit dem Parser weitermachen.", "RESUMPTION"),
        ("进行下一个任务吧", "RESUMPTION"),
        ("回去改那个hook吧", "RESUMPTION"),
        ("build现在能通过吗？", "STATUS_REQUEST"),
        ("worktree还完整吗？", "AUDIT"),
        ("聊聊目前的进度", "STATUS_REQUEST"),
        ("Résume-moi où en est le refactoring.", "STATUS_REQUEST"),
        ("Me resume o que falta no parser.", "STATUS_REQUEST"),
        ("ok, resume", "RESUMPTION"),  # English, in a French-looking chat: still a go
        ("Mach weiter. Nein warte, lieber nicht.", "OTHER"),  # "nein" before a hold
        ("テストの修正に取りかかって", "RESUMPTION"),  # Japanese gos no rule knew
        ("じゃあ次に移って", "RESUMPTION"),
        ("リファクタの続きよろしく", "RESUMPTION"),
        ("取りかからないで", "OTHER"),
    ],
)
def test_fourth_round_rules(message: str, expected: str) -> None:
    assert classify(message).type == expected


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("passt, freigegeben", True),
        ("Plan ist freigegeben.", True),
        ("noch nicht freigegeben", False),
        ("Ist das freigegeben?", False),
        ("aprobado", True),
        ("Visto bueno, adelante.", True),
        ("No está aprobado todavía.", False),
        ("c'est validé", True),
        ("Ce n'est pas validé.", False),
        ("Valide l'état des locks.", False),  # an audit, not an approval
        ("aprovado", True),
        ("Não está aprovado ainda.", False),
        ("承認します", True),
        ("まだ承認しません", False),
        ("批准了", True),
        ("不批准", False),
        ("同意吗？", False),
        ("Aprobado, pero sigue mañana.", False),  # held
        ("weiter machen bitte", False),  # a go is not an approval
        ("继续", False),
    ],
)
def test_approvals_in_every_language(message: str, expected: bool) -> None:
    assert is_approval_like(message) is expected


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("weiter machen bitte", "de-resumption"),
        ("sigue", "es-resumption"),
        ("vas-y", "fr-resumption"),
        ("pode continuar", "pt-resumption"),
        ("続けて", "ja-resumption"),
        ("继续", "zh-resumption"),
        ("continue", "resume-verb"),  # English, as before
    ],
)
def test_the_deciding_rule_names_its_language(message: str, rule: str) -> None:
    assert classify(message).rule == rule


@pytest.mark.parametrize(
    ("message", "codes"),
    [
        ("weiter machen bitte", ("de",)),
        ("¿Cómo vamos con el deploy?", ("es",)),
        ("続けて", ("ja",)),
        ("继续", ("zh-Hans", "ja")),  # Chinese characters alone could be Japanese kanji
        ("keep going, the tests are flaky", ()),
    ],
)
def test_detect(message: str, codes: tuple[str, ...]) -> None:
    assert detect(message.lower())[0][: len(codes) or None] == codes


def test_no_english_corpus_message_loads_a_language() -> None:
    """The English decision's cost: no other language's table and not the model imported,
    whatever the message; English's own (its times, conditions and retractions, and the code
    that reads them: languages/en.py) only for a go with words beside it (fifteenth round)."""
    code = (
        "import sys\n"
        "from taskproto.classify.interruptions import classify\n"
        "for line in open(sys.argv[1], encoding='utf-8'):\n"
        "    if line.strip() and not line.startswith('#'):\n"
        "        classify(line.partition('\\t')[2])\n"
        "print(sorted(m for m in sys.modules if m.startswith('taskproto.classify.languages.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ENGLISH)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    english = {f"taskproto.classify.languages.{name}" for name in ("en", "fields", "table")}
    assert set(ast.literal_eval(out.stdout.strip())) <= english


def test_user_rules_win_over_the_language_rules() -> None:
    merged = merge_rules(
        DEFAULT_RULES,
        [
            {"name": "weiter-fragt", "type": "QUESTION", "pattern": r"^weiter\?$"},
            {"name": "question-mark", "confidence": 0.5},  # an English default, changed
        ],
    )
    assert classify("weiter?").type == "RESUMPTION"
    assert classify("weiter?", merged) == Classification("QUESTION", "weiter-fragt", 0.8)
    assert classify("weiter bitte", merged).rule == "de-resumption"
    assert classify("ist das thread-safe?", merged) == Classification(
        "QUESTION", "question-mark", 0.5
    )


# --- the model's second opinion (languages/model.py): what the rules miss, never a false go


@pytest.mark.parametrize(
    ("message", "expected", "rule"),
    [
        # a yes/no question about the work: the rules read a question (its "?")
        ("Schon alles grün bei den Checks?", "STATUS_REQUEST", "de-model"),
        ("On tient toujours les délais ?", "STATUS_REQUEST", "fr-model"),
        ("Tá tudo verde no CI?", "STATUS_REQUEST", "pt-model"),
        ("続ける前にlockを点検して", "AUDIT", "ja-audit"),  # split after 前に: rules suffice
        ("Bevor du weitermachst, check die Locks.", "AUDIT", "de-audit-verify"),  # rules suffice
    ],
)
def test_the_model_reads_what_the_rules_miss(message: str, expected: str, rule: str) -> None:
    got = classify(message)
    assert (got.type, got.rule) == (expected, rule)
    assert 0.0 < got.confidence <= 1.0


@pytest.mark.parametrize(
    "message",
    [
        "sieht gut aus",  # a bare ok the rules match nothing in
        "parfait",
        "看起来不错",
        "Avance quand la CI est verte.",  # a hold the model would call a status request
        "Warte kurz.",
        "Mach noch nicht weiter.",
    ],
)
def test_the_model_never_turns_a_hold_or_a_bare_ok_into_a_go(message: str) -> None:
    assert classify(message).type == "OTHER"


# --- the model's veto of a rules' go, on the words beside the go (docs/interruptions.md,
# "Eighth round"): a condition, a later time or a retraction no table's forms reach


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("一个小时后再继续", "zh-veto"),  # in an hour: a span no table's `later` reaches
        # once the PM says OK: the Japanese table's conditions reach it since the twelfth round
        ("PMのOKが出てから再開で", "ja-later"),
        ("só volta pro código se o build noturno passar", "pt-veto"),  # only if the build passes
        ("Mach weiter... ach nee, lass mal, ich übernehme.", "de-veto"),  # taken back
    ],
)
def test_the_words_beside_a_go_may_hold_it(message: str, rule: str) -> None:
    got = classify(message)
    assert (got.type, got.rule) == ("OTHER", rule), got


@pytest.mark.parametrize(
    "message",
    [
        "Mach weiter mit dem Parser",  # what to go on with, beside the go
        "Sigue con los tests",
        "continue avec le parser",
        "parserの修正を続けて",
        "继续写测试",
    ],
)
def test_a_go_with_its_work_beside_it_stays_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", classify(message)


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        # no rule matches; the model reads a go, with next to nothing OTHER in it
        ("Ya quedó el hotfix, volvé al parser.", "es-model"),
        # (French's "C'est mergé, reviens au parser." was one until the seventeenth round: the
        # model retrained on batch "17t" reads it 85.0% a go and 13.2% OTHER, no clear go; it is
        # now fr-go-onto's, tests/test_classifier_languages_seventeenth_defr.py)
    ],
)
def test_a_go_the_model_reads_clear_of_a_hold_is_a_go(message: str, rule: str) -> None:
    """The ninth round's `model.CLEAR_GO` (docs/interruptions.md, "Ninth round")."""
    got = classify(message)
    assert (got.type, got.rule) == ("RESUMPTION", rule), got


def test_a_users_go_is_never_vetoed() -> None:
    merged = merge_rules(
        DEFAULT_RULES, [{"name": "resume-go", "type": "RESUMPTION", "pattern": "继续"}]
    )
    assert classify("一个小时后再继续").rule == "zh-veto"
    assert classify("一个小时后再继续", merged).rule == "resume-go"


def test_a_go_with_nothing_beside_it_does_not_load_the_model() -> None:
    """The veto's cost: a go alone ("sigue", "続けて") never reads the model's weights."""
    code = (
        "from taskproto.classify.interruptions import classify\n"
        "goes = ('sigue', 'continúa', '続けて', '继续', 'mach weiter')\n"
        "kinds = {classify(m).type for m in goes}\n"
        "from taskproto.classify.languages import model\n"
        "print(kinds, 'weights' in model._loaded)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "{'RESUMPTION'} False"


def test_a_users_go_is_never_made_a_hold_by_a_later_time() -> None:
    merged = merge_rules(
        DEFAULT_RULES, [{"name": "deploy-go", "type": "RESUMPTION", "pattern": "deploy"}]
    )
    assert classify("Setz morgen den Deploy fort.", merged).rule == "deploy-go"
    assert classify("Setz morgen fort.", merged).rule == "de-later"


def test_a_users_rule_is_never_second_guessed_by_the_model() -> None:
    merged = merge_rules(
        DEFAULT_RULES, [{"name": "checks-q", "type": "QUESTION", "pattern": r"checks\?$"}]
    )
    assert classify("Schon alles grün bei den Checks?", merged) == Classification(
        "QUESTION", "checks-q", 0.8
    )


@pytest.mark.slow
def test_the_shipped_weights_are_the_training_scripts(tmp_path: Path) -> None:
    """model.bin is what scripts/train_interrupt_model.py makes from every corpus file (all
    twenty-five batches and the training messages, since the twenty-third round; a few
    minutes), leaving out the twenty-sixth batch, held out by default: the script says so."""
    out = tmp_path / "model.bin"
    made = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "train_interrupt_model.py"), "--out", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    )
    shipped = ROOT / "taskproto" / "classify" / "languages" / "model.bin"
    assert out.read_bytes() == shipped.read_bytes()
    assert f"(held out: {TWENTYSIXTH})" in made.stderr, made.stderr


@given(
    st.lists(
        st.sampled_from(
            [
                "weiter",
                "nicht",
                "sigue",
                "no",
                "続けて",
                "待って",
                "ないで",
                "继续",
                "别",
                "?",
                "？",
                "、",
                "。",
                ",",
                "ne",
                "pas",
                "continue",
                "não",
                " - ",
                "\n",
                "warte",
                "¿",
                "¡",
            ]
        ),
        max_size=60,
    )
)
def test_keyword_soup_in_every_language_never_raises(words: list[str]) -> None:
    assert classify(" ".join(words)).type in INTERRUPTION_TYPES
    assert classify("".join(words)).type in INTERRUPTION_TYPES


@pytest.mark.parametrize(
    "text",
    ["続けて" * 300_000, "继续，" * 300_000, "weiter nicht " * 100_000, "¿" * 500_000],
)
def test_huge_inputs_in_every_script_are_answered(text: str) -> None:
    assert classify(text).type in INTERRUPTION_TYPES


def test_english_held_out_batch_is_no_lower_than_before() -> None:
    """English's own held-out batch (scored 58/60 before its two misses were fixed, 63/63 before
    issue #45) stays where it was with the language rules in place."""
    lines = ENGLISH.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# --- held-out batch"))
    rows = [line.split("\t", 1) for line in lines[start:] if line and not line.startswith("#")]
    assert len(rows) == 63
    assert [m for label, m in rows if classify(m).type != label] == []


# The fifth round (docs/interruptions.md): a time, a condition or a retraction is decided by its
# form, not by a list of words. New variants, none a corpus row.
@pytest.mark.parametrize(
    "message",
    [
        # a weekday, a clock time, a span, "after" + a noun
        "Am Donnerstag machst du dann weiter.",
        "Mach um halb drei mit dem Parser weiter.",
        "Setz den Refactor nach der Retro fort.",
        "El jueves seguimos con el parser.",
        "Sigue con los tests a las cinco.",
        "Retoma el refactor después del standup.",
        "Mercredi on reprend le parser.",
        "Reprends les tests vers 16h30.",
        "On continue dans deux heures.",
        "Na quinta a gente continua o parser.",
        "Continua os testes às 15h.",
        "Segue com o refactor após o almoço.",
        "金曜日にparserの続きを進めて",
        "15時から再開して",
        "Mach um drei mit dem Parser weiter.",  # a clock time in words
        "Pause, on reprend vers deux heures.",
        "ランチ行ってきたら続きやろう",  # the user coming back
        "周四再接着写parser",
        "三点以后继续",
        # a condition on someone else or on an event
        "Mach weiter, sobald Anna den Review durch hat.",
        "Sigue cuando Marta apruebe el PR.",
        "Continue une fois que Paul a relu.",
        "Continua assim que a Ana aprovar.",
        "Pedroがレビューしたら再開して",
        "等小王review完再继续",
        # a go taken back after it, and a negated go
        "Mach weiter. Ach nee, lass es lieber sein.",
        "Sigue con eso... mejor no.",
        "Vas-y, continue. Tout compte fait, non.",
        "Pode continuar. Pensando bem, melhor não.",
        "続けて。やっぱり待って",
        "继续吧。算了，先停一下",
        "不必继续了",
    ],
)
def test_a_go_with_a_time_condition_or_retraction_is_a_hold(message: str) -> None:
    assert classify(message).type == "OTHER", classify(message)


@pytest.mark.parametrize(
    "message",
    [
        "Mach weiter, wenn du magst.",  # left to the agent
        "Sigue cuando puedas.",
        "Quand tu as fini les tests, continue.",  # the agent's own step, in order
        "Continua quando quiser.",
        "テストを直し終わったら続けて",
        "Mach weiter nach dem gleichen Muster.",
        "好，进入第三点",  # a point of a list, not three o'clock
        "把lint修完再继续",  # the agent's own step, in order
    ],
)
def test_a_go_left_to_the_agent_stays_a_go(message: str) -> None:
    assert classify(message).type == "RESUMPTION", classify(message)


@pytest.mark.parametrize(
    "message",
    ["Am Freitag geht's dann weiter.", "Le lundi on s'y remet.", "Na segunda a gente retoma."],
)
def test_the_model_never_makes_a_go_of_a_message_with_a_time(message: str) -> None:
    assert classify(message).type != "RESUMPTION", classify(message)


# The sixth round (docs/interruptions.md): the eighth batch's kinds of miss, by structure and
# families of words. New variants, none a corpus row.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # idioms of getting back to work
        ("Excuse-moi pour l'attente, on reprend.", "RESUMPTION"),
        ("Désolé du retard, on reprend.", "RESUMPTION"),
        ("Bon, on s'y remet.", "RESUMPTION"),
        ("Bref, on s'y remet.", "RESUMPTION"),
        ("Dann ran an die Tests, bitte.", "RESUMPTION"),
        ("Remets-toi au boulot, le parser t'attend.", "RESUMPTION"),
        ("Allez, on y retourne.", "RESUMPTION"),
        ("Attaque les tests d'intégration maintenant.", "RESUMPTION"),
        ("ok pour moi, go pour la suite", "RESUMPTION"),
        ("Pas de stress, mais enchaîne sur les migrations.", "RESUMPTION"),
        ("Así que dale con los tests que faltan.", "RESUMPTION"),
        ("Pode ir adiantando o parser.", "RESUMPTION"),
        ("Nimm den Refactor wieder auf.", "RESUMPTION"),
        ("Würden Sie bitte mit den Migrationen fortfahren?", "RESUMPTION"),
        ("kanst jetzt weitermachen", "RESUMPTION"),
        ("很好，进入方案的第二阶段吧", "RESUMPTION"),
        ("プラン承認したから、やっちゃって", "RESUMPTION"),
        # a negated stop, or "no need to wait", is a go
        ("Surtout ne t'arrête pas.", "RESUMPTION"),
        ("Ne vous arrêtez donc pas.", "RESUMPTION"),
        ("Não precisa esperar por mim, vai tocando os testes.", "RESUMPTION"),
        ("止まらずに最後までやって", "RESUMPTION"),
        # a go after "forget my question": the last clause decides
        ("Oublie ce que j'ai dit et continue le refactor.", "RESUMPTION"),
        ("Laisse tomber ma remarque, reprends les tests.", "RESUMPTION"),
        ("Esquece minha pergunta e continua.", "RESUMPTION"),
        ("Vergiss meine Frage, mach weiter.", "RESUMPTION"),
        ("Olvida mi pregunta y sigue.", "RESUMPTION"),
        ("Oublie ma remarque et continue.", "RESUMPTION"),
        # a yes/no question about the CI, the build, the readiness, how much is done
        ("Ça passe la CI maintenant ?", "STATUS_REQUEST"),
        ("T'es bientôt au bout ?", "STATUS_REQUEST"),
        ("Il y a déjà un merge de la branche ?", "STATUS_REQUEST"),
        ("Combien de pourcent des tests sont déjà migrés ?", "STATUS_REQUEST"),
        ("Les tests sont déjà corrigés ?", "STATUS_REQUEST"),
        ("¿Cuánto llevas hecho del parser?", "STATUS_REQUEST"),
        ("¿Qué porcentaje de tests llevas?", "STATUS_REQUEST"),
        ("Conseguiu subir o PR?", "STATUS_REQUEST"),
        ("E aí, rolou o merge?", "STATUS_REQUEST"),
        ("状态同步一下", "STATUS_REQUEST"),
        ("进度汇报一下吧", "STATUS_REQUEST"),
        ("登录那块弄得咋样了", "STATUS_REQUEST"),
        ("你刚才又改了哪些？", "STATUS_REQUEST"),
        # audits: the protocol's state asked after, a check verb
        ("锁和 worktree 一致了吗？", "AUDIT"),
        ("看下会话有没有记录对", "AUDIT"),
        # "help me understand", "tell me why", also after a hold
        ("Me ajuda a entender o rebase.", "QUESTION"),
        ("Ayúdame a entender el retry.", "QUESTION"),
        ("Aide-moi à comprendre le rollback.", "QUESTION"),
        ("Antes de continuar, me diz como funciona o retry.", "QUESTION"),
        ("帮我理解一下锁的设计", "QUESTION"),
        ("重试那块我没看懂", "QUESTION"),
        ("進める前に、この設計にした理由を教えて", "QUESTION"),
        ("Avant de continuer, dis-moi pourquoi tu as changé le parser.", "QUESTION"),
        # a later time or an event's end, in Chinese and Japanese: a hold
        ("明早接着写", "OTHER"),
        ("明晚接着弄", "OTHER"),
        ("站会开完后再继续", "OTHER"),
        ("部署结束后再接着做", "OTHER"),
        ("佐藤さんがマージを承認したら続けて", "OTHER"),
        # a warning, an acknowledgement, an instruction: OTHER
        ("千万别在 main 上直接改", "OTHER"),
        ("哦", "OTHER"),
        ("给登录接口加个单测", "OTHER"),
        ("最好把这个函数也支持 --json", "OTHER"),
        ("このファイルにコメントを追加して", "OTHER"),
        # and what must not move: the agent's own step, a point of a list
        ("把lint修完再继续", "RESUMPTION"),
        ("好，进入第三点", "RESUMPTION"),
        ("テストを直し終わったら続けて", "RESUMPTION"),
    ],
)
def test_sixth_round_rules(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Idioms of getting back to work in each language, beyond the eighth batch's (their family, not
# their rows): each a go.
@pytest.mark.parametrize(
    "message",
    [
        "weiter im Text",
        "Los, weiter.",
        "Dann mal los.",
        "Hau rein!",
        "Bleib dran.",
        "Leg wieder los.",
        "Kümmer dich weiter um die Tests.",
        "Mach dich wieder dran.",
        "sigue nomás",
        "Métele a los tests.",
        "Ponte con los tests.",
        "Sigue con lo tuyo.",
        "No te detengas ahora.",
        "Tira para adelante con el parser.",
        "Échale ganas al refactor.",
        "Continue sur ta lancée.",
        "C'est reparti !",
        "Allez hop, la suite.",
        "Fais la suite.",
        "Reprends là où tu t'étais arrêté.",
        "Termine le refactor.",
        "Segue o baile.",
        "Partiu, próxima tarefa.",
        "Pode tocar.",
        "Dá sequência no parser.",
        "Retoma de onde parou.",
        "Segue aí com os testes.",
        "Termina os testes.",
        "そのまま進めて",
        "引き続きお願いします",
        "どんどん進めて",
        "作業に戻って",
        "そのまま続けて",
        "先に進んで",
        "残りもやっちゃって",
        "冲吧",
        "搞起",
        "开搞",
        "你接着弄",
        "不用等我，接着写",
        "把剩下的做完",
        "继续干",
        "接着干",
        "続きよろしく",
        "Bora, manda ver.",
        "dale con eso",
        "Remets-toi au boulot.",
    ],
)
def test_idioms_of_getting_back_to_work_are_gos(message: str) -> None:
    assert classify(message).type == "RESUMPTION", classify(message)


@pytest.mark.parametrize(
    "message",
    ["Termine le refactor ?", "¿Terminaste los tests?", "Terminou os testes?"],
)
def test_finish_asked_as_a_question_is_a_status_request(message: str) -> None:
    assert classify(message).type == "STATUS_REQUEST", classify(message)


# Yes/no questions about the work (is it done, is the CI through, will we make the demo), about
# the protocol's state, questions with no "?", and statements about a protocol noun, in every
# language: what the eighth batch's misses were, as families of new variants.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("Ist es schon fertig?", "STATUS_REQUEST"),
        ("Läuft die CI durch?", "STATUS_REQUEST"),
        ("Sind die Tests grün?", "STATUS_REQUEST"),
        ("Bist du bald so weit?", "STATUS_REQUEST"),
        ("Schaffen wir das bis zur Demo?", "STATUS_REQUEST"),
        ("Kommst du voran?", "STATUS_REQUEST"),
        ("¿Ya está?", "STATUS_REQUEST"),
        ("¿Pasa el CI?", "STATUS_REQUEST"),
        ("¿Llegamos a la demo?", "STATUS_REQUEST"),
        ("¿Ya compila?", "STATUS_REQUEST"),
        ("¿Siguen corriendo los tests?", "STATUS_REQUEST"),
        ("C'est fini ?", "STATUS_REQUEST"),
        ("Ça compile ?", "STATUS_REQUEST"),
        ("Les tests tournent encore ?", "STATUS_REQUEST"),
        ("Tu t'en sors ?", "STATUS_REQUEST"),
        ("On tient les délais ?", "STATUS_REQUEST"),
        ("Já terminou?", "STATUS_REQUEST"),
        ("O CI passou?", "STATUS_REQUEST"),
        ("Tá compilando?", "STATUS_REQUEST"),
        ("Os testes ainda tão rodando?", "STATUS_REQUEST"),
        ("Vai dar tempo pra demo?", "STATUS_REQUEST"),
        ("Tá saindo?", "STATUS_REQUEST"),
        ("終わった？", "STATUS_REQUEST"),
        ("CI通った？", "STATUS_REQUEST"),
        ("テストまだ回ってる？", "STATUS_REQUEST"),
        ("デモに間に合いそう？", "STATUS_REQUEST"),
        ("ビルド通る？", "STATUS_REQUEST"),
        ("好了没", "STATUS_REQUEST"),
        ("CI 过了没？", "STATUS_REQUEST"),
        ("测试还在跑吗？", "STATUS_REQUEST"),
        ("赶得上演示吗？", "STATUS_REQUEST"),
        ("编译过了吗", "STATUS_REQUEST"),
        ("弄完没？", "STATUS_REQUEST"),
        ("构建绿了没", "STATUS_REQUEST"),
        ("Ist der Lock noch gültig?", "AUDIT"),
        ("Stimmt task.json mit den Worktrees überein?", "AUDIT"),
        ("Prüf mal, ob der Journal-Eintrag zur Transition passt.", "AUDIT"),
        ("¿El lock sigue siendo nuestro?", "AUDIT"),
        ("Revisa que no queden worktrees huérfanos.", "AUDIT"),
        ("Le journal est cohérent avec task.json ?", "AUDIT"),
        ("Vérifie que personne d'autre n'a le verrou.", "AUDIT"),
        ("O lock ainda é nosso?", "AUDIT"),
        ("Confere se o journal bate com o task.json.", "AUDIT"),
        ("ロックはまだ有効？", "AUDIT"),
        ("journalとtask.jsonが一致してるか見て", "AUDIT"),
        ("锁还有效吗？", "AUDIT"),
        ("journal 和 task.json 对得上吗", "AUDIT"),
        ("排查一下有没有孤儿 worktree", "AUDIT"),
        ("看看会话是不是还挂着别人的锁", "AUDIT"),
        ("Pourquoi le lock expire après une heure ?", "QUESTION"),
        ("为什么锁会过期？", "QUESTION"),
        ("用户登录的时候 token 是怎么刷新的", "QUESTION"),
        ("这个 retry 为什么要指数退避", "QUESTION"),
        ("Terraform 是怎么管理状态的", "QUESTION"),
        ("锁的设计我觉得挺好", "OTHER"),
        ("会话日志我放到共享盘了", "OTHER"),
        ("O comando `taskproto resume` podia ter --json.", "OTHER"),
        ("Ich hab das Audit-Log in den Ordner gelegt.", "OTHER"),
    ],
)
def test_status_audit_and_question_families(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# Chinese and Japanese later times and conditions (an event's end, someone's approval, the
# passive), and the agent's own step in order, which stays a go.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("产品确认之后再继续", "OTHER"),
        ("发版之后再接着做", "OTHER"),
        ("上线以后再接着弄", "OTHER"),
        ("明天上午再继续", "OTHER"),
        ("等我开完会再接着写", "OTHER"),
        ("周会结束后继续", "OTHER"),
        ("午休后接着干", "OTHER"),
        ("部長がOKしたら再開して", "OTHER"),
        ("マージされたら続けて", "OTHER"),
        ("CIが緑になったら続けて", "OTHER"),
        ("明日の朝から続けて", "OTHER"),
        ("昼から再開して", "OTHER"),
        ("鈴木さんがレビューを終えたら進めて", "OTHER"),
        ("デプロイが終わったら続きをやって", "OTHER"),
        ("朝会の後で続けて", "OTHER"),
        ("テストを書いたら続けて", "RESUMPTION"),
        ("lintを直したら進めて", "RESUMPTION"),
        ("先把测试修好，然后继续", "RESUMPTION"),
    ],
)
def test_chinese_and_japanese_later_times_and_conditions(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# A message the rules read as a question (its "?", a question word), or as a status request or
# an audit with a "?" at its end, asks something: the model may move it among the types that
# ask, never to OTHER. A question word made indefinite ("什么都", "谁都") asks nothing.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("这个缓存是怎么失效的", "QUESTION"),
        ("部署脚本是怎么找到配置的", "QUESTION"),
        ("作業中に誰かがforce pushしたらどうなる", "QUESTION"),
        ("On sera prêts pour la release ?", "STATUS_REQUEST"),
        ("日志里出现了报错但什么都没发生", "OTHER"),
        ("多谢解释", "OTHER"),
    ],
)
def test_a_message_that_asks_is_never_made_other_by_the_model(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# A remark after a go (an instruction to change something, a warning) does not take the go back,
# as a hold does; alone it is OTHER. And more of the families the seventh batch showed: a negated
# stop with an adverb, idioms of getting back to work, a check verb after a hold, how far the
# work got after a hold.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("继续吧，给retry加个日志", "RESUMPTION"),
        ("继续，千万别 force push", "RESUMPTION"),
        ("続けて。ただしlockファイルは手で編集しないで", "RESUMPTION"),
        ("lockファイルを手で編集しないで", "OTHER"),
        ("别手动改lock文件", "OTHER"),
        ("继续吧。算了，先停一下", "OTHER"),
        ("続けて。やっぱり待って", "OTHER"),
        ("Hör jetzt bloß nicht auf.", "RESUMPTION"),
        ("Du kannst wieder ran.", "RESUMPTION"),
        ("Zurück ans Werk!", "RESUMPTION"),
        ("¡De vuelta al trabajo!", "RESUMPTION"),
        ("Retómalo donde lo dejaste.", "RESUMPTION"),
        ("Pode dar sequência no parser.", "RESUMPTION"),
        ("你先往下推", "RESUMPTION"),
        ("咱们接着搞", "RESUMPTION"),
        ("按计划做第二步吧", "RESUMPTION"),
        ("待って、まずロックの状態を確かめて", "AUDIT"),
        ("まだ続けないで。どこまで終わったか教えて", "STATUS_REQUEST"),
        ("先别继续，说说你做完了哪些", "STATUS_REQUEST"),
        # the 把 construction: the protocol's object before the check verb
        ("合并前把worktree仔细检查一遍", "AUDIT"),
        ("把 journal 核对一下", "AUDIT"),
        ("把锁的逻辑写完再继续", "RESUMPTION"),
    ],
)
def test_a_remark_after_a_go_and_the_seventh_batchs_families(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


# French, Portuguese and Chinese (the three under 95% on the eighth batch): a spread of new
# variants of every type, written after the round's changes to look for families still missed.
@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("C'est bon pour moi, tu peux y aller.", "RESUMPTION"),
        ("Reprends où tu en étais.", "RESUMPTION"),
        ("Tu peux t'y remettre.", "RESUMPTION"),
        ("Allez, au travail !", "RESUMPTION"),
        ("Poursuis sur la lancée.", "RESUMPTION"),
        ("Fonce, c'est validé.", "RESUMPTION"),
        ("On enchaîne sur la suite ?", "RESUMPTION"),
        ("Tu en es où avec la migration ?", "STATUS_REQUEST"),
        ("La CI est passée ?", "STATUS_REQUEST"),
        ("T'as pu pousser la branche ?", "STATUS_REQUEST"),
        ("Ça avance, le refactor ?", "STATUS_REQUEST"),
        ("Tu auras fini avant ce soir ?", "STATUS_REQUEST"),
        ("Il te reste beaucoup ?", "STATUS_REQUEST"),
        ("Vérifie que le verrou est toujours à nous.", "AUDIT"),
        ("Fais un tour sur les worktrees pour voir s'il en reste d'orphelins.", "AUDIT"),
        ("Le journal et task.json sont raccord ?", "AUDIT"),
        ("Pourquoi t'as choisi un verrou fichier plutôt qu'une base ?", "QUESTION"),
        ("C'est quoi l'intérêt d'un journal append-only ici ?", "QUESTION"),
        ("Super boulot sur le parser.", "OTHER"),
        ("Attends, je relis le diff.", "OTHER"),
        ("Pas encore, je dois valider avec l'équipe.", "OTHER"),
        ("Pode seguir daqui.", "RESUMPTION"),
        ("Bora terminar isso.", "RESUMPTION"),
        ("Segue com o plano.", "RESUMPTION"),
        ("Volta pro que você tava fazendo.", "RESUMPTION"),
        ("Toca aí.", "RESUMPTION"),
        ("Como tá o andamento?", "STATUS_REQUEST"),
        ("Já deu push?", "STATUS_REQUEST"),
        ("Falta muito?", "STATUS_REQUEST"),
        ("O build tá verde?", "STATUS_REQUEST"),
        ("Em que pé tá a migração?", "STATUS_REQUEST"),
        ("Confere se o lock ainda é nosso.", "AUDIT"),
        ("Vê se sobrou algum worktree órfão.", "AUDIT"),
        ("Por que você usou um lock de arquivo?", "QUESTION"),
        ("Segura aí, vou revisar o diff.", "OTHER"),
        ("Ainda não, espera o review.", "OTHER"),
        ("继续推进吧", "RESUMPTION"),
        ("按计划往下走", "RESUMPTION"),
        ("你接着做剩下的", "RESUMPTION"),
        ("可以开工了", "RESUMPTION"),
        ("迁移做到哪了？", "STATUS_REQUEST"),
        ("CI 绿了吗", "STATUS_REQUEST"),
        ("还剩多少没做？", "STATUS_REQUEST"),
        ("推上去了没", "STATUS_REQUEST"),
        ("现在啥进度", "STATUS_REQUEST"),
        ("确认一下锁还在我们手上", "AUDIT"),
        ("看看有没有遗留的 worktree", "AUDIT"),
        ("为什么用文件锁而不是数据库？", "QUESTION"),
        ("这里用 append-only 日志有什么好处", "QUESTION"),
        ("先等等，我看下 diff", "OTHER"),
        ("还不行，等评审完", "OTHER"),
        ("干得漂亮", "OTHER"),
        ("Toca aí uma música enquanto eu reviso.", "OTHER"),
        ("还不能开工，等评审", "OTHER"),
        ("Tu as réussi à reproduire le bug ?", "STATUS_REQUEST"),
    ],
)
def test_french_portuguese_and_chinese_spread(message: str, expected: str) -> None:
    assert classify(message).type == expected, classify(message)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("把剩下的接口写完", "RESUMPTION"),
        ("剩下的测试跑完吧", "RESUMPTION"),
        ("把剩下的 migration 改完", "RESUMPTION"),
        ("别把剩下的做完", "OTHER"),
        ("先不要把剩下的写完", "OTHER"),
        ("剩下的明天再做完", "OTHER"),
        ("剩下的我来写", "OTHER"),
        ("剩下的写完了吗?", "STATUS_REQUEST"),
    ],
)
def test_finishing_what_is_left_is_a_go_in_chinese(message: str, expected: str) -> None:
    """ "把剩下的做完" (finish the rest) goes on with the task, as "go ahead and finish the hooks"
    in English: a rule family (zh_hans.py), not the model; negated, later or asked it is not."""
    assert classify(message).type == expected, classify(message)


@pytest.mark.parametrize(
    ("probs", "expected"),
    [
        # the model's go at 85-90% of a message no rule matched: a go since the tenth round
        ([0.87, 0.0, 0.0, 0.02, 0.11], "RESUMPTION"),
        # a go under 85% with 5-10% OTHER in it: as often a hold as a go in batches 7-12
        ([0.82, 0.0, 0.0, 0.1, 0.08], None),
        # a go at 70% or more with at most 5% OTHER: clear of a hold
        ([0.72, 0.0, 0.0, 0.23, 0.05], "RESUMPTION"),
    ],
)
def test_the_tenth_rounds_go_thresholds(probs: list[float], expected: str | None) -> None:
    """`model.SURE`'s go and `model.CLEAR_GO` (docs/interruptions.md, "Tenth round: the model")."""
    from taskproto.classify.languages import model

    got = model.verdict("fallback", "OTHER", probs)
    assert (got[0] if got else None) == expected


def test_the_veto_holds_a_go_the_whole_message_reads_86_percent_other() -> None:
    """`model.VETO`'s whole-message threshold, 0.85 since the tenth round (0.9 before)."""
    from taskproto.classify.languages import model

    assert model.vetoes([0.1, 0.0, 0.0, 0.04, 0.86], [0.1, 0.0, 0.0, 0.1, 0.8]) == 0.86
