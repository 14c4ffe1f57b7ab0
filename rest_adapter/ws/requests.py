"""Evaluating one Gremlin Server request and streaming its results, on a worker thread.

`run_job` runs entirely off the event loop: decoding bytecode to IR, running the engine,
serialising each batch. Frames go back through `Job.send`, which blocks the worker until the
frame is written, so a slow client slows only its own request. Results are cut into batches
of `batchSize` (default 64, Gremlin Server's `resultIterationBatchSize`): every batch but the
last is a 206, the last a 200, and an empty result a single 204.

Traversal sources: every graph is reachable as `<graph>` and `__g_<graph>`; a bytecode
request names its source through `aliases["g"]`. gremlinpython's
`DriverRemoteConnection(url, "g")` sends `{"g": "g"}`, so a source named `g` that is not a
graph means the default graph: `hugegraph` when it exists, else the only graph.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from gremlin_engine import GraphRegistry
from gremlin_engine.auth.principal import ANONYMOUS_ADMIN, Principal
from gremlin_engine.bytecode import from_wire, graph_op, request_options, to_ir
from gremlin_engine.context import WS_BYTECODE, WS_EVAL, ExecutionContext
from gremlin_engine.limits import CancelToken
from gremlin_engine.traversal.ir import TraversalIR
from gremlin_engine.traversal.tokens import Scope
from rest_adapter.serializers.graphbinary_types import WireTraverser
from rest_adapter.serializers.mime import Codec, RequestMessage, ResponseMessage
from rest_adapter.ws.sessions import Session
from rest_adapter.ws.status import (
    INVALID_REQUEST_ARGUMENTS,
    NO_CONTENT,
    PARTIAL_CONTENT,
    SCRIPT_EVALUATION_ERROR,
    SUCCESS,
    RequestError,
    error_status,
)

DEFAULT_BATCH_SIZE = 64
DEFAULT_GRAPH = "hugegraph"


@dataclass(eq=False)
class Job:
    registry: GraphRegistry
    codec: Codec
    request: RequestMessage
    send: Callable[[bytes | str], None]
    token: CancelToken = field(default_factory=CancelToken)
    session: Session | None = None
    default_timeout_ms: float | None = None
    #: who sent the request (the connection scope's principal when it was made)
    principal: Principal = ANONYMOUS_ADMIN

    def respond(self, code: int, data: Any = None, message: str = "", attributes: dict[str, Any] | None = None) -> None:
        meta = {} if code >= 300 or code == NO_CONTENT else {"aggregateTo": "list"}
        frame = self.codec.encode_response(
            ResponseMessage(self.request.request_id, code, message, attributes or {}, meta, data))
        self.send(frame)


def run_job(job: Job) -> None:
    """Evaluates `job.request` and sends every response frame; never raises."""
    try:
        results, batch_size = evaluate(job)
        stream(job, results, batch_size)
    except BaseException as exc:  # every failure becomes an error frame for this request
        if isinstance(exc, ConnectionError):
            return
        code, message, attributes = error_status(exc)
        try:
            job.respond(code, None, message, attributes)
        except ConnectionError:
            pass


def stream(job: Job, results: Iterable[Any], batch_size: int) -> None:
    full: list[Any] | None = None  # a full batch held back until we know whether more follow
    batch: list[Any] = []
    try:
        for item in results:
            if full is not None:
                job.respond(PARTIAL_CONTENT, full)
                full = None
            batch.append(item)
            if len(batch) >= batch_size:
                full, batch = batch, []
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
    if full is not None and batch:
        job.respond(PARTIAL_CONTENT, full)
        full = None
    last = full if full is not None else batch
    if last:
        job.respond(SUCCESS, last)
    else:
        job.respond(NO_CONTENT)


def evaluate(job: Job) -> tuple[Iterable[Any], int]:
    req = job.request
    args = req.args
    if req.op == "eval":
        return _eval(job, args), _batch_size(args.get("batchSize"))
    if req.op == "bytecode":
        return _bytecode(job, args)
    if req.op == "close":
        return [], DEFAULT_BATCH_SIZE
    raise RequestError(
        INVALID_REQUEST_ARGUMENTS,
        f"The [{req.op}] operation is not supported by the '{req.processor or 'standard'}' processor; "
        "use eval, bytecode, authentication or close",
    )


def _eval(job: Job, args: dict[str, Any]) -> list[Any]:
    script = args.get("gremlin")
    if not isinstance(script, str):
        raise RequestError(INVALID_REQUEST_ARGUMENTS, "An eval request requires a 'gremlin' script string")
    lang = args.get("language")
    if lang not in (None, "gremlin-groovy", "gremlin-lang", "gremlin"):
        raise RequestError(INVALID_REQUEST_ARGUMENTS, f"Script language '{lang}' is not supported; use gremlin-groovy")
    bindings = args.get("bindings") or {}
    if not isinstance(bindings, dict):
        raise RequestError(INVALID_REQUEST_ARGUMENTS, "The 'bindings' argument must be a map")
    registry = job.registry
    default = default_graph(registry)
    aliases = script_aliases(registry, args.get("aliases"), default)
    timeout = _timeout(args, job.default_timeout_ms)
    token = _with_deadline(job, timeout)
    ctx = ExecutionContext(job.principal, WS_EVAL, timeout_ms=timeout, cancel=token)
    values = {str(k): from_wire(v) for k, v in bindings.items()}
    if job.session is not None:
        graph = registry.get(_session_graph(registry, aliases, default))
        tx = job.session.transaction(graph)
        if tx is not None:
            return tx.execute(script, values, aliases, ctx=ctx)
    return registry.execute(script, values, aliases, graph=default, ctx=ctx)


def _session_graph(registry: GraphRegistry, aliases: dict[str, str], default: str | None) -> str:
    """The graph whose transaction a session script runs in: what `g` is aliased to, else
    the default graph."""
    target = aliases.get("g") or aliases.get("graph")
    name = _graph_name(registry, target) if target else default
    if name is None:
        raise RequestError(
            INVALID_REQUEST_ARGUMENTS,
            f"A session script needs a graph: alias g to one of {sorted(registry.names())}")
    return name


def _bytecode(job: Job, args: dict[str, Any]) -> tuple[Iterable[Any], int]:
    bc = args.get("gremlin")
    op = graph_op(bc)
    if op is not None:
        if (job.session is not None and job.session.end(op.name == "commit")) or op.name == "commit":
            return [], DEFAULT_BATCH_SIZE
        raise RequestError(
            SCRIPT_EVALUATION_ERROR,
            "rollback needs a session: outside a session every request commits on its own; "
            "use g.tx().begin() (gremlinpython) or a session client",
        )
    ir = to_ir(bc)
    opts = request_options(ir)
    merged = {**args, **opts}
    graph = traversal_graph(job.registry, args.get("aliases"))
    timeout = _timeout(merged, job.default_timeout_ms)
    token = _with_deadline(job, timeout)
    ctx = ExecutionContext(job.principal, WS_BYTECODE, timeout_ms=timeout, cancel=token)
    tx = job.session.transaction(graph) if job.session is not None else None
    if tx is not None:
        results: Iterable[Any] = tx.traverse(ir, ctx=ctx)
    elif few_results(ir):
        results = graph.traverse(ir, ctx=ctx)
    else:
        results = graph.iterate(ir, ctx=ctx)
    return _traversers(results), _batch_size(merged.get("batchSize"))


#: steps that end a traversal with one result per run (`Scope.local` forms excepted)
_REDUCING = frozenset({"count", "sum", "min", "max", "mean", "fold", "groupCount", "group", "tree", "cap"})
#: modulators that may follow the step they modulate
_MODULATORS = frozenset({"by", "as", "with", "option", "from", "to", "times", "until", "emit", "read", "write"})
#: a `limit`/`tail`/`range` at most this wide counts as a small result
FEW = 1000


def few_results(ir: TraversalIR) -> bool:
    """Whether a traversal can only give a handful of results (it ends in a reducing step or
    a small `limit`). Those run to a list on the request's own thread: streaming them through
    the runtime's producer thread costs about as much again as the query itself (a thread
    and queue hand-offs per request), and bought nothing for one `count()`."""
    steps = [i for i in ir.steps if i.name not in _MODULATORS]
    if not steps:
        return False
    last = steps[-1]
    if any(isinstance(a, Scope) and a is Scope.local for a in last.args):
        return False
    if last.name in _REDUCING:
        return True
    nums = [a for a in last.args if isinstance(a, int) and not isinstance(a, bool)]
    if last.name in ("limit", "tail") and len(nums) == 1:
        return 0 <= nums[0] <= FEW
    if last.name == "range" and len(nums) == 2:
        return nums[1] >= 0 and 0 <= nums[1] - nums[0] <= FEW  # range(lo, -1) is unbounded
    return False


def _traversers(results: Iterable[Any]) -> Iterator[WireTraverser]:
    try:
        for r in results:
            yield WireTraverser(r, 1)
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()  # ends the streaming transaction when a client goes away mid-stream


# ---- traversal sources ---------------------------------------------------------------------
def default_graph(registry: GraphRegistry) -> str | None:
    names = registry.names()
    if DEFAULT_GRAPH in names:
        return DEFAULT_GRAPH
    return names[0] if len(names) == 1 else None


def _graph_name(registry: GraphRegistry, target: str) -> str | None:
    name = registry.resolve_alias_target(target)
    name = name[4:] if name.startswith("__g_") else name
    return name if name in registry else None


def traversal_graph(registry: GraphRegistry, aliases: Any) -> Any:
    """The graph a bytecode request's `g` stands for."""
    target = str((aliases or {}).get("g", "g")) if isinstance(aliases, dict) else "g"
    name = _graph_name(registry, target)
    if name is None and target == "g":
        name = default_graph(registry)
    if name is None:
        raise RequestError(
            INVALID_REQUEST_ARGUMENTS,
            f"Could not alias [g] to [{target}]: no such graph or traversal source; "
            f"use one of {sorted(registry.names()) + ['__g_' + n for n in sorted(registry.names())]}",
        )
    return registry.get(name)


