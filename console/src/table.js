// Results as a table: one row per result. Vertices and edges get id/label columns and one column
// per property; maps one column per key; paths one cell per step; anything else one value cell.

const MAX_ROWS = 1000;

function isElement(x) {
  return x && typeof x === "object" && (x.type === "vertex" || x.type === "edge") && "id" in x;
}

function isPath(x) {
  return x && typeof x === "object" && Array.isArray(x.objects) && Array.isArray(x.labels);
}

/** A short text for any value inside a cell. */
export function cellText(value) {
  if (value === null || value === undefined) return "";
  if (isElement(value)) return `${value.type === "vertex" ? "v" : "e"}[${JSON.stringify(value.id)}]`;
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function columnsOf(rows) {
  if (rows.every(isElement)) {
    const props = new Set();
    rows.forEach((r) => Object.keys(r.properties || {}).forEach((k) => props.add(k)));
    const edges = rows.some((r) => r.type === "edge");
    const head = edges ? ["id", "label", "outV", "inV"] : ["id", "label"];
    return {
      head: [...head, ...props],
      cells: (r) => [...head.map((k) => r[k]), ...[...props].map((k) => (r.properties || {})[k])],
    };
  }
  if (rows.every(isPath)) {
    const width = Math.max(0, ...rows.map((r) => r.objects.length));
    return { head: Array.from({ length: width }, (_, i) => `step ${i + 1}`), cells: (r) => r.objects };
  }
  if (rows.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
    const keys = new Set();
    rows.forEach((r) => Object.keys(r).forEach((k) => keys.add(k)));
    return { head: [...keys], cells: (r) => [...keys].map((k) => r[k]) };
  }
  return { head: ["value"], cells: (r) => [r] };
}

/** Replaces `el`'s content with a table of `rows` (at most MAX_ROWS shown, and says so). */
export function renderTable(el, rows) {
  el.replaceChildren();
  if (!rows.length) {
    el.textContent = "no results";
    return;
  }
  const shown = rows.slice(0, MAX_ROWS);
  const { head, cells } = columnsOf(shown);
  const table = document.createElement("table");
  const tr = table.createTHead().insertRow();
  for (const h of ["#", ...head]) {
    const th = document.createElement("th");
    th.textContent = h;
    tr.append(th);
  }
  const body = table.createTBody();
  shown.forEach((row, i) => {
    const r = body.insertRow();
    r.insertCell().textContent = String(i + 1);
    for (const value of cells(row)) {
      const code = document.createElement("code");
      code.textContent = cellText(value);
      r.insertCell().append(code);
    }
  });
  el.append(table);
  if (rows.length > shown.length) {
    const more = document.createElement("p");
    more.className = "hint";
    more.textContent = `showing ${shown.length} of ${rows.length} results`;
    el.append(more);
  }
}
