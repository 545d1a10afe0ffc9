"""Shared test configuration.

Long property runs (thousands of games) run only with CARDKIT_LONG=1; the default run
stays within a few minutes on two cores.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))

LONG = os.environ.get("CARDKIT_LONG") == "1"

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("long", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=2000)
settings.load_profile("long" if LONG else "default")
