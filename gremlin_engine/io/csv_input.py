"""Reading one input file of a mapping: records as column -> raw value.

CSV goes through the stdlib `csv` module (quoting, embedded delimiters and line breaks);
TEXT is split on its delimiter without quoting, as hugegraph-loader does; JSON is one object
per line. Compressed files are read through `gzip`/`bz2`/`lzma`, decoding by the input's
`charset`. The reader reports how many bytes of the file on disk it has consumed, so a
progress bar can show a real fraction (and an ETA) of a compressed file too.

A record that cannot be read as a record (wrong column count, a JSON line that is not an
object) is not an exception here: it comes out as a `Record` with `error` set, so the load
can write it to the parse-error file and go on.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import orjson

from gremlin_engine.io.mapping import InputSpec, MappingError

_OPENERS: dict[str, Any] = {
    "GZIP": lambda raw: gzip.GzipFile(fileobj=raw, mode="rb"),
    "BZ2": lambda raw: bz2.BZ2File(raw, "rb"),
    "XZ": lambda raw: lzma.LZMAFile(raw, "rb"),
    "LZMA": lambda raw: lzma.LZMAFile(raw, "rb"),
}


@dataclass
class Record:
    """One record: its ordinal among the file's records (1-based, resume counts these), the
    line it starts on, its text or CSV fields (`raw` gives the text, for error files), and
    its column -> value map or the reason it has none."""

    ordinal: int
    line: int
    source: str | list[str]
    fields: dict[str, Any] | None
    error: str | None = None
    delimiter: str = ","
    #: the column names, as one tuple shared by all rows of a CSV/TEXT file
    columns: tuple[str, ...] | None = None

    @property
    def raw(self) -> str:
        """The record as a line of its file (a CSV row written back by `csv`, only when
        asked: most records are never rejected)."""
        if isinstance(self.source, str):
            return self.source
        out = io.StringIO()
        csv.writer(out, delimiter=self.delimiter, lineterminator="").writerow(self.source)
        return out.getvalue()


class InputFile:
    """One open input file; iterate `records()` once. `consumed()` is the number of bytes
    of the file on disk read so far, `size` its total."""

    def __init__(self, spec: InputSpec, path: Path) -> None:
        self.spec = spec
        self.path = path
        self.size = path.stat().st_size
        self._raw: IO[bytes] = open(path, "rb")
        opener = _OPENERS.get(spec.compression)
        binary: Any = self._raw if opener is None else opener(self._raw)
        try:
            self.text = io.TextIOWrapper(binary, encoding=spec.charset, newline="")
        except LookupError:
            self.close()
            raise MappingError(f"{path}: unknown charset {spec.charset!r}") from None
        self._skip = re.compile(spec.skipped_line)

    def consumed(self) -> int:
        try:
            return self._raw.tell()
        except (OSError, ValueError):
            return self.size

    def close(self) -> None:
        self._raw.close()

    def __enter__(self) -> InputFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def records(self) -> Iterator[Record]:
        try:
            if self.spec.format == "JSON":
                yield from self._json()
            else:
                yield from self._delimited()
        except UnicodeDecodeError as e:
            raise MappingError(f"{self.path}: not {self.spec.charset} text ({e.reason} at byte {e.start})") from None
        except (OSError, EOFError, lzma.LZMAError) as e:
            raise MappingError(f"{self.path}: cannot read it as {self.spec.compression} data: {e}") from None

    def _skipped(self, text: str) -> bool:
        return self._skip.fullmatch(text) is not None

    def _json(self) -> Iterator[Record]:
        ordinal = 0
        for number, line in enumerate(self.text, 1):
            text = line.rstrip("\r\n")
            if self._skipped(text) or not text.strip():
                continue
            ordinal += 1
            try:
                value = orjson.loads(text)
            except orjson.JSONDecodeError as e:
                yield Record(ordinal, number, text, None, f"not JSON: {e}")
                continue
            if not isinstance(value, dict):
                yield Record(ordinal, number, text, None, "a JSON line must be an object of column -> value")
                continue
            yield Record(ordinal, number, text, value)

    def _rows(self) -> Iterator[tuple[int, str | list[str], list[str]]]:
        """(line number, text or CSV fields, fields) of every line that is not skipped. A
        CSV row is matched against `skipped_line` as its fields joined by the delimiter
        (the line without its quoting)."""
        spec = self.spec
        if spec.format == "TEXT":
            for number, line in enumerate(self.text, 1):
                text = line.rstrip("\r\n")
                if not self._skipped(text):
                    yield number, text, text.split(spec.delimiter)
            return
        reader = csv.reader(self.text, delimiter=spec.delimiter)
        join = spec.delimiter.join
        skip = self._skip.fullmatch
        start = 1
        for row in reader:
            number, start = start, reader.line_num + 1
            if not row or skip(join(row)) is not None:
                continue
            yield number, row, row

    def _delimited(self) -> Iterator[Record]:
        header = list(self.spec.header) if self.spec.header is not None else None
        delimiter = self.spec.delimiter
        columns = tuple(header) if header is not None else ()
        ordinal = 0
        for number, text, row in self._rows():
            if header is None:
                header = [h.strip() for h in row]
                if header and header[0].startswith("\ufeff"):
                    header[0] = header[0][1:]
                if len(set(header)) != len(header):
                    raise MappingError(f"{self.path}: the header line repeats a column name: {header}")
                columns = tuple(header)
                continue
            ordinal += 1
            if len(row) != len(header):
                yield Record(ordinal, number, text, None,
                             f"line {number} has {len(row)} columns, but the header has {len(header)} ({header})",
                             delimiter)
                continue
            yield Record(ordinal, number, text, dict(zip(columns, row, strict=False)), None, delimiter, columns)
