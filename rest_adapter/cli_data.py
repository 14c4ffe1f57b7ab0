"""`hugelite load`, `backup`, `restore` and `snapshot`: getting data in and out of a graph.

Each works on a graph in this process (`--conf DIR GRAPH`, or a store file `--store
FILE.db`) or on a running server (`--url http://host:port --graph G`). In process, the
command opens the store itself, so a server should not be writing the same graph (SQLite
lets it, one writer at a time, but a load is then slowed by every wait); `snapshot` is the
exception, made to copy a live store.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from gremlin_engine import GraphConfig, GraphRegistry, HugeliteError
from gremlin_engine.io import load_graphson
from gremlin_engine.io.backup import RESTORE_BATCH, GraphReader, backup, restore, snapshot
from gremlin_engine.io.load_job import DEFAULT_BATCH, LoadOptions, run_load
from gremlin_engine.io.mapping import read_mapping
from gremlin_engine.io.sink import GraphWriter
from rest_adapter.cli_progress import observer_for
from rest_adapter.remote_graph import RemoteError, RemoteGraph
from rest_adapter.settings import Settings, SettingsError

CONF_HELP = "configuration folder holding rest-server.properties and graphs/ (default: ./conf)"
#: elements per request over REST: hugegraph-loader's default and the server's batch limit
REST_BATCH = 500


def configured(graph: str, conf: str) -> GraphConfig:
    """The configuration of `graph` in the `--conf` folder."""
    try:
        settings = Settings.load(conf)
    except SettingsError as e:
        raise click.ClickException(str(e)) from None
    found = next((c for c in settings.graphs if c.name == graph), None)
    if found is None:
        raise click.ClickException(f"Graph '{graph}' is not configured in {settings.graphs_dir}")
    return found


@contextlib.contextmanager
def open_local(graph: str | None, conf: str, store: Path | None, schema_mode: str) -> Iterator[Any]:
    """The graph named in `--conf` (or the store file `--store`, created when new), open
    in this process for the block."""
    if store is not None:
        cfg = GraphConfig(name=graph or "hugegraph", backend="sqlite", store=str(store), schema_mode=schema_mode)
        GraphRegistry.init_store(cfg)
    else:
        if not graph:
            raise click.UsageError("name the GRAPH (with --conf), or give --store FILE.db or --url")
        cfg = configured(graph, conf)
    registry = GraphRegistry(evaluation_timeout_ms=None)
    try:
        yield registry.open(cfg)
    finally:
        registry.close_all()


@contextlib.contextmanager
def target(graph: str | None, conf: str, store: Path | None, schema_mode: str, url: str | None,
           user: str | None, password: str | None) -> Iterator[tuple[Any, Any]]:
    """(sink, local graph or None): a `GraphWriter` in process or a `RemoteGraph`."""
    if url is not None:
        if not graph:
            raise click.UsageError("--url needs --graph G (or the GRAPH argument)")
        with RemoteGraph(url, graph, user, password) as remote:
            yield remote, None
        return
    with open_local(graph, conf, store, schema_mode) as g:
        yield GraphWriter(g), g


def common(fn: Any) -> Any:
    """The options every data command shares: where the graph is."""
    for decorator in reversed((
        click.option("--conf", default="conf", show_default=True, help=CONF_HELP),
        click.option("--store", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="a SQLite store file to use instead of a configured graph (created when new)"),
        click.option("--schema-mode", type=click.Choice(["strict", "auto"]), default="strict", show_default=True,
                     help="schema mode of a --store graph"),
        click.option("--url", default=None, help="a running server (http://host:port): work over REST"),
        click.option("--graph", "graph_opt", default=None, help="the graph's name on --url"),
        click.option("--user", default=None, help="user name for --url (HTTP basic auth)"),
        click.option("--password", default=None, help="password for --url"),
    )):
        fn = decorator(fn)
    return fn


def _fail(e: Exception) -> click.ClickException:
    return click.ClickException(str(e))


@click.command()
@click.argument("graph", required=False)
@click.argument("file", required=False, type=click.Path(exists=True, dir_okay=False, path_type=Path))
@common
@click.option("--struct", "struct_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="hugegraph-loader mapping file (struct.json, version 2.0)")
@click.option("--schema", "schema_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="schema script (schema.groovy) run before the load")
@click.option("--batch-size", type=click.IntRange(min=1), default=None,
              help=f"elements per write (default {DEFAULT_BATCH} in process, {REST_BATCH} over REST)")
@click.option("--max-parse-errors", type=int, default=1, show_default=True,
              help="stop after more records than this failed to parse (-1: never)")
@click.option("--max-insert-errors", type=int, default=500, show_default=True,
              help="stop after more elements than this were refused by the graph (-1: never)")
@click.option("--incremental", is_flag=True, help="continue a stopped load from its progress file")
@click.option("--clear-all-data", is_flag=True, help="clear the graph (schema and data) before loading")
@click.option("--progress-file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="where progress is kept (default: STRUCT.load-progress)")
@click.option("--max-read-lines", type=int, default=None, help="read at most this many records per input file")
@click.option("--check-vertex/--no-check-vertex", default=True, show_default=True,
              help="refuse edges whose end vertices do not exist")
@click.option("--quiet", is_flag=True, help="no progress bars; a line a minute")
def load(graph: str | None, file: Path | None, conf: str, store: Path | None, schema_mode: str, url: str | None,
         graph_opt: str | None, user: str | None, password: str | None, struct_file: Path | None,
         schema_file: Path | None, batch_size: int | None, max_parse_errors: int, max_insert_errors: int,
         incremental: bool, clear_all_data: bool, progress_file: Path | None, max_read_lines: int | None,
         check_vertex: bool, quiet: bool) -> None:
    """Load data into GRAPH: CSV/TEXT/JSON files through a hugegraph-loader mapping (--struct,
    with --schema), or a GraphSON FILE (TinkerPop adjacency-list format)."""
    name = graph_opt or graph
    if struct_file is not None and file is not None:
        raise click.UsageError("give either --struct (with the files it names) or a GraphSON FILE, not both")
    if struct_file is None:
        if file is None:
            raise click.UsageError("give --struct struct.json, or a GraphSON FILE")
        if url is not None:
            raise click.UsageError("GraphSON files load in process only (--conf or --store), not over --url")
        _load_graphson(name, file, conf, store, schema_mode, schema_file)
        return
    try:
        mapping = read_mapping(struct_file)
        options = LoadOptions(
            batch_size=batch_size or (REST_BATCH if url else DEFAULT_BATCH),
            max_parse_errors=max_parse_errors, max_insert_errors=max_insert_errors, incremental=incremental,
            clear_all_data=clear_all_data, max_records=max_read_lines,
            progress_path=progress_file or struct_file.with_name(struct_file.name + ".load-progress"),
            schema_script=schema_file.read_text(encoding="utf-8") if schema_file else None,
        )
        with target(name, conf, store, schema_mode, url, user, password) as (sink, _local):
            sink.check_vertex = check_vertex
            with observer_for(not quiet) as observer:
                summary = run_load(sink, mapping, options, observer)
    except (HugeliteError, RemoteError, OSError) as e:
        raise _fail(e) from None
    except KeyboardInterrupt:
        click.echo(f"hugelite: load interrupted; `--incremental` continues it from {options.progress_path}",
                   err=True)
        sys.exit(130)
    where = url or store or conf
    click.echo(f"{sink.name}: loaded {struct_file} into {where}")
    for line in summary.lines():
        click.echo(f"  {line}")
    if summary.parse_failed or sum(summary.insert_failed.values()):
        sys.exit(1)


def _load_graphson(name: str | None, file: Path, conf: str, store: Path | None, schema_mode: str,
                   schema_file: Path | None) -> None:
    try:
        with open_local(name, conf, store, schema_mode) as g:
            if schema_file is not None:
                GraphWriter(g).run_schema(schema_file.read_text(encoding="utf-8"))
            started = time.perf_counter()
            vertices, edges = load_graphson(g, file)
            elapsed = time.perf_counter() - started
    except HugeliteError as e:
        raise _fail(e) from None
    click.echo(f"{g.name}: loaded {vertices} vertices and {edges} edges from {file} in {elapsed:.2f} s")


@click.command("backup")
@click.argument("graph", required=False)
@common
@click.option("-d", "--directory", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="the backup folder (created; its files are replaced)")
def backup_command(graph: str | None, conf: str, store: Path | None, schema_mode: str, url: str | None,
                   graph_opt: str | None, user: str | None, password: str | None, directory: Path) -> None:
    """Back up GRAPH (schema with ids, vertices and edges as JSON lines) into a folder; in
    process it is one consistent read, even while a server writes the graph."""
    name = graph_opt or graph
    try:
        with target(name, conf, store, schema_mode, url, user, password) as (sink, local):
            source = GraphReader(local) if local is not None else sink
            summary = backup(source, directory)
    except (HugeliteError, RemoteError, OSError) as e:
        raise _fail(e) from None
    click.echo(f"{source.name}: backed up {summary.vertices} vertices and {summary.edges} edges "
               f"into {directory} in {summary.seconds:.2f} s")


@click.command("restore")
@click.argument("graph", required=False)
@common
@click.option("-d", "--directory", type=click.Path(exists=True, file_okay=False, path_type=Path), required=True,
              help="a folder written by `hugelite backup`")
@click.option("--mode", type=click.Choice(["RESTORING", "MERGING"]), default=None,
              help="default: RESTORING into a graph without data (ids kept), MERGING into one with data")
def restore_command(graph: str | None, conf: str, store: Path | None, schema_mode: str, url: str | None,
                    graph_opt: str | None, user: str | None, password: str | None, directory: Path,
                    mode: str | None) -> None:
    """Restore a backup folder into GRAPH; the graph is in NONE mode afterwards."""
    name = graph_opt or graph
    try:
        with target(name, conf, store, schema_mode, url, user, password) as (sink, _local):
            summary = restore(sink, directory, mode, batch_size=REST_BATCH if url else RESTORE_BATCH)
    except (HugeliteError, RemoteError, OSError) as e:
        raise _fail(e) from None
    click.echo(f"{sink.name}: restored {summary.vertices} vertices and {summary.edges} edges "
               f"from {directory} in {summary.seconds:.2f} s")


@click.command("snapshot")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--graph", default=None, help="the configured graph to copy (with --conf)")
@click.option("--conf", default="conf", show_default=True, help=CONF_HELP)
@click.option("--store", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="the SQLite store file to copy instead of a configured graph's")
def snapshot_command(file: Path, graph: str | None, conf: str, store: Path | None) -> None:
    """Copy a graph's SQLite store to FILE, consistently, while a server may be using it
    (SQLite's online backup API; `cp` would miss the write-ahead log)."""
    if store is not None:
        cfg = GraphConfig(name=graph or store.stem, backend="sqlite", store=str(store))
    else:
        if not graph:
            raise click.UsageError("name the graph (--graph G with --conf), or give --store FILE.db")
        cfg = configured(graph, conf)
    try:
        size = snapshot(cfg, file)
    except HugeliteError as e:
        raise _fail(e) from None
    click.echo(f"{cfg.name}: snapshot of {cfg.store_path} written to {file} ({size:,} bytes)")
