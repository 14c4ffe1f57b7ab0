"""The edge and vertex rules of one traverser step, parsed from HugeGraph's request objects.

HugeGraph's traversers share a handful of "step" shapes (reference §7):

* `Step` (`paths`, `jaccardsimilarity` POST, `multinodeshortestpath`, customized paths):
  `{"direction", "labels": [...], "properties": {...}, "max_degree" | "degree", "skip_degree"}`;
* `VESteps` (`kout`/`kneighbor` POST): `{"direction", "edge_steps": [{"label", "properties"}],
  "vertex_steps": [{"label", "properties"}], "max_degree", "skip_degree"}`;
* the GET form: a `direction`, one `label`, `max_degree`, `skip_degree`.

All of them become one `EdgeStep`: the direction, the labels handed to the adjacency query,
edge rules (an edge passes when it matches any rule: label and every property condition),
vertex rules (likewise for the vertex reached) and the degree knobs. The parsing (and
every 400 for a bad value, worded as HugeGraph words it) lives here so that a REST handler
and a Gremlin `inject([...]).hg_kout()` caller get the same checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gremlin_engine.errors import IllegalArgument
from gremlin_engine.traversal.predicates import P
from gremlin_engine.traversal.steps.hugegraph.conditions import parse_conditions
from gremlin_engine.traversal.tokens import Direction

NO_LIMIT = -1
DEFAULT_MAX_DEGREE = 10_000
DEFAULT_CAPACITY = 10_000_000
DEFAULT_ELEMENTS_LIMIT = 10_000_000
DEFAULT_PATHS_LIMIT = 10
DEFAULT_SAMPLE = 100
MAX_SKIP_DEGREE = 800_000  # HugeGraph's Query.DEFAULT_CAPACITY caps skip_degree

Rule = tuple[str | None, tuple[tuple[str, P], ...]]  # (label or None = any, conditions)


@dataclass(frozen=True)
class EdgeStep:
    direction: Direction = Direction.BOTH
    labels: tuple[str, ...] = ()  # for the adjacency query; () = every label
    edge_rules: tuple[Rule, ...] = ()  # () = every edge passes
    vertex_rules: tuple[Rule, ...] = ()  # () = every vertex passes
    max_degree: int = DEFAULT_MAX_DEGREE
    skip_degree: int = 0
    sample: int = NO_LIMIT  # customized paths: keep n passing edges per vertex, picked at random
    weight_by: str | None = None
    default_weight: float | None = None

    @property
    def needs_edges(self) -> bool:
        """Whether the step must read edge rows (property rules), not just neighbour ids."""
        return any(conds for _, conds in self.edge_rules)

    def reverse(self) -> EdgeStep:
        return EdgeStep(opposite(self.direction), self.labels, self.edge_rules, self.vertex_rules,
                        self.max_degree, self.skip_degree, self.sample, self.weight_by, self.default_weight)


def opposite(d: Direction) -> Direction:
    return {Direction.OUT: Direction.IN, Direction.IN: Direction.OUT}.get(d, Direction.BOTH)


# ---- scalar checks (HugeGraph's messages) ------------------------------------------------


def as_int(value: Any, name: str) -> int:
    """Integers, and numbers given as strings (Jackson coerces `"max_depth": "3"`)."""
    if isinstance(value, bool):
        raise IllegalArgument(f"The {name} must be a number, but got {value!r}")
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            pass
    raise IllegalArgument(f"The {name} must be an integer, but got {value!r}")


def as_float(value: Any, name: str) -> float:
    if isinstance(value, bool):
        raise IllegalArgument(f"The {name} must be a number, but got {value!r}")
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value.strip())
        except ValueError:
            pass
    raise IllegalArgument(f"The {name} must be a number, but got {value!r}")


def as_bool(value: Any, name: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise IllegalArgument(f"The {name} must be a boolean, but got {value!r}")


def get_int(req: Mapping[str, Any], key: str, default: int, name: str | None = None) -> int:
    value = req.get(key)
    return default if value is None else as_int(value, name or key)


def get_bool(req: Mapping[str, Any], key: str, default: bool) -> bool:
    value = req.get(key)
    return default if value is None else as_bool(value, key)


def positive(value: int, name: str) -> int:
    if value <= 0:
        raise IllegalArgument(f"The {name} parameter must be > 0, but got {value}")
    return value


def positive_or_no_limit(value: int, name: str, label: str = "parameter ") -> int:
    """`max_degree`, `capacity`, `limit`: > 0, or -1 for no limit."""
    if value <= 0 and value != NO_LIMIT:
        raise IllegalArgument(f"The {name} {label}must be > 0 or == -1, but got: {value}")
    return value


def degree(value: int, in_step: bool = False) -> int:
    return positive_or_no_limit(value, "max degree", "" if in_step else "parameter ")


def capacity(value: int) -> int:
    return positive_or_no_limit(value, "capacity")


def limit(value: int) -> int:
    return positive_or_no_limit(value, "limit")


def skip_degree(value: int, max_degree: int, cap: int | None = None) -> int:
    """HugeGraph's `checkSkipDegree`: 0 disables; else it must be >= max_degree."""
    if value < 0 or value > MAX_SKIP_DEGREE:
        raise IllegalArgument(f"The skipped degree must be in [0, {MAX_SKIP_DEGREE}], but got '{value}'")
    if cap is not None and cap != NO_LIMIT:
        if max_degree == NO_LIMIT or max_degree >= cap:
            raise IllegalArgument("The max degree must be < capacity")
        if value >= cap:
            raise IllegalArgument("The skipped degree must be < capacity")
    if value > 0 and max_degree != NO_LIMIT and value < max_degree:
        raise IllegalArgument(
            f"The skipped degree must be >= max degree, but got skipped degree '{value}' and max degree '{max_degree}'"
        )
    return value


