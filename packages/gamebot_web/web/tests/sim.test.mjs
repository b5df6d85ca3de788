// Browser tests of the web UI against the simulated robot: `gamebot play
// games/tictactoe.game --sim --speed 10 --web 127.0.0.1:0` — the simulated
// world, camera, detector, arm controller and servo bridge, referee, planner
// and web in one process. The robot (player 1) plans and its arm carries the
// moves; the person (player 2, a `camera` player) clicks or drags, the
// simulated hand makes the move in the world and the referee learns it from
// the camera. Every wait is on the page's hooks (#status[data-phase], #moves
// li, ...), never a fixed sleep.
// Run: `node --test packages/gamebot_web/web/tests/` after `cargo build -p gamebot`.
// GAMEBOT_UI_SCREENSHOTS=DIR saves screenshots there (docs/ui/ for the README).
//
// The tests share one process and follow each other: one game is played
// through the first four (the robot's turn watched, an illegal click and a
// drag, a reload, two tabs, the arm panel and the registration wizard while
// the person is to move) to its end by clicks.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Session, canvasColours, clickMove, dragMove, gameNumber, moveCount, moveList, newGame, phase, pieces, settle, shot, waitFor } from "./harness.mjs";

const s = new Session(["play", "games/tictactoe.game", "--sim", "--speed", "10", "--web", "127.0.0.1:0"]);
// Long enough that the planner reports while it searches (every ~100 ms).
const STRATEGY = "mcts:time=1s";

before(() => s.start());
after(() => s.stop());

/** The phases the page went through since `mark` (an index into window.phases). */
const phasesSince = (page, mark) => page.evaluate((m) => window.phases.slice(m), mark);
const phaseMark = (page) => page.evaluate(() => window.phases.length);

let page;

test("sim: the robot's turn — the AI panel live, then the arm moves and the camera confirms", async () => {
  page = await s.openPage();
  assert.equal(await page.getAttribute("body", "data-sim"), "true", "the page knows the hand makes the person's moves");
  await settle(page);
  const mark = await phaseMark(page);
  // The panel is live only while the planner thinks (a second): every state
  // the page renders is recorded, so a poll that comes late still sees it.
  await page.evaluate(() => {
    window.aiLiveSeen = false;
    const panel = document.querySelector("#ai-panel");
    const check = () => {
      if (panel.dataset.live === "true"
        && Number(document.querySelector("#ai-iterations").dataset.value) > 0) window.aiLiveSeen = true;
    };
    new MutationObserver(check).observe(panel, { attributes: true, subtree: true });
    check();
  });
  await newGame(page, STRATEGY);
  // The robot plays first: the panel shows the search while it runs.
  await waitFor(s, page, () => window.aiLiveSeen === true,
    null, 30_000, "the robot panel live with iterations > 0 while the planner thinks");
  assert.equal(await page.getAttribute("#ai-panel", "data-ply"), "0");
  for (const id of ["#ai-best", "#ai-value", "#ai-speed", "#ai-pv"]) {
    assert.notEqual((await page.textContent(id)).trim(), "–", `${id} is filled while the planner thinks`);
  }
  assert.match(await page.textContent("#ai-strategy"), /mcts/);
  await shot(page, "thinking.png");
  // The arm carries the move; its pending move is drawn as an arrow.
  await page.waitForSelector("#status[data-phase=arm-moving]", { timeout: 30_000 });
  await page.waitForSelector('#board [data-arrow="pending"]', { state: "attached", timeout: 30_000 });
  await shot(page, "arm-moving.png");
  assert.equal(await settle(page), "your-turn");
  const seen = await phasesSince(page, mark);
  // `checking` (the referee's confirming phase) shows only when the camera
  // has not confirmed the board by the time the arm is done.
  const order = ["thinking", "arm-moving", "your-turn"];
  let at = -1;
  for (const p of order) {
    const i = seen.indexOf(p, at + 1);
    assert.ok(i > at, `phase ${p} after ${order.slice(0, order.indexOf(p))}: saw ${seen}`);
    at = i;
  }
  assert.equal(await moveCount(page), 1);
  assert.equal(await page.getAttribute("#status", "data-player"), "2");
});

