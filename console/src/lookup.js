// Vertex lookup through the REST API: by id (GET .../graph/vertices/<id literal>) or by a label
// and one property the server can answer from (a primary key, or a field of an index label on
// that vertex label: GET .../graph/vertices?label=&properties={...}, as HugeGraph requires).
import { graphPath, idLiteral, request } from "./api.js";

const NUMERIC = new Set(["BYTE", "INT", "LONG", "FLOAT", "DOUBLE"]);

/** What the user typed as an id: digits are a number id, anything else a string id. */
export function parseId(text) {
  const t = text.trim();
  return /^-?\d+$/.test(t) ? Number(t) : t;
}

/** {label: [property, ...]} of the properties a lookup by value may use, per vertex label. */
export function searchableProperties(schema) {
  const out = {};
  for (const v of schema.vertexlabels || []) out[v.name] = new Set(v.primary_keys || []);
  for (const ix of schema.indexlabels || []) {
    if (ix.base_type === "VERTEX_LABEL" && out[ix.base_value]) (ix.fields || []).forEach((f) => out[ix.base_value].add(f));
  }
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, [...v]]));
}

export function byId(graph, text) {
  return request("GET", graphPath(graph, `/graph/vertices/${idLiteral(parseId(text))}`)).then((v) => [v]);
}

export async function byProperty(graph, schema, label, key, text) {
  const pk = (schema.propertykeys || []).find((p) => p.name === key);
  const value = pk && NUMERIC.has(pk.data_type) ? Number(text) : pk && pk.data_type === "BOOLEAN" ? text === "true" : text;
  const answer = await request("GET", graphPath(graph, "/graph/vertices"), {
    query: { label, properties: JSON.stringify({ [key]: value }), limit: 100 },
  });
  return answer.vertices || [];
}
