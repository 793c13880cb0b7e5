from __future__ import annotations

import io
import json
import os
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taskproto.classify.buildlog import MAX_EVIDENCE, BuildClassification, classify_log, clean_line
from taskproto.classify.buildlog_patterns import KINDS, PATTERNS
from taskproto.ops.build import run_and_classify

LOGS = Path(__file__).parent / "data" / "buildlogs"
ROOT = Path(__file__).parent.parent


def _manifest() -> list[tuple[str, str, str | None, int | None, str]]:
    rows = []
    for line in (LOGS / "expected.tsv").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, kind, ecosystem, count, handler = line.split("\t")
        rows.append(
            (
                name,
                kind,
                None if ecosystem == "-" else ecosystem,
                None if count == "-" else int(count),
                handler,
            )
        )
    return rows


MANIFEST = _manifest()
ACTION_FOR = {
    "compilation": "fix_compilation_errors",
    "test": "fix_test_failures",
    "style": "fix_style_violations",
    "unknown": "investigate_manually",
}


def _read(name: str) -> str:
    return (LOGS / name).read_bytes().decode("utf-8", errors="replace")


# --- the sample logs ---------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "kind", "ecosystem", "count", "handler"), MANIFEST)
def test_sample_log(
    name: str, kind: str, ecosystem: str | None, count: int | None, handler: str
) -> None:
    text = _read(name)
    result = classify_log(text)
    assert (result.kind, result.ecosystem, result.count, result.handler) == (
        kind,
        ecosystem,
        count,
        handler,
    )
    assert result.action == ACTION_FOR[kind]
    assert 0 < len(result.evidence) <= MAX_EVIDENCE
    cleaned = "\n".join(clean_line(line) for line in text.splitlines())
    for line in result.evidence:
        assert line.rstrip(".") in cleaned, line


def test_manifest_lists_every_log() -> None:
    on_disk = {p.name for p in LOGS.glob("*.log")}
    listed = {row[0] for row in MANIFEST}
    assert on_disk == listed
    assert len(on_disk) >= 30


def test_every_kind_and_required_ecosystem_has_a_sample() -> None:
    kinds = {row[1] for row in MANIFEST}
    assert kinds == set(KINDS)
    ecosystems = {row[2] for row in MANIFEST}
    required = {
        "maven", "gradle", "pytest", "unittest", "ruff", "flake8", "pylint", "black", "mypy",
        "pyright", "cargo", "go", "tsc", "eslint", "jest", "vitest", "npm",
    }  # fmt: skip
    assert required <= ecosystems
    for ecosystem, kind in [
        ("maven", "compilation"), ("maven", "test"), ("maven", "style"),
        ("gradle", "compilation"), ("gradle", "test"), ("gradle", "style"),
        ("cargo", "compilation"), ("cargo", "test"), ("cargo", "style"),
        ("go", "compilation"), ("go", "test"), ("go", "style"),
    ]:  # fmt: skip
        assert any(row[1:3] == (kind, ecosystem) for row in MANIFEST), (ecosystem, kind)


# --- precedence --------------------------------------------------------------------------------


def test_compilation_beats_test_and_style() -> None:
    text = _read("flake8_style.log") + _read("pytest_test.log") + _read("mypy_compilation.log")
    result = classify_log(text)
    assert (result.kind, result.ecosystem, result.count) == ("compilation", "mypy", 2)


def test_test_beats_style() -> None:
    result = classify_log(_read("eslint_style.log") + _read("jest_test.log"))
    assert (result.kind, result.ecosystem) == ("test", "jest")


def test_style_beats_unknown_markers() -> None:
    result = classify_log(_read("maven_checkstyle.log"))
    assert result.kind == "style"
    assert "[INFO] BUILD FAILURE" not in result.evidence


def test_name_error_inside_a_failing_test_is_a_test_failure() -> None:
    result = classify_log(_read("pytest_test.log"))
    assert result.kind == "test"


def test_pytest_collection_error_is_compilation() -> None:
    result = classify_log(_read("pytest_collection.log"))
    assert result.kind == "compilation"
    assert "E   ModuleNotFoundError: No module named 'shop.orders'" in result.evidence


def test_clippy_lints_are_style_but_rustc_errors_in_the_same_run_are_compilation() -> None:
    clippy = _read("cargo_clippy_style.log")
    assert classify_log(clippy).kind == "style"
    assert classify_log(clippy + _read("cargo_compilation.log")).kind == "compilation"


