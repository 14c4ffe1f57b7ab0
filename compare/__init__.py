"""The anchors: real Apache HugeGraph and TinkerPop Gremlin Server, fetched from Maven Central
and run beside hugelite so that the differential suite (`tests/differential/`) and the shared
benchmark can send both the same requests. Nothing here is imported by hugelite itself."""
