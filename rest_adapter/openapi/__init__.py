"""The OpenAPI 3.1 description of the REST interface (`/openapi.json`), built from the route table."""

from __future__ import annotations

from rest_adapter.openapi.document import build_document, undescribed

__all__ = ["build_document", "undescribed"]
