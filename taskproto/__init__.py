"""taskproto: a durable, git-native task protocol for AI coding-agent workflows."""

from __future__ import annotations

__version__ = "0.1.0"
