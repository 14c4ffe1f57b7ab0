// The graph's tasks (GET /graphs/{g}/tasks), unfinished ones by default, each with a cancel
// button (PUT /graphs/{g}/tasks/{id}?action=cancel). Refreshed every two seconds while shown.
import { graphPath, request } from "./api.js";

const FINISHED = new Set(["success", "failed", "cancelled"]);

export function isFinished(task) {
  return FINISHED.has(String(task.task_status).toLowerCase());
}

function when(ms) {
  return typeof ms === "number" ? new Date(ms).toLocaleTimeString() : String(ms ?? "");
}

export async function loadTasks(graph) {
  const answer = await request("GET", graphPath(graph, "/tasks"), { query: { limit: 100 } });
  return answer.tasks || [];
}

export function cancelTask(graph, id) {
  return request("PUT", graphPath(graph, `/tasks/${encodeURIComponent(id)}`), { query: { action: "cancel" } });
}

/** Fills `el` with the tasks; `cancel(id)` is called by a row's button. */
export function renderTasks(el, tasks, cancel) {
  el.replaceChildren();
  if (!tasks.length) {
    el.textContent = "no tasks";
    return;
  }
  const table = document.createElement("table");
  const head = table.createTHead().insertRow();
  for (const h of ["id", "type", "name", "status", "progress", "created", ""]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const body = table.createTBody();
  for (const t of tasks) {
    const row = body.insertRow();
    row.dataset.taskId = t.id;
    for (const v of [t.id, t.task_type, t.task_name, t.task_status, t.task_progress, when(t.task_create)]) {
      row.insertCell().textContent = String(v ?? "");
    }
    const cell = row.insertCell();
    if (!isFinished(t)) {
      const button = document.createElement("button");
      button.textContent = "Cancel";
      button.addEventListener("click", () => cancel(t.id));
      cell.append(button);
    }
  }
  el.append(table);
}
