"""Request metrics: per-route counters, rates and latency histograms, recorded by the
app's telemetry middleware (`middleware.py`, one `record` call per HTTP request, so marking is a few
counter increments) and read by `/metrics`.

Shapes follow Dropwizard's JSON (what HugeGraph's `/metrics?type=json` shows): meters
carry `count`, `mean_rate` and exponentially weighted 1/5/15-minute rates; histograms and
timers carry a snapshot (`min`, `max`, `mean`, `stddev`, `p50` ... `p999`) over a sliding
window of the most recent samples. Metric names are `<METHOD> <route template>` (for
example `GET /graphs/{graph}/schema`), so the set of names stays bounded whatever ids
clients put in their URLs.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from dataclasses import dataclass
from typing import Any

WINDOW = 1028  # Dropwizard's default reservoir size
_TICK = 5.0  # seconds between EWMA updates, as Dropwizard


class _EWMA:
    def __init__(self, minutes: float) -> None:
        self.alpha = 1.0 - math.exp(-_TICK / 60.0 / minutes)
        self.rate = 0.0
        self.initialised = False

    def tick(self, uncounted: int) -> None:
        instant = uncounted / _TICK
        if self.initialised:
            self.rate += self.alpha * (instant - self.rate)
        else:
            self.rate, self.initialised = instant, True


class Meter:
    """Event count and rates (events per second). Marking is a counter increment; the
    EWMAs catch up (one tick per elapsed 5 s, as Dropwizard) only when a tick is due."""

    def __init__(self, now: float) -> None:
        self.count = 0
        self.uncounted = 0  # events since the last tick, the same for the three EWMAs
        self.start = now
        self.last_tick = now
        self.next_tick = now + _TICK
        self.ewmas = (_EWMA(1), _EWMA(5), _EWMA(15))

    def _catch_up(self, now: float) -> None:
        ticks = int((now - self.last_tick) / _TICK)
        if ticks <= 0:
            return
        self.last_tick += ticks * _TICK
        self.next_tick = self.last_tick + _TICK
        uncounted, self.uncounted = self.uncounted, 0
        for e in self.ewmas:
            e.tick(uncounted)
            for _ in range(min(ticks, 2000) - 1):
                e.tick(0)

    def mark(self, now: float) -> None:
        if now >= self.next_tick:
            self._catch_up(now)
        self.count += 1
        self.uncounted += 1

    def snapshot(self, now: float) -> dict[str, Any]:
        self._catch_up(now)
        elapsed = max(now - self.start, 1e-9)
        m1, m5, m15 = (e.rate for e in self.ewmas)
        return {
            "count": self.count,
            "mean_rate": self.count / elapsed,
            "m1_rate": m1,
            "m5_rate": m5,
            "m15_rate": m15,
            "units": "events/second",
        }

class Histogram:
    """Count, sum and extremes over all samples; quantiles over the last `WINDOW`."""

    def __init__(self) -> None:
        self.count = 0
        self.total = 0.0
        self.min = math.inf
        self.max = -math.inf
        self.window: deque[float] = deque(maxlen=WINDOW)

    def update(self, value: float) -> None:
        self.count += 1
        self.total += value
        if value < self.min:
            self.min = value
        if value > self.max:
            self.max = value
        self.window.append(value)

    def snapshot(self) -> dict[str, Any]:
        values = sorted(self.window)
        n = len(values)
        mean = self.total / self.count if self.count else 0.0
        if n:
            wmean = sum(values) / n
            stddev = math.sqrt(sum((v - wmean) ** 2 for v in values) / n)
        else:
            stddev = 0.0

        def q(p: float) -> float:
            if not n:
                return 0.0
            return values[min(n - 1, max(0, math.ceil(p * n) - 1))]

        return {
            "count": self.count,
            "min": self.min if self.count else 0.0,
            "max": self.max if self.count else 0.0,
            "mean": mean,
            "stddev": stddev,
            "p50": q(0.50),
            "p75": q(0.75),
            "p95": q(0.95),
            "p98": q(0.98),
            "p99": q(0.99),
            "p999": q(0.999),
        }


class RouteStats:
    def __init__(self, now: float) -> None:
        self.meter = Meter(now)
        self.latency = Histogram()
        self.success = 0
        self.failed = 0
        self.statuses: dict[int, int] = {}


@dataclass(frozen=True)
class RouteSnapshot:
    """One route's figures at one moment; latencies in milliseconds, as HugeGraph's JSON has them."""

    method: str
    template: str
    statuses: dict[int, int]
    success: int
    failed: int
    latency: dict[str, Any]
    latency_total_ms: float


class Telemetry:
    """All request metrics of one server process."""

    def __init__(self) -> None:
        self.started = time.time()
        self._lock = threading.Lock()
        self.routes: dict[tuple[str, str], RouteStats] = {}
        self.total = Meter(time.monotonic())
        self.errors = 0

    def record(self, method: str, template: str, status: int, elapsed_ms: float) -> None:
        """One request. `Meter.mark` and `Histogram.update` are inlined (once per request)."""
        now = time.monotonic()
        with self._lock:
            stats = self.routes.get((method, template))
            if stats is None:
                stats = self.routes[(method, template)] = RouteStats(now)
            meter = stats.meter
            if now >= meter.next_tick:
                meter._catch_up(now)
            meter.count += 1
            meter.uncounted += 1
            latency = stats.latency
            latency.count += 1
            latency.total += elapsed_ms
            if elapsed_ms < latency.min:
                latency.min = elapsed_ms
            if elapsed_ms > latency.max:
                latency.max = elapsed_ms
            latency.window.append(elapsed_ms)
            statuses = stats.statuses
            statuses[status] = statuses.get(status, 0) + 1
            if status >= 400:
                stats.failed += 1
                self.errors += 1
            else:
                stats.success += 1
            total = self.total
            if now >= total.next_tick:
                total._catch_up(now)
            total.count += 1
            total.uncounted += 1

    def _items(self) -> list[tuple[str, str, RouteStats]]:
        return sorted(((m, t, s) for (m, t), s in self.routes.items()), key=lambda x: (x[1], x[0]))

    def route_snapshot(self) -> list[RouteSnapshot]:
        """A consistent copy of every route's figures, for exporters that must not hold the lock."""
        with self._lock:
            return [
                RouteSnapshot(m, t, dict(s.statuses), s.success, s.failed, s.latency.snapshot(), s.latency.total)
                for m, t, s in self._items()
            ]

    def counters(self) -> dict[str, Any]:
        with self._lock:
            out: dict[str, Any] = {
                "hugelite.requests.total": {"count": self.total.count},
                "hugelite.requests.failed": {"count": self.errors},
            }
            for method, template, s in self._items():
                out[f"{method} {template}.success"] = {"count": s.success}
                out[f"{method} {template}.failed"] = {"count": s.failed}
                for status, n in sorted(s.statuses.items()):
                    out[f"{method} {template}.status.{status}"] = {"count": n}
            return out

    def meters(self) -> dict[str, Any]:
        now = time.monotonic()
        with self._lock:
            out = {"hugelite.requests": self.total.snapshot(now)}
            for method, template, s in self._items():
                out[f"{method} {template}"] = s.meter.snapshot(now)
            return out

    def histograms(self) -> dict[str, Any]:
        with self._lock:
            return {f"{m} {t}.latency_ms": s.latency.snapshot() for m, t, s in self._items()}

    def timers(self) -> dict[str, Any]:
        now = time.monotonic()
        with self._lock:
            out = {}
            for method, template, s in self._items():
                rates = s.meter.snapshot(now)
                snap = s.latency.snapshot()
                snap.update({k: rates[k] for k in ("mean_rate", "m1_rate", "m5_rate", "m15_rate")})
                snap["duration_units"] = "milliseconds"
                snap["rate_units"] = "calls/second"
                out[f"{method} {template}"] = snap
            return out

    def statistics(self) -> dict[str, Any]:
        """HugeGraph's per-API statistics (`/metrics/statistics`), keyed `<path>/<METHOD>`."""
        with self._lock:
            out = {}
            for method, template, s in self._items():
                snap = s.latency.snapshot()
                out[f"{template}/{method}"] = {
                    "TOTAL_REQUEST": s.success + s.failed,
                    "SUCCESS_REQUEST": s.success,
                    "FAILED_REQUEST": s.failed,
                    "MEAN_RESPONSE_TIME": snap["mean"],
                    "MAX_RESPONSE_TIME": snap["max"],
                    "P50_RESPONSE_TIME": snap["p50"],
                    "P95_RESPONSE_TIME": snap["p95"],
                    "P99_RESPONSE_TIME": snap["p99"],
                }
            return out
