"""`python -m compare.anchors fetch|start|stop|status [tinkerpop|hugegraph|all]`.

* `fetch`: resolves the releases from Maven Central into the cache folder
  (`$HUGELITE_ANCHORS_CACHE`, else `~/.cache/hugelite-anchors`), reused when present.
* `start`: fetches if needed, writes fresh configuration and empty data folders under
  `<cache>/run/<name>/`, initialises HugeGraph's store, starts the servers and waits until
  they answer (Gremlin Server: its port; HugeGraph: `GET /versions` and its Gremlin port).
* `stop`: stops them by the pids recorded at start. `status`: what is cached and running.
* `ci`: for `.ci/run`: when both releases are cached, starts them, runs the differential suite
  and stops them (the suite's exit code); when not, prints one line and exits 0 (CI never
  downloads the ~800 MB).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from compare import hugegraph_conf, procs, tinkerpop_conf
from compare.maven import fetch
from compare.releases import (
    GREMLIN_SERVER_PORT,
    HUGEGRAPH,
    HUGEGRAPH_GREMLIN_PORT,
    HUGEGRAPH_REST_PORT,
    TINKERPOP,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "tinkerpop" / "data"
CACHE = Path(os.environ.get("HUGELITE_ANCHORS_CACHE", Path.home() / ".cache" / "hugelite-anchors"))
RELEASES = {"tinkerpop": TINKERPOP, "hugegraph": HUGEGRAPH}
PORTS = {"tinkerpop": GREMLIN_SERVER_PORT, "hugegraph": HUGEGRAPH_REST_PORT}
HEAP_MB = {"tinkerpop": 512, "hugegraph": 1024}
START_TIMEOUT_S = 180.0


def cached(name: str) -> bool:
    """True when the release's jars are complete in the cache (no network needed)."""
    stamp = CACHE / name / "lib.complete"
    return stamp.exists() and stamp.read_text() == RELEASES[name].stamp()


def _fetch(name: str) -> Path:
    started = time.monotonic()
    lib = fetch(RELEASES[name], CACHE / name, CACHE / f"{name}-fetch.log")
    print(f"{name}: {len(list(lib.glob('*.jar')))} jars in {lib} ({time.monotonic() - started:.0f} s)")
    return lib


def _fresh_run(name: str) -> Path:
    run = CACHE / "run" / name
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    return run


def _start_tinkerpop(lib: Path, run: Path, log: Path, pid_file: Path) -> int:
    yaml = tinkerpop_conf.write(run, GREMLIN_SERVER_PORT, DATA)
    command = procs.java(HEAP_MB["tinkerpop"], procs.classpath(lib, ("slf4j-simple",)),
                         "org.apache.tinkerpop.gremlin.server.GremlinServer", str(yaml))
    pid = procs.spawn(command, run, log, pid_file)
    procs.wait_until(lambda: procs.port_open(GREMLIN_SERVER_PORT), pid, START_TIMEOUT_S, log)
    return pid


def _start_hugegraph(lib: Path, run: Path, log: Path, pid_file: Path) -> int:
    yaml, rest = hugegraph_conf.write(run, HUGEGRAPH_REST_PORT, HUGEGRAPH_GREMLIN_PORT)
    cp = procs.classpath(lib, ("log4j-slf4j-impl", "hugegraph"))
    props = {"log4j.configurationFile": str(run / "log4j2.xml")}
    init = procs.java(512, cp, "org.apache.hugegraph.cmd.InitStore", str(rest), props=props)
    with log.open("ab") as out:
        if subprocess.run(init, cwd=run, stdout=out, stderr=subprocess.STDOUT).returncode != 0:
            raise RuntimeError(f"HugeGraph's InitStore failed; see {log}")
    command = procs.java(HEAP_MB["hugegraph"], cp, "org.apache.hugegraph.dist.HugeGraphServer",
                         str(yaml), str(rest), props=props)
    pid = procs.spawn(command, run, log, pid_file)
    # REST answers first; `/gremlin` works once the embedded Gremlin Server listens too
    rest_ok = procs.http_ok(f"http://127.0.0.1:{HUGEGRAPH_REST_PORT}/versions")
    procs.wait_until(lambda: procs.port_open(HUGEGRAPH_GREMLIN_PORT) and rest_ok(), pid, START_TIMEOUT_S, log)
    return pid


def start(name: str) -> None:
    pid_file = CACHE / "run" / f"{name}.pid"
    if (pid := procs.running(pid_file)) is not None:
        print(f"{name}: already running (pid {pid}, port {PORTS[name]})")
        return
    lib = _fetch(name)
    run = _fresh_run(name)
    log = run / "server.log"
    started = time.monotonic()
    starter = _start_tinkerpop if name == "tinkerpop" else _start_hugegraph
    try:
        pid = starter(lib, run, log, pid_file)
    except RuntimeError:
        procs.stop(pid_file)
        raise
    print(f"{name}: pid {pid} answers on 127.0.0.1:{PORTS[name]} ({time.monotonic() - started:.0f} s)")


def stop(name: str) -> None:
    pid = procs.stop(CACHE / "run" / f"{name}.pid")
    print(f"{name}: " + (f"stopped pid {pid}" if pid else "was not running"))


def status(name: str) -> None:
    pid = procs.running(CACHE / "run" / f"{name}.pid")
    state = f"running (pid {pid}, port {PORTS[name]})" if pid else "stopped"
    print(f"{name}: {'cached' if cached(name) else 'not fetched'}, {state}")


def ci() -> int:
    missing = [name for name in RELEASES if not cached(name)]
    if missing:
        print(f"differential suite skipped: {', '.join(missing)} not cached (`make anchors` fetches them)")
        return 0
    started = []  # servers already running (someone else's) are left running
    try:
        for name in RELEASES:
            if procs.running(CACHE / "run" / f"{name}.pid") is None:
                started.append(name)
                start(name)
        env = {**os.environ, "HUGELITE_DIFFERENTIAL": "1"}
        command = [sys.executable, "-m", "pytest", "tests/differential", "-q", "-p", "no:cacheprovider"]
        return subprocess.run(command, cwd=ROOT, env=env).returncode
    finally:
        for name in started:
            stop(name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m compare.anchors", description=__doc__.split("\n")[0])
    parser.add_argument("verb", choices=("fetch", "start", "stop", "status", "ci"))
    parser.add_argument("which", nargs="?", default="all", choices=("tinkerpop", "hugegraph", "all"))
    args = parser.parse_args(argv)
    names = list(RELEASES) if args.which == "all" else [args.which]
    verb = {"fetch": _fetch, "start": start, "stop": stop, "status": status}.get(args.verb)
    try:
        if verb is None:
            return ci()
        for name in names:
            verb(name)
    except RuntimeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
