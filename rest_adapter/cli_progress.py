"""What a person watching a load sees: a progress bar per input, or plain periodic lines.

On a terminal each input gets a `rich` progress bar (bytes of the file read, so compressed
files show a true fraction and an ETA; records read; elements written; the write rate).
When stdout is not a terminal (a log file, CI, a pipe) a bar would be noise: one plain line
is printed every `every_s` seconds and when an input ends.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskID,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class BarObserver:
    """A `LoadObserver` drawing `rich` bars, one per input."""

    def __init__(self, console: Console | None = None) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[records]:>9,} records {task.fields[elements]:>9,} written "
                       "{task.fields[rate]:>8,.0f}/s"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
        )
        self.task: TaskID | None = None
        self._started = 0.0
        self._last = 0

    def __enter__(self) -> BarObserver:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def start_input(self, title: str, total_bytes: int) -> None:
        self.task = self.progress.add_task(title, total=max(total_bytes, 1), records=0, elements=0, rate=0.0)
        self._started = time.perf_counter()

    def advance(self, records: int, elements: int, consumed_bytes: int) -> None:
        if self.task is None:
            return
        took = time.perf_counter() - self._started
        rate = elements / took if took > 0 else 0.0
        self.progress.update(self.task, completed=consumed_bytes, records=records, elements=elements, rate=rate)

    def end_input(self) -> None:
        if self.task is not None:
            self.progress.stop_task(self.task)
        self.task = None


class LineObserver:
    """A `LoadObserver` printing one line every `every_s` seconds and at each input's end."""

    def __init__(self, out: TextIO | None = None, every_s: float = 5.0) -> None:
        self.out = out or sys.stdout
        self.every_s = every_s
        self.title = ""
        self.total = 1
        self._started = 0.0
        self._printed = 0.0
        self._state = (0, 0, 0)

    def __enter__(self) -> LineObserver:
        return self

    def __exit__(self, *exc: object) -> None:
        pass

    def start_input(self, title: str, total_bytes: int) -> None:
        self.title, self.total = title, max(total_bytes, 1)
        self._started = self._printed = time.perf_counter()

    def advance(self, records: int, elements: int, consumed_bytes: int) -> None:
        self._state = (records, elements, consumed_bytes)
        now = time.perf_counter()
        if now - self._printed >= self.every_s:
            self._printed = now
            self._line(now)

    def _line(self, now: float) -> None:
        records, elements, consumed = self._state
        took = now - self._started
        rate = elements / took if took > 0 else 0.0
        frac = min(consumed / self.total, 1.0)
        eta = (took / frac - took) if 0 < frac < 1 else 0.0
        print(f"{self.title}: {frac:6.1%} {records:,} records read, {elements:,} elements written, "
              f"{rate:,.0f}/s, {took:.1f} s, ETA {eta:.0f} s", file=self.out, flush=True)

    def end_input(self) -> None:
        self._line(time.perf_counter())


def observer_for(show: bool, out: TextIO | None = None) -> BarObserver | LineObserver:
    """Bars on a terminal, lines otherwise; `show=False` prints lines only every minute."""
    stream = out or sys.stdout
    if show and stream.isatty():
        return BarObserver(Console(file=stream))
    return LineObserver(stream, every_s=5.0 if show else 60.0)
