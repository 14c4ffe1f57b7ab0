"""A/B of the light traverser GETs as `bench.traversers` sends them: two trees' servers, server CPU.

    git worktree add --detach /tmp/ab-base HEAD~3       # the "before" tree
    cp STORE /tmp/a.db; cp STORE /tmp/b.db              # a large `bench.traversers --keep` bench.db, twice
    python -m bench.traverser_ab /tmp/ab-base /tmp/a.db /work/main /tmp/b.db [--rounds 16] [--cold 20] \\
        [--ops kout1 kout1ids kout2 kout2ids kn2 kn2ids versions]

`bench.rest_ab` (its servers, rounds and schedstat CPU, alternating A B / B A) with the
requests of `bench.traversers`' rows: `direction=OUT&label=knows&max_degree=-1`, counts
(`count_only=true`) and listings (`count_only=false`, the vertex ids), over the workload's
first 20 probe vertices (repeated to 200 requests a round), and the headers httpx sends
(`Accept-Encoding: gzip, deflate`), so gzip is chosen as for the benchmark's client. A
gzipped answer is decoded before the two servers' answers are compared (`cost(ns)`
stripped); `heads same` compares the response heads up to their length line.
"""

from __future__ import annotations

from bench.rest_ab import Server, ab_parser, compare
from bench.workload import workload

T = "/graphs/bench/traversers"
_COMMON = "direction=OUT&label=knows&max_degree=-1"
FORMS = {
    "kout1": f"{T}/kout?source={{v}}&max_depth=1&{_COMMON}&count_only=true&capacity=-1&limit=-1",
    "kout1ids": f"{T}/kout?source={{v}}&max_depth=1&{_COMMON}&count_only=false&capacity=-1&limit=-1",
    "kout2": f"{T}/kout?source={{v}}&max_depth=2&{_COMMON}&count_only=true&capacity=-1&limit=-1",
    "kout2ids": f"{T}/kout?source={{v}}&max_depth=2&{_COMMON}&count_only=false&capacity=-1&limit=-1",
    "kn2": f"{T}/kneighbor?source={{v}}&max_depth=2&{_COMMON}&count_only=true&limit=-1",
    "kn2ids": f"{T}/kneighbor?source={{v}}&max_depth=2&{_COMMON}&count_only=false&limit=-1",
    "versions": "/versions",
}


class HttpxLike(Server):
    """`rest_ab.Server` sending httpx's request headers (gzipped bodies come back decoded)."""

    HEADERS = ("Accept: */*\r\nAccept-Encoding: gzip, deflate\r\nConnection: keep-alive\r\n"
               "User-Agent: python-httpx/0.27.0\r\n")


def main() -> None:
    ap = ab_parser(__doc__, 16)
    ap.add_argument("--ops", nargs="*", default=["kout1", "kout1ids", "kout2", "kout2ids", "kn2", "kn2ids"])
    args = ap.parse_args()
    probes = [p + 1 for p in workload("large").probe_vertices(100)][:20]
    servers = {"A": HttpxLike(args.a_tree, args.a_store, "auto", "bench"),
               "B": HttpxLike(args.b_tree, args.b_store, "auto", "bench")}
    try:
        for op in args.ops:
            compare(servers, op, [FORMS[op].format(v=v) for v in probes] * 10, args.rounds, args.cold)
    finally:
        for s in servers.values():
            s.stop()


if __name__ == "__main__":
    main()
