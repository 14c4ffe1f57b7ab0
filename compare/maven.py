"""Resolving a server's jars by their Maven coordinates into the cache folder.

A release is described by coordinates, not by a downloaded archive: a generated `pom.xml` lists
them and `mvn dependency:copy-dependencies` copies the whole transitive closure into `lib/`.
A `lib/` that is complete (its stamp file names the same coordinates) is reused as it is.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from xml.sax.saxutils import escape


@dataclass(frozen=True)
class Artifact:
    """One Maven coordinate; `exclude` lists `group:artifact` pairs cut from its closure."""

    group: str
    artifact: str
    version: str
    exclude: tuple[str, ...] = ()
    classifier: str = ""

    def coordinate(self) -> str:
        tail = f":jar:{self.classifier}" if self.classifier else ""
        return f"{self.group}:{self.artifact}{tail}:{self.version}"

    def xml(self) -> str:
        """The `<dependency>` element (classifier and exclusions included)."""
        excl = "".join(
            f"<exclusion><groupId>{escape(g)}</groupId><artifactId>{escape(n)}</artifactId></exclusion>"
            for g, n in (e.split(":") for e in self.exclude)
        )
        return (
            f"<dependency><groupId>{escape(self.group)}</groupId><artifactId>{escape(self.artifact)}"
            f"</artifactId><version>{escape(self.version)}</version>"
            + (f"<classifier>{escape(self.classifier)}</classifier>" if self.classifier else "")
            + (f"<exclusions>{excl}</exclusions>" if excl else "")
            + "</dependency>"
        )


@dataclass(frozen=True)
class Release:
    """What one server needs: the artifacts resolved with their dependencies, those copied
    alone (`bare`: artifacts whose published POM cannot be read, so Maven cannot walk it), and
    versions forced on the closure (`manage`: a `<dependencyManagement>` pin)."""

    name: str
    artifacts: tuple[Artifact, ...]
    bare: tuple[Artifact, ...] = field(default=())
    manage: tuple[Artifact, ...] = field(default=())

    def stamp(self) -> str:
        return "\n".join(a.coordinate() for a in (*self.artifacts, *self.bare, *self.manage)) + "\n"


def pom_xml(release: Release) -> str:
    """A packaging-`pom` project whose only purpose is to carry the dependency list."""
    deps = "".join(f"    {a.xml()}\n" for a in release.artifacts)
    managed = "".join(f"    {a.xml()}\n" for a in release.manage)
    if managed:
        managed = f"  <dependencyManagement><dependencies>\n{managed}  </dependencies></dependencyManagement>\n"
    return (
        '<project xmlns="http://maven.apache.org/POM/4.0.0">\n'
        "  <modelVersion>4.0.0</modelVersion>\n"
        f"  <groupId>hugelite.anchors</groupId><artifactId>{release.name}</artifactId>"
        "<version>1</version><packaging>pom</packaging>\n"
        + managed
        + "  <dependencies>\n" + deps + "  </dependencies>\n</project>\n"
    )


def fetch(release: Release, folder: Path, log: Path) -> Path:
    """Returns `folder/lib`, filled with the release's jars (reused when already complete)."""
    lib = folder / "lib"
    stamp = folder / "lib.complete"
    if stamp.exists() and stamp.read_text() == release.stamp() and lib.is_dir():
        return lib
    folder.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    (folder / "pom.xml").write_text(pom_xml(release))
    commands = [["mvn", "-B", "-q", "dependency:copy-dependencies", f"-DoutputDirectory={lib}"]]
    commands += [
        ["mvn", "-B", "-q", "dependency:copy", f"-Dartifact={a.coordinate()}", f"-DoutputDirectory={lib}"]
        for a in release.bare
    ]
    with log.open("a") as out:
        for command in commands:
            done = subprocess.run(command, cwd=folder, stdout=out, stderr=subprocess.STDOUT)
            if done.returncode != 0:
                raise RuntimeError(f"{' '.join(command[:3])} failed for {release.name}; see {log}")
    stamp.write_text(release.stamp())
    return lib
