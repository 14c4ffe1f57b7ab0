"""The benchmark report: side-by-side tables, ratios against the issue's targets, and the
cross-check of every answer against raw sqlite3's (a mismatch is a bug, shown, never hidden).
"""

from __future__ import annotations

import platform
from typing import Any

from bench.measure import OPS, TARGETS
from bench.workload import SIZES


def fmt_ms(ms: float | None) -> str:
    if ms is None:
        return "–"
    if ms < 1:
        return f"{ms * 1000:.0f} µs"
    if ms < 1000:
        return f"{ms:.2f} ms"
    return f"{ms / 1000:.2f} s"


def fmt_ratio(x: float | None) -> str:
    return "–" if x is None else (f"{x:.1f}×" if x < 100 else f"{x:.0f}×")


def fmt_mib(kib: int | None) -> str:
    return "–" if kib is None else f"{kib / 1024:.0f} MiB"


def _median(rep: dict[str, Any] | None, op: str, clock: str = "wall") -> float | None:
    if not rep or "ops" not in rep or clock not in rep["ops"].get(op, {}):
        return None
    return rep["ops"][op][clock]["median_ms"]


def _p95(rep: dict[str, Any] | None, op: str) -> float | None:
    if not rep or "ops" not in rep or "wall" not in rep["ops"].get(op, {}):
        return None
    return rep["ops"][op]["wall"]["p95_ms"]


