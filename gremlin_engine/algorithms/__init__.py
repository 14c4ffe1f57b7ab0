"""HugeGraph's traverser and rank algorithms as engine steps of our own.

Gremlin expresses none of these directly with HugeGraph's limits (capacity, max/skip degree,
sampling, nearest), so each family is a module of steps that run on the same batched
`GraphAccess` adjacency the Gremlin steps use (`base.Walker`):

=================  =======================================================================
`neighbors`        `hg_kout`, `hg_kneighbor`
`shortest`         `hg_shortestpath`, `hg_allshortestpaths`, `hg_weightedshortestpath`,
                   `hg_singlesourceshortestpath`, `hg_multinodeshortestpath`
`paths`            `hg_paths`, `hg_crosspoints`, `hg_rings`, `hg_rays`,
                   `hg_customizedpaths`, `hg_templatepaths`, `hg_customizedcrosspoints`
`similarity`       `hg_sameneighbors`, `hg_jaccardsimilarity`, `hg_fusiformsimilarity`,
                   `hg_adamicadar`, `hg_resourceallocation`
`rank`             `hg_personalrank`, `hg_neighborrank`
`scan`             `hg_count`, `hg_edgeexist`, `hg_vertices`, `hg_edges`, `hg_shards`,
                   `hg_scan`
=================  =======================================================================

Every step takes request maps as its input traversers and yields one result map each:
`g.inject({"source": "1:marko", "max_depth": 2}).hg_kout()`. `STEPS` is the table merged
into the step registry (`traversal/registry.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import neighbors, paths, patterns, rank, scan, shortest, similarity

_MODULES = (neighbors, shortest, paths, patterns, similarity, rank, scan)

STEPS: dict[str, tuple[Callable[..., Any], str]] = {
    cls.name: (cls, "")
    for mod in _MODULES
    for cls in vars(mod).values()
    if isinstance(cls, type) and getattr(cls, "__module__", None) == mod.__name__ and str(getattr(cls, "name", "")).startswith("hg_")
}