def direction(value: Any, name: str = "direction") -> Direction:
    if value is None:
        return Direction.BOTH
    if isinstance(value, Direction):
        return value
    text = str(value).upper()
    if text in ("OUT", "IN", "BOTH"):
        return Direction[text]
    raise IllegalArgument(f"The {name} must be in [OUT, IN, BOTH], but got '{value}'")


# ---- labels and property conditions -------------------------------------------------------


def check_edge_labels(schema: Any, labels: Sequence[str]) -> None:
    """400 `Undefined edge label: 'x'` in strict mode (auto mode knows no label in advance)."""
    for name in labels:
        if not isinstance(name, str):
            raise IllegalArgument("Each edge label must be a string")
    if schema is None or getattr(schema, "auto", False):
        return
    for name in labels:
        if schema.edge_label(name) is None:
            raise IllegalArgument(f"Undefined edge label: '{name}'")


def check_vertex_label(schema: Any, name: str) -> None:
    if schema is None or getattr(schema, "auto", False):
        return
    if schema.vertex_label(name) is None:
        raise IllegalArgument(f"Undefined vertex label: '{name}'")


def conditions(schema: Any, props: Any, what: str = "properties") -> tuple[tuple[str, P], ...]:
    """`{"weight": "P.gt(0.1)", "city": "Beijing"}` -> ((key, P), ...)."""
    if props is None:
        return ()
    if not isinstance(props, Mapping):
        raise IllegalArgument(f"The {what} must be an object, but got {props!r}")
    if not props:
        return ()

    auto = schema is None or getattr(schema, "auto", False)
    if schema is None:
        return tuple(parse_conditions(_NoSchema(), props, auto=True))
    return tuple(parse_conditions(schema, props, auto=auto))


class _NoSchema:
    auto = True

    def property_key(self, name: str) -> None:
        return None

    def coerce(self, pk: Any, value: Any) -> Any:
        return value


def _labels_of(value: Any, name: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple) and all(isinstance(x, str) for x in value):
        return list(value)
    raise IllegalArgument(f"The {name} must be a list of labels, but got {value!r}")


def _degree_of(body: Mapping[str, Any]) -> int:
    value = body.get("max_degree", body.get("degree"))
    return degree(as_int(value, "max degree"), in_step=True) if value is not None else DEFAULT_MAX_DEGREE


