"""Reports the peak memory of a test's subprocess (used by tests/test_hostile.py).

Put on PYTHONPATH together with SITEMAP_LINT_PEAK_FILE=path, this module writes
the process's VmHWM (peak resident set, in kB, Linux) to that path at exit.
Unlike ``ru_maxrss`` from ``wait4``, VmHWM belongs to the memory map made at
exec, so it does not include the resident size of the (forking) test process.
"""

from __future__ import annotations

import atexit
import os

_TARGET = os.environ.get("SITEMAP_LINT_PEAK_FILE")


def _report() -> None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    with open(_TARGET, "w", encoding="ascii") as out:
                        out.write(line.split()[1])
                    return
    except OSError:
        return


if _TARGET:
    atexit.register(_report)
