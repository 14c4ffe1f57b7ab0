"""Creating, changing and removing schema: the part of the service REST and the DSL share.

Each change takes a request body in HugeGraph's REST shape (the DSL builds the same dict),
validates it with HugeGraph's rules and messages (`families.py` builds the elements), and
writes inside one transaction: the caller's `tx` (a Gremlin script's transaction) or one
the service opens. Work proportional to the data (removing a label's elements, filling a new
index) runs as a task (`jobs.py`); the change itself only records the intent (`DELETING`,
`CREATING`) and returns the task id, exactly as HugeGraph's REST API answers 202 + task_id.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from gremlin_engine.errors import ExistedError, IllegalArgument, NotFound
from gremlin_engine.schema import families, jobs, validation
from gremlin_engine.schema.model import (
    EDGE_LABEL,
    HUGE_TYPE,
    INDEX_LABEL,
    PROPERTY_KEY,
    READABLE,
    VERTEX_LABEL,
    BaseType,
    EdgeLabel,
    IndexLabel,
    PropertyKey,
    SchemaElement,
    SchemaStatus,
    VertexLabel,
)
from storage import Tx

APPEND, ELIMINATE = "append", "eliminate"
_CALLABLE = "org.apache.hugegraph.job.schema."


#: schema kind -> HugeGraph's ResourceType
SCHEMA_TYPES = {"propertykey": "PROPERTY_KEY", "vertexlabel": "VERTEX_LABEL", "edgelabel": "EDGE_LABEL",
                "indexlabel": "INDEX_LABEL"}


class SchemaChanges:
    """Mixin of `SchemaService` holding every schema change."""

    @staticmethod
    def check_name(name: Any) -> str:
        return validation.check_name(name)

    @staticmethod
    def new_user_data(user_data: Any) -> dict[str, Any]:
        return validation.new_user_data(user_data)

    # ---- create ---------------------------------------------------------------------------
    def create(self, kind: str, body: dict[str, Any], tx: Tx | None = None, *, ctx: Any = None) -> tuple[SchemaElement, int]:
        """Creates the element `body` describes; returns it and the id of the task the
        creation started (0 for none). `check_exist` (default true) refuses an existing
        name; false returns an existing element with the same definition."""
        if not isinstance(body, dict):
            raise IllegalArgument("The request body must be a JSON object")
        name = validation.check_name(body.get("name"))
        check_exist = body.get("check_exist", True) is not False
        with self.writing(tx, ctx) as t:  # type: ignore[attr-defined]
            self._permit(t, ctx, "WRITE", kind, name)
            existing = self.element(kind, name)  # type: ignore[attr-defined]
            candidate = families.build(self, kind, body, new_id=0, mode=self._mode_of(t))
            if existing is not None:
                if check_exist or not families.same_definition(existing, candidate):
                    raise ExistedError(f"The {READABLE[kind]} '{name}' has existed")
                return existing, 0
            given = body.get("id")
            element = dataclasses.replace(candidate, id=int(given) if given else t.schema.schema_next_id(kind))
            if isinstance(element, IndexLabel) and element.rebuild:
                element = dataclasses.replace(element, status=SchemaStatus.CREATING)
            self.put_element(t, element)  # type: ignore[attr-defined]
            task_id = 0
            if isinstance(element, IndexLabel):
                self._attach_index(t, element)
                if element.rebuild:
                    task_id = self._submit_job(t, "rebuild_index", element, "IndexLabelRebuildJob")
            elif isinstance(element, PropertyKey) and element.is_olap:
                task_id = self._submit_job(t, "create_olap", element, "OlapPropertyKeyCreateJob")
        return element, task_id

    def _permit(self, tx: Tx, ctx: Any, permission: str, kind: str, name: str) -> None:
        """The schema permission (issue 19): from the caller's context, else from the one the
        transaction carries (a Gremlin script's `graph.schema()...create()`)."""
        ctx = ctx if ctx is not None else tx.ctx
        if ctx is not None and not ctx.principal.admin:
            ctx.require(self.graph_name, permission, SCHEMA_TYPES[kind], name)  # type: ignore[attr-defined]

    def _mode_of(self, tx: Tx) -> str:
        mode = tx.schema.meta_get("graph.mode") if tx is not None else None
        return str(mode).upper() if mode else self.graph_mode  # type: ignore[attr-defined]

    def _attach_index(self, tx: Tx, index: IndexLabel) -> None:
        """Adds an index label's name to its base label's `index_labels`."""
        base = self._base_of(index)
        if base is not None and index.name not in base.index_labels:
            self.put_element(tx, dataclasses.replace(base, index_labels=(*base.index_labels, index.name)))  # type: ignore[attr-defined]

    def detach_index(self, tx: Tx, index: IndexLabel) -> None:
        base = self._base_of(index)
        if base is not None and index.name in base.index_labels:
            names = tuple(n for n in base.index_labels if n != index.name)
            self.put_element(tx, dataclasses.replace(base, index_labels=names))  # type: ignore[attr-defined]

    def _base_of(self, index: IndexLabel) -> VertexLabel | EdgeLabel | None:
        if index.base_type == BaseType.VERTEX_LABEL:
            return self.vertex_label(index.base_value)  # type: ignore[attr-defined,no-any-return]
        return self.edge_label(index.base_value)  # type: ignore[attr-defined,no-any-return]

    # ---- append / eliminate -----------------------------------------------------------------
    def update(
        self, kind: str, name: str, action: str | None, body: dict[str, Any], tx: Tx | None = None, *, ctx: Any = None,
    ) -> SchemaElement:
        """`PUT .../{name}?action=append|eliminate`. The REST layer answers 415 for any
        other action before calling this."""
        if not isinstance(body, dict):
            raise IllegalArgument("The request body must be a JSON object")
        body_name = body.get("name")
        if body_name is not None and body_name != name:
            raise IllegalArgument(f"The name in url({name}) and body({body_name}) are different")
        if action not in (APPEND, ELIMINATE):
            raise IllegalArgument("The action param can't be empty" if not action else f"Not support action '{action}'")
        with self.writing(tx, ctx) as t:  # type: ignore[attr-defined]
            self._permit(t, ctx, "WRITE", kind, name)
            current = self.element(kind, name)  # type: ignore[attr-defined]
            if current is None:
                raise NotFound(f"Can't update {READABLE[kind]} '{name}' since it doesn't exist")
            if action == APPEND:
                updated = families.append(self, current, body)
            else:
                updated = families.eliminate(self, current, body)
            if updated != current:
                self.put_element(t, updated)  # type: ignore[attr-defined]
            return updated

    # ---- remove -------------------------------------------------------------------------------
    def remove(self, kind: str, name: str, tx: Tx | None = None, *, ctx: Any = None) -> int:
        """Deletes a schema element; returns the id of the removal task (0 when removal was
        synchronous: property keys)."""
        with self.writing(tx, ctx) as t:  # type: ignore[attr-defined]
            self._permit(t, ctx, "DELETE", kind, name)
            element = self.get(kind, name)  # type: ignore[attr-defined]
            if isinstance(element, PropertyKey):
                self._check_key_unused(element)
                self.delete_element(t, element)  # type: ignore[attr-defined]
                return 0
            if isinstance(element, IndexLabel):
                self.put_element(t, dataclasses.replace(element, status=SchemaStatus.DELETING))  # type: ignore[attr-defined]
                return self._submit_job(t, "remove_schema", element, "IndexLabelRemoveJob")
            job = "VertexLabelRemoveJob" if kind == VERTEX_LABEL else "EdgeLabelRemoveJob"
            return self._submit_job(t, "remove_schema", element, job)

    def _check_key_unused(self, pk: PropertyKey) -> None:
        for label in (*self.vertex_labels(), *self.edge_labels()):  # type: ignore[attr-defined]
            if pk.name in label.properties:
                raise IllegalArgument(
                    f"Not allowed to remove property key: '{pk.name}' because the "
                    f"{READABLE[label.kind]} '{label.name}' is still using it."
                )

    # ---- rebuild ------------------------------------------------------------------------------
    def rebuild(self, kind: str, name: str, tx: Tx | None = None, *, ctx: Any = None) -> int:
        """`PUT /jobs/rebuild/{kind}/{name}`: refills one index label, or all of a label's."""
        if kind not in (INDEX_LABEL, VERTEX_LABEL, EDGE_LABEL):
            raise IllegalArgument(f"Can't rebuild index of {kind}")
        with self.writing(tx, ctx) as t:  # type: ignore[attr-defined]
            self._permit(t, ctx, "WRITE", kind, name)
            element = self.get(kind, name)  # type: ignore[attr-defined]
            if isinstance(element, IndexLabel):
                self.put_element(t, dataclasses.replace(element, status=SchemaStatus.REBUILDING))  # type: ignore[attr-defined]
            return self._submit_job(t, "rebuild_index", element, "IndexLabelRebuildJob" if kind == INDEX_LABEL else "RebuildIndexJob")

    # ---- tasks ----------------------------------------------------------------------------------
    # ---- after a crash ----------------------------------------------------------------------
    def resume_interrupted(self) -> list[int]:
        """Restarts the index jobs a killed process left half done, as the graph opens: an
        index label still CREATING or REBUILDING is rebuilt (the rebuild drops what the
        index holds first, so a partial fill is redone whole), one still DELETING is removed.
        Their old tasks were marked failed by the task manager's recovery; without this the
        label stayed CREATING for good. A job that another server process of the store holds
        (`serve --workers N`) is left to it. Returns the new tasks' ids."""
        unfinished = [il for il in self.index_labels()  # type: ignore[attr-defined]
                      if il.status in (SchemaStatus.CREATING, SchemaStatus.REBUILDING, SchemaStatus.DELETING)]
        if not unfinished:
            return []
        ids = []
        with self.writing() as t:  # type: ignore[attr-defined]
            self.graph.tasks.recover(t)  # type: ignore[attr-defined]
            for il in unfinished:
                if self.graph.tasks.held_elsewhere(t, f"{HUGE_TYPE[il.kind]}:{il.id}:{il.name}"):  # type: ignore[attr-defined]
                    continue  # another server process of this store is running its job
                if il.status is SchemaStatus.DELETING:
                    ids.append(self._submit_job(t, "remove_schema", il, "IndexLabelRemoveJob"))
                else:
                    ids.append(self._submit_job(t, "rebuild_index", il, "IndexLabelRebuildJob"))
        return ids

    def _submit_job(self, tx: Tx, task_type: str, element: SchemaElement, job: str) -> int:
        fn = jobs.job_for(self, task_type, element)
        return int(
            self.graph.tasks.submit(  # type: ignore[attr-defined]
                task_type,
                f"{HUGE_TYPE[element.kind]}:{element.id}:{element.name}",
                _CALLABLE + job,
                None,
                fn,
                tx=tx,
            )
        )


__all__ = ["SchemaChanges", "APPEND", "ELIMINATE", "PROPERTY_KEY"]
