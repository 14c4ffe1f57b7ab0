// The schema of a graph (GET /graphs/{g}/schema) as tables, one per family, and as a picture:
// vertex labels as nodes, each edge label an arrow for every source → target link it allows.
import cytoscape from "cytoscape";

import { labelColor } from "./colors.js";

const FAMILIES = [
  ["Property keys", "propertykeys", ["name", "data_type", "cardinality", "aggregate_type"]],
  ["Vertex labels", "vertexlabels", ["name", "id_strategy", "primary_keys", "properties", "nullable_keys", "index_labels"]],
  ["Edge labels", "edgelabels", ["name", "links", "frequency", "sort_keys", "properties", "index_labels"]],
  ["Index labels", "indexlabels", ["name", "base_type", "base_value", "index_type", "fields"]],
];

/** An edge label's (source, target) pairs: 1.7's `links`, or the older single pair. */
export function linksOf(edgeLabel) {
  if (Array.isArray(edgeLabel.links) && edgeLabel.links.length) {
    return edgeLabel.links.flatMap((link) => Object.entries(link));
  }
  return edgeLabel.source_label ? [[edgeLabel.source_label, edgeLabel.target_label]] : [];
}

function text(value) {
  if (Array.isArray(value)) {
    return value.map((x) => (x && typeof x === "object" ? Object.entries(x).map(([a, b]) => `${a} → ${b}`).join(", ") : x)).join(", ");
  }
  return value === undefined || value === null ? "" : String(value);
}

export function renderSchemaTables(el, schema) {
  el.replaceChildren();
  for (const [title, key, columns] of FAMILIES) {
    const items = schema[key] || [];
    const h = document.createElement("h3");
    h.textContent = `${title} (${items.length})`;
    el.append(h);
    if (!items.length) continue;
    const table = document.createElement("table");
    table.dataset.family = key;
    const head = table.createTHead().insertRow();
    for (const c of columns) {
      const th = document.createElement("th");
      th.textContent = c;
      head.append(th);
    }
    const body = table.createTBody();
    for (const item of items) {
      const row = body.insertRow();
      for (const c of columns) row.insertCell().textContent = text(c === "links" ? item.links || linksOf(item).map(([a, b]) => ({ [a]: b })) : item[c]);
    }
    el.append(table);
  }
}

export class SchemaPicture {
  constructor(container) {
    this.cy = cytoscape({
      container,
      maxZoom: 1.5, // two labels must not fill the box
      style: [
        {
          selector: "node",
          style: {
            "background-color": "data(color)", label: "data(id)", "text-valign": "center", color: "#fff",
            "font-size": 11, shape: "round-rectangle", width: (node) => 16 + 7 * node.data("id").length, height: 26,
          },
        },
        {
          selector: "edge",
          style: {
            width: 1.5, "line-color": "data(color)", "target-arrow-color": "data(color)", "target-arrow-shape": "triangle",
            "curve-style": "bezier", label: "data(label)", "font-size": 10, "text-rotation": "autorotate",
            "text-background-color": "#fff", "text-background-opacity": 0.85, "text-background-padding": 2,
            "loop-direction": "-45deg", "loop-sweep": "60deg",
          },
        },
      ],
    });
  }

  show(schema) {
    this.schema = schema;
    const cy = this.cy;
    cy.elements().remove();
    const labels = new Set((schema.vertexlabels || []).map((v) => v.name));
    const elements = [...labels].map((name) => ({ group: "nodes", data: { id: name, color: labelColor(name) } }));
    for (const e of schema.edgelabels || []) {
      linksOf(e).forEach(([source, target], i) => {
        for (const end of [source, target]) {
          if (!labels.has(end)) {
            labels.add(end);
            elements.push({ group: "nodes", data: { id: end, color: labelColor(end) } });
          }
        }
        elements.push({ group: "edges", data: { id: `${e.name}#${i}`, source, target, label: e.name, color: labelColor(e.name) } });
      });
    }
    cy.add(elements);
    this.stale = cy.container().clientWidth === 0; // laid out again when shown
    if (!this.stale) cy.layout({ name: "cose", animate: false, padding: 30, nodeDimensionsIncludeLabels: true }).run();
  }

  resize() {
    this.cy.resize();
    if (this.stale) this.show(this.schema);
    this.cy.fit(undefined, 30);
  }
}
