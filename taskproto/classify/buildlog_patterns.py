"""The table of build-log patterns the classifier in `buildlog.py` reads.

This module is data. Each `LogPattern` names one line shape a tool prints and says which kind
of failure it shows. Lines are matched against the table in order and the first pattern that
matches a line wins, so tool-specific shapes come before generic ones.

Roles:
  item     one diagnostic (an error, a failing test, a violation); counted when no summary
           says how many
  summary  the tool's own total; `count` pulls the number out (the numbers it finds are summed)
  marker   names the tool and the failure without a number

A pattern whose `count` adds up to 0 is treated as no match: tools print "0 failed" on success.

Sections let a few ambiguous shapes take their meaning from the lines above them:
`opens` switches the scanner to a section, and `within`/`outside` limit a pattern to some sections.
A `weak` pattern is dropped when the same ecosystem has a non-weak compilation, test or style match
in the same run (a `new_run` pattern starts one): cargo prints `error: could not compile` both for
type errors and for clippy lints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

COMPILATION = "compilation"
TEST = "test"
STYLE = "style"
UNKNOWN = "unknown"
# The order is also the precedence: a build that does not compile has no meaningful test result.
KINDS: tuple[str, ...] = (COMPILATION, TEST, STYLE, UNKNOWN)

ITEM = "item"
SUMMARY = "summary"
MARKER = "marker"


@dataclass(frozen=True)
class LogPattern:
    name: str
    ecosystem: str | None
    kind: str
    regex: re.Pattern[str]
    role: str = ITEM
    count: re.Pattern[str] | None = None
    within: tuple[str, ...] = ()
    outside: tuple[str, ...] = ()
    opens: str | None = None
    weak: bool = False
    new_run: bool = False
    # Literal strings of which a line must hold one before the regex runs: a fast `in` test
    # in front of the unanchored alternations that would otherwise be tried on every line.
    needles: tuple[str, ...] = ()


def _p(
    name: str,
    ecosystem: str | None,
    kind: str,
    regex: str,
    role: str = ITEM,
    count: str | None = None,
    within: tuple[str, ...] = (),
    outside: tuple[str, ...] = (),
    opens: str | None = None,
    weak: bool = False,
    new_run: bool = False,
    needles: tuple[str, ...] = (),
) -> LogPattern:
    return LogPattern(
        name=name,
        ecosystem=ecosystem,
        kind=kind,
        regex=re.compile(regex),
        role=role,
        count=re.compile(count) if count is not None else None,
        within=within,
        outside=outside,
        opens=opens,
        weak=weak,
        new_run=new_run,
        needles=needles,
    )


C, T, S, U = COMPILATION, TEST, STYLE, UNKNOWN
_JS = r"\S+\.[cm]?[jt]sx?"
# Ruff's rule prefixes: a bare "CODE message" line is too common a shape to take on its own.
_RUFF_RULE = (
    r"(?:AIR|ANN|ARG|ASYNC|A|BLE|B|COM|CPY|C4|C90|C|DJ|DOC|DTZ|D|EM|ERA|EXE|E|FAST|FA|FBT|FIX|FLY"
    r"|FURB|F|G|ICN|INP|INT|ISC|I|LOG|NPY|N|PD|PERF|PGH|PIE|PLC|PLE|PLR|PLW|PTH|PT|PYI|Q|RET|RSE"
    r"|RUF|SIM|SLF|SLOT|S|TCH|TC|TD|TID|TRY|T|UP|W|YTT)"
)

# One pattern per line or two reads as a table; the formatter would spread it over 400 lines.
# fmt: off
PATTERNS: tuple[LogPattern, ...] = (
    # --- pytest -------------------------------------------------------------------------------
    _p("collection error", "pytest", C, r"^_{3,} ERROR collecting \S+ _{3,}$", MARKER,
       opens="pytest-collect"),
    _p("setup/teardown error", "pytest", T, r"^_{3,} ERROR at (?:setup|teardown) of \S.* _{3,}$",
       MARKER, opens="pytest-case"),
    _p("failure header", "pytest", T, r"^_{3,} \S+ _{3,}$", MARKER, opens="pytest-case"),
    _p("collection exception", "pytest", C, r"^E\s+(?:\w+\.)*\w*(?:Error|Exception)\b",
       within=("pytest-collect",)),
    _p("import error in test module", "pytest", C,
       r"^ImportError while (?:importing test module|loading conftest) ", MARKER,
       opens="pytest-collect"),
    _p("interrupted during collection", "pytest", C,
       r"^!+ Interrupted: \d+ errors? during collection !+$", SUMMARY,
       count=r"(\d+) errors? during"),
    _p("short test summary", "pytest", U, r"^=+ short test summary info =+$", MARKER,
       opens="pytest-summary"),
    _p("collection error (summary)", "pytest", C, r"^ERROR [^\s:]+\.py(?:\s|$)", MARKER),
    _p("failed test", "pytest", T, r"^(?:FAILED|ERROR) \S+\.py::\S+"),
    _p("final summary", "pytest", T,
       r"^=*\s*\d+ (?:failed|passed|errors?|skipped|deselected|xfailed|xpassed|warnings?)\b"
       r"[^=]* in \d+(?:\.\d+)?s\b",
       SUMMARY, count=r"(\d+) (?:failed|errors?)\b"),
    _p("coverage below threshold", "pytest", T,
       r"^(?:FAIL )?Required test coverage of [\d.]+% not reached", MARKER),
    # --- unittest -----------------------------------------------------------------------------
    _p("test module import failed", "unittest", C, r"^ERROR: \S+ \(unittest\.loader\._?FailedTest",
       MARKER, opens="unittest-import"),
    _p("test module import failed", "unittest", C, r"^ImportError: Failed to import test module: ",
       MARKER),
    _p("failed test", "unittest", T, r"^(?:FAIL|ERROR): \w+ \([\w.]+\)", opens="unittest-case"),
    _p("summary", "unittest", T, r"^FAILED \((?:failures|errors)=\d+", SUMMARY,
       count=r"(?:failures|errors)=(\d+)"),
    # --- mypy / pyright (type errors count as compilation) ------------------------------------
    _p("type error", "mypy", C, r"^\S+\.pyi?:\d+(?::\d+)?: error: "),
    _p("summary", "mypy", C, r"^Found \d+ errors? in \d+ files? \(checked \d+ source files?\)",
       SUMMARY, count=r"^Found (\d+)"),
    _p("type error", "pyright", C, r"^\s*\S+\.pyi?:\d+:\d+ - error: "),
    _p("summary", "pyright", C, r"^\d+ errors?, \d+ warnings?, \d+ (?:informations?|notes?)\s*$",
       SUMMARY, count=r"^(\d+) error"),
    # --- Python linters and formatters --------------------------------------------------------
    _p("syntax error (E999)", "flake8", C, r"^\S+\.pyi?:\d+:\d+: E999 "),
    _p("syntax error", "ruff", C, r"^\S+\.pyi?:\d+:\d+: SyntaxError: "),
    _p("message", "pylint", S, r"^\S+\.pyi?:\d+:\d+: [CRWEFI]\d{4}: .*\([\w-]+\)$"),
    _p("module header", "pylint", S, r"^\*{13} Module \S+", MARKER),
    _p("rating", "pylint", U, r"^Your code has been rated at -?[\d.]+/10", MARKER),
    _p("fixable violation", "ruff", S, r"^\S+\.pyi?:\d+:\d+: [A-Z]+\d+ \[\*\] "),
    _p("violation", "flake8", S, r"^\S+\.pyi?:\d+:\d+: [A-Z]{1,3}\d{1,4} "),
    _p("violation (full format)", "ruff", S,
       r"^(?=[A-Z]{1,5}\d)" + _RUFF_RULE + r"\d{2,4} (?:\[\*\] )?[`'\"\w]"),
    _p("summary", "ruff", S, r"^Found \d+ errors?(?:\.|\s*\(\d+ fixed, \d+ remaining\)\.?)\s*$",
       SUMMARY, count=r"(\d+) remaining\)|^Found (\d+) errors?\.\s*$", outside=("tsc",)),
    _p("would reformat", "ruff", S, r"^Would reformat: \S+"),
    _p("format summary", "ruff", S,
       r"^\d+ files? would be reformatted, \d+ files? already formatted",
       SUMMARY, count=r"^(\d+)"),
    _p("cannot parse", "black", C, r"^error: cannot format \S+: Cannot parse"),
    _p("would reformat", "black", S, r"^would reformat \S+"),
    _p("oh no", "black", S, r"^Oh no! ", MARKER),
    _p("summary", "black", S, r"^\d+ files? would be reformatted", SUMMARY, count=r"^(\d+)"),
    # --- Maven --------------------------------------------------------------------------------
    _p("checkstyle violation", "maven", S,
       r"^\[(?:ERROR|WARN(?:ING)?)\] \S+\.java:\[\d+(?:,\d+)?\] \(\w+\) \w+: "),
    _p("checkstyle summary", "maven", S, r"You have \d+ Checkstyle violations?", SUMMARY,
       count=r"You have (\d+)",
       needles=("Checkstyle",)),
    _p("checkstyle report", "maven", S, r"There (?:is|are) \d+ errors? reported by Checkstyle",
       SUMMARY, count=r"(\d+) errors?",
       needles=("Checkstyle",)),
    _p("PMD summary", "maven", S, r"You have \d+ PMD violations?", SUMMARY,
       count=r"You have (\d+)",
       needles=("PMD",)),
    _p("PMD violation", "maven", S, r"PMD Failure: \S+:\d+ Rule:\w+",
       needles=("PMD",)),
    _p("spotless", None, S, r"The following files had format violations", MARKER,
       needles=("format violations",)),
    _p("COMPILATION ERROR", "maven", C, r"^\[ERROR\] COMPILATION ERROR", MARKER,
       opens="maven-compile"),
    _p("compiler error", "maven", C, r"^\[ERROR\] \S+\.(?:java|kt|scala|groovy):\[\d+(?:,\d+)?\] "),
    _p("compiler error count", "maven", C, r"^\[INFO\] \d+ errors?\s*$", SUMMARY,
       count=r"(\d+)", within=("maven-compile",)),
    _p("compiler plugin failed", "maven", C, r"maven-compiler-plugin\S* .*Compilation failure",
       MARKER,
       needles=("Compilation failure",)),
    _p("surefire counts", "maven", T,
       r"^(?:\[(?:ERROR|WARNING|INFO)\] )?Tests run: \d+, Failures: \d+, Errors: \d+", SUMMARY,
       count=r"(?:Failures|Errors): (\d+)"),
    _p("failed test", "maven", T, r"^\[ERROR\] \S.*<<< (?:FAILURE|ERROR)!"),
    _p("There are test failures", "maven", T, r"There (?:are|were) test failures", MARKER,
       needles=("test failures",)),
    _p("BUILD FAILURE", "maven", U, r"^\[INFO\] BUILD FAILURE", MARKER),
    _p("failed to execute goal", "maven", U, r"^\[ERROR\] Failed to execute goal ", MARKER),
    # --- Gradle and the JVM compilers it drives ------------------------------------------------
    _p("compile task failed", "gradle", C, r"^> Task \S*:compile\w* FAILED", MARKER),
    _p("compilation failed", "gradle", C,
       r"^> Compilation (?:failed; see the compiler error output|error\. See log)", MARKER),
    _p("compiler error", "javac", C, r"^\S+\.java:\d+: error: ", opens="javac"),
    _p("error count", "javac", C, r"^\d+ errors?\s*$", SUMMARY, count=r"(\d+)",
       within=("javac",)),
    _p("compiler error", "kotlin", C, r"^e: \S+\.kts?(?::\d+:\d+|: \(\d+, \d+\):) "),
    _p("style task failed", "gradle", S,
       r"^> Task \S*:(?:checkstyle|spotless|ktlint|detekt|pmd|spotbugs)\w* FAILED", MARKER),
    _p("test task failed", "gradle", T, r"^> Task \S*:\w*[tT]est\w* FAILED", MARKER),
    _p("failed test", "gradle", T, r"^[\w.$]+ > .* FAILED\s*$"),
    _p("test summary", "gradle", T, r"^\d+ tests? completed, \d+ failed", SUMMARY,
       count=r"(\d+) failed"),
    _p("There were failing tests", "gradle", T, r"There were failing tests", MARKER,
       needles=("failing tests",)),
    _p("checkstyle violation", "gradle", S, r"^\[ant:checkstyle\] \[(?:ERROR|WARN)\] "),
    _p("checkstyle violations found", "gradle", S, r"Checkstyle rule violations were found",
       MARKER,
       needles=("Checkstyle",)),
    _p("checkstyle severity summary", "gradle", S, r"Checkstyle violations by severity: \[",
       SUMMARY, count=r"error:(\d+)",
       needles=("Checkstyle",)),
    _p("build failed", "gradle", U,
       r"^(?:FAILURE: Build failed with an exception|BUILD FAILED in )",
       MARKER),
    # --- cargo / rustc / clippy ---------------------------------------------------------------
    _p("clippy lint", "cargo", S, r"rust-clippy/[\w.-]+/index\.html#\w+", opens="clippy",
       needles=("rust-clippy",)),
    _p("clippy deny", "cargo", S, r"#\[deny\(clippy::|-D clippy::", MARKER, opens="clippy",
       needles=("clippy::",)),
    _p("clippy summary", "cargo", S, r"^error: could not compile .* due to \d+ previous errors?",
       SUMMARY, count=r"due to (\d+) previous", within=("clippy",)),
    _p("compiler error", "cargo", C, r"^error\[E\d{4}\]: "),
    _p("test result FAILED", "cargo", T, r"^test result: FAILED\.", SUMMARY, count=r"(\d+) failed"),
    _p("failed test", "cargo", T, r"^test \S+ \.\.\. FAILED\s*$"),
    _p("test failed", "cargo", T, r"^error: test failed, to rerun pass ", MARKER),
    _p("could not compile", "cargo", C, r"^error: could not compile ", SUMMARY,
       count=r"due to (\d+) previous", weak=True),
    _p("progress", "cargo", U, r"^\s+(?:Compiling|Checking) \S+ v\d", MARKER, opens="cargo",
       new_run=True),
    _p("error", "cargo", C, r"^error: (?!aborting due)\S", within=("cargo", "clippy"), weak=True),
    # --- Go -----------------------------------------------------------------------------------
    _p("build failed", "go", C, r"^FAIL\s+\S+ \[(?:build|setup) failed\]", MARKER),
    _p("vet header", "go", S, r"^# \[[^\]\s]+\]\s*$", MARKER, opens="go-vet"),
    _p("package header", "go", U, r"^# \S+(?: \[\S+\])?\s*$", MARKER, opens="go-build"),
    _p("type error in vet", "go", C, r"^vet: \S+\.go:\d+:\d+: "),
    _p("vet finding", "go", S, r"^\S+\.go:\d+:\d+: ", within=("go-vet",)),
    _p("golangci-lint finding", "golangci-lint", S, r"^\S+\.go:\d+:\d+: .* \([\w-]+\)$"),
    _p("compiler error", "go", C, r"^\S+\.go:\d+:\d+: "),
    _p("failed test", "go", T, r"^\s*--- FAIL: \S+"),
    _p("package FAIL", "go", T, r"^FAIL\t\S+", MARKER),
    # --- TypeScript ---------------------------------------------------------------------------
    _p("type error", "tsc", C, r"^" + _JS + r"\(\d+,\d+\): error TS\d+: ", opens="tsc"),
    _p("type error", "tsc", C, r"^" + _JS + r":\d+:\d+ - error TS\d+: ", opens="tsc"),
    _p("config error", "tsc", C, r"^error TS\d+: ", opens="tsc"),
    _p("summary", "tsc", C, r"^Found \d+ errors? in ", SUMMARY, count=r"^Found (\d+)"),
    _p("summary", "tsc", C, r"^Found \d+ errors?\.", SUMMARY, count=r"^Found (\d+)",
       within=("tsc",)),
    # --- ESLint / Prettier --------------------------------------------------------------------
    _p("parsing error", "eslint", C, r"^\s+\d+:\d+\s+error\s+Parsing error: "),
    _p("error", "eslint", S, r"^\s+\d+:\d+\s+error\s+\S"),
    _p("summary", "eslint", S, r"^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)", SUMMARY,
       count=r"\((\d+) errors?"),
    _p("too many warnings", "eslint", S, r"^ESLint found too many warnings", MARKER),
    _p("unformatted file", "prettier", S, r"^\[warn\] \S+\.\w+\s*$"),
    _p("summary", "prettier", S, r"^\[warn\] Code style issues (?:were )?found in ", SUMMARY,
       count=r"in (\d+) files?"),
    # --- vitest (before jest: both print FAIL lines) -------------------------------------------
    _p("suite failed to load", "vitest", C, r"^\s*FAIL\s+" + _JS + r" \[ \S+ \]", MARKER),
    _p("failed to resolve import", "vitest", C, r"^(?:Error: )?Failed to resolve import "),
    _p("failed test", "vitest", T, r"^\s*FAIL\s+" + _JS + r" > "),
    _p("failed test", "vitest", T, r"^\s*× \S"),
    _p("failed tests banner", "vitest", T, r"⎯+ Failed Tests \d+ ⎯+", MARKER,
       needles=("Failed Tests",)),
    _p("test files summary", "vitest", T, r"^\s*Test Files\s+\d+ failed", MARKER),
    _p("tests summary", "vitest", T, r"^\s*Tests\s+\d+ failed", SUMMARY, count=r"(\d+) failed"),
    # --- jest ---------------------------------------------------------------------------------
    _p("test suite failed to run", "jest", C, r"^\s*● Test suite failed to run", MARKER,
       opens="jest-suite"),
    _p("suite load error", "jest", C, r"^\s*(?:Cannot find module |\w*Error: )",
       within=("jest-suite",)),
    _p("failed test", "jest", T, r"^\s*● (?!Console\s*$)\S", opens="jest-case"),
    _p("FAIL file", "jest", T, r"^\s*FAIL\s+" + _JS + r"(?:\s|$)", MARKER),
    _p("tests summary", "jest", T, r"^Tests:\s+\d+ failed", SUMMARY, count=r"(\d+) failed"),
    _p("suites summary", "jest", T, r"^Test Suites:\s+\d+ failed", MARKER),
    # --- package-script wrappers: they name the tool that failed, not the failure ---------------
    _p("lifecycle script failed", "npm", U,
       r"^npm (?:ERR!|error) (?:code ELIFECYCLE|Lifecycle script .* failed"
       r"|Failed at the \S+ \S+ script"
       r"|Test failed\.|command (?:sh|cmd\.exe|/bin/sh) )",
       MARKER),
    _p("command failed", "yarn", U, r"^error Command failed with exit code \d+", MARKER),
    _p("command failed", "pnpm", U, r"ELIFECYCLE\s+(?:Test|Command) failed", MARKER,
       needles=("ELIFECYCLE",)),
    # --- Python errors raised outside a test runner --------------------------------------------
    _p("import/name/syntax error", "python", C,
       r"^(?:ModuleNotFoundError|ImportError|NameError|SyntaxError|IndentationError|TabError): ",
       outside=("unittest-case", "pytest-case", "jest-case")),
    # --- environment: these never decide a kind, they explain an unknown ---------------------
    _p("out of memory", None, U,
       r"^Killed\s*$|\bKilled\s+\S|OutOfMemoryError|JavaScript heap out of memory|\bMemoryError\b"
       r"|Cannot allocate memory|\bOOM[- ]?killed|oom-kill|exit (?:code|status) 137\b"
       r"|signal: killed"
       r"|daemon disappeared unexpectedly",
       needles=("Killed", "killed", "MemoryError", "out of memory", "allocate memory", "OOM",
                "oom-kill", "137", "disappeared")),
    _p("disk full", None, U, r"No space left on device|\bENOSPC\b|Disk quota exceeded",
       needles=("No space left", "ENOSPC", "quota exceeded")),
    _p("network failure", None, U,
       r"Could not resolve host|Temporary failure in name resolution|\bE(?:TIMEDOUT|CONNREFUSED"
       r"|CONNRESET|NOTFOUND|AI_AGAIN)\b|Connection (?:refused|timed out|reset)"
       r"|Network is unreachable"
       r"|UnknownHostException|Could not transfer artifact|Read timed out|i/o timeout"
       r"|Failed to establish a new connection|getaddrinfo",
       needles=("resolve host", "name resolution", "ETIMEDOUT", "ECONNREFUSED", "ECONNRESET",
                "ENOTFOUND", "EAI_AGAIN", "Connection ", "unreachable", "UnknownHost",
                "transfer artifact", "timed out", "i/o timeout", "new connection", "getaddrinfo")),
    _p("permission denied", None, U, r"Permission denied|\bEACCES\b",
       needles=("Permission denied", "EACCES")),
)
# fmt: on

# Compilation errors that look like a missing import or symbol: the main agent can fix those.
MISSING_SYMBOL = re.compile(
    r"cannot find (?:symbol|name|module|value|function|type|macro|crate|trait|struct)\b"
    r"|unresolved (?:import|reference)|use of undeclared|failed to resolve|\bNameError\b"
    r"|ModuleNotFoundError|No module named|cannot import name|Failed to import test module"
    r"|\bundefined: |\bis not defined\b|could not be resolved|package \S+ does not exist",
    re.IGNORECASE,
)

# Style failures with at most this many violations are fixed by the main agent
# (Recovery Procedure 3).
STYLE_DIRECT_FIX_MAX = 5

ACTIONS: dict[str, str] = {
    COMPILATION: "fix_compilation_errors",
    TEST: "fix_test_failures",
    STYLE: "fix_style_violations",
    UNKNOWN: "investigate_manually",
}
