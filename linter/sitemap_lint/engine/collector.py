"""The garbage collector as a check wants it.

A check allocates hundreds of thousands of small objects that never form cycles
(entries are freed as soon as they are checked), and start-up loads hundreds of
thousands that stay: collecting every 700 allocations is wasted work. The command,
its worker processes and its tasks on a cluster collect far less often: once 300,000
more container objects live than at the last collection. A file with a defect in each
of its 50,000 entries keeps about four such objects per finding (measured: two
collections of 20 ms each at 100,000; the check without the fast path, of a file of
50,000 entries with images and alternates, collected 34 objects in all and peaked at
the same memory at either threshold).
"""

from __future__ import annotations

import gc

THRESHOLDS = (300_000, 50, 100)


def tune() -> None:
    gc.set_threshold(*THRESHOLDS)
