// Bundles web/src/main.ts (with three.js and urdf-loader) into
// ../assets/app.js, which the crate embeds. `--check` rebuilds in memory and
// fails if the committed bundle differs from the sources (CI runs it).
import * as esbuild from "esbuild";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "assets", "app.js");
const check = process.argv.includes("--check");
const result = await esbuild.build({
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  legalComments: "none",
  charset: "utf8",
  outfile: out,
  write: !check,
  logLevel: "warning",
});
if (check) {
  const fresh = result.outputFiles[0].text;
  let committed = "";
  try { committed = readFileSync(out, "utf8"); } catch { /* missing */ }
  if (fresh !== committed) {
    console.error(`assets/app.js is not up to date with web/src: run \`npm run build\` in packages/gamebot_web/web and commit it`);
    process.exit(1);
  }
  console.log("assets/app.js is up to date");
}
