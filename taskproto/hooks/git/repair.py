"""doctor's fix for git hooks that no longer run: reinstall them where git runs them now.

It lives with the installer (doctor sits below the hooks layer); `taskproto doctor` and
`taskproto recover` import this module, which registers the fix.
"""

from __future__ import annotations

from taskproto.doctor.fixes import FixContext, fix
from taskproto.doctor.model import Finding
from taskproto.git.command import Git
from taskproto.hooks.git import install


@fix("git-hooks-missing", "git-hooks-interpreter-missing", "git-hooks-outdated")
def reinstall(ctx: FixContext, f: Finding) -> str:
    config = ctx.engine.config
    report = install.install(Git(config.repo), trailers=config.commit_trailers)
    install.record(config.root, report, installed=True)
    done = report.installed + report.updated
    chained = f"; kept and chained {', '.join(report.chained)}" if report.chained else ""
    out = f"; took out {', '.join(report.removed)}" if report.removed else ""
    back = (
        f" (put back {', '.join(report.restored)}, which it had chained)" if report.restored else ""
    )
    return (
        f"reinstalled {', '.join(done) or 'nothing (already in place)'} in {report.hooks_dir}"
        f"{chained}{out}{back}"
    )
