"""The TinkerPop conformance corpus over the Gremlin Server protocol (gremlinpython clients).

`tests/features/` runs the corpus in process; this package supplies a `ScriptExecutor` that
sends every scenario to a real server instead, as script text (`eval`) or as gremlinpython
bytecode built from the scenario text (`bytecode`)."""