def test_bare_npm_failure_is_unknown_but_wrapped_tool_decides() -> None:
    bare = classify_log(_read("npm_bare_unknown.log"))
    assert (bare.kind, bare.ecosystem, bare.handler) == ("unknown", "npm", "user")
    assert "npm error command sh -c node scripts/build.mjs" in bare.evidence
    wrapped = classify_log(_read("npm_eslint_style.log"))
    assert (wrapped.kind, wrapped.ecosystem) == ("style", "eslint")


def test_ruff_summary_names_the_tool_even_when_lines_look_like_flake8() -> None:
    text = "src/a.py:3:1: E402 Module level import not at top of file\nFound 1 error.\n"
    assert classify_log(text).ecosystem == "ruff"
    assert classify_log(text.splitlines()[0]).ecosystem == "flake8"


@pytest.mark.parametrize(
    "line", ["JDK17 is not installed", "ES2020 target requires a newer runtime", "X11 not found"]
)
def test_code_like_words_are_not_ruff_violations(line: str) -> None:
    assert classify_log(line).kind == "unknown"


def test_go_vet_findings_are_style_and_go_build_errors_compilation() -> None:
    finding = "./store.go:27:2: fmt.Printf format %d has arg name of wrong type string"
    assert classify_log(f"# example.com/m\n# [example.com/m]\n{finding}\n").kind == "style"
    assert classify_log(f"# example.com/m\n{finding}\n").kind == "compilation"


# --- counts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("log", "count"),
    [
        ("[ERROR] Failed to execute goal x: You have 12 Checkstyle violations. -> [Help 1]", 12),
        ("Tests run: 10, Failures: 2, Errors: 1, Skipped: 0", 3),
        ("==== 3 failed, 1 error, 10 passed in 0.52s ====", 4),
        ("Found 7 errors.\n[*] 5 fixable with the `--fix` option.", 7),
        ("Found 4 errors (3 fixed, 1 remaining).", 1),
        ("Found 2 errors in 1 file (checked 3 source files)", 2),
        ("3 errors, 0 warnings, 0 informations ", 3),
        ("test result: FAILED. 3 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out", 2),
        ("FAILED (failures=2, errors=3)", 5),
        ("Tests:       4 failed, 3 passed, 7 total", 4),
        ("✖ 9 problems (6 errors, 3 warnings)", 6),
        ("12 tests completed, 5 failed", 5),
        ("3 files would be reformatted, 10 files would be left unchanged.", 3),
    ],
)
def test_count_extraction(log: str, count: int) -> None:
    assert classify_log(log).count == count


def test_counts_fall_back_to_distinct_diagnostic_lines() -> None:
    lines = [f"a.py:{n}:1: E302 expected 2 blank lines, found 1" for n in range(1, 4)]
    assert classify_log("\n".join(lines + lines)).count == 3


def test_the_last_summary_wins() -> None:
    # Maven prints a line per test class, then the totals.
    text = _read("maven_test.log").replace("Tests run: 8, Failures: 2", "Tests run: 8, Failures: 4")
    assert classify_log(text).count == 4


@pytest.mark.parametrize(
    "log",
    [
        "Tests run: 5, Failures: 0, Errors: 0, Skipped: 0",
        "====== 12 passed in 0.30s ======",
        "test result: ok. 5 passed; 0 failed; 0 ignored",
        "✖ 2 problems (0 errors, 2 warnings)",
    ],
)
def test_zero_failure_summaries_are_not_failures(log: str) -> None:
    assert classify_log(log).kind == "unknown"


# --- advice ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("violations", "handler"), [(1, "main"), (5, "main"), (6, "style")])
def test_style_advice_threshold(violations: int, handler: str) -> None:
    lines = [f"src/a.py:{n}:1: F401 'os' imported but unused" for n in range(1, violations + 1)]
    flake8 = classify_log("\n".join(lines))
    checkstyle = classify_log(f"[ERROR] x: You have {violations} Checkstyle violations.")
    for result in (flake8, checkstyle):
        assert (result.kind, result.count, result.handler) == ("style", violations, handler)
        assert ("main agent" in result.advice) == (handler == "main")
        assert ("style agent" in result.advice) == (handler == "style")


def test_style_with_unknown_count_goes_to_the_style_agent() -> None:
    result = classify_log("Oh no! 💥 💔 💥")
    assert (result.kind, result.count, result.handler) == ("style", None, "style")


