"""The web console in headless Chromium against a real server (issue 22): it loads, runs a
script on the Grateful Dead graph and shows the answer as a table, as JSON and as a drawing,
expands a vertex, shows errors, keeps its history in the browser, shows the schema, looks
vertices up and cancels a running task. Every value it shows came through the public REST API.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.conftest import RunningServer
from tests.console.conftest import PEOPLE, shot

LONG_JOB = "g.inject(1).repeat(identity()).times(60000000).count()"


def open_console(page: Any, graph: str = "dead") -> None:
    page.goto("/console")
    page.wait_for_selector(f"#graph-picker option[value={graph}]", state="attached")
    page.select_option("#graph-picker", graph)


def run(page: Any, script: str) -> None:
    """Types `script` into the editor and runs it with Ctrl-Enter; waits for the answer."""
    page.click(".cm-content")
    page.keyboard.press("Control+a")
    page.keyboard.type(script)
    page.keyboard.press("Control+Enter")
    page.wait_for_function("""() => /results? in/.test(document.querySelector('#query-status').textContent)
        || !document.querySelector('#query-error').hidden""")


def drawn(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => { const cy = window.hugeliteConsole.graphView.cy;
        return {nodes: cy.nodes().map(n => n.data('vid')), edges: cy.edges().map(e => [e.source().data('vid'),
        e.target().data('vid')]), colors: Object.fromEntries(cy.nodes().map(n => [n.data('label'), n.data('color')]))}; }""")


