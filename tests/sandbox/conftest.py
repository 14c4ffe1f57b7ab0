"""Fixtures for the sandbox tests: the recording ScriptHost double of tests/grammar."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "grammar"))

from recording_host import RecordingHost


@pytest.fixture
def host() -> RecordingHost:
    return RecordingHost()
