"""`python -m rest_adapter ...` is the `hugelite` command."""

from __future__ import annotations

from rest_adapter.cli import main

main(prog_name="hugelite")
