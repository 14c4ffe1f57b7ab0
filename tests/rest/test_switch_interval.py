"""`hugelite serve`'s thread switch interval: CPython's unless `HUGELITE_SWITCH_INTERVAL_MS`
says otherwise (`rest_adapter.cli.set_switch_interval`)."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest

from rest_adapter import cli


@pytest.fixture
def restore_interval() -> Iterator[float]:
    before = sys.getswitchinterval()
    yield before
    sys.setswitchinterval(before)


def test_default_leaves_the_interval(monkeypatch: pytest.MonkeyPatch, restore_interval: float) -> None:
    monkeypatch.delenv("HUGELITE_SWITCH_INTERVAL_MS", raising=False)
    assert cli.SWITCH_INTERVAL_MS is None
    assert cli.set_switch_interval() == restore_interval


def test_environment_sets_it_in_ms(monkeypatch: pytest.MonkeyPatch, restore_interval: float) -> None:
    monkeypatch.setenv("HUGELITE_SWITCH_INTERVAL_MS", "0.5")
    assert cli.set_switch_interval() == pytest.approx(0.0005)
    assert sys.getswitchinterval() == pytest.approx(0.0005)


def test_zero_or_empty_changes_nothing(monkeypatch: pytest.MonkeyPatch, restore_interval: float) -> None:
    for value in ("0", ""):
        monkeypatch.setenv("HUGELITE_SWITCH_INTERVAL_MS", value)
        assert cli.set_switch_interval() == restore_interval