def parse_step(schema: Any, body: Any, name: str = "step", weights: bool = False, sample: bool = False) -> EdgeStep:
    """A POST `Step` object (`labels`, `properties`, `max_degree`/`degree`, `skip_degree`,
    and for customized paths `weight_by`/`default_weight`/`sample`)."""
    if body is None:
        body = {}
    if not isinstance(body, Mapping):
        raise IllegalArgument(f"The {name} must be an object, but got {body!r}")
    labels = _labels_of(body.get("labels", body.get("label")), f"{name} labels")
    check_edge_labels(schema, labels)
    conds = conditions(schema, body.get("properties"), f"{name} properties")
    max_degree = _degree_of(body)
    skip = skip_degree(as_int(body.get("skip_degree", 0), "skip degree"), max_degree)
    rules: tuple[Rule, ...] = ()
    if conds:
        rules = tuple((lb, conds) for lb in labels) if labels else ((None, conds),)
    weight_by = body.get("weight_by")
    default_weight = body.get("default_weight")
    if weights:
        if weight_by is not None and default_weight is not None:
            raise IllegalArgument("The weight_by and default_weight can't be set at the same time")
        if weight_by is not None and not isinstance(weight_by, str):
            raise IllegalArgument(f"The weight_by must be a property key name, but got {weight_by!r}")
        default_weight = as_float(default_weight, "default_weight") if default_weight is not None else None
    else:
        weight_by, default_weight = None, None
    n = NO_LIMIT
    if sample:
        n = as_int(body.get("sample", DEFAULT_SAMPLE), "sample")
        if n <= 0 and n != NO_LIMIT:
            raise IllegalArgument(f"The sample must be > 0 or == -1, but got: {n}")
    return EdgeStep(direction(body.get("direction"), f"{name} direction"), tuple(labels), rules, (),
                    max_degree, skip, n, weight_by, default_weight)


def parse_vesteps(schema: Any, body: Any) -> EdgeStep:
    """The kout/kneighbor POST `steps` object (`edge_steps` / `vertex_steps`)."""
    if body is None:
        raise IllegalArgument("The steps can't be null")
    if not isinstance(body, Mapping):
        raise IllegalArgument(f"The steps must be an object, but got {body!r}")
    edge_rules: list[Rule] = []
    labels: list[str] = []
    any_label = False
    for item in body.get("edge_steps") or ():
        if not isinstance(item, Mapping):
            raise IllegalArgument(f"Each edge step must be an object, but got {item!r}")
        lb = item.get("label")
        if lb is not None:
            check_edge_labels(schema, [lb])
            labels.append(lb)
        else:
            any_label = True
        edge_rules.append((lb, conditions(schema, item.get("properties"), "edge_steps properties")))
    vertex_rules: list[Rule] = []
    for item in body.get("vertex_steps") or ():
        if not isinstance(item, Mapping):
            raise IllegalArgument(f"Each vertex step must be an object, but got {item!r}")
        lb = item.get("label")
        if lb is not None:
            check_vertex_label(schema, lb)
        vertex_rules.append((lb, conditions(schema, item.get("properties"), "vertex_steps properties")))
    max_degree = _degree_of(body)
    skip = skip_degree(as_int(body.get("skip_degree", 0), "skip degree"), max_degree)
    query_labels = () if any_label else tuple(dict.fromkeys(labels))
    rules: tuple[Rule, ...] = ()
    if any(c for _, c in edge_rules) and not any(lb is None and not c for lb, c in edge_rules):
        rules = tuple(edge_rules)
    return EdgeStep(direction(body.get("direction")), query_labels, rules, tuple(vertex_rules), max_degree, skip)


def get_step(schema: Any, req: Mapping[str, Any], max_degree_default: int = DEFAULT_MAX_DEGREE) -> EdgeStep:
    """The GET form: `direction`, a single `label`, `max_degree`, `skip_degree`."""
    label = req.get("label")
    labels = _labels_of(label, "label")
    check_edge_labels(schema, labels)
    max_degree = degree(get_int(req, "max_degree", max_degree_default))
    skip = skip_degree(get_int(req, "skip_degree", 0), max_degree)
    return EdgeStep(direction(req.get("direction")), tuple(labels), (), (), max_degree, skip)


def rule_matches(rules: tuple[Rule, ...], label: str, props: Mapping[str, Any] | None) -> bool:
    """An element passes when there are no rules or it matches one (label and conditions)."""
    if not rules:
        return True
    for lb, conds in rules:
        if lb is not None and lb != label:
            continue
        if all(_holds(props, k, p) for k, p in conds):
            return True
    return False


def _holds(props: Mapping[str, Any] | None, key: str, p: P) -> bool:
    if props is None or key not in props:
        return False
    value = props[key]
    return bool(p.test(value))
