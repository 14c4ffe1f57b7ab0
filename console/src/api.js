// The console's one door to the server: HugeGraph's public REST API, exactly as any client
// calls it, with the session's credentials (a Bearer token from POST /auth/login) when auth is on.
// Nothing here is private to the console: every path is in docs/rest.md.

const TOKEN_KEY = "hugelite.console.token";
const USER_KEY = "hugelite.console.user";

// The server's root: the page is served at <root>/console, so a reverse proxy's prefix
// (uvicorn --root-path) carries over to every API call.
export const ROOT = location.pathname.replace(/\/console\/?$/, "");

/** A non-2xx answer, with HugeGraph's error body when the server sent one. */
export class ApiError extends Error {
  constructor(status, body) {
    super(messageOf(status, body));
    this.status = status;
    this.body = body;
  }
}

function messageOf(status, body) {
  if (body && typeof body === "object") {
    const exception = String(body.exception || "").replace(/^class /, "").split(".").pop();
    const message = body.message || (body.status && body.status.message) || "";
    return exception ? `${exception}: ${message}` : message || `HTTP ${status}`;
  }
  return body ? `HTTP ${status}: ${body}` : `HTTP ${status}`;
}

let unauthorized = () => {};

/** Called with no argument whenever the server answers 401 (missing, wrong or expired credentials). */
export function onUnauthorized(fn) {
  unauthorized = fn;
}

export function currentUser() {
  return sessionStorage.getItem(USER_KEY);
}

/**
 * One REST call. `query` values that are arrays become repeated parameters (`ids=1&ids=2`).
 * Resolves with the parsed JSON body; rejects with ApiError.
 */
export async function request(method, path, { body, query, authorization } = {}) {
  const url = new URL(ROOT + path, location.origin);
  for (const [key, value] of Object.entries(query || {})) {
    for (const one of Array.isArray(value) ? value : [value]) url.searchParams.append(key, one);
  }
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (authorization) headers.Authorization = authorization;
  else if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  let data = text;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text for the message
  }
  if (!res.ok) {
    if (res.status === 401 && path !== "/auth/login") {
      sessionStorage.removeItem(TOKEN_KEY);
      unauthorized();
    }
    throw new ApiError(res.status, data);
  }
  return data;
}

/** HTTP Basic credentials, the name and password UTF-8 encoded (btoa takes bytes only). */
function basic(user, password) {
  const bytes = new TextEncoder().encode(`${user}:${password}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * HugeGraph 1.7's login: {"user_name", "user_password"} answers {"token"}. The same
 * credentials go as HTTP Basic too: a server whose auth filter does not let the login path
 * through without credentials (hugelite's) accepts them, and one that does ignores them.
 */
export async function login(user, password) {
  const data = await request("POST", "/auth/login", {
    body: { user_name: user, user_password: password },
    authorization: basic(user, password),
  });
  const token = data && (data.token || (data.data && data.data.token));
  if (!token) throw new Error("the server's login answer carries no token");
  sessionStorage.setItem(TOKEN_KEY, token);
  sessionStorage.setItem(USER_KEY, user);
}

export function logout() {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(USER_KEY);
}

/** `/graphs/{g}` + rest, the graph name escaped. */
export function graphPath(graph, rest = "") {
  return `/graphs/${encodeURIComponent(graph)}${rest}`;
}

/** An id as HugeGraph wants it in a URL: a JSON literal ("1:marko" quoted, 42 bare). */
export function idLiteral(id) {
  return encodeURIComponent(JSON.stringify(id));
}

/** POST /gremlin with `g` bound to the graph, as HugeGraph's REST clients send it. */
export function gremlin(graph, script) {
  return request("POST", "/gremlin", {
    body: { gremlin: script, bindings: {}, language: "gremlin-groovy", aliases: { graph, g: `__g_${graph}` } },
  });
}
