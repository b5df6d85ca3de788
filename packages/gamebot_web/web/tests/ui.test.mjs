// Browser tests of the web UI: Debian's chromium driven by playwright-core
// (no browser download), against a real `gamebot play ... --web 127.0.0.1:0`
// (referee + planner + web in one process; GAMEBOT_UI_ARGS replaces the
// arguments, e.g. for `--sim`). Run: `node --test packages/gamebot_web/web/tests/`.
// GAMEBOT_UI_SCREENSHOTS=DIR saves the screenshots there (docs/ui/ for the README).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const bin = process.env.GAMEBOT_BIN ?? join(process.env.CARGO_TARGET_DIR ?? join(root, "target"), "debug", "gamebot");
const args = process.env.GAMEBOT_UI_ARGS
  ? process.env.GAMEBOT_UI_ARGS.split(" ").filter(Boolean)
  : ["play", "games/tictactoe.game", "--vs", "mcts:iterations=300", "--web", "127.0.0.1:0"];
const withArm = args.includes("--sim");
const shots = process.env.GAMEBOT_UI_SCREENSHOTS;
const executablePath = process.env.CHROMIUM ?? "/usr/bin/chromium";

let server, url, browser, serverLog = "";

before(async () => {
  assert.ok(existsSync(bin), `${bin} missing: build it with cargo build -p gamebot`);
  server = spawn(bin, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, RUST_LOG: "warn" } });
  server.stderr.on("data", (d) => { serverLog += d; });
  url = await new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`no URL printed within 60 s; stderr:\n${serverLog}`)), 60_000);
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (m) { clearTimeout(timer); ok(m[0]); }
    });
    server.on("exit", (code) => fail(new Error(`gamebot exited with ${code}:\n${serverLog}`)));
  });
  browser = await chromium.launch({
    executablePath,
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--ignore-gpu-blocklist"],
  });
});

after(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = new Promise((ok) => server.on("exit", (code, sig) => ok({ code, sig })));
    server.kill("SIGINT");
    const r = await Promise.race([exited, new Promise((ok) => setTimeout(() => ok(null), 15_000))]);
    if (r === null) { server.kill("SIGKILL"); assert.fail(`gamebot did not stop on SIGINT:\n${serverLog}`); }
    assert.equal(r.code, 0, `gamebot exit after SIGINT: ${JSON.stringify(r)}\n${serverLog}`);
  }
});

async function openPage() {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on("pageerror", (e) => { throw new Error(`page error: ${e}`); });
  await page.goto(url);
  await page.waitForSelector("#status[data-connected=true]");
  await page.waitForSelector("#board [data-location]");
  return page;
}

async function shot(page, name, selector) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  const target = selector ? page.locator(selector) : page;
  writeFileSync(join(shots, name), await target.screenshot());
}

const phase = (page) => page.getAttribute("#status", "data-phase");
const moveCount = (page) => page.locator("#moves li").count();
const gameNumber = async (page) => Number(await page.getAttribute("#status", "data-game"));

/** Starts a new game from the page's form and waits for it. */
async function newGame(page) {
  const before = await gameNumber(page);
  await page.selectOption("#ng-game", { label: "tictactoe.game" });
  await page.fill("#ng-strategy", "mcts:iterations=300");
  await page.click("#new-game button[type=submit]");
  await page.waitForFunction((n) => Number(document.querySelector("#status").dataset.game) > n, before);
  await page.waitForSelector("#status[data-phase=your-turn]");
}

/** Clicks one move: a movable piece, then a highlighted target. */
async function clickMove(page, pick = 0) {
  const n = await moveCount(page);
  const pieces = page.locator("#board [data-element].movable");
  await pieces.first().waitFor();
  await pieces.nth(pick % (await pieces.count())).click();
  const targets = page.locator("#board [data-location]:has(.target)");
  await targets.first().waitFor();
  const t = await targets.count();
  await targets.nth((pick * 7) % t).click();
  await page.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n);
}

test("a whole game of tic-tac-toe by clicks, to its end", async () => {
  const page = await openPage();
  await newGame(page);
  let clicks = 0;
  while ((await phase(page)) !== "over") {
    await page.waitForSelector("#status[data-phase=your-turn], #status[data-phase=over]", { timeout: 60_000 });
    if ((await phase(page)) === "over") break;
    await clickMove(page, clicks++);
    if (clicks === 2) await shot(page, "playing.png");
    assert.ok(clicks <= 5, "tic-tac-toe lasts at most five moves of the first player");
  }
  const winner = Number(await page.getAttribute("#status", "data-winner"));
  assert.ok([0, 1, 2].includes(winner), `winner ${winner}`);
  const moves = await page.locator("#moves li").evaluateAll((lis) => lis.map((li) => li.dataset.move));
  assert.ok(moves.length >= 5 && moves.length <= 9, `${moves.length} moves`);
  for (const m of moves) assert.match(m, /^[^:]+:[^-]+->.+$/);
  // Pieces carry their hooks.
  const piece = page.locator("#board [data-element]").first();
  for (const a of ["data-type", "data-state"]) assert.ok(await piece.getAttribute(a));
  await shot(page, "game-over.png");
  await page.close();
});

