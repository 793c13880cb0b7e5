"""`taskproto doctor`: small named checks (detect) and safe repairs (fix); `recover`: the decision
tree.

See docs/doctor.md for every check id, what it means and what --fix does.
"""

from __future__ import annotations

from taskproto.doctor.model import CHECKS, CheckInfo, Finding, FixRecord, Severity
from taskproto.doctor.runner import Report, detect, run

__all__ = ["CHECKS", "CheckInfo", "Finding", "FixRecord", "Report", "Severity", "detect", "run"]
