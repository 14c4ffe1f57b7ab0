"""Fixtures for the script-language tests (the host double lives in recording_host.py)."""

from __future__ import annotations

import pytest
from recording_host import RecordingHost


@pytest.fixture
def host() -> RecordingHost:
    return RecordingHost()
