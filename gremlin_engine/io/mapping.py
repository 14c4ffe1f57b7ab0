"""hugelite's reading of hugegraph-loader's mapping file (`struct.json`, version 2.0).

A mapping says, for each input (a file or a folder of files), how each record becomes
vertices and edges: which column is the id, which columns are the edge's endpoints, how
column names map to property keys, which raw values map to others, which count as null.
Users already hold these files for hugegraph-loader, so the keys and defaults are
hugegraph-loader's (`../shared/reference/hugegraph/tools.md`); anything we do not do is
refused here by name, before a row is read, rather than silently ignored.

The model is plain frozen dataclasses; `parse_mapping` checks the JSON and names the
struct and key of every mistake.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from gremlin_engine.errors import IllegalArgument

FORMATS = ("CSV", "TEXT", "JSON")
COMPRESSIONS = ("NONE", "GZIP", "BZ2", "XZ", "LZMA")
UPDATE_STRATEGIES = ("SUM", "BIGGER", "SMALLER", "UNION", "INTERSECTION", "APPEND", "ELIMINATE", "OVERRIDE")
#: hugegraph-loader's default for `skipped_line.regex`: comment lines and empty lines
DEFAULT_SKIPPED = r"(^#|^//).*|"


class MappingError(IllegalArgument):
    """A mapping file that is not a version 2.0 struct.json this loader can follow."""


@dataclass(frozen=True)
class ListFormat:
    """How a LIST/SET property is written inside one field: `[a|b|c]` by default."""

    start_symbol: str = "["
    elem_delimiter: str = "|"
    end_symbol: str = "]"


@dataclass(frozen=True)
class InputSpec:
    path: Path
    format: str = "CSV"
    header: tuple[str, ...] | None = None
    delimiter: str = ","
    charset: str = "UTF-8"
    date_format: str = "yyyy-MM-dd HH:mm:ss"
    time_zone: str = "GMT+8"
    skipped_line: str = DEFAULT_SKIPPED
    compression: str = "NONE"
    list_format: ListFormat = field(default_factory=ListFormat)
    extensions: tuple[str, ...] = ()

    def files(self) -> list[Path]:
        """The files this input names: the file itself, or a folder's files in name order
        (those with one of `file_filter.extensions`, when given)."""
        if self.path.is_dir():
            found = sorted(p for p in self.path.iterdir() if p.is_file() and not p.name.endswith(_ERROR_SUFFIXES))
            if self.extensions:
                found = [p for p in found if p.suffix.lstrip(".").lower() in self.extensions]
            return found
        if not self.path.is_file():
            raise MappingError(f"input path {str(self.path)!r} is neither a file nor a folder")
        return [self.path]


_ERROR_SUFFIXES = (".parse-error", ".insert-error")


@dataclass(frozen=True)
class ElementMapping:
    """One `vertices[]` or `edges[]` entry. For vertices `id` is the id column (None for
    PRIMARY_KEY and AUTOMATIC labels); for edges `source`/`target` list the columns that
    identify the end vertices."""

    kind: str  # 'vertex' or 'edge'
    label: str
    id: str | None = None
    source: tuple[str, ...] = ()
    target: tuple[str, ...] = ()
    field_mapping: dict[str, str] = field(default_factory=dict)
    value_mapping: dict[str, dict[str, Any]] = field(default_factory=dict)
    selected: frozenset[str] = frozenset()
    ignored: frozenset[str] = frozenset()
    null_values: frozenset[str] = frozenset({""})
    update_strategies: dict[str, str] = field(default_factory=dict)

    def key_of(self, column: str) -> str:
        return self.field_mapping.get(column, column)

    def keeps(self, column: str) -> bool:
        """Whether a column becomes a property (the id and endpoint columns never do)."""
        if column == self.id or column in self.source or column in self.target:
            return False
        if self.selected:
            return column in self.selected
        return column not in self.ignored


@dataclass(frozen=True)
class Struct:
    id: str
    input: InputSpec
    vertices: tuple[ElementMapping, ...]
    edges: tuple[ElementMapping, ...]


@dataclass(frozen=True)
class LoadMapping:
    structs: tuple[Struct, ...]
    source: Path | None = None


def read_mapping(path: str | Path) -> LoadMapping:
    """Reads and checks a struct.json; relative input paths are taken from its folder."""
    p = Path(path)
    try:
        doc = orjson.loads(p.read_bytes())
    except OSError as e:
        raise MappingError(f"cannot read the mapping file {str(p)!r}: {e.strerror or e}") from None
    except orjson.JSONDecodeError as e:
        raise MappingError(f"{p}: not JSON: {e}") from None
    return parse_mapping(doc, base=p.parent, source=p)


def parse_mapping(doc: Any, base: Path, source: Path | None = None) -> LoadMapping:
    where = str(source) if source is not None else "the mapping"
    if not isinstance(doc, dict):
        raise MappingError(f"{where}: expected a JSON object with 'version' and 'structs'")
    version = doc.get("version")
    if version != "2.0":
        raise MappingError(f"{where}: only mapping version '2.0' is supported (got {version!r}); "
                           "hugegraph-loader's `mapping-convert` turns 1.0 files into 2.0")
    structs = doc.get("structs")
    if not isinstance(structs, list) or not structs:
        raise MappingError(f"{where}: 'structs' must be a non-empty list")
    out = []
    for n, s in enumerate(structs):
        if not isinstance(s, dict):
            raise MappingError(f"{where}: structs[{n}] must be an object")
        sid = str(s.get("id", n + 1))
        if s.get("skip"):
            continue
        ctx = f"{where}, struct {sid!r}"
        _only(s, {"id", "skip", "input", "vertices", "edges"}, ctx)
        spec = _input(s.get("input"), base, ctx)
        vertices = tuple(_element(v, "vertex", f"{ctx}, vertices[{i}]") for i, v in enumerate(s.get("vertices") or []))
        edges = tuple(_element(e, "edge", f"{ctx}, edges[{i}]") for i, e in enumerate(s.get("edges") or []))
        if not vertices and not edges:
            raise MappingError(f"{ctx}: maps no vertices and no edges")
        out.append(Struct(sid, spec, vertices, edges))
    return LoadMapping(tuple(out), source)


def _only(d: dict[str, Any], known: set[str], ctx: str) -> None:
    unknown = sorted(set(d) - known)
    if unknown:
        raise MappingError(f"{ctx}: unsupported key(s) {unknown}; supported: {sorted(known)}")


_INPUT_KEYS = {"type", "path", "file_filter", "format", "header", "delimiter", "charset", "date_format",
               "time_zone", "skipped_line", "compression", "list_format", "batch_size"}


def _input(d: Any, base: Path, ctx: str) -> InputSpec:
    ctx = f"{ctx}, input"
    if not isinstance(d, dict):
        raise MappingError(f"{ctx}: must be an object with at least 'path'")
    _only(d, _INPUT_KEYS, ctx)
    kind = str(d.get("type", "FILE")).upper()
    if kind != "FILE":
        raise MappingError(f"{ctx}: input type {kind!r} is not supported (only FILE)")
    if not isinstance(d.get("path"), str) or not d["path"]:
        raise MappingError(f"{ctx}: 'path' is required")
    path = Path(d["path"])
    fmt = _choice(d.get("format", "CSV"), FORMATS, f"{ctx}.format")
    compression = _choice(d.get("compression", "NONE"), COMPRESSIONS, f"{ctx}.compression")
    header = d.get("header")
    if header is not None and (not isinstance(header, list) or not all(isinstance(h, str) for h in header)):
        raise MappingError(f"{ctx}.header: must be a list of column names")
    delimiter = d.get("delimiter", "\t" if fmt == "TEXT" else ",")
    if not isinstance(delimiter, str) or not delimiter or (fmt == "CSV" and len(delimiter) != 1):
        raise MappingError(f"{ctx}.delimiter: must be one character for CSV, a non-empty string for TEXT")
    skipped = d.get("skipped_line") or {}
    regex = skipped.get("regex", DEFAULT_SKIPPED) if isinstance(skipped, dict) else None
    if not isinstance(regex, str):
        raise MappingError(f"{ctx}.skipped_line: must be an object with 'regex'")
    try:
        re.compile(regex)
    except re.error as e:
        raise MappingError(f"{ctx}.skipped_line.regex: not a regular expression: {e}") from None
    lf = d.get("list_format") or {}
    if not isinstance(lf, dict):
        raise MappingError(f"{ctx}.list_format: must be an object")
    list_format = ListFormat(str(lf.get("start_symbol", "[") or ""), str(lf.get("elem_delimiter", "|")),
                             str(lf.get("end_symbol", "]") or ""))
    exts = (d.get("file_filter") or {}).get("extensions") or []
    return InputSpec(
        path=path if path.is_absolute() else base / path,
        format=fmt,
        header=tuple(header) if header is not None else None,
        delimiter=delimiter,
        charset=str(d.get("charset", "UTF-8")),
        date_format=str(d.get("date_format", "yyyy-MM-dd HH:mm:ss")),
        time_zone=str(d.get("time_zone", "GMT+8")),
        skipped_line=regex,
        compression=compression,
        list_format=list_format,
        extensions=tuple(str(e).lower().lstrip(".") for e in exts if str(e) != "*"),
    )


def _choice(value: Any, allowed: tuple[str, ...], ctx: str) -> str:
    v = str(value).upper()
    if v not in allowed:
        raise MappingError(f"{ctx}: {value!r} is not supported; one of {list(allowed)}")
    return v


_ELEMENT_KEYS = {"label", "id", "source", "target", "field_mapping", "value_mapping", "selected", "ignored",
                 "null_values", "update_strategies", "unfold", "unfold_source", "unfold_target", "skip",
                 "batch_size"}


def _element(d: Any, kind: str, ctx: str) -> ElementMapping:
    if not isinstance(d, dict):
        raise MappingError(f"{ctx}: must be an object")
    _only(d, _ELEMENT_KEYS, ctx)
    if any(d.get(k) for k in ("unfold", "unfold_source", "unfold_target")):
        raise MappingError(f"{ctx}: 'unfold' is not supported")
    label = d.get("label")
    if not isinstance(label, str) or not label:
        raise MappingError(f"{ctx}: 'label' is required")
    selected, ignored = _names(d, "selected", ctx), _names(d, "ignored", ctx)
    if selected and ignored:
        raise MappingError(f"{ctx}: 'selected' and 'ignored' cannot both be given")
    vm = d.get("value_mapping") or {}
    if not isinstance(vm, dict) or not all(isinstance(v, dict) for v in vm.values()):
        raise MappingError(f"{ctx}.value_mapping: must map a column to an object of raw value -> value")
    fm = d.get("field_mapping") or {}
    if not isinstance(fm, dict) or not all(isinstance(v, str) for v in fm.values()):
        raise MappingError(f"{ctx}.field_mapping: must map a column to a property key name")
    nulls = d.get("null_values", [""])
    if not isinstance(nulls, list):
        raise MappingError(f"{ctx}.null_values: must be a list")
    strategies = {str(k): _choice(v, UPDATE_STRATEGIES, f"{ctx}.update_strategies.{k}")
                  for k, v in (d.get("update_strategies") or {}).items()}
    source, target = _names(d, "source", ctx), _names(d, "target", ctx)
    if kind == "edge" and (not source or not target):
        raise MappingError(f"{ctx}: an edge mapping needs 'source' and 'target' columns")
    if kind == "vertex" and (source or target):
        raise MappingError(f"{ctx}: 'source'/'target' belong to edge mappings")
    vid = d.get("id")
    if vid is not None and (kind == "edge" or not isinstance(vid, str)):
        raise MappingError(f"{ctx}: 'id' names the id column of a vertex mapping")
    return ElementMapping(
        kind=kind, label=label, id=vid or None, source=tuple(source), target=tuple(target),
        field_mapping=dict(fm), value_mapping={str(k): dict(v) for k, v in vm.items()},
        selected=frozenset(selected), ignored=frozenset(ignored),
        null_values=frozenset("" if n is None else str(n) for n in nulls), update_strategies=strategies,
    )


def _names(d: dict[str, Any], key: str, ctx: str) -> list[str]:
    v = d.get(key) or []
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise MappingError(f"{ctx}.{key}: must be a list of column names")
    return v
