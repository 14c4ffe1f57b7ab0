// Results as a picture: the vertices, edges and paths found anywhere in an answer, drawn with
// cytoscape, coloured by label. Clicking a vertex draws its neighbours, read through the REST
// API (GET .../graph/edges?vertex_id=..., then GET .../traversers/vertices?ids=...). At most
// `limit` elements are drawn, so a big answer cannot freeze the page.
import cytoscape from "cytoscape";

import { graphPath, request } from "./api.js";
import { labelColor, renderLegend } from "./colors.js";

/** How many of a vertex's edges one click draws. */
export const EXPAND_EDGES = 50;

const STYLE = [
  {
    selector: "node",
    style: {
      "background-color": "data(color)", label: "data(caption)", "font-size": 10,
      "text-valign": "bottom", "text-margin-y": 3, width: 22, height: 22,
    },
  },
  { selector: "node.stub", style: { "background-opacity": 0.35, "border-width": 1, "border-color": "data(color)" } },
  { selector: "node.expanded", style: { "border-width": 3, "border-color": "#1d2330" } },
  {
    selector: "edge",
    style: {
      width: 1.5, "line-color": "data(color)", "target-arrow-color": "data(color)", "target-arrow-shape": "triangle",
      "curve-style": "bezier", label: "data(label)", "font-size": 8, "text-rotation": "autorotate", color: "#667085",
    },
  },
];

const nodeKey = (id) => `v:${JSON.stringify(id)}`;
const edgeKey = (id) => `e:${JSON.stringify(id)}`;

function caption(v) {
  const p = v.properties || {};
  const name = p.name ?? p.title ?? Object.values(p).find((x) => typeof x === "string");
  return name === undefined ? String(v.id) : String(name);
}

/**
 * Every vertex and edge inside `value` (lists, maps, paths, nested), in order, once each.
 * An edge's ends that are not in the answer come back as stub vertices (id and label only).
 */
export function collectElements(value) {
  const vertices = new Map();
  const edges = new Map();
  const walk = (x, depth) => {
    if (depth > 8 || x === null || typeof x !== "object") return;
    if (Array.isArray(x)) return x.forEach((y) => walk(y, depth + 1));
    if (x.type === "vertex" && "id" in x) {
      vertices.set(nodeKey(x.id), x);
      return;
    }
    if (x.type === "edge" && "id" in x) {
      edges.set(edgeKey(x.id), x);
      return;
    }
    Object.values(x).forEach((y) => walk(y, depth + 1));
  };
  walk(value, 0);
  return { vertices: [...vertices.values()], edges: [...edges.values()] };
}

export class GraphView {
  /** `canvas`: the drawing's element; `info`, `legend`: where counts and label colours go. */
  constructor(canvas, info, legend) {
    this.info = info;
    this.legend = legend;
    this.graph = null;
    this.limit = 200;
    this.skipped = 0;
    this.stale = false;
    this.cy = cytoscape({ container: canvas, style: STYLE, minZoom: 0.1, maxZoom: 4 });
    this.cy.on("tap", "node", (event) => this.expand(event.target).catch((e) => this.say(e.message)));
  }

  /** Replaces the drawing with the elements of `answer` (the `result.data` of /gremlin). */
  show(graph, answer, limit) {
    this.graph = graph;
    this.limit = limit;
    this.skipped = 0;
    this.cy.elements().remove();
    const { vertices, edges } = collectElements(answer);
    this.add(vertices, edges);
    this.layout();
  }

  /** Adds what fits under the limit; an edge's missing ends are added as stubs. */
  add(vertices, edges) {
    const cy = this.cy;
    const room = () => this.limit - cy.elements().length;
    const batch = [];
    const pending = new Set();
    const addVertex = (v, stub) => {
      const key = nodeKey(v.id);
      if (cy.getElementById(key).nonempty() || pending.has(key)) {
        if (!stub) cy.getElementById(key).removeClass("stub").data("caption", caption(v));
        return true;
      }
      if (room() - batch.length <= 0) return false;
      pending.add(key);
      batch.push({
        group: "nodes",
        data: { id: key, vid: v.id, label: v.label, color: labelColor(v.label), caption: stub ? String(v.id) : caption(v) },
        classes: stub ? "stub" : "",
      });
      return true;
    };
    for (const v of vertices) if (!addVertex(v, false)) this.skipped += 1;
    for (const e of edges) {
      const key = edgeKey(e.id);
      if (cy.getElementById(key).nonempty() || pending.has(key)) continue;
      const ends = addVertex({ id: e.outV, label: e.outVLabel }, true) && addVertex({ id: e.inV, label: e.inVLabel }, true);
      if (!ends || room() - batch.length <= 0) {
        this.skipped += 1;
        continue;
      }
      pending.add(key);
      batch.push({
        group: "edges",
        data: { id: key, source: nodeKey(e.outV), target: nodeKey(e.inV), label: e.label, color: labelColor(e.label) },
      });
    }
    cy.add(batch);
    this.report();
  }

  layout() {
    // a hidden container has no size to lay out in: done again when the view is shown
    this.stale = this.cy.container().clientWidth === 0;
    if (this.stale) return;
    const n = this.cy.nodes().length;
    const cose = { name: "cose", nodeRepulsion: () => 12000, idealEdgeLength: () => 70, componentSpacing: 60 };
    this.cy.layout({ ...(n > 150 ? { name: "grid" } : cose), animate: false, padding: 20, nodeDimensionsIncludeLabels: true }).run();
  }

  /** Draws the neighbours of vertex `node` (one click, at most EXPAND_EDGES edges). */
  async expand(node) {
    if (node.hasClass("expanded")) return;
    const id = node.data("vid");
    const { edges } = await request("GET", graphPath(this.graph, "/graph/edges"), {
      query: { vertex_id: JSON.stringify(id), direction: "BOTH", limit: EXPAND_EDGES },
    });
    const far = [...new Set(edges.map((e) => (JSON.stringify(e.outV) === JSON.stringify(id) ? e.inV : e.outV)))];
    let vertices = [];
    if (far.length) {
      const found = await request("GET", graphPath(this.graph, "/traversers/vertices"), {
        query: { ids: far.map((x) => JSON.stringify(x)) },
      });
      vertices = found.vertices || [];
    }
    node.addClass("expanded");
    this.add(vertices, edges);
    this.layout();
  }

  report() {
    const n = this.cy.nodes().length;
    const m = this.cy.edges().length;
    const skipped = this.skipped ? `; ${this.skipped} more not drawn (limit ${this.limit})` : "";
    this.say(`${n} vertices, ${m} edges drawn${skipped}`);
    renderLegend(this.legend, new Set(this.cy.elements().map((x) => x.data("label"))));
  }

  say(text) {
    this.info.textContent = text;
  }

  /** cytoscape draws into a box that must be visible to be sized: call when the view is shown. */
  resize() {
    this.cy.resize();
    if (this.stale) this.layout();
    this.cy.fit(undefined, 20);
  }
}
