"""SessionStart's offer renewed after the engine changed a task, whichever door the change came
through (the CLI, the MCP server, the Python API): hook.sh then answers the next start from it
without Python (hooks/agents/offer.py `refresh`: nothing to do when there is no offer, or it is
current)."""

from __future__ import annotations

import atexit
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from taskproto.layout import Layout

# seconds: a process that keeps changing tasks (a script on the Python API) renews the offer at most
# this often, and once more when it exits
OFFER_EVERY = 0.5


class OfferRenewal:
    """One engine's renewals. `every` (seconds; None: never, as for a process whose changes must
    reach hook.sh's own checks) spaces them out; `due` says a task changed since the last one."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.every: float | None = OFFER_EVERY
        self.due = False
        self._at: float | None = None  # time.monotonic() of the last renewal
        self._at_exit = False

    def renew(self, now: bool = False) -> None:
        """Renew it if a task changed, unless the last renewal was less than `every` seconds ago
        (`now`: regardless); then it is renewed at exit. Never fails."""
        if not self.due or self.every is None:
            return
        at = time.monotonic()
        if not now and self._at is not None and at - self._at < self.every:
            if not self._at_exit:
                self._at_exit = True
                atexit.register(self.renew, True)
            return
        self.due, self._at = False, at
        from taskproto.hooks.agents.offer import refresh

        refresh(self.layout)