def _ratio(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None or b == 0 else a / b


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return {str(k): int(v) for k, v in a.items()} == {str(k): int(v) for k, v in b.items()}
    return a == b


def cross_check(reports: dict[str, Any]) -> list[str]:
    """One line per (system, op): answers equal to raw sqlite3's for every probe, or the
    first mismatches."""
    raw = reports.get("raw")
    lines: list[str] = []
    if not raw or "ops" not in raw:
        return ["raw sqlite3 did not run: nothing to cross-check against"]
    for system, rep in reports.items():
        if system == "raw" or "ops" not in rep:
            continue
        for op, *_ in OPS:
            if "error" in rep["ops"].get(op, {}):
                lines.append(f"- **{system} {op}: FAILED** — {rep['ops'][op]['error']}")
                continue
            want, got = raw["ops"][op]["answers"], rep["ops"][op]["answers"]
            bad = [(i, w, g) for i, (w, g) in enumerate(zip(want, got, strict=False)) if not _same(w, g)]
            if len(want) != len(got):
                lines.append(f"- **{system} {op}: MISMATCH** — {len(got)} answers for {len(want)} probes")
            elif bad:
                shown = "; ".join(f"probe #{i}: raw {w!r} vs {g!r}" for i, w, g in bad[:3])
                lines.append(f"- **{system} {op}: MISMATCH** on {len(bad)} of {len(want)} probes — {shown}")
            else:
                lines.append(f"- {system} {op}: all {len(want)} answers equal raw sqlite3's")
    return lines


def postgres_table(sqlite: dict[str, Any] | None, pg: dict[str, Any] | None) -> list[str]:
    """hugelite on PostgreSQL beside hugelite on SQLite (`--backend postgresql`): medians per
    op and their ratio, and the load. The client-side CPU column leaves out the PostgreSQL
    server's own CPU (another process), so wall clock is the comparison that counts."""
    if not pg:
        return []
    out = ["## hugelite on PostgreSQL ÷ hugelite on SQLite", "",
           "| op | SQLite median | PostgreSQL median | p95 | PostgreSQL ÷ SQLite (wall) "
           "| hugelite process CPU: SQLite | PostgreSQL |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for op, label, *_ in OPS:
        a, b = _median(sqlite, op), _median(pg, op)
        out.append(f"| {label} | {fmt_ms(a)} | {fmt_ms(b)} | {fmt_ms(_p95(pg, op))} | {fmt_ratio(_ratio(b, a))} "
                   f"| {fmt_ms(_median(sqlite, op, 'cpu'))} | {fmt_ms(_median(pg, op, 'cpu'))} |")
    if sqlite and "load_s" in sqlite and "load_s" in pg:
        out.append(f"| load (whole workload) | {sqlite['load_s']:.1f} s | {pg['load_s']:.1f} s | – "
                   f"| {fmt_ratio(_ratio(pg['load_s'], sqlite['load_s']))} | {sqlite['load_cpu_s']:.1f} s "
                   f"| {pg['load_cpu_s']:.1f} s |")
    out += ["", "PostgreSQL ran on this machine (a throw-away cluster on loopback, `fsync=off`), so its "
            "server processes share the two cores with hugelite; the CPU columns are hugelite's process only.", ""]
    return out


def render_report(size: str, repeat: int, probes: int, reports: dict[str, Any]) -> str:
    nv, ne = SIZES[size]
    raw, hl, gl = reports.get("raw"), reports.get("hugelite"), reports.get("gremlite")
    out = [
        f"# hugelite benchmark — {size} ({nv:,} vertices / {ne:,} edges)",
        "",
        f"Python {platform.python_version()}, SQLite via the stdlib `sqlite3`; {probes} probe vertices, "
        f"{repeat} passes per op (groupCount: {max(3, repeat)} calls). Systems ran one after another, "
        "each in its own process. Times are per call (wall clock); `×` columns are ratios of medians.",
        "",
        "| op | raw sqlite3 median | p95 | hugelite median | p95 | gremlite median | p95 "
        "| hugelite / raw (≤ 3×) | gremlite / hugelite (≥ 10×) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    met_raw = met_gl = 0
    for op, label, *_ in OPS:
        r, h, g = _median(raw, op), _median(hl, op), _median(gl, op)
        vs_raw, vs_gl = _ratio(h, r), _ratio(g, h)
        met_raw += vs_raw is not None and vs_raw <= TARGETS["vs_raw_max"]
        met_gl += vs_gl is not None and vs_gl >= TARGETS["vs_gremlite_min"]
        note = " (emulated)" if gl and op in gl.get("emulated", {}) else ""
        out.append(
            f"| {label} | {fmt_ms(r)} | {fmt_ms(_p95(raw, op))} | {fmt_ms(h)} | {fmt_ms(_p95(hl, op))} "
            f"| {fmt_ms(g)}{note} | {fmt_ms(_p95(gl, op))} | {fmt_ratio(vs_raw)} | {fmt_ratio(vs_gl)} |"
        )
    out += ["", f"Targets met: hugelite ≤ 3× raw on {met_raw} of {len(OPS)} ops; "
            f"≥ 10× faster than gremlite on {met_gl} of {len(OPS)} ops.", ""]

    out += postgres_table(hl, reports.get("hugelite-pg"))
    out += ["## CPU time (this process only; insensitive to other load on the machine)", "",
            "| op | raw sqlite3 | hugelite | gremlite | hugelite / raw | gremlite / hugelite |",
            "|---|---:|---:|---:|---:|---:|"]
    for op, label, *_ in OPS:
        r, h, g = _median(raw, op, "cpu"), _median(hl, op, "cpu"), _median(gl, op, "cpu")
        out.append(f"| {label} | {fmt_ms(r)} | {fmt_ms(h)} | {fmt_ms(g)} | {fmt_ratio(_ratio(h, r))} "
                   f"| {fmt_ratio(_ratio(g, h))} |")

    out += ["", "## Load and memory", "",
            "| system | load | store size | RSS after imports + open | peak RSS while loading "
            "| loading peak / raw's | peak RSS while querying | querying peak / raw's (≤ 2×) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|"]
    raw_q = raw.get("query_peak_kib") if raw else None
    raw_l = raw.get("load_peak_kib") if raw else None
    for system, rep in reports.items():
        name = rep.get("name", system)
        if "load_error" in rep or "error" in rep:
            why = rep.get("load_error") or f"failed: {rep['error']}"
            out.append(f"| {name} | {why} | – | {fmt_mib(rep.get('rss_open_kib'))} "
                       f"| {fmt_mib(rep.get('load_peak_kib'))} | – | – | – |")
            continue
        out.append(
            f"| {name} | {rep['load_s']:.1f} s | {rep['store_bytes'] / 2**20:.0f} MiB "
            f"| {fmt_mib(rep.get('rss_open_kib'))} | {fmt_mib(rep['load_peak_kib'])} "
            f"| {fmt_ratio(_ratio(rep['load_peak_kib'], raw_l))} | {fmt_mib(rep['query_peak_kib'])} "
            f"| {fmt_ratio(_ratio(rep['query_peak_kib'], raw_q))} |"
        )
    out += ["", "RSS after imports + open: the interpreter with the system's modules loaded and an empty "
            "store open. The loading peak includes the workload rows (the same lists for every system). "
            "The querying peak is measured in a separate process that opens the loaded store, as a "
            "server does after a restart, so nothing the load left behind counts.", ""]

    out += ["## Answers cross-checked against raw sqlite3", "", *cross_check(reports), ""]
    for system, rep in reports.items():
        for op, how in rep.get("emulated", {}).items():
            out.append(f"- {system} `{op}` is emulated: {how}.")
    for system, rep in reports.items():
        if "reused_from" in rep:
            out.append(f"- {system}'s figures are reused from an earlier run ({rep['reused_from']}, "
                       f"measured {rep.get('measured_at', 'at an unrecorded time')}).")
    out += ["", "## Noise", ""]
    for system, rep in reports.items():
        if "loadavg_start" in rep:
            la0 = ", ".join(f"{x:.2f}" for x in rep["loadavg_start"])
            la1 = ", ".join(f"{x:.2f}" for x in rep.get("loadavg_end", ())) or "–"
            out.append(f"- {system}: load average {la0} at start, {la1} at end")
    out.append("- The machine has 2 cores shared with other work; wall-clock figures carry that noise, "
               "the CPU table does not.")
    return "\n".join(out) + "\n"
