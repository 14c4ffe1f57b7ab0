// The console's page: wires the graph picker, the tabs and the views to the REST API.
// Every call goes through api.js, so the console sees exactly what any client sees.
import "./console.css";

import { ApiError, currentUser, gremlin, graphPath, login, logout, onUnauthorized, request } from "./api.js";
import { createEditor } from "./editor.js";
import { GraphView } from "./graphview.js";
import { loadHistory, remember } from "./history.js";
import { byId, byProperty, searchableProperties } from "./lookup.js";
import { renderSchemaTables, SchemaPicture } from "./schema.js";
import { renderTable } from "./table.js";
import { cancelTask, isFinished, loadTasks, renderTasks } from "./tasks.js";

const $ = (sel) => document.querySelector(sel);
const GRAPH_KEY = "hugelite.console.graph";

const state = { graph: null, schema: {}, answer: [], tab: "query", view: "table", tasksTimer: null };

function show(el, text) {
  el.textContent = text;
  el.hidden = !text;
}

// ---- timeout (the server writes its evaluation timeout into the page) ----
function timeoutText() {
  const ms = Number(document.querySelector('meta[name="hugelite-evaluation-timeout-ms"]').content);
  if (!Number.isFinite(ms) || ms <= 0) return "none";
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

// ---- login ----
function lock() {
  document.body.classList.add("locked");
  $("#login").hidden = false;
  $("#login-form [name=user_name]").focus();
}

async function unlock() {
  document.body.classList.remove("locked");
  $("#login").hidden = true;
  const user = currentUser();
  $("#who").textContent = user ? `logged in as ${user}` : "";
  $("#logout").hidden = !user;
  await loadGraphs();
}

$("#login-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  show($("#login-error"), "");
  try {
    await login(form.get("user_name"), form.get("user_password"));
    event.target.reset();
    await unlock();
  } catch (e) {
    show($("#login-error"), e.message);
  }
});

$("#logout").addEventListener("click", () => {
  request("DELETE", "/auth/logout").catch(() => {});
  logout();
  $("#who").textContent = "";
  $("#logout").hidden = true;
  lock();
});

onUnauthorized(lock);

// ---- graphs and schema ----
async function loadGraphs() {
  const { graphs } = await request("GET", "/graphs");
  const picker = $("#graph-picker");
  picker.replaceChildren(...graphs.map((g) => new Option(g, g)));
  const saved = localStorage.getItem(GRAPH_KEY);
  picker.value = graphs.includes(saved) ? saved : graphs[0] || "";
  await selectGraph(picker.value);
}

async function selectGraph(graph) {
  state.graph = graph;
  localStorage.setItem(GRAPH_KEY, graph);
  state.schema = graph ? await request("GET", graphPath(graph, "/schema")) : {};
  renderSchemaTables($("#schema-tables"), state.schema);
  schemaPicture.show(state.schema);
  fillLookupLabels();
  if (state.tab === "tasks") refreshTasks();
}

$("#graph-picker").addEventListener("change", (e) => selectGraph(e.target.value).catch(report));

// ---- tabs and result views ----
function selectTab(tab) {
  state.tab = tab;
  document.querySelectorAll("#tabs button").forEach((b) => b.classList.toggle("active", b.dataset.tab === tab));
  document.querySelectorAll(".tab").forEach((s) => (s.hidden = s.id !== `tab-${tab}`));
  if (tab === "schema") schemaPicture.resize();
  clearInterval(state.tasksTimer);
  if (tab === "tasks") {
    refreshTasks();
    state.tasksTimer = setInterval(refreshTasks, 2000);
  }
}

function selectView(view) {
  state.view = view;
  document.querySelectorAll(".views button").forEach((b) => b.classList.toggle("active", b.dataset.view === view));
  for (const v of ["table", "json", "graph"]) $(`#view-${v}`).hidden = v !== view;
  if (view === "graph") graphView.resize();
}

document.querySelectorAll("#tabs button").forEach((b) => b.addEventListener("click", () => selectTab(b.dataset.tab)));
document.querySelectorAll(".views button").forEach((b) => b.addEventListener("click", () => selectView(b.dataset.view)));

// ---- Gremlin ----
function fillHistory(list) {
  const select = $("#history");
  select.replaceChildren(new Option("history…", ""), ...list.map((s) => new Option(s.length > 80 ? `${s.slice(0, 77)}…` : s, s)));
}

