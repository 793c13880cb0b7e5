from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from doctor_helpers import env  # noqa: F401  (the fixture)
