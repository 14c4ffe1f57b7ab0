// Builds the console into ../rest_adapter/console_dist/: index.html (copied), console.js and
// console.css (esbuild bundles src/main.js and the CSS it imports). The output is package data
// of rest_adapter, so a wheel carries the page and pip users need no Node; it is not committed.
import { build } from "esbuild";
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "rest_adapter", "console_dist");
mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "esm",
  target: ["es2020"],
  outfile: join(out, "console.js"),
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync(join(here, "src", "index.html"), join(out, "index.html"));
console.log(`console built into ${out}`);
