"""Git commands that write where they name no path, tried by a session that owns no task from the
main checkout (where taskproto's root is): `git clean -x`, `git stash -a`, a patch through `git
apply` or `git am`, a stash's untracked files put back by `git stash pop`, `git mv` onto a status
file. Each goes through the real hook entry point with a real Claude Code payload and must be
denied; the same commands where taskproto's state is not, or without the part that reaches it,
must pass. The first test shows that what the guard refuses is real: run as is, `git clean -fdX`
deletes every task.json."""

from __future__ import annotations

from pathlib import Path

import pytest

from taskproto.engine import Engine
from tests.conftest import git
from tests.hooks.agents.conftest import Hook

from .test_tool_guard_escapes import SESSION, bash, dev, t1  # noqa: F401 (a fixture)

NOBODY = "nobody-7"


def denied(hook: Hook, command: str, cwd: Path, session: str = NOBODY) -> str:
    code, err = bash(hook, command, str(cwd), session=session)
    assert code == 2, (command, err)
    return err


def allowed(hook: Hook, command: str, cwd: Path, session: str = NOBODY) -> None:
    code, err = bash(hook, command, str(cwd), session=session)
    assert code == 0, (command, err)


def test_git_clean_of_ignored_files_deletes_the_state(t1: Engine) -> None:  # noqa: F811
    """Why the rule exists: taskproto's root is ignored (info/exclude), so `git clean -X`, run as
    is in the main checkout, takes every task.json with it."""
    task = t1.config.task_file("t1")
    assert task.is_file()
    git(t1.config.repo, "clean", "-fdX")
    assert not task.exists()


@pytest.mark.parametrize(
    "command",
    [
        "git clean -fdX",
        "git clean -fdx",
        "git clean -xdf .",
        "git clean -f -d -x",
        "git clean -fd -e '!.taskproto'",
        "git clean -fd --exclude='!.taskproto'",
        "cd /tmp && git -C {repo} clean -fdX",
        "git --work-tree=. clean -fdX",
        "git stash -a",
        "git stash push --all -m keep",
        "git stash save -a",
    ],
)
def test_commands_that_sweep_ignored_files_are_denied(
    t1: Engine,  # noqa: F811
    hook: Hook,
    command: str,
) -> None:
    repo = t1.config.repo
    err = denied(hook, command.format(repo=repo), repo)
    assert "taskproto's own state" in err
    assert (t1.config.task_file("t1")).is_file()


