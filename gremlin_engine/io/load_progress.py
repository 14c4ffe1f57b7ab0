"""The load's progress file, and the files that keep rejected records.

Progress: after every batch that is written, the number of records of each input file that
are fully written is saved (JSON, replaced atomically through a rename), together with the
file's size and modification time. `--incremental` reads it back and skips those records,
so a stopped load (Ctrl-C, a crash, `kill -9`) continues where it stopped. A file that
changed since is read again from its start.

In process, the same entry is also written into the graph's store inside the transaction
that writes the batch (`Graph.traverse_together`'s note), and on `--incremental` that note
wins over the file: the data and the count of records it holds commit together, so a load
killed at any moment resumes exactly where its last commit ended, and vertices of
AUTOMATIC-id labels (whose ids the store assigns, so a second write would be a second
vertex) are never written twice. Over REST the file is all there is: a load stopped between
a batch's commit and the file's update writes that batch again, which changes nothing for
upserts by id (primary key or customized ids, edges) and doubles AUTOMATIC-id vertices; the
same window hugegraph-loader has. A batch the graph refuses in part is written in smaller
pieces (`load_job._write`), each its own transaction, with the note last: that window is
open again for the records of that batch only.

Rejects: `<input>.parse-error` and `<input>.insert-error`, each rejected record as a line
`# <where>: <reason>` followed by the record's text, so the file can be fixed and loaded
again with the same mapping.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import orjson

#: the prefix of the store notes that mirror the progress file's entries
NOTE_PREFIX = "load.progress/"


class ProgressFile:
    """Records done per (phase, struct, input file), persisted at `path`; with `notes` (a
    reader of the store's notes) the store's entry wins when resuming.

    Each load run has an id, kept in the file and in every note: a resume continues the
    file's run and trusts only that run's notes, so notes an older run left in the store (of
    a graph cleared since, or of inputs this run has not reached yet) are never taken."""

    def __init__(self, path: Path, resume: bool, notes: Callable[[str], str | None] | None = None) -> None:
        self.path = path
        self.notes = notes if resume else None
        self.done: dict[str, dict[str, Any]] = {}
        self.run = uuid.uuid4().hex
        if resume and path.is_file():
            try:
                saved = orjson.loads(path.read_bytes())
                self.done = dict(saved.get("inputs", {}))
                self.run = str(saved.get("run") or self.run)
            except (orjson.JSONDecodeError, AttributeError):
                self.done = {}

    @staticmethod
    def key(phase: str, struct: str, file: Path) -> str:
        return f"{phase}|{struct}|{file.resolve()}"

    def finished(self, key: str, file: Path) -> bool:
        entry = self._entry(key)
        return bool(entry.get("finished")) and self._same(entry, file)

    def records_done(self, key: str, file: Path) -> int:
        entry = self._entry(key)
        return int(entry.get("records", 0)) if entry and self._same(entry, file) else 0

    def _entry(self, key: str) -> dict[str, Any]:
        if self.notes is not None:
            note = self.notes(NOTE_PREFIX + key)
            if note:
                try:
                    found = orjson.loads(note)
                except orjson.JSONDecodeError:
                    found = None
                if isinstance(found, dict) and found.get("run") == self.run:
                    return found
        return self.done.get(key, {})

    @staticmethod
    def _same(entry: dict[str, Any], file: Path) -> bool:
        st = file.stat()
        return entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns

    def note(self, key: str, file: Path, records: int, finished: bool = False) -> tuple[str, str]:
        """The store note (key, value) saying what `save` would say of this input."""
        st = file.stat()
        entry = {"records": records, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "finished": finished,
                 "run": self.run}
        return NOTE_PREFIX + key, orjson.dumps(entry).decode()

    def save(self, key: str, file: Path, records: int, finished: bool = False) -> None:
        st = file.stat()
        self.done[key] = {"records": records, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "finished": finished}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(orjson.dumps({"version": 1, "run": self.run, "inputs": self.done}, option=orjson.OPT_INDENT_2))
        os.replace(tmp, self.path)


class RejectFile:
    """`<input>.<suffix>`, opened (emptied, unless `append`) on the first reject of this run."""

    def __init__(self, path: Path, append: bool = False) -> None:
        self.path = path
        self.append = append
        self._out: IO[str] | None = None
        self.count = 0

    def add(self, where: str, reason: str, text: str) -> None:
        if self._out is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._out = open(self.path, "a" if self.append else "w", encoding="utf-8")
        self._out.write(f"# {where}: {reason}\n{text}\n")
        self._out.flush()
        self.count += 1

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None
