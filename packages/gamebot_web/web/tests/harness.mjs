// What the browser tests share: start `gamebot` with some arguments, wait for
// the URL it prints, drive Debian's chromium with playwright-core (no browser
// download), and the page's test hooks (#status[data-phase], #moves li, ...).
// Not a test file itself (node --test runs *.test.mjs).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const bin = process.env.GAMEBOT_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "debug", "gamebot");
const shots = process.env.GAMEBOT_UI_SCREENSHOTS;
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

/** A running `gamebot` with its page, and a browser. */
export class Session {
  constructor(args) {
    this.args = args;
    this.log = "";
  }

  async start() {
    assert.ok(existsSync(bin), `${bin} missing: build it with cargo build -p gamebot`);
    this.server = spawn(bin, this.args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "warn" } });
    this.server.stderr.on("data", (d) => { this.log += d; });
    this.url = await new Promise((ok, fail) => {
      let out = "";
      const timer = setTimeout(() => fail(new Error(`no URL printed within 60 s; stderr:\n${this.log}`)), 60_000);
      this.server.stdout.on("data", (d) => {
        out += d;
        this.log += d;
        const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (m) { clearTimeout(timer); ok(m[0]); }
      });
      this.server.on("exit", (code) => fail(new Error(`gamebot exited with ${code}:\n${this.log}`)));
    });
    this.browser = await chromium.launch({
      executablePath,
      args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist"],
    });
  }

  /** Closes the browser; stops gamebot with SIGINT, which must end it cleanly. */
  async stop() {
    await this.browser?.close();
    const server = this.server;
    if (server && server.exitCode === null) {
      const exited = new Promise((ok) => server.on("exit", (code, sig) => ok({ code, sig })));
      server.kill("SIGINT");
      const r = await Promise.race([exited, new Promise((ok) => setTimeout(() => ok(null), 20_000))]);
      if (r === null) { server.kill("SIGKILL"); assert.fail(`gamebot did not stop on SIGINT:\n${this.log}`); }
      assert.equal(r.code, 0, `gamebot exit after SIGINT: ${JSON.stringify(r)}\n${this.log}`);
    }
  }

  /** A new tab on the page, connected, with the board drawn. Every change of
   * `#status[data-phase]` is recorded in `window.phases`. */
  async openPage() {
    const page = await this.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on("pageerror", (e) => { throw new Error(`page error: ${e}`); });
    await page.addInitScript(() => {
      window.phases = [];
      document.addEventListener("DOMContentLoaded", () => {
        const s = document.querySelector("#status");
        new MutationObserver(() => {
          const p = s.dataset.phase;
          if (p && window.phases[window.phases.length - 1] !== p) window.phases.push(p);
        }).observe(s, { attributes: true, attributeFilter: ["data-phase"] });
      });
    });
    await page.goto(this.url);
    await page.waitForSelector("#status[data-connected=true]");
    await page.waitForSelector("#board [data-location]");
    return page;
  }
}

/** What the page shows, for failure messages. */
export async function pageReport(page) {
  return page.evaluate(() => {
    const st = document.querySelector("#status");
    const ai = document.querySelector("#ai-panel");
    return [
      `status: ${st.textContent} ${JSON.stringify(st.dataset)}`,
      `notice: ${document.querySelector("#notice").textContent}`,
      `phases seen: ${window.phases}`,
      `ai panel: ${JSON.stringify(ai.dataset)} iterations ${document.querySelector("#ai-iterations").textContent}`,
      `moves: ${[...document.querySelectorAll("#moves li")].map((li) => li.dataset.move).join(" ")}`,
      `events: ${[...document.querySelectorAll("#events li")].slice(-8).map((li) => li.textContent).join(" | ")}`,
    ].join("\n");
  }).catch((e) => `(page unreadable: ${e})`);
}

/** page.waitForFunction that fails with what the page and gamebot showed. */
export async function waitFor(session, page, fn, arg, timeout, what) {
  try {
    await page.waitForFunction(fn, arg, { timeout });
  } catch (e) {
    const log = session.log.split("\n").filter((l) => !/QP read-back/.test(l)).slice(-25).join("\n");
    throw new Error(`${what}: ${e.message}\n${await pageReport(page)}\ngamebot:\n${log}`);
  }
}