test("sim: an illegal click is explained, a dragged move is made by the hand", async () => {
  // An opponent's piece (the robot's crosses): not yours.
  await page.locator('#board [data-element][data-owner="1"]').first().click();
  await page.waitForSelector("#notice[data-kind=error]");
  assert.match(await page.textContent("#notice"), /not yours|cannot move/);
  // One of ours onto the robot's piece on the board: the referee says why not.
  await page.locator("#board [data-element].movable").first().click();
  await page.locator('#board [data-element][data-owner="1"][data-at^="cell"]').first().click();
  await page.waitForFunction(() => /illegal/.test(document.querySelector("#notice").textContent));
  assert.equal(await page.getAttribute("#notice", "data-kind"), "error");
  await shot(page, "illegal.png", "header");
  assert.equal(await moveCount(page), 1, "nothing was played");
  // A drag: the simulated hand makes it, the camera confirms it.
  const mark = await phaseMark(page);
  const { element, to } = await dragMove(page, 0);
  const moves = await moveList(page);
  assert.ok(moves[1].startsWith(`${element}:`) && moves[1].endsWith(`->${to}`), `${moves[1]} is ${element} to ${to}`);
  const seen = await phasesSince(page, mark);
  assert.ok(seen.includes("checking"), `checking while the camera confirms the hand's move: ${seen}`);
  assert.equal(await settle(page), "your-turn");
});

test("sim: reloading mid-game restores the position and the move list", async () => {
  const moves = await moveList(page);
  const board = await pieces(page);
  assert.equal(moves.length, 3);
  await page.reload();
  await page.waitForSelector("#status[data-connected=true]");
  await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, moves.length);
  assert.deepEqual(await moveList(page), moves);
  assert.deepEqual(await pieces(page), board);
  assert.equal(await phase(page), "your-turn");
  // Step-through replay: after move 1, one piece on the grid.
  await page.click('#moves li[data-ply="1"]');
  await page.waitForSelector("#replay-bar:not([hidden])");
  assert.equal(await page.locator('#board [data-element][data-at^="cell"]').count(), 1);
  await page.click("#replay-live");
  await page.waitForSelector("#replay-bar[hidden]", { state: "attached" });
});

test("sim: two tabs see the same game", async () => {
  const b = await s.openPage();
  assert.equal(await gameNumber(b), await gameNumber(page));
  assert.deepEqual(await moveList(b), await moveList(page));
  const n = await moveCount(page);
  await clickMove(page, 1);
  await b.waitForFunction((k) => document.querySelectorAll("#moves li").length > k, n);
  await settle(page);
  await settle(b);
  assert.deepEqual(await moveList(b), await moveList(page));
  assert.deepEqual(await pieces(b), await pieces(page));
  await b.close();
});

test("sim: the manual arm panel moves the arm (joint states change)", async () => {
  // The person's turn: the arm is idle (parked) while the referee waits.
  assert.equal(await settle(page), "your-turn", "the arm is idle");
  /** Clicks an arm button; waits for the arm's answer and for the joints to change. */
  const arm = async (selector, expect) => {
    const before = await page.getAttribute("#tool-pos", "data-joints");
    await page.click(selector);
    await waitFor(s, page, () => /^arm: /.test(document.querySelector("#notice").textContent) && !/working/.test(document.querySelector("#notice").textContent), null, 60_000, `${selector}: the arm's answer`);
    const said = await page.textContent("#notice");
    assert.equal(await page.getAttribute("#notice", "data-kind"), "info", said);
    assert.match(said, expect);
    await waitFor(s, page, (j) => document.querySelector("#tool-pos").dataset.joints !== j, before, 30_000, `${selector}: the joint states change`);
  };
  // From the park pose (folded, out of the camera's view) to home above the
  // board, a jog down, and back to park.
  await arm("#pose-home", /arm at home/);
  await arm('[data-jog="z-"]', /tool at/);
  await shot(page, "arm.png");
  await arm("#pose-park", /arm at park/);
});