def test_browsers_get_a_link_to_the_console_and_clients_keep_json(console_server: RunningServer) -> None:
    html = httpx.get(console_server.base_url + "/", headers={"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"})
    assert html.headers["content-type"].startswith("text/html")
    assert 'href="/console"' in html.text
    for accept in ("*/*", "application/json", "application/json, text/html"):
        profile = httpx.get(console_server.base_url + "/", headers={"Accept": accept})
        assert profile.json()["implementation"] == "hugelite", accept
    page = httpx.get(console_server.base_url + "/console")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert 'content="5000"' in page.text  # the evaluation timeout, filled in by the server
    script = httpx.get(console_server.base_url + "/console/console.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]


def test_ten_vertices_as_a_table_and_a_drawing_of_ten_nodes(page: Any) -> None:
    open_console(page)
    assert page.inner_text("#timeout") == "5 s"
    run(page, "g.V().limit(10)")
    assert page.inner_text("#query-status").startswith("10 results in ")
    rows = page.locator("#view-table tbody tr")
    assert rows.count() == 10
    assert page.locator("#view-table thead th").all_inner_texts()[:3] == ["#", "id", "label"]
    assert rows.nth(0).locator("td").nth(1).inner_text() == "1"  # the first song's id
    assert "HEY BO DIDDLEY" in rows.nth(0).inner_text()
    shot(page, "table")

    page.click(".views button[data-view=json]")
    answer = json.loads(page.inner_text("#view-json"))
    assert [v["id"] for v in answer] == list(range(1, 11))

    page.click(".views button[data-view=graph]")
    picture = drawn(page)
    assert sorted(picture["nodes"]) == list(range(1, 11))
    assert picture["edges"] == []
    assert page.inner_text("#graph-info") == "10 vertices, 0 edges drawn"
    assert page.locator("#graph-canvas canvas").count() > 0


def test_clicking_a_vertex_draws_its_neighbours(page: Any, console_server: RunningServer) -> None:
    open_console(page)
    run(page, "g.V().hasLabel('artist').limit(10)")
    page.click(".views button[data-view=graph]")
    before = drawn(page)
    assert len(before["nodes"]) == 10
    target = before["nodes"][0]
    edges = httpx.get(console_server.base_url + "/graphs/dead/graph/edges",
                      params={"vertex_id": json.dumps(target), "direction": "BOTH", "limit": 50}).json()["edges"]
    assert edges, "the artist has songs"
    x, y = page.evaluate(f"""() => {{ const p = window.hugeliteConsole.graphView.cy.getElementById('v:{target}')
        .renderedPosition(); return [p.x, p.y]; }}""")
    box = page.locator("#graph-canvas").bounding_box()
    page.mouse.click(box["x"] + x, box["y"] + y)
    page.wait_for_function("() => window.hugeliteConsole.graphView.cy.edges().length > 0")
    after = drawn(page)
    far = {e["outV"] if e["inV"] == target else e["inV"] for e in edges}
    assert set(after["nodes"]) == set(before["nodes"]) | far
    assert sorted(map(tuple, after["edges"])) == sorted((e["outV"], e["inV"]) for e in edges)
    assert after["colors"]["artist"] != after["colors"]["song"]  # labels coloured
    assert page.inner_text("#graph-info").startswith(f"{len(after['nodes'])} vertices, {len(edges)} edges drawn")
    shot(page, "graph")


def test_paths_are_drawn_and_the_draw_limit_holds(page: Any) -> None:
    open_console(page)
    run(page, "g.V(1).outE('followedBy').inV().path().limit(3)")
    picture = drawn(page)
    assert len(picture["edges"]) == 3 and all(src == 1 for src, _ in picture["edges"])
    page.fill("#draw-limit", "4")
    run(page, "g.V().limit(10)")
    assert len(drawn(page)["nodes"]) == 4
    assert page.inner_text("#graph-info") == "4 vertices, 0 edges drawn; 6 more not drawn (limit 4)"
    assert page.locator("#view-table tbody tr").count() == 10  # the table has them all


def test_a_bad_script_shows_the_servers_message(page: Any) -> None:
    open_console(page)
    run(page, "g.V().limit(2)")
    run(page, "g.V(.bad")
    error = page.locator("#query-error")
    assert error.is_visible()
    assert "unexpected '.' at line 1, column 5" in error.inner_text()
    assert page.inner_text("#query-status") == ""
    assert page.locator("#view-table tr").count() == 0  # the previous answer is gone
    assert drawn(page)["nodes"] == []
    shot(page, "error")


def test_history_is_kept_in_the_browser(page: Any) -> None:
    open_console(page)
    run(page, "g.V().count()")
    run(page, "g.E().count()")
    page.reload()
    page.wait_for_selector("#graph-picker option[value=dead]", state="attached")
    assert page.locator("#history option").all_inner_texts() == ["history…", "g.E().count()", "g.V().count()"]
    assert page.inner_text(".cm-content") == "g.E().count()"  # the last script comes back
    page.click(".cm-content")
    page.keyboard.press("Control+ArrowUp")
    page.keyboard.press("Control+ArrowUp")
    assert page.inner_text(".cm-content") == "g.V().count()"
    page.keyboard.press("Control+Enter")
    page.wait_for_function("() => document.querySelector('#view-table td:last-child')?.textContent === '808'")


def test_schema_as_tables_and_a_picture(page: Any) -> None:
    open_console(page)
    page.click("#tabs button[data-tab=schema]")
    labels = page.locator("table[data-family=vertexlabels] tbody tr td:first-child").all_inner_texts()
    assert sorted(labels) == ["artist", "song"]
    edges = page.locator("table[data-family=edgelabels] tbody tr")
    assert sorted(edges.all_inner_texts()) == sorted(edges.all_inner_texts())
    links = {r.split("\t")[0]: r.split("\t")[1] for r in edges.all_inner_texts()}
    assert links == {"followedBy": "song → song", "sungBy": "song → artist", "writtenBy": "song → artist"}
    picture = page.evaluate("""() => { const cy = window.hugeliteConsole.schemaPicture.cy;
        return [cy.nodes().map(n => n.id()).sort(), cy.edges().map(e => e.data('label') + ':' + e.source().id()
        + '>' + e.target().id()).sort()]; }""")
    assert picture == [["artist", "song"], ["followedBy:song>song", "sungBy:song>artist", "writtenBy:song>artist"]]
    shot(page, "schema")


def test_vertex_lookup_by_id_and_by_indexed_property(page: Any) -> None:
    open_console(page, "people")
    page.click("#tabs button[data-tab=lookup]")
    page.fill("#lookup-id [name=id]", "1:josh")
    page.click("#lookup-id button")
    page.wait_for_selector("#lookup-result tbody tr")
    assert "josh" in page.inner_text("#lookup-result tbody") and "32" in page.inner_text("#lookup-result tbody")

    assert page.locator("#lookup-prop [name=key] option").all_inner_texts() == ["name", "city"]
    page.select_option("#lookup-prop [name=key]", "city")
    page.fill("#lookup-prop [name=value]", "Rome")
    page.click("#lookup-prop button")
    page.wait_for_function("() => document.querySelectorAll('#lookup-result tbody tr').length === 2")
    names = sorted(n for n, _, city in PEOPLE if city == "Rome")
    assert sorted(page.locator("#lookup-result tbody tr td:nth-child(4)").all_inner_texts()) == names
    shot(page, "lookup")

    page.fill("#lookup-id [name=id]", "1:nobody")
    page.click("#lookup-id button")
    page.wait_for_selector("#lookup-error:not([hidden])")
    assert "1:nobody" in page.inner_text("#lookup-error")


def test_a_running_task_is_listed_and_cancelled(page: Any, console_server: RunningServer) -> None:
    """On the sqlite graph: a memory graph's task list waits for its running job to end."""
    with httpx.Client(base_url=console_server.base_url, timeout=60) as client:
        # warm the engine's first-script imports, so the job is inside its loop when cancelled
        warm = client.post("/gremlin", json={"gremlin": LONG_JOB.replace("60000000", "10"),
                                             "aliases": {"graph": "people", "g": "__g_people"}})
        assert warm.status_code == 200, warm.text
        open_console(page, "people")
        run(page, "g.V().count()")
        page.click(".cm-content")
        page.keyboard.press("Control+a")
        page.keyboard.type(LONG_JOB)
        page.click("#run-task")
        page.wait_for_function("() => /submitted as task \\d+/.test(document.querySelector('#query-status').textContent)")
        task_id = int(page.inner_text("#query-status").split()[3].rstrip(":"))
        try:
            page.click("#tabs button[data-tab=tasks]")
            row = page.locator(f"#tasks-table tr[data-task-id='{task_id}']")
            row.locator("text=running").wait_for()
            shot(page, "tasks")
            row.locator("button", has_text="Cancel").click()
            page.wait_for_function(f"""() => !document.querySelector("#tasks-table tr[data-task-id='{task_id}']")""")
            assert client.get(f"/graphs/people/tasks/{task_id}").json()["task_status"] in ("cancelling", "cancelled")
            page.check("#tasks-all")
            row.locator("text=cancelled").wait_for(timeout=10_000)
        finally:
            if client.get(f"/graphs/people/tasks/{task_id}").json()["task_status"] not in ("success", "failed", "cancelled"):
                client.delete(f"/graphs/people/tasks/{task_id}", params={"force": "true"})