@pytest.mark.parametrize(
    ("line", "handler"),
    [
        ("[ERROR] /s/A.java:[3,8] cannot find symbol", "main"),
        ("src/a.ts(3,5): error TS2304: Cannot find name 'x'.", "main"),
        ("error[E0432]: unresolved import `crate::x`", "main"),
        ("./main.go:5:2: undefined: foo", "main"),
        ("ModuleNotFoundError: No module named 'yaml'", "main"),
        ("NameError: name 'foo' is not defined", "main"),
        (
            "[ERROR] /s/A.java:[3,8] incompatible types: String cannot be converted to int",
            "architect",
        ),
        (
            "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.",
            "architect",
        ),
        ("error[E0308]: mismatched types", "architect"),
    ],
)
def test_compilation_advice(line: str, handler: str) -> None:
    result = classify_log(line)
    assert (result.kind, result.handler) == ("compilation", handler)
    assert ("architect" in result.advice) == (handler == "architect")


def test_one_complex_error_among_missing_symbols_goes_to_the_architect() -> None:
    text = "./main.go:5:2: undefined: foo\n./main.go:9:2: declared and not used: x\n"
    assert classify_log(text).handler == "architect"


def test_test_and_unknown_advice() -> None:
    test = classify_log(_read("go_test.log"))
    assert test.handler == "test" and "test agent" in test.advice
    unknown = classify_log(_read("unknown_disk_full.log"))
    assert unknown.handler == "user" and "escalate to the user" in unknown.advice
    assert "disk full" in unknown.advice


# --- robustness --------------------------------------------------------------------------------


def test_ansi_colour_codes_are_stripped() -> None:
    result = classify_log(_read("pytest_ansi_test.log"))
    assert (result.kind, result.count) == ("test", 1)
    assert "FAILED tests/test_cart.py::test_total - assert 2 == 3" in result.evidence
    assert not any("\x1b" in line for line in result.evidence)


def test_crlf_line_endings() -> None:
    crlf = classify_log(_read("gradle_crlf_test.log"))
    lf = classify_log(_read("gradle_test.log"))
    assert crlf == lf


def test_empty_log() -> None:
    result = classify_log("")
    assert (result.kind, result.ecosystem, result.evidence, result.count) == (
        "unknown",
        None,
        (),
        None,
    )


def test_unknown_without_any_match_shows_the_tail_of_the_log() -> None:
    result = classify_log(_read("unknown_plain.log"))
    assert result.evidence[-1] == "Segmentation fault (core dumped)"


def test_binary_junk() -> None:
    junk = bytes(range(256)) * 400 + b"\x00\xff\xfe" * 1000
    result = classify_log(junk.decode("utf-8", errors="replace"))
    assert result.kind == "unknown"
    assert all(line.isprintable() for line in result.evidence)


def test_evidence_is_bounded_and_keeps_the_totals() -> None:
    lines = [f"./pkg/a.go:{n}:2: undefined: name{n}" for n in range(1, 500)]
    result = classify_log("# example.com/m\n" + "\n".join(lines) + "\n")
    assert len(result.evidence) == MAX_EVIDENCE
    assert result.count == 499
    long = classify_log("FAILED tests/test_a.py::test_" + "x" * 5000)
    assert all(len(line) <= 300 for line in long.evidence)


def test_huge_log_is_bounded() -> None:
    noise = "[INFO] Downloading from central: https://repo.example/org/foo/bar/1.0/bar-1.0.jar\n"
    text = (
        noise * 650_000
        + "[ERROR] COMPILATION ERROR :\n[ERROR] /s/A.java:[1,1] cannot find symbol\n"
    )
    assert len(text) > 50_000_000
    started = time.monotonic()
    result = classify_log(text)
    assert result.kind == "compilation"
    assert time.monotonic() - started < 60  # generous: CI machines are shared


def test_pathological_lines_do_not_backtrack() -> None:
    lines = [
        "_" * 100_000 + " x",
        "= " + "1 failed, " * 20_000,
        "[ERROR] " + "a" * 100_000 + "<<< FAILURE",
        "error: could not compile " + "x " * 50_000,
        "  " + "1:2 " * 30_000,
    ]
    started = time.monotonic()
    for line in lines:
        classify_log(line)
    assert time.monotonic() - started < 20


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_gives_a_result(text: str) -> None:
    result = classify_log(text)
    assert result.kind in KINDS
    assert len(result.evidence) <= MAX_EVIDENCE
    json.dumps(result.to_dict())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(sorted(p.name for p in LOGS.glob("*.log"))), max_size=4))