def script_aliases(registry: GraphRegistry, aliases: Any, default: str | None) -> dict[str, str]:
    """Eval aliases with the driver's `{"g": "g"}` default resolved to the default graph.

    When a request aliases only one of `g` and `graph` to a graph, the other follows it:
    `Client(url, "modern")` sends `{"g": "modern"}`, and a script's
    `graph.schema()...create()` must then change `modern`, not the default graph (it did:
    a schema write landed in another graph than the traversals read)."""
    if aliases is None:
        return {}
    if not isinstance(aliases, dict):
        raise RequestError(INVALID_REQUEST_ARGUMENTS, "The 'aliases' argument must be a map of names")
    out: dict[str, str] = {}
    for k, v in aliases.items():
        target = str(v)
        if _graph_name(registry, target) is None:
            if target not in ("g", "graph") or default is None:
                raise RequestError(
                    INVALID_REQUEST_ARGUMENTS,
                    f"Could not alias [{k}] to [{target}]: no such graph or traversal source; "
                    f"graphs are {sorted(registry.names())}",
                )
            target = default if target == "graph" else f"__g_{default}"
        out[str(k)] = target
    if ("g" in out) != ("graph" in out):
        name = _graph_name(registry, out.get("g") or out["graph"])
        if name is not None:
            out.setdefault("graph", name)
            out.setdefault("g", f"__g_{name}")
    return out


