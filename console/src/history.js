// The scripts run, newest first, kept in the browser (localStorage) so they survive reloads.
// Nothing of it goes to the server.

const KEY = "hugelite.console.history";
const MAX = 50;

export function loadHistory() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return Array.isArray(list) ? list.filter((s) => typeof s === "string") : [];
  } catch {
    return [];
  }
}

/** Puts `script` first (once) and returns the new list. */
export function remember(script) {
  const list = [script, ...loadHistory().filter((s) => s !== script)].slice(0, MAX);
  localStorage.setItem(KEY, JSON.stringify(list));
  return list;
}