def test_concatenated_samples_follow_precedence(names: list[str]) -> None:
    kinds = {row[0]: row[1] for row in MANIFEST}
    result = classify_log("\n".join(_read(name) for name in names))
    expected = next((k for k in KINDS if any(kinds[n] == k for n in names)), "unknown")
    assert result.kind == expected


def test_to_dict_is_json_with_stable_fields() -> None:
    data = classify_log(_read("maven_test.log")).to_dict()
    assert list(data) == ["kind", "ecosystem", "evidence", "count", "action", "advice", "handler"]
    assert json.loads(json.dumps(data)) == data


def test_pattern_table_is_well_formed() -> None:
    for pattern in PATTERNS:
        assert pattern.kind in KINDS
        assert pattern.role in {"item", "summary", "marker"}
        assert (pattern.count is not None) <= (pattern.role == "summary"), pattern.name


def test_docs_name_every_ecosystem() -> None:
    docs = (ROOT / "docs" / "build-failures.md").read_text(encoding="utf-8")
    for ecosystem in {p.ecosystem for p in PATTERNS if p.ecosystem is not None}:
        assert f"`{ecosystem}`" in docs, ecosystem


# --- run_and_classify --------------------------------------------------------------------------

FAILING_PYTEST = r"""
import sys
print("=================== short test summary info ====================")
print("FAILED tests/test_cart.py::test_total - assert 2 == 3")
print("=============== 1 failed, 4 passed in 0.12s ===============", file=sys.stderr)
sys.exit(1)
"""


def test_run_failing_command_is_classified() -> None:
    result = run_and_classify([sys.executable, "-c", FAILING_PYTEST])
    assert result.exit_code == 1 and not result.passed
    assert result.classification is not None
    assert (result.classification.kind, result.classification.ecosystem) == ("test", "pytest")
    assert result.classification.count == 1
    assert "1 failed, 4 passed" in result.output_tail  # stderr is captured too
    assert result.duration > 0
    json.dumps(result.to_dict())


def test_run_passing_command() -> None:
    result = run_and_classify([sys.executable, "-c", "print('ok')"])
    assert (result.exit_code, result.passed, result.classification) == (0, True, None)
    assert result.output_tail == f"ok{os.linesep}"


def test_run_missing_executable() -> None:
    result = run_and_classify(["taskproto-no-such-command", "--version"])
    assert result.exit_code == 127
    assert result.classification is not None
    assert result.classification.kind == "unknown"
    assert result.classification.evidence == ("command not found: taskproto-no-such-command",)


def test_run_not_executable(tmp_path: Path) -> None:
    script = tmp_path / "build.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o644)
    result = run_and_classify([str(script)])
    assert result.exit_code == 126
    assert result.classification is not None and result.classification.kind == "unknown"


def test_run_uses_cwd_and_tees_output(tmp_path: Path) -> None:
    tee = io.BytesIO()
    code = "import os; print(os.getcwd()); raise SystemExit(2)"
    result = run_and_classify([sys.executable, "-c", code], cwd=str(tmp_path), tee=tee)
    assert result.exit_code == 2
    assert str(tmp_path.resolve()) in tee.getvalue().decode()
    assert result.classification is not None and result.classification.kind == "unknown"


def test_run_timeout_kills_the_command() -> None:
    started = time.monotonic()
    code = "import time; print('compiling', flush=True); time.sleep(30)"
    result = run_and_classify([sys.executable, "-c", code], timeout=0.5)
    assert time.monotonic() - started < 10
    assert (result.exit_code, result.timed_out) == (124, True)
    assert result.classification is not None
    assert result.classification.evidence[0] == "command timed out after 0.5s"


def test_run_keeps_only_the_tail_of_a_long_output() -> None:
    code = (
        "import sys\n"
        "for i in range(100_000): print('noise line', i)\n"
        "print('./main.go:5:2: undefined: foo')\n"
        "sys.exit(1)\n"
    )
    result = run_and_classify([sys.executable, "-c", code], tail_bytes=1024)
    assert len(result.output_tail.encode()) <= 1024
    assert result.output_tail.rstrip().endswith("undefined: foo")
    assert isinstance(result.classification, BuildClassification)
    assert result.classification.kind == "compilation"
