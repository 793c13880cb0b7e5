"""A clone whose `.taskproto.toml` names a shared remote this clone does not have (a fresh `git
clone` has only `origin`): every command that talks to it says which remote is missing and how to
add it, not git's "'shared' does not appear to be a git repository". Found walking docs/remote.md
with a second clone as a new user."""

from __future__ import annotations

from pathlib import Path


def test_a_remote_name_the_clone_lacks_is_named_with_the_command_that_adds_it(
    repo: Path, cli
) -> None:
    (repo / ".taskproto.toml").write_text('remote = "shared"\n')
    for args in (("sync",), ("task", "create", "t1")):
        r = cli(*args)
        assert r.code == 1, r.out
        assert r.err.count("\n") == 1, r.err
        assert "this clone has no git remote named 'shared'" in r.err
        assert "`git remote add shared URL`" in r.err
        assert "does not appear to be a git repository" not in r.err
