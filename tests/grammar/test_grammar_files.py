"""The grammar itself: LALR tables free of conflicts and collisions, the parser singleton,
the parse cache, and the sample scripts in `valid/` (AST snapshots) and `invalid/`
(positioned errors).

Set UPDATE_SNAPSHOTS=1 to rewrite the `valid/*.ast` files after an intended change."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import grammar
from gremlin_engine.errors import GremlinSyntaxError
from gremlin_engine.syntax import parse
from gremlin_engine.syntax.ast import dump
from gremlin_engine.syntax.parser import cache_info

HERE = Path(__file__).resolve().parent
VALID = sorted((HERE / "valid").glob("*.groovy"))
INVALID = sorted((HERE / "invalid").glob("*.groovy"))


def test_grammar_builds_in_strict_mode() -> None:
    """strict=True turns shift/reduce conflicts and terminal regex collisions into errors."""
    pytest.importorskip("interegular", reason="lark's strict mode needs interegular")
    parser = grammar.build_parser(strict=True)
    tree = parser.parse("def x = g.V().has('a', P.gt(1)).values('b')\nx.toList()")
    assert tree.data == "start"
    assert len(tree.children) == 2


def test_parser_is_a_process_singleton() -> None:
    assert grammar.load_parser() is grammar.load_parser()
    assert grammar.GRAMMAR_FILE.parent == grammar.GRAMMAR_DIR
    assert grammar.GRAMMAR_FILE.is_file()


def test_parse_is_cached_by_text() -> None:
    text = "g.V().has('cached', 'probe').out('x')"
    first = parse(text)
    hits = cache_info().hits
    assert parse(text) is first
    assert cache_info().hits == hits + 1
    assert parse(text + " ") is not first
    assert parse(text + " ") == first  # positions aside, the same script


def test_positions_are_recorded() -> None:
    script = parse("x = 1\n  g.V().\n    out('a')")
    call = script.statements[1].expr
    assert call.name == "out"
    assert call.pos == (3, 5)
    assert call.target.pos == (2, 5)
    assert script.statements[0].pos == (1, 1)


def test_a_long_chain_parses_without_recursion_trouble() -> None:
    text = "g.V()" + ".out('knows')" * 3000
    expr = parse(text).statements[0].expr
    depth = 0
    while hasattr(expr, "target"):
        expr = expr.target
        depth += 1
    assert depth == 3001


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_sample_matches_its_ast_snapshot(path: Path) -> None:
    got = dump(parse(path.read_text(encoding="utf-8"))) + "\n"
    snapshot = path.with_suffix(".ast")
    if os.environ.get("UPDATE_SNAPSHOTS") or not snapshot.exists():
        snapshot.write_text(got, encoding="utf-8")
    assert got == snapshot.read_text(encoding="utf-8")


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_invalid_sample_gives_a_positioned_error(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    m = re.match(r"// expect: (\d+):(\d+) (.+)\n", text)
    assert m, f"{path.name} must start with '// expect: LINE:COL message'"
    with pytest.raises(GremlinSyntaxError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (int(m.group(1)), int(m.group(2)))
    assert m.group(3) in str(err)
    # the context snippet shows the offending line and a caret under the column
    src_line = text.splitlines()[err.line - 1]
    snippet_lines = err.context.splitlines()
    assert snippet_lines[0] == src_line[: err.column - 1 + 60][-len(snippet_lines[0]) :]
    assert snippet_lines[1].endswith("^")
    assert len(snippet_lines[1]) == err.column


def test_absurd_nesting_is_a_syntax_error_not_a_crash() -> None:
    with pytest.raises(GremlinSyntaxError, match="nested too deeply"):
        parse("(" * 3000 + "1" + ")" * 3000)


def test_moderate_nesting_is_fine() -> None:
    text = "g.V()" + ".where(__.out()" * 40 + ")" * 40
    assert parse(text).statements[0].expr.name == "where"