test("an illegal click is explained", async () => {
  const page = await openPage();
  await newGame(page);
  // An opponent's piece on its own: not yours.
  await page.locator('#board [data-element][data-owner="2"]').first().click();
  await page.waitForSelector("#notice[data-kind=error]");
  assert.match(await page.textContent("#notice"), /not yours|cannot move/);
  // One of ours onto the opponent's occupied supply: the referee says why not.
  await page.locator("#board [data-element].movable").first().click();
  await page.locator('#board [data-element][data-owner="2"]').first().click();
  await page.waitForFunction(() => /illegal/.test(document.querySelector("#notice").textContent));
  assert.equal(await page.getAttribute("#notice", "data-kind"), "error");
  assert.equal(await moveCount(page), 0, "nothing was played");
  await shot(page, "illegal.png", "header");
  await page.close();
});

test("the 3D view renders (canvas not blank)", async () => {
  const page = await openPage();
  await page.waitForSelector("#view3d canvas");
  await page.waitForTimeout(500);
  const distinct = await page.evaluate(() => {
    const gl = document.querySelector("#view3d canvas");
    const c = document.createElement("canvas");
    c.width = gl.width; c.height = gl.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(gl, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const colours = new Set();
    for (let i = 0; i < d.length; i += 4 * 37) colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
    return colours.size;
  });
  assert.ok(distinct > 3, `only ${distinct} colour(s) on the 3D canvas`);
  await shot(page, "view3d.png", "#view3d-panel");
  await page.close();
});

test("reloading mid-game restores the position and the move list", async () => {
  const page = await openPage();
  await newGame(page);
  await clickMove(page, 1);
  await page.waitForSelector("#status[data-phase=your-turn]");
  const read = () => Promise.all([
    page.locator("#moves li").evaluateAll((lis) => lis.map((li) => li.dataset.move)),
    page.locator("#board [data-element]").evaluateAll((ps) => ps.map((p) => `${p.dataset.element}@${p.dataset.at}`).sort()),
  ]);
  const [moves, pieces] = await read();
  assert.equal(moves.length, 2);
  await page.reload();
  await page.waitForSelector("#status[data-connected=true]");
  await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, moves.length);
  const [moves2, pieces2] = await read();
  assert.deepEqual(moves2, moves);
  assert.deepEqual(pieces2, pieces);
  // Step-through replay: the position after move 1 has one piece on the grid.
  await page.click('#moves li[data-ply="1"]');
  await page.waitForSelector("#replay-bar:not([hidden])");
  const onCells = await page.locator('#board [data-element][data-at^="cell"]').count();
  assert.equal(onCells, 1);
  await page.click("#replay-live");
  await page.waitForSelector("#replay-bar[hidden]", { state: "attached" });
  await page.close();
});

test("two tabs see the same game", async () => {
  const a = await openPage();
  await newGame(a);
  const b = await openPage();
  assert.equal(await gameNumber(b), await gameNumber(a));
  await clickMove(a, 2);
  await b.waitForFunction(() => document.querySelectorAll("#moves li").length >= 1);
  const first = (p) => p.getAttribute("#moves li:first-child", "data-move");
  assert.equal(await first(b), await first(a));
  await a.waitForSelector("#status[data-phase=your-turn]");
  await b.waitForSelector("#status[data-phase=your-turn]");
  assert.equal(await moveCount(b), await moveCount(a));
  await a.close();
  await b.close();
});

test("the manual arm panel moves the arm", { skip: withArm ? false : "needs the arm controller: run with GAMEBOT_UI_ARGS='play games/tictactoe.game --sim --speed 10 --web 127.0.0.1:0'" }, async () => {
  const page = await openPage();
  await page.waitForFunction(() => document.querySelector("#tool-pos").dataset.joints, null, { timeout: 30_000 });
  const before = await page.getAttribute("#tool-pos", "data-joints");
  await page.click('[data-jog="z+"]');
  await page.waitForFunction(() => /arm: tool at|arm: /.test(document.querySelector("#notice").textContent) && !/working/.test(document.querySelector("#notice").textContent), null, { timeout: 60_000 });
  assert.equal(await page.getAttribute("#notice", "data-kind"), "info", await page.textContent("#notice"));
  await page.waitForFunction((j) => document.querySelector("#tool-pos").dataset.joints !== j, before, { timeout: 30_000 });
  await shot(page, "arm.png");
  await page.close();
});
