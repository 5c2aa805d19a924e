"""A progress bar on stderr while a set of files is checked (only for a person at a terminal)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

# Runs of fewer files finish before a bar would help.
MIN_FILES = 4


class ProgressBar:
    """Called with (files done, files known so far); the bar disappears when the run ends."""

    def __init__(self, err: TextIO):
        self.err = err
        self._progress: Progress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._progress is None:
            if total < MIN_FILES:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            console = Console(file=self.err, stderr=True)
            self._progress = Progress(
                TextColumn("checking"),
                BarColumn(),
                MofNCompleteColumn(),
                console=console,
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("files", total=total)
        assert self._task is not None  # added with the bar
        self._progress.update(self._task, completed=done, total=total)

    def live(self, done: int, total: int, errors: int) -> None:
        """The live audit's bar: URLs answered of those requested, the rate, the time
        left and the errors so far."""
        if self._progress is None:
            if total < MIN_FILES:
                return
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TaskProgressColumn,
                TextColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(
                TextColumn("requesting"),
                BarColumn(),
                MofNCompleteColumn(),
                TaskProgressColumn(),
                TextColumn("{task.fields[rate]}"),
                TimeRemainingColumn(),
                TextColumn("{task.fields[errors]} errors"),
                console=Console(file=self.err, stderr=True),
                transient=True,
            )
            self._progress.start()
            self._task = self._progress.add_task("urls", total=total, rate="", errors=0)
        assert self._task is not None
        task = self._progress.tasks[0]
        speed = task.speed
        rate = f"{speed:,.0f}/s" if speed else ""
        self._progress.update(self._task, completed=done, total=total, rate=rate, errors=errors)

    def close(self) -> None:
        if self._progress is not None:
            self._progress.stop()
            self._progress = None