def test_the_same_commands_pass_where_the_state_is_not(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    (repo / "src").mkdir()
    for command in (
        "git clean -fd",  # ignored files stay: taskproto's root among them
        "git clean -ndX",  # a dry run writes nothing
        "git clean -fdX src",
        "git stash",
        "git stash push -u -m keep",  # untracked, not ignored
    ):
        allowed(hook, command, repo)
    # the owner, in its own worktree: the root is not under it
    allowed(hook, "git clean -fdx", dev(t1), session=SESSION)


def _patch(path: Path, target: str) -> Path:
    path.write_text(
        f"diff --git a/{target} b/{target}\n"
        f"--- a/{target}\n"
        f"+++ b/{target}\n"
        "@@ -1 +1 @@\n"
        "-{}\n"
        "+{}\n"
    )
    return path


def test_a_patch_that_reaches_the_state_is_denied(t1: Engine, hook: Hook, tmp_path: Path) -> None:  # noqa: F811
    repo = t1.config.repo
    rel = t1.config.task_file("t1").relative_to(repo).as_posix()
    into_root = str(t1.config.task_file("t1").relative_to(t1.config.root).as_posix())
    bad = _patch(tmp_path / "bad.patch", rel)
    deep = _patch(tmp_path / "deep.patch", into_root)
    mail = tmp_path / "bad.mbox"
    mail.write_text(
        "From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n" + bad.read_text()
    )
    root_dir = t1.config.root.relative_to(repo).as_posix()
    for command in (
        f"git apply {bad}",
        f"git apply -p1 --index {bad}",
        f"git apply --directory={root_dir} {deep}",  # the root put before every path
        f"git am {mail}",
        f"git apply < {bad}",  # standard input: the guard cannot read it
        f"cat {bad} | git apply -",
        "git apply /nonexistent.patch",
    ):
        err = denied(hook, command, repo)
        assert "taskproto's own state" in err, (command, err)
    fine = _patch(tmp_path / "fine.patch", "src/app.py")
    allowed(hook, f"git apply {fine}", repo)
    allowed(hook, f"git apply {bad}", dev(t1), session=SESSION)  # a patch in its own worktree


def test_a_stash_that_puts_back_untracked_files_is_denied(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    (repo / "tracked.txt").write_text("one\n")
    git(repo, "add", "tracked.txt")
    git(repo, "-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "tracked")
    (repo / "tracked.txt").write_text("two\n")
    git(repo, "stash")  # tracked changes only
    allowed(hook, "git stash pop", repo)
    allowed(hook, "git stash apply stash@{0}", repo)
    (repo / "loose.txt").write_text("untracked\n")
    git(repo, "stash", "-u")  # with untracked files: a third parent, which may hold anything
    for command in (
        "git stash pop",
        "git stash apply",
        "git stash apply stash@{0}",
        "git stash branch b stash@{0}",
    ):
        err = denied(hook, command, repo)
        assert "taskproto's own state" in err, (command, err)


def test_git_mv_and_rm_name_their_paths(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    status = t1.config.status_file("t1", "dev").relative_to(repo)
    (repo / "forged.json").write_text("{}")
    for command in (f"git mv -f forged.json {status}", f"git rm -r --cached {status.parent}"):
        assert "taskproto's own state" in denied(hook, command, repo)
    allowed(hook, "git mv -f forged.json other.json", repo)


# --- copies, archives and patches into a folder that holds the root -----------------------------


def _tree(base: Path, rel: str) -> Path:
    """A folder `base` holding a forged file at `rel` (and an ordinary one)."""
    (base / rel).parent.mkdir(parents=True, exist_ok=True)
    (base / rel).write_text("{}")
    (base / "src").mkdir(exist_ok=True)
    (base / "src" / "app.py").write_text("x = 1\n")
    return base


def test_copies_into_the_main_checkout_name_what_they_write(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    root_name = t1.config.root.relative_to(repo).parts[0]
    rel = t1.config.status_file("t1", "dev").relative_to(repo).as_posix()
    _tree(repo / "x", rel)
    for command in (
        f"cp -r x/{root_name} .",
        f"mv x/{root_name} .",
        f"cp -r x/{root_name} -t .",
        "cp -r x/. .",  # the folder's contents, wherever they land
        "rsync -a x/ .",
        f"cd x && cp -r {root_name} ..",
    ):
        assert "taskproto's own state" in denied(hook, command, repo), command
    (repo / "build").mkdir()
    for command in ("cp -r x/src .", "rsync -a x/ build/", "cp -r x/. build", "mv x/src/app.py ."):
        allowed(hook, command, repo)


def test_archives_are_read_for_the_paths_they_extract(
    t1: Engine,  # noqa: F811
    hook: Hook,
    tmp_path: Path,
) -> None:
    import tarfile
    import zipfile

    repo = t1.config.repo
    rel = t1.config.task_file("t1").relative_to(repo).as_posix()
    made = _tree(tmp_path / "tree", rel)
    with tarfile.open(tmp_path / "bad.tar.gz", "w:gz") as t:
        t.add(made / rel, arcname=rel)
    with tarfile.open(tmp_path / "good.tar", "w") as t:
        t.add(made / "src", arcname="src")
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as z:
        z.write(made / rel, arcname=rel)
    with zipfile.ZipFile(tmp_path / "good.zip", "w") as z:
        z.write(made / "src" / "app.py", arcname="src/app.py")
    for command in (
        f"tar -xzf {tmp_path}/bad.tar.gz",
        f"tar xf {tmp_path}/bad.tar.gz",
        f"tar --extract --file={tmp_path}/bad.tar.gz",
        f"tar -C {repo} -xf {tmp_path}/bad.tar.gz",
        f"tar -x < {tmp_path}/bad.tar.gz",  # standard input: its paths are not known here
        f"unzip {tmp_path}/bad.zip",
        f"unzip -o {tmp_path}/bad.zip -d {repo}",
    ):
        assert "taskproto's own state" in denied(hook, command, repo), command
    allowed(hook, f"tar -xf {tmp_path}/good.tar", repo)
    allowed(hook, f"unzip {tmp_path}/good.zip", repo)
    allowed(hook, f"tar -x < {tmp_path}/bad.tar.gz", repo / "src")  # a folder without the root


def test_patch_reads_its_patch_file(t1: Engine, hook: Hook, tmp_path: Path) -> None:  # noqa: F811
    repo = t1.config.repo
    rel = t1.config.task_file("t1").relative_to(repo).as_posix()
    bad = _patch(tmp_path / "bad.patch", rel)
    fine = _patch(tmp_path / "fine.patch", "src/app.py")
    for command in (f"patch -p1 -i {bad}", f"patch -p1 < {bad}", f"patch -p1 --input={bad}"):
        assert "taskproto's own state" in denied(hook, command, repo), command
    allowed(hook, f"patch -p1 -i {fine}", repo)


def test_the_code_the_hooks_run_is_never_an_agents(t1: Engine, hook: Hook) -> None:  # noqa: F811
    """taskproto's package (the hooks run it) and start-up code in its interpreter's
    site-packages: editing either would turn the guard off for the next call."""
    import sysconfig

    import taskproto
    from tests.enforcement.test_tool_guard_escapes import write

    package = Path(taskproto.__file__).resolve().parent
    entry = package / "hooks" / "agents" / "entry.py"
    guard = package / "hooks" / "agents" / "tool_guard.py"
    pth = Path(sysconfig.get_paths()["purelib"]) / "zz-escape.pth"
    repo = t1.config.repo
    for session, cwd in ((NOBODY, repo), (SESSION, dev(t1))):
        for command in (
            f"echo 'import os' >> {entry}",
            f"sed -i 's/return 2/return 0/' {guard}",
            f"echo 'import escape' > {pth}",
            f"cp /dev/null {guard}",
        ):
            assert "taskproto's own code" in denied(hook, command, cwd, session), command
        code, err = write(hook, str(entry), str(cwd), session=session)
        assert code == 2 and "taskproto's own code" in err
    assert not pth.exists()


def test_the_files_of_gits_refs_are_never_an_agents(t1: Engine, hook: Hook) -> None:  # noqa: F811
    """The journal's ref moved by writing its file (to a commit the agent made with git's
    plumbing) would vouch for a forged task.json, and a branch or HEAD moved so would bring a
    commit the guard did not see into the next `git reset --hard`: git's ref files are written
    by git's commands only, which the guard reads."""
    from tests.enforcement.test_tool_guard_escapes import write

    common = Path(git(t1.config.repo, "rev-parse", "--git-common-dir"))
    common = common if common.is_absolute() else t1.config.repo / common
    journal = common / "refs" / "taskproto" / "tasks" / "t1"
    assert journal.is_file()
    for target in (
        journal,
        common / "packed-refs",
        common / "logs" / "refs" / "taskproto" / "x",
        common / "refs" / "heads" / "main",
        common / "HEAD",
    ):
        for session, cwd in ((NOBODY, t1.config.repo), (SESSION, dev(t1))):
            command = f"echo 0000000000000000000000000000000000000000 > {target}"
            assert "one of git's refs" in denied(hook, command, cwd, session), target
            code, err = write(hook, str(target), str(cwd), session=session)
            assert code == 2 and "one of git's refs" in err
    allowed(hook, f"echo x > {common}/info/notes.txt", t1.config.repo)


def _evil_branch(repo: Path, rel: str) -> tuple[str, str]:
    """Branch `evil`: HEAD plus a file at `rel` (in taskproto's root), made with git's plumbing
    and an index of its own, as an agent could. Returns (the file's blob, the commit)."""
    import os

    env = {**os.environ, "GIT_INDEX_FILE": str(repo / ".git" / "evil-index")}

    def plumb(*args: str, stdin: str | None = None) -> str:
        return git(repo, *args, env=env, input=stdin)

    blob = plumb("hash-object", "-w", "--stdin", stdin="{}")
    plumb("update-index", "--add", "--cacheinfo", f"100644,{blob},{rel}")
    commit = plumb("commit-tree", plumb("write-tree"), "-p", "HEAD", "-m", "evil")
    plumb("update-ref", "refs/heads/evil", commit)
    return blob, commit


def test_a_commit_that_tracks_the_root_is_never_checked_out(t1: Engine, hook: Hook) -> None:  # noqa: F811
    """git overwrites ignored files with tracked ones: a branch whose commit tracks a file in
    taskproto's root, made with git's plumbing (which the guard cannot read: `git mktree` takes
    its tree on standard input), would write it over taskproto's state when checked out. The
    attack is real (shown first, on a copy), and every command that would do it is denied."""
    repo = t1.config.repo
    rel = t1.config.status_file("t1", "dev").relative_to(repo).as_posix()
    blob, commit = _evil_branch(repo, rel)
    for command in (
        "git checkout evil",
        "git checkout -f evil",
        "git switch evil",
        "git reset --hard evil",
        "git merge evil",
        "git cherry-pick evil",
        "git read-tree -u -m evil",
        "git restore --source=evil .",
        "git checkout evil -- .",
        # the guard judges the whole line before any of it runs: a branch moved to the commit
        f"git update-ref refs/heads/main {commit} && git reset --hard",
        "git reset --soft evil && git reset --hard",
        "git branch -f main evil",
        "git symbolic-ref HEAD refs/heads/evil",
        "git push . evil:main",
        "git fetch . +evil:refs/heads/other",
    ):
        err = denied(hook, command, repo)
        assert "tracks files in taskproto's root" in err or "taskproto's own state" in err, (
            command,
            err,
        )
    # the ordinary commands next to them pass
    git(repo, "branch", "fine")
    for command in ("git checkout fine", "git reset --hard", "git merge fine", "git switch -c new"):
        allowed(hook, command, repo)
    # staging a file in the root, the other way to such a commit, is denied too
    for command in (
        f"git add -f {rel}",
        "git add -f .",
        f"git update-index --add --cacheinfo 100644,{blob},{rel}",
    ):
        assert "taskproto's own state" in denied(hook, command, repo), command
    # and the attack, run as is on a clone: checking the branch out writes the file
    status = t1.config.status_file("t1", "dev")
    before = status.read_bytes()
    git(repo, "checkout", "-q", "evil")
    assert status.read_bytes() == b"{}" != before


# --- the same rules through another shell, a link, another folder, another client ----------------


def _client(hook: Hook, client: str, command: str, cwd: Path) -> tuple[int, str]:
    from tests.hooks.agents.conftest import payload

    event, variant = {
        "codex": ("PreToolUse", None),
        "gemini": ("BeforeTool", "run_shell_command"),
    }[client]
    data = payload(
        client,
        event,
        variant=variant,
        session_id=NOBODY,
        cwd=str(cwd),
        tool_input={"command": command},
    )
    code, _, err = hook(client, event, data)
    return code, err


def test_the_rules_hold_through_other_doors(t1: Engine, hook: Hook, tmp_path: Path) -> None:  # noqa: F811
    import taskproto

    repo = t1.config.repo
    link = tmp_path / "checkout-link"
    link.symlink_to(repo)
    rel = t1.config.task_file("t1").relative_to(repo).as_posix()
    bad = _patch(tmp_path / "bad.patch", rel)
    entry = Path(taskproto.__file__).resolve().parent / "hooks" / "agents" / "entry.py"
    (tmp_path / "code-link").symlink_to(entry)
    attempts = [
        ("bash -c 'git clean -fdX'", repo),  # another shell
        ('sh -c "cd .. && git -C repo stash -a"', repo),
        (f"git -C {link} clean -fdx", tmp_path),  # through a link, from another folder
        (f"cd {link} && git apply {bad}", tmp_path),
        ("git clean -fdX", link),  # the session's cwd is the link
        (f"echo x > {tmp_path}/code-link", tmp_path),  # a link to taskproto's code
        ("env GIT_DIR=.git git clean -fdX", repo),  # a wrapper, and a git dir set aside
    ]
    for command, cwd in attempts:
        code, err = bash(hook, command, str(cwd), session=NOBODY)
        assert code == 2, (command, err)
        for client in ("codex", "gemini"):
            code, err = _client(hook, client, command, cwd)
            assert code == 2, (client, command, err)


def test_the_tracked_root_check_holds_from_another_folder_and_shell(t1: Engine, hook: Hook) -> None:  # noqa: F811
    repo = t1.config.repo
    rel = t1.config.status_file("t1", "dev").relative_to(repo).as_posix()
    _evil_branch(repo, rel)
    for command, cwd in (
        (f"cd / && git -C {repo} checkout evil", repo.parent),
        ("bash -c 'git switch evil'", repo),
        (f"git -C {repo}/src/.. reset --hard evil", repo.parent),
    ):
        (repo / "src").mkdir(exist_ok=True)
        err = denied(hook, command, cwd)
        assert "tracks files in taskproto's root" in err, (command, err)
        for client in ("codex", "gemini"):
            assert _client(hook, client, command, cwd)[0] == 2, (client, command)


def test_a_forged_state_table_cache_opens_no_edit_at_the_hook_door(t1: Engine, hook: Hook) -> None:  # noqa: F811
    """The tool guard reads a built-in workflow's table from the package: a cache in the
    repository that says REVIEW allows edits (as a git command could have written it) is not
    read, and an edit in REVIEW stays refused."""
    import json

    from taskproto.hooks.flags import builtin_table, fingerprint
    from tests.enforcement.test_tool_guard_escapes import write
    from tests.hooks.agents.conftest import move_to

    move_to(t1, "t1", "REVIEW")
    table = builtin_table("task-protocol")
    assert table is not None and not table["REVIEW"]["allows_edits"]
    table["REVIEW"]["allows_edits"] = table["REVIEW"]["allows_commits"] = True
    cache = t1.config.root / "cache" / "hook-flags.json"
    cache.parent.mkdir(exist_ok=True)
    forged = {"fingerprint": fingerprint(t1.config.layout, "task-protocol"), "states": table}
    cache.write_text(json.dumps({"task-protocol": forged}))
    code, err = write(hook, str(dev(t1) / "app.py"), str(dev(t1)))
    assert code == 2 and "does not allow edits" in err
