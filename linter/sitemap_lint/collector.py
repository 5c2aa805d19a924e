"""The garbage collector as a check wants it.

A check allocates hundreds of thousands of small objects that never form cycles
(entries are freed as soon as they are checked), and start-up loads hundreds of
thousands that stay: collecting every 700 allocations is wasted work. The command,
its worker processes and its tasks on a cluster collect far less often.
"""

from __future__ import annotations

import gc

THRESHOLDS = (100_000, 50, 100)


def tune() -> None:
    gc.set_threshold(*THRESHOLDS)
