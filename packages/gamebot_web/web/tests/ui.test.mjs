// Browser tests of the web UI without the robot: `gamebot play
// games/tictactoe.game --vs mcts:iterations=300 --web 127.0.0.1:0` (referee,
// planner and web in one process; the person is a `human` player whose
// clicks go to the referee). Quick; the whole robot is in sim.test.mjs.
// Run: `node --test packages/gamebot_web/web/tests/` after `cargo build -p gamebot`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { Session, canvasColours, clickMove, dragMove, gameNumber, moveCount, moveList, newGame, phase, pieces, settle } from "./harness.mjs";

const s = new Session(["play", "games/tictactoe.game", "--vs", "mcts:iterations=300", "--web", "127.0.0.1:0"]);
const STRATEGY = "mcts:iterations=300";

before(() => s.start());
after(() => s.stop());

test("plain: a whole game of tic-tac-toe by clicks, to its end", async () => {
  const page = await s.openPage();
  await newGame(page, STRATEGY);
  let clicks = 0;
  while ((await settle(page)) !== "over") {
    await clickMove(page, clicks++);
    assert.ok(clicks <= 5, "tic-tac-toe lasts at most five moves of the first player");
  }
  const winner = Number(await page.getAttribute("#status", "data-winner"));
  assert.ok([0, 1, 2].includes(winner), `winner ${winner}`);
  const moves = await moveList(page);
  assert.ok(moves.length >= 5 && moves.length <= 9, `${moves.length} moves`);
  for (const m of moves) assert.match(m, /^[^:]+:[^-]+->.+$/);
  const piece = page.locator("#board [data-element]").first();
  for (const a of ["data-type", "data-state"]) assert.ok(await piece.getAttribute(a));
  // The robot panel shows the planner's last search (its end report).
  await page.waitForSelector("#ai-panel[data-done=true]");
  assert.ok(Number(await page.getAttribute("#ai-iterations", "data-value")) > 0);
  await page.close();
});

test("plain: an illegal click is explained", async () => {
  const page = await s.openPage();
  await newGame(page, STRATEGY);
  await settle(page);
  await page.locator('#board [data-element][data-owner="2"]').first().click();
  await page.waitForSelector("#notice[data-kind=error]");
  assert.match(await page.textContent("#notice"), /not yours|cannot move/);
  await page.locator("#board [data-element].movable").first().click();
  await page.locator('#board [data-element][data-owner="2"]').first().click();
  await page.waitForFunction(() => /illegal/.test(document.querySelector("#notice").textContent));
  assert.equal(await page.getAttribute("#notice", "data-kind"), "error");
  assert.equal(await moveCount(page), 0, "nothing was played");
  await page.close();
});

test("plain: a move by drag and drop", async () => {
  const page = await s.openPage();
  await newGame(page, STRATEGY);
  await settle(page);
  const { element, to } = await dragMove(page, 1);
  const first = await page.getAttribute("#moves li:first-child", "data-move");
  assert.ok(first.startsWith(`${element}:`) && first.endsWith(`->${to}`), `${first} is ${element} to ${to}`);
  // A drop off the board plays nothing.
  await settle(page);
  const n = await moveCount(page);
  const box = await page.locator("#board [data-element].movable").first().boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 40, box.y + 40, { steps: 3 });
  await page.mouse.move(5, 5, { steps: 4 });
  await page.mouse.up();
  await page.waitForFunction(() => /nothing played/.test(document.querySelector("#notice").textContent));
  assert.equal(await moveCount(page), n);
  await page.close();
});

test("plain: the 3D view renders (canvas not blank)", async () => {
  const page = await s.openPage();
  const distinct = await canvasColours(page, 3);
  assert.ok(distinct > 3, `only ${distinct} colour(s) on the 3D canvas`);
  await page.close();
});

test("plain: reloading mid-game restores the position and the move list", async () => {
  const page = await s.openPage();
  await newGame(page, STRATEGY);
  await settle(page);
  await clickMove(page, 1);
  await settle(page);
  const [moves, board] = [await moveList(page), await pieces(page)];
  assert.equal(moves.length, 2);
  await page.reload();
  await page.waitForSelector("#status[data-connected=true]");
  await page.waitForFunction((n) => document.querySelectorAll("#moves li").length === n, moves.length);
  assert.deepEqual(await moveList(page), moves);
  assert.deepEqual(await pieces(page), board);
  await page.click('#moves li[data-ply="1"]');
  await page.waitForSelector("#replay-bar:not([hidden])");
  assert.equal(await page.locator('#board [data-element][data-at^="cell"]').count(), 1);
  await page.click("#replay-live");
  await page.waitForSelector("#replay-bar[hidden]", { state: "attached" });
  await page.close();
});

test("plain: two tabs see the same game", async () => {
  const a = await s.openPage();
  await newGame(a, STRATEGY);
  await settle(a);
  const b = await s.openPage();
  assert.equal(await gameNumber(b), await gameNumber(a));
  await clickMove(a, 2);
  await b.waitForFunction(() => document.querySelectorAll("#moves li").length >= 1);
  assert.equal(await b.getAttribute("#moves li:first-child", "data-move"), await a.getAttribute("#moves li:first-child", "data-move"));
  await settle(a);
  await settle(b);
  assert.deepEqual(await moveList(b), await moveList(a));
  assert.equal(await phase(b), await phase(a));
  await a.close();
  await b.close();
});

// Without the arm controller the manual arm panel says so.
test("plain: the manual arm panel says when there is no arm", async () => {
  const page = await s.openPage();
  await page.click("#grip-open");
  await page.waitForFunction(() => /not running|no robot description/.test(document.querySelector("#notice").textContent), null, { timeout: 30_000 });
  assert.equal(await page.getAttribute("#notice", "data-kind"), "error");
  await page.close();
});
