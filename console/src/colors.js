// One colour per label, the same in the result drawing, the schema picture and the legend:
// a label's colour comes from a hash of its name, so it stays put across queries and reloads.

const PALETTE = [
  "#2f6fdb", "#e8590c", "#2b8a3e", "#c2255c", "#7048e8", "#0b7285",
  "#e67700", "#5c940d", "#862e9c", "#1864ab", "#a61e4d", "#087f5b",
];

export function labelColor(label) {
  let h = 0;
  for (const ch of String(label)) h = (h * 31 + ch.codePointAt(0)) >>> 0;
  return PALETTE[h % PALETTE.length];
}

/** Fills `el` with one swatch per label. */
export function renderLegend(el, labels) {
  el.replaceChildren();
  for (const label of [...labels].sort()) {
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = labelColor(label);
    el.append(swatch, document.createTextNode(label));
  }
}
