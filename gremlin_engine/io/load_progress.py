"""The load's progress file, and the files that keep rejected records.

Progress: after every batch that is written, the number of records of each input file that
are fully written is saved (JSON, replaced atomically through a rename), together with the
file's size and modification time. `--incremental` reads it back and skips those records,
so a stopped load (Ctrl-C, a crash, `kill -9`) continues where it stopped. A file that
changed since is read again from its start.

The write and the progress save are two steps: a load stopped between them writes its
last batch a second time. Vertex writes are upserts by id (primary key or customized ids)
and edge ids are made of their ends, label and sort values, so that second write changes
nothing; only vertices of AUTOMATIC-id labels, whose ids the store assigns, could be
written twice in that window.

Rejects: `<input>.parse-error` and `<input>.insert-error`, each rejected record as a line
`# <where>: <reason>` followed by the record's text, so the file can be fixed and loaded
again with the same mapping.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

import orjson


class ProgressFile:
    """Records done per (phase, struct, input file), persisted at `path`."""

    def __init__(self, path: Path, resume: bool) -> None:
        self.path = path
        self.done: dict[str, dict[str, Any]] = {}
        if resume and path.is_file():
            try:
                self.done = dict(orjson.loads(path.read_bytes()).get("inputs", {}))
            except (orjson.JSONDecodeError, AttributeError):
                self.done = {}

    @staticmethod
    def key(phase: str, struct: str, file: Path) -> str:
        return f"{phase}|{struct}|{file.resolve()}"

    def finished(self, key: str, file: Path) -> bool:
        return bool(self.done.get(key, {}).get("finished")) and self._same(key, file)

    def records_done(self, key: str, file: Path) -> int:
        entry = self.done.get(key)
        return int(entry.get("records", 0)) if entry is not None and self._same(key, file) else 0

    def _same(self, key: str, file: Path) -> bool:
        entry = self.done.get(key, {})
        st = file.stat()
        return entry.get("size") == st.st_size and entry.get("mtime_ns") == st.st_mtime_ns

    def save(self, key: str, file: Path, records: int, finished: bool = False) -> None:
        st = file.stat()
        self.done[key] = {"records": records, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "finished": finished}
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_bytes(orjson.dumps({"version": 1, "inputs": self.done}, option=orjson.OPT_INDENT_2))
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
