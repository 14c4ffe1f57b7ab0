"""The VertexProgram steps' engine: TinkerPop's graph-computer algorithms run on one machine.

TinkerGraph answers `pageRank()`, `connectedComponent()`, `peerPressure()` and
`shortestPath()` by running a vertex program on its GraphComputer (bulk-synchronous message
passing over every vertex). Here the same programs run as steps of the one executor: the
step gathers its input traversers (a barrier), reads the topology its edge traversal walks
once, in batches, through the HugeGraph traversers' adjacency (`algorithms.base.Walker`:
storage keys when the store can answer), runs the program's supersteps over plain lists
(`programs.py`, `shortest.py`), checking the run's cancel token (deadline and memory bound)
every superstep, and lets the traversal go on over a view of the graph whose vertices carry
the computed properties (`view.py`), as TinkerPop's result graph does.

* `topology.py`: vertices and message-scope adjacency, as indexes into one vertex list;
* `programs.py`: PageRank, PeerPressure and ConnectedComponent, superstep by superstep as
  TinkerPop's vertex programs define them (same halting rules, same tie-breaks);
* `shortest.py`: ShortestPathVertexProgram's path search;
* `view.py`: `ComputedAccess`, the graph view with the computed vertex properties.
"""
