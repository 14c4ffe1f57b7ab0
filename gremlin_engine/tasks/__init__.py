"""Asynchronous tasks: persistent records plus the per-graph worker pool (`manager.py`)."""

from gremlin_engine.tasks.manager import TaskContext, TaskManager

__all__ = ["TaskContext", "TaskManager"]