test("sim: the board registration wizard records marks and shows the fit", async () => {
  assert.equal(await settle(page), "your-turn", "the arm is idle");
  /** Clicks a button; waits until the notice is no longer the step's "…" and is info. */
  const step = async (selector) => {
    await page.click(selector);
    await waitFor(s, page, () => !/…$/.test(document.querySelector("#notice").textContent), null, 60_000, `${selector}: the answer`);
    const said = await page.textContent("#notice");
    assert.equal(await page.getAttribute("#notice", "data-kind"), "info", said);
    return said;
  };
  assert.match(await step("#reg-start"), /registering a4/);
  assert.equal(await page.getAttribute("#register", "data-active"), "true");
  assert.match(await page.textContent("#reg-next"), /point 1 of 4: the grid's far-left corner \(x=-10\.0, y=28\.0 cm\)/);
  /** Waits until the page's tool position (forward kinematics of the joint states) is within 2 mm of `want` (m). */
  const toolAt = (want, what) => waitFor(s, page, (w) => {
    const t = (document.querySelector("#tool-pos").dataset.tool || "").split(",").map(Number);
    return t.length === 3 && t.every((v, i) => Math.abs(v - w[i]) < 0.002);
  }, want, 30_000, what);
  // The tool waits 1 cm above each mark; the simulated sheet lies where the
  // board file says, so one 1 cm jog down puts the tip on it.
  const marks = [[-0.10, 0.28], [0.10, 0.28], [0.10, 0.08]];
  await page.selectOption("#jog-step", "0.01");
  for (let k = 1; k <= 3; k++) {
    const [x, y] = marks[k - 1];
    await toolAt([x, y, 0.01], `above mark ${k}`);
    assert.match(await step('[data-jog="z-"]'), /tool at/);
    await toolAt([x, y, 0], `on mark ${k}`);
    assert.match(await step("#reg-record"), new RegExp(`recorded point ${k}`));
    assert.equal(await page.getAttribute("#register", "data-recorded"), String(k));
  }
  await page.waitForSelector("#reg-fit[data-rms]");
  const rms = Number(await page.getAttribute("#reg-fit", "data-rms"));
  assert.ok(rms < 1, `rms ${rms} mm`);
  assert.match(await page.textContent("#reg-fit"), /residuals .* mm/);
  assert.equal(await page.isEnabled("#reg-save"), true);
  await shot(page, "registration.png", "#arm-panel");
  // Not saved here: that would write the repository's config/boards/a4.yaml.
  await step("#reg-cancel");
  assert.equal(await page.getAttribute("#register", "data-active"), "false");
  await page.click("#pose-park");
  await waitFor(s, page, () => /arm at park/.test(document.querySelector("#notice").textContent), null, 60_000, "parked");
});

test("sim: the game by clicks against the robot, to its end", async () => {
  let clicks = 2;
  while ((await settle(page)) !== "over") {
    await clickMove(page, clicks++);
    assert.ok(clicks <= 6, "the person makes at most four moves in tic-tac-toe");
  }
  const winner = Number(await page.getAttribute("#status", "data-winner"));
  assert.ok([0, 1, 2].includes(winner), `winner ${winner}`);
  const moves = await moveList(page);
  assert.ok(moves.length >= 5 && moves.length <= 9, `${moves.length} moves`);
  for (const m of moves) assert.match(m, /^[^:]+:[^-]+->.+$/);
  const piece = page.locator("#board [data-element]").first();
  for (const a of ["data-type", "data-state"]) assert.ok(await piece.getAttribute(a));
  await shot(page, "game-over.png");
});

test("sim: the 3D view renders the arm (canvas not blank)", async () => {
  await page.waitForFunction(() => document.querySelector("#tool-pos").dataset.joints);
  const distinct = await canvasColours(page, 3);
  assert.ok(distinct > 3, `only ${distinct} colour(s) on the 3D canvas`);
  await shot(page, "view3d.png", "#view3d-panel");
  await page.close();
});
