"""What a hook needs before it reads more than files: site-packages, and the repository's config.

Installed hooks run Python with `-I -S` (no site-packages) so the common paths start fast; the
paths that load pydantic, filelock or the engine turn site-packages on first. Below the engine
(tests/test_architecture.py): the state-table cache (flags.py) uses it, and the engine renews
SessionStart's offer through that cache.
"""

from __future__ import annotations

import sys
from pathlib import Path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.config import Config
    from taskproto.layout import Layout

HOOK_LOCK_TIMEOUT = (
    5.0  # a hook never waits long: a session may hold the lock around the git command itself
)


def enable_site_packages() -> None:
    if sys.flags.no_site and "site" not in sys.modules:
        import site

        site.main()


def config_for(layout: Layout) -> Config:
    """The repository's config as the hook found it, with a short lock timeout."""
    enable_site_packages()
    from taskproto.config import load_config

    config = load_config(Path(layout.main), root=layout.root_given)
    return config.replace(lock_timeout=min(config.lock_timeout, HOOK_LOCK_TIMEOUT))