export async function shot(page, name, selector) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  const target = selector ? page.locator(selector) : page;
  writeFileSync(join(shots, name), await target.screenshot());
}

export const phase = (page) => page.getAttribute("#status", "data-phase");
export const moveCount = (page) => page.locator("#moves li").count();
export const gameNumber = async (page) => Number(await page.getAttribute("#status", "data-game"));
export const moveList = (page) => page.locator("#moves li").evaluateAll((lis) => lis.map((li) => li.dataset.move));
export const pieces = (page) =>
  page.locator("#board [data-element]").evaluateAll((ps) => ps.map((p) => `${p.dataset.element}@${p.dataset.at}`).sort());

/** Waits until the person is to move or the game is over (the robot's turn,
 * arm and camera included, can take a while); returns the phase. */
export async function settle(page, timeout = 120_000) {
  try {
    await page.waitForSelector("#status[data-phase=your-turn], #status[data-phase=over]", { timeout });
  } catch (e) {
    throw new Error(`waiting for the person's turn or the end: ${e.message}\n${await pageReport(page)}`);
  }
  return phase(page);
}

/** Starts a new game of tic-tac-toe from the page's form (robot strategy
 * `strategy`, the person on the side the form offers) once nothing moves. */
export async function newGame(page, strategy) {
  await settle(page);
  const before = await gameNumber(page);
  await page.selectOption("#ng-game", { label: "tictactoe.game" });
  await page.fill("#ng-strategy", strategy);
  await page.click("#new-game button[type=submit]");
  await page.waitForFunction((n) => Number(document.querySelector("#status").dataset.game) > n, before);
}

/** Clicks one move: a movable piece, then a highlighted target; waits until
 * the referee has played it. */
export async function clickMove(page, pick = 0) {
  const n = await moveCount(page);
  const movable = page.locator("#board [data-element].movable");
  await movable.first().waitFor();
  await movable.nth(pick % (await movable.count())).click();
  const targets = page.locator("#board [data-location]:has(.target)");
  await targets.first().waitFor();
  const t = await targets.count();
  await targets.nth((pick * 7) % t).click();
  await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n, { timeout: 60_000 });
}

/** Drags one movable piece onto a target the drag highlights (pointer
 * events, no clicks); waits until the referee has played it; returns the move. */
export async function dragMove(page, pick = 0) {
  const n = await moveCount(page);
  const movable = page.locator("#board [data-element].movable");
  await movable.first().waitFor();
  const piece = movable.nth(pick % (await movable.count()));
  const element = await piece.getAttribute("data-element");
  const box = await piece.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  // A few steps, as a hand would: the page highlights the targets once the drag began.
  await page.mouse.move(box.x + box.width / 2 + 12, box.y + box.height / 2 + 12, { steps: 3 });
  const targets = await page.locator("#board [data-location]:has(.target)").evaluateAll((ls) => ls.map((l) => l.dataset.location));
  assert.ok(targets.length > 0, `dragging ${element} highlights its targets`);
  assert.equal(await page.locator("#board circle.ghost").count(), 1, "the dragged piece follows the pointer");
  const to = targets[(pick * 7) % targets.length];
  const target = await page.locator(`#board [data-location="${to}"]`).boundingBox();
  await page.mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n, { timeout: 60_000 });
  return { element, to };
}

/** Waits until the 3D canvas shows more than `min` distinct colours (sampled;
 * SwiftShader may take a few frames); returns how many it shows. */
export async function canvasColours(page, min = 3) {
  const count = (least) => {
    const gl = document.querySelector("#view3d canvas");
    if (!gl || gl.width < 10) return false;
    const c = document.createElement("canvas");
    c.width = gl.width; c.height = gl.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(gl, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4 * 37) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return colours.size > least ? colours.size : false;
  };
  const h = await page.waitForFunction(count, min, { timeout: 30_000, polling: 200 });
  return h.jsonValue();
}
