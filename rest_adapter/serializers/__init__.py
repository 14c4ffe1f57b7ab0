"""Wire formats: HugeGraph REST JSON shapes and the Gremlin Server codecs (GraphBinary,
GraphSON). `mime.codec_for(mime_type)` is the one entry point the WebSocket layer uses."""
