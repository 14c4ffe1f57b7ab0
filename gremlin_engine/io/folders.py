"""Where `g.io(path)` may read and write, and in which format.

A Gremlin script is untrusted input, so it names files only inside two configured folders:
`read()` inside the import folder (`gremlin.import_dir`), `write()` inside the export folder
(`gremlin.export_dir`). Both checks resolve `..` and symlinks first and refuse a result
outside the folder; a write also opens its file without following a symlink, so a link
planted after the check cannot redirect it.

The format is the one `with(IO.reader|IO.writer, ...)` names, else the file's suffix (as
TinkerPop's IoStep decides): GraphSON 3.0 and GraphML are read and written; Gryo (Kryo) is
refused with a message naming it, since it is Java object serialization and a server
that is not a JVM has no faithful reader for it.
"""

from __future__ import annotations

import os
from pathlib import Path

from gremlin_engine.errors import Forbidden, IllegalArgument, NotFound, NotSupported

#: the formats `g.io()` reads and writes, with the file suffixes that choose them
FORMATS: dict[str, tuple[str, ...]] = {"graphson": (".json", ".graphson"), "graphml": (".xml", ".graphml")}
#: formats TinkerPop knows that hugelite refuses, with the suffixes TinkerPop gives them
REFUSED: dict[str, tuple[str, ...]] = {"gryo": (".kryo", ".gryo")}
_NAMES = {"graphson": "GraphSON 3.0", "graphml": "GraphML", "gryo": "Gryo (Kryo)"}
_OFFERED = "GraphSON 3.0 (.json, .graphson) and GraphML (.xml, .graphml)"


def _refuse(fmt: str) -> NotSupported:
    return NotSupported(f"g.io(): the {_NAMES.get(fmt, fmt)} format is not supported (it is Java object "
                        f"serialization); hugelite reads and writes {_OFFERED}")


def detect_format(path: str | Path, chosen: str | None = None) -> str:
    """'graphson' or 'graphml': the format `chosen` names (`IO.graphson`, ...), else the one
    the suffix of `path` implies. Unsupported formats are refused by name."""
    if chosen is not None:
        fmt = str(chosen).rsplit(".", 1)[-1].lower()
        if fmt in FORMATS:
            return fmt
        if fmt in REFUSED:
            raise _refuse(fmt)
        raise NotSupported(f"g.io(): the format {chosen!r} is not supported; hugelite reads and writes {_OFFERED}")
    suffix = Path(path).suffix.lower()
    for fmt, suffixes in FORMATS.items():
        if suffix in suffixes:
            return fmt
    for fmt, suffixes in REFUSED.items():
        if suffix in suffixes:
            raise _refuse(fmt)
    raise IllegalArgument(f"g.io(): cannot tell the format of {Path(path).name!r} from its name; hugelite reads "
                          f"and writes {_OFFERED}, or choose one with with(IO.reader/IO.writer, ...)")


def _inside(path: str | Path, folder: str | Path | None, verb: str, setting: str) -> Path:
    if folder is None:
        raise Forbidden(f"g.io() {verb} files only in the configured {setting} folder, and none is configured")
    if any(ord(ch) < 0x20 or ch == "\x7f" for ch in str(path)):
        raise IllegalArgument(f"g.io(): a file name has no control characters (NUL, newline, ...); got {str(path)!r}")
    root = Path(folder).resolve()
    p = Path(path)
    target = (p if p.is_absolute() else root / p).resolve()
    if not target.is_relative_to(root):
        raise Forbidden(f"g.io() may only {verb} files under the {setting} folder {root}; refused {str(path)!r}")
    return target


def resolve_import_path(path: str | Path, import_dir: str | Path | None, chosen: str | None = None) -> Path:
    """The file `path` names inside `import_dir`, or an error: relative paths are taken
    relative to the folder, the resolved file must lie inside it, and its format (`chosen`,
    else its suffix) must be one `g.io()` reads."""
    target = _inside(path, import_dir, "read", "import")
    detect_format(target, chosen)
    if not target.is_file():
        raise NotFound(f"g.io(): no such file {str(path)!r} in the import folder")
    return target


def resolve_export_path(path: str | Path, export_dir: str | Path | None, chosen: str | None = None) -> Path:
    """The file `path` names inside `export_dir` for `g.io(path).write()`: inside the folder,
    in an existing sub-folder, not a folder itself, in a format `g.io()` writes."""
    target = _inside(path, export_dir, "write", "export")
    if target.is_dir():
        raise IllegalArgument(f"g.io(): {str(path)!r} is a folder, not a file")
    if not target.parent.is_dir():
        raise NotFound(f"g.io(): no folder {str(Path(path).parent)!r} in the export folder")
    detect_format(target, chosen)
    return target


def write_new_file(target: Path, data: bytes) -> None:
    """Writes `data` to `target` (created or truncated) without following a symlink there."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(target, flags, 0o644)
    except OSError as e:
        raise Forbidden(f"g.io(): cannot write {target.name!r} in the export folder ({e.strerror})") from None
    with os.fdopen(fd, "wb") as f:
        f.write(data)
