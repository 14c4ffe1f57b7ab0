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

import argparse
import gzip

from bench.rest_ab import Server, compare
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
HEADERS = ("Accept: */*\r\nAccept-Encoding: gzip, deflate\r\nConnection: keep-alive\r\n"
           "User-Agent: python-httpx/0.27.0\r\n")


class HttpxLike(Server):
    """`rest_ab.Server` sending httpx's request headers; gzipped bodies come back decoded."""

    def get(self, path: str) -> tuple[int, bytes, bytes]:
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{HEADERS}\r\n".encode())
        while b"\r\n\r\n" not in self.buf:
            self.buf += self.sock.recv(65536)
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        while len(rest) < length:
            rest += self.sock.recv(65536)
        body, self.buf = rest[:length], rest[length:]
        if b"\r\ncontent-encoding: gzip" in head.lower():
            body = gzip.decompress(body)
        return int(head[9:12]), head.split(b"\r\ncontent-length")[0], body


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a_tree")
    ap.add_argument("a_store")
    ap.add_argument("b_tree")
    ap.add_argument("b_store")
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument("--ops", nargs="*", default=["kout1", "kout1ids", "kout2", "kout2ids", "kn2", "kn2ids"])
    ap.add_argument("--cold", type=int, default=0, help="requests per burst, caches evicted between bursts")
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
