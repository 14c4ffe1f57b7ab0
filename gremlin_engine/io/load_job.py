"""One load of a mapping into a `GraphSink`: read, map, write in batches, report.

The order is hugegraph-loader's: every struct's vertices first, then every struct's edges
(an input that maps both is read twice), so an edge's end vertices are written before it.
Items are buffered per mapping kind and update strategies and written `batch_size` at a time
(one traversal, one transaction each). A batch the graph refuses is split in halves until
the refused items are found: those go to the insert-error file with the graph's message,
the rest are written. A record that cannot be read or mapped goes to the parse-error file.

The graph is put in LOADING mode for the load and given its previous mode back afterwards,
whatever happens (`run_load`'s `finally`); in process, even when the loader is killed: the
hold is recorded in the store and the next open of the graph gives the mode back
(`Graph.hold_mode`). What a watcher sees comes through a
`LoadObserver`: the CLI draws it as progress bars (`rest_adapter/cli_progress.py`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from gremlin_engine.errors import HugeliteError, IllegalArgument
from gremlin_engine.io.csv_input import InputFile, Record
from gremlin_engine.io.load_progress import ProgressFile, RejectFile
from gremlin_engine.io.mapping import LoadMapping, MappingError, Struct
from gremlin_engine.io.row_elements import ElementBuilder, RowError, SchemaFacts
from gremlin_engine.io.sink import GraphSink

#: elements per write in process: large transactions (the REST mode sends 500, the server's
#: batch limit)
DEFAULT_BATCH = 5000


class LoadAborted(IllegalArgument):
    """The load stopped: too many rejected records, or a mapping that does not fit the graph."""


@dataclass
class LoadOptions:
    batch_size: int = DEFAULT_BATCH
    max_parse_errors: int = 1
    max_insert_errors: int = 500
    incremental: bool = False
    clear_all_data: bool = False
    progress_path: Path | None = None
    schema_script: str | None = None
    #: stop after this many records per input file (the loader's --max-read-lines; tests)
    max_records: int | None = None


@dataclass
class LoadSummary:
    read: int = 0
    parsed: int = 0
    skipped: int = 0
    parse_failed: int = 0
    inserted: dict[str, int] = field(default_factory=lambda: {"vertex": 0, "edge": 0})
    insert_failed: dict[str, int] = field(default_factory=lambda: {"vertex": 0, "edge": 0})
    seconds: float = 0.0
    reject_files: list[Path] = field(default_factory=list)

    @property
    def elements(self) -> int:
        return self.inserted["vertex"] + self.inserted["edge"]

    def lines(self) -> list[str]:
        rate = self.elements / self.seconds if self.seconds > 0 else 0.0
        out = [
            f"records read {self.read}, parsed {self.parsed}, skipped {self.skipped} (already loaded), "
            f"failed to parse {self.parse_failed}",
            f"vertices inserted {self.inserted['vertex']}, failed {self.insert_failed['vertex']}; "
            f"edges inserted {self.inserted['edge']}, failed {self.insert_failed['edge']}",
            f"time {self.seconds:.2f} s, {rate:,.0f} elements/s",
        ]
        out += [f"rejected records: {p}" for p in self.reject_files]
        return out


class LoadObserver(Protocol):
    def start_input(self, title: str, total_bytes: int) -> None: ...

    def advance(self, records: int, elements: int, consumed_bytes: int) -> None: ...

    def end_input(self) -> None: ...


class QuietObserver:
    def start_input(self, title: str, total_bytes: int) -> None:
        pass

    def advance(self, records: int, elements: int, consumed_bytes: int) -> None:
        pass

    def end_input(self) -> None:
        pass


def run_load(sink: GraphSink, mapping: LoadMapping, options: LoadOptions,
             observer: LoadObserver | None = None) -> LoadSummary:
    """Loads `mapping` into `sink`; the graph is in LOADING mode meanwhile."""
    started = time.perf_counter()
    if options.clear_all_data:
        sink.clear()
    if options.schema_script:
        sink.run_schema(options.schema_script)
    sink.hold_mode("LOADING", "load")
    job = None
    try:
        job = _Job(sink, options, observer or QuietObserver())
        for phase in ("vertex", "edge"):
            for struct in mapping.structs:
                if struct.vertices if phase == "vertex" else struct.edges:
                    job.struct(phase, struct)
    finally:
        if job is not None:
            job.close()
        sink.release_mode()
    job.summary.seconds = time.perf_counter() - started
    return job.summary


@dataclass
class _Pending:
    items: list[dict[str, Any]] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)


class _Job:
    def __init__(self, sink: GraphSink, options: LoadOptions, observer: LoadObserver) -> None:
        self.sink = sink
        self.options = options
        self.observer = observer
        self.summary = LoadSummary()
        self.facts = SchemaFacts(sink.schema_json(), auto=sink.auto)
        self.rejects: dict[Path, RejectFile] = {}
        # in process the progress also commits with the data (a note in the store): exact resume
        self.together = getattr(sink, "write_together", None)
        notes = getattr(sink, "read_note", None)
        self.progress = (ProgressFile(options.progress_path, options.incremental, notes)
                         if options.progress_path else None)

    def struct(self, phase: str, struct: Struct) -> None:
        mappings = struct.vertices if phase == "vertex" else struct.edges
        builders = [ElementBuilder(m, self.facts, struct.input, f"struct '{struct.id}'") for m in mappings]
        for path in struct.input.files():
            self.file(phase, struct, path, builders)

    def file(self, phase: str, struct: Struct, path: Path, builders: list[ElementBuilder]) -> None:
        key = ProgressFile.key(phase, struct.id, path)
        progress = self.progress
        if progress is not None and progress.finished(key, path):
            return
        done = progress.records_done(key, path) if progress is not None else 0
        parse_errors = self._rejects(path.with_name(path.name + ".parse-error"))
        insert_errors = self._rejects(path.with_name(path.name + ".insert-error"))
        pending: dict[Any, _Pending] = {}
        buffered = 0
        last = done
        title = f"{'vertices' if phase == 'vertex' else 'edges'} from {path.name}"
        base_records, base_elements = self.summary.read, self.summary.elements

        def advance(consumed: int) -> None:
            self.observer.advance(self.summary.read - base_records, self.summary.elements - base_elements, consumed)

        with InputFile(struct.input, path) as f:
            self.observer.start_input(title, f.size)
            try:
                records = f.records()
                if self.options.max_records is not None:
                    records = _limited(records, self.options.max_records)
                for rec in records:
                    self.summary.read += 1
                    last = rec.ordinal
                    if rec.ordinal <= done:
                        self.summary.skipped += 1
                        continue
                    items = self._map(rec, builders, parse_errors)
                    for b, item in items:
                        p = pending.get(b.group) or pending.setdefault(b.group, _Pending())
                        p.items.append(item)
                        p.records.append(rec)
                        buffered += 1
                    if buffered >= self.options.batch_size:
                        self._flush(pending, insert_errors, self._note(key, path, last))
                        buffered = 0
                        if progress is not None:
                            progress.save(key, path, last)
                        advance(f.consumed())
                    elif rec.ordinal % 1000 == 0:
                        advance(f.consumed())
                finished = self.options.max_records is None
                self._flush(pending, insert_errors, self._note(key, path, last, finished))
                if progress is not None:
                    progress.save(key, path, last, finished=finished)
                advance(f.size)
            finally:
                self.observer.end_input()

    def _note(self, key: str, path: Path, records: int, finished: bool = False) -> tuple[str, str] | None:
        return self.progress.note(key, path, records, finished) if self.progress is not None else None

    def _rejects(self, path: Path) -> RejectFile:
        """One reject file per path for the whole run (an input read for vertices and then
        for edges keeps both phases' rejects); appended to when resuming."""
        found = self.rejects.get(path)
        if found is None:
            found = self.rejects[path] = RejectFile(path, append=self.options.incremental)
        return found

    def close(self) -> None:
        for r in self.rejects.values():
            r.close()
            if r.count:
                self.summary.reject_files.append(r.path)

    def _map(self, rec: Record, builders: list[ElementBuilder], rejects: RejectFile) -> list[tuple[Any, Any]]:
        if rec.fields is None:
            kind = builders[0].mapping.kind if builders else "record"
            self._parse_failed(rejects, rec, f"{kind} mappings: {rec.error or 'unreadable'}")
            return []
        out = []
        for b in builders:
            try:
                out.append((b, b.item(rec.fields, rec.columns)))
            except RowError as e:
                self._parse_failed(rejects, rec, f"{b.mapping.kind} '{b.mapping.label}': {e}")
                return []
            except MappingError as e:
                raise LoadAborted(f"{rejects.path.name[:-len('.parse-error')]}: {e}") from None
        self.summary.parsed += 1
        return out

    def _parse_failed(self, rejects: RejectFile, rec: Record, reason: str) -> None:
        rejects.add(f"line {rec.line}", reason, rec.raw)
        self.summary.parse_failed += 1
        if self.summary.parse_failed > self.options.max_parse_errors >= 0:
            raise LoadAborted(
                f"more than {self.options.max_parse_errors} records failed to parse (--max-parse-errors); "
                f"the last, line {rec.line} of {rejects.path.name[:-len('.parse-error')]}: {reason}; "
                f"see {rejects.path}")

    def _flush(self, pending: dict[Any, _Pending], rejects: RejectFile, note: tuple[str, str] | None = None) -> None:
        """Writes what is pending; with a `note` (and a sink that can), every batch and the
        note in one transaction. A refusal rolls that back and writes batch by batch, halving
        to find the refused items, and the note after them (`load_progress` says why)."""
        batches = [(kind, dict(strategies) or None, p) for (kind, strategies), p in pending.items() if p.items]
        pending.clear()
        if note is not None and self.together is not None:
            try:
                self.together([(kind, p.items, strategies) for kind, strategies, p in batches], note)
            except HugeliteError:
                pass
            else:
                for kind, _, p in batches:
                    self.summary.inserted[kind] += len(p.items)
                return
        for kind, strategies, p in batches:
            self._write(kind, strategies, p.items, p.records, rejects)
        if note is not None and self.together is not None:
            self.together([], note)

    def _write(self, kind: str, strategies: dict[str, str] | None, items: list[dict[str, Any]],
               records: list[Record], rejects: RejectFile) -> None:
        """Writes the items; on refusal, halves until each refused item is found."""
        try:
            self.sink.write(kind, items, strategies)
            self.summary.inserted[kind] += len(items)
            return
        except HugeliteError as e:
            if len(items) == 1:
                self._insert_failed(kind, rejects, records[0], str(e))
                return
        half = len(items) // 2
        self._write(kind, strategies, items[:half], records[:half], rejects)
        self._write(kind, strategies, items[half:], records[half:], rejects)

    def _insert_failed(self, kind: str, rejects: RejectFile, rec: Record, reason: str) -> None:
        rejects.add(f"line {rec.line}, {kind}", reason, rec.raw)
        self.summary.insert_failed[kind] += 1
        failed = sum(self.summary.insert_failed.values())
        if failed > self.options.max_insert_errors >= 0:
            raise LoadAborted(
                f"more than {self.options.max_insert_errors} elements were refused by the graph "
                f"(--max-insert-errors); the last, line {rec.line}: {reason}; see {rejects.path}")


def _limited(records: Iterator[Record], limit: int | None) -> Iterator[Record]:
    for rec in records:
        if limit is not None and rec.ordinal > limit:
            return
        yield rec

