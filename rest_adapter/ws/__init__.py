"""Parts of the Gremlin Server WebSocket protocol (`rest_adapter/gremlin_ws.py` is the entry)."""
