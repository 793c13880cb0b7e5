from __future__ import annotations

from taskproto.cli import main

raise SystemExit(main())