# ---- request options -----------------------------------------------------------------------
def _timeout(args: dict[str, Any], default: float | None) -> float | None:
    """The request's time limit: its own `evaluationTimeout` may lower the server's limit
    (`gremlinserver.evaluation_timeout_ms`, `default`), never raise or remove it (10**9 was
    honoured, and 0, "no limit" in Gremlin Server, turned the bound off). With no server
    limit (0), the request's own is used as it is."""
    ceiling = default if default is not None and default > 0 else None
    for key in ("evaluationTimeout", "scriptEvaluationTimeout"):
        if args.get(key) is not None:
            try:
                ms = float(args[key])
            except (TypeError, ValueError, OverflowError):
                raise RequestError(INVALID_REQUEST_ARGUMENTS, f"{key} must be a number of milliseconds") from None
            if not math.isfinite(ms) or ms <= 0:  # 0 means no limit, as in Gremlin Server: the server's
                return ceiling
            return ms if ceiling is None else min(ms, ceiling)
    return ceiling


def _with_deadline(job: Job, timeout_ms: float | None) -> CancelToken:
    """A fresh token with the request's deadline that the connection can still cancel."""
    token = CancelToken(timeout_ms if timeout_ms is not None and timeout_ms > 0 else None)
    parent = job.token
    if parent.cancelled:
        token.cancel()
    job.token = token
    return token


def _batch_size(value: Any) -> int:
    try:
        n = int(value) if value is not None else DEFAULT_BATCH_SIZE
    except (TypeError, ValueError):
        raise RequestError(INVALID_REQUEST_ARGUMENTS, "batchSize must be a positive integer") from None
    return n if n > 0 else DEFAULT_BATCH_SIZE