async function run(script) {
  if (!script.trim() || !state.graph) return;
  fillHistory(remember(script));
  show($("#query-error"), "");
  $("#query-status").textContent = "running…";
  const started = performance.now();
  try {
    const answer = await gremlin(state.graph, script);
    const data = answer.result.data ?? [];
    state.answer = Array.isArray(data) ? data : [data];
    const ms = Math.round(performance.now() - started);
    $("#query-status").textContent = `${state.answer.length} result${state.answer.length === 1 ? "" : "s"} in ${ms} ms`;
    renderTable($("#view-table"), state.answer);
    $("#view-json").textContent = JSON.stringify(state.answer, null, 2);
    const limit = Math.max(1, Number($("#draw-limit").value) || 200);
    graphView.show(state.graph, state.answer, limit);
    if (state.view === "graph") graphView.resize();
  } catch (e) {
    $("#query-status").textContent = "";
    show($("#query-error"), e.message);
    // the views must not go on showing the previous script's answer under this one's error
    state.answer = [];
    $("#view-table").replaceChildren();
    $("#view-json").textContent = "";
    graphView.show(state.graph, [], 1);
  }
}

async function runAsTask(script) {
  if (!script.trim() || !state.graph) return;
  fillHistory(remember(script));
  show($("#query-error"), "");
  try {
    const { task_id: id } = await request("POST", graphPath(state.graph, "/jobs/gremlin"), { body: { gremlin: script } });
    $("#query-status").textContent = `submitted as task ${id}: see Tasks`;
  } catch (e) {
    show($("#query-error"), e.message);
  }
}

const editor = createEditor($("#editor"), run, loadHistory()[0] || "g.V().limit(10)");
$("#run").addEventListener("click", () => run(editor.get()));
$("#run-task").addEventListener("click", () => runAsTask(editor.get()));
$("#history").addEventListener("change", (e) => {
  if (e.target.value) editor.set(e.target.value);
  e.target.value = "";
  editor.focus();
});
$("#timeout").textContent = timeoutText();
fillHistory(loadHistory());

const graphView = new GraphView($("#graph-canvas"), $("#graph-info"), $("#graph-legend"));
const schemaPicture = new SchemaPicture($("#schema-picture"));

// ---- lookup ----
function fillLookupLabels() {
  const searchable = searchableProperties(state.schema);
  const labels = $("#lookup-prop [name=label]");
  labels.replaceChildren(...Object.keys(searchable).map((l) => new Option(l, l)));
  const fillKeys = () => {
    const keys = searchable[labels.value] || [];
    $("#lookup-prop [name=key]").replaceChildren(...keys.map((k) => new Option(k, k)));
  };
  labels.onchange = fillKeys;
  fillKeys();
}

async function lookup(find) {
  show($("#lookup-error"), "");
  try {
    renderTable($("#lookup-result"), await find());
  } catch (e) {
    $("#lookup-result").replaceChildren();
    show($("#lookup-error"), e.message);
  }
}

$("#lookup-id").addEventListener("submit", (e) => {
  e.preventDefault();
  lookup(() => byId(state.graph, new FormData(e.target).get("id")));
});
$("#lookup-prop").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = new FormData(e.target);
  lookup(() => byProperty(state.graph, state.schema, f.get("label"), f.get("key"), f.get("value")));
});

// ---- tasks ----
async function refreshTasks() {
  if (!state.graph) return;
  try {
    const all = await loadTasks(state.graph);
    const tasks = $("#tasks-all").checked ? all : all.filter((t) => !isFinished(t));
    show($("#tasks-error"), "");
    renderTasks($("#tasks-table"), tasks, (id) => cancelTask(state.graph, id).then(refreshTasks, report));
  } catch (e) {
    show($("#tasks-error"), e.message);
  }
}
$("#tasks-refresh").addEventListener("click", refreshTasks);
$("#tasks-all").addEventListener("change", refreshTasks);

function report(e) {
  const target = state.tab === "tasks" ? $("#tasks-error") : state.tab === "lookup" ? $("#lookup-error") : $("#query-error");
  show(target, e instanceof ApiError || e instanceof Error ? e.message : String(e));
}

// for the browser tests and the curious: the drawing's cytoscape instance
window.hugeliteConsole = { graphView, schemaPicture };

unlock().catch((e) => {
  if (!(e instanceof ApiError && e.status === 401)) report(e);
});
