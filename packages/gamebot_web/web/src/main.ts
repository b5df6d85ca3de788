// The gamebot page: board, moves, events, robot panel, 3D view, camera,
// manual arm, new game — all fed by one WebSocket.
import { Connection } from "./net";
import { drawBoard, gridLayout } from "./board";
import { View3D } from "./view3d";
import type { GameEventView, GameStateView, Layout, Reply, ServerMessage, Square } from "./types";
import { parseMove } from "./types";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

let layout: Layout | null = null;
let state: GameStateView | null = null;
let selected: string | null = null;
let pendingMove: string | null = null;
let replay: { ply: number; board: Square[] } | null = null;
let thinkingSince: number | null = null;
let view3d: View3D | null = null;

function notice(text: string, kind: "info" | "error" = "info"): void {
  const n = $("notice");
  n.textContent = text;
  n.dataset.kind = kind;
}

const conn = new Connection(onMessage, onFrame, (open) => {
  $("status").dataset.connected = String(open);
  if (!open) notice("connection lost; reconnecting…", "error");
});

function legalFor(element: string): string[] {
  return (state?.legal_moves ?? []).filter((m) => parseMove(m)?.element === element);
}

function myTurn(): boolean {
  return !!state && state.phase === "your-turn" && !replay;
}

function render(): void {
  const svg = $("board") as unknown as SVGSVGElement;
  if (!state) return;
  const lay = layout ?? gridLayout(state.board.map((s) => s.location), state.game_name);
  const movable = new Set<string>();
  if (myTurn()) for (const m of state.legal_moves) { const p = parseMove(m); if (p) movable.add(p.element); }
  const targets = new Set<string>();
  if (selected) for (const m of legalFor(selected)) targets.add(parseMove(m)!.to);
  const squares = replay ? replay.board : state.board;
  drawBoard(svg, {
    layout: lay, squares, movable, selected, targets,
    lastMove: replay ? (state.moves[replay.ply - 1] ?? null) : (state.moves[state.moves.length - 1] ?? null),
    pendingMove: replay ? null : pendingMove,
  }, onLocation, onPiece);
  view3d?.setBoard(lay, squares);
}

function renderStatus(): void {
  const s = $("status");
  if (!state) return;
  s.dataset.phase = state.phase;
  s.dataset.player = String(state.current_player);
  s.dataset.winner = String(state.winner);
  s.dataset.game = String(state.game_number);
  const who = (p: number) => `${state!.players[p - 1] ?? "player " + p} (player ${p}, ${state!.player_kinds[p - 1] ?? "?"})`;
  let text: string;
  switch (state.phase) {
    case "your-turn": text = `${who(state.current_player)}: your move`; break;
    case "thinking": text = `${who(state.current_player)} is thinking…`; break;
    case "arm-moving": text = "the arm is moving"; break;
    case "checking": text = "checking the board"; break;
    case "over": text = state.winner === 0 ? "game over: draw" : `game over: ${who(state.winner)} wins`; break;
  }
  s.textContent = `${state.game_name} #${state.game_number} — ${text}`;
  $("game-title").textContent = state.game_name;
  $("scores").textContent = state.players.map((p, i) => `${p}: ${state!.scores[i] ?? 0}`).join("   ");
  const ai = state.player_kinds.map((k, i) => [k, i + 1] as const).filter(([k]) => k.startsWith("ai"));
  $("ai-strategy").textContent = ai.map(([k, p]) => `player ${p}: ${k.replace(/^ai:/, "") || "planner default"}`).join("; ") || "–";
  $("ai-state").textContent = state.phase === "thinking" ? "thinking" : state.phase === "over" ? "game over" : "waiting";
}

function renderMoves(): void {
  const ol = $("moves");
  if (!state) return;
  const items = state.moves.map((m, i) => {
    const li = document.createElement("li");
    li.dataset.move = m;
    li.dataset.ply = String(i + 1);
    li.textContent = m;
    if (replay && replay.ply === i + 1) li.className = "current";
    li.addEventListener("click", () => showPly(i + 1));
    return li;
  });
  ol.replaceChildren(...items);
  ol.scrollTop = ol.scrollHeight;
}

async function showPly(ply: number): Promise<void> {
  if (!state) return;
  if (ply >= state.moves.length) { replay = null; $("replay-bar").hidden = true; render(); renderMoves(); return; }
  const r = await conn.send({ cmd: "position", ply });
  if (!r.ok) { notice(r.message, "error"); return; }
  replay = { ply, board: r.data.board };
  selected = null;
  $("replay-ply").textContent = String(ply);
  $("replay-bar").hidden = false;
  render();
  renderMoves();
}

function addEvent(e: GameEventView): void {
  const li = document.createElement("li");
  li.dataset.kind = e.kind;
  li.textContent = `${e.kind}${e.move ? " " + e.move : ""}${e.message ? ": " + e.message : ""}`;
  const ul = $("events");
  ul.appendChild(li);
  while (ul.children.length > 50) ul.firstChild!.remove();
  ul.scrollTop = ul.scrollHeight;
  if (["move-rejected", "arm-failed", "observation-mismatch"].includes(e.kind)) notice(li.textContent, "error");
  else if (e.kind === "info" && /help/i.test(e.message)) notice(e.message, "error");
  if (e.kind === "move-played" && state && state.player_kinds[e.player - 1]?.startsWith("ai")) {
    $("ai-last").textContent = e.move;
  }
}

async function play(move: string): Promise<void> {
  selected = null;
  render();
  const r = await conn.send({ cmd: "move", move });
  notice(r.message, r.ok ? "info" : "error");
}

function onPiece(element: string, loc: string): void {
  if (!state) return;
  if (replay) { notice("you are looking at an earlier position; go back to the game to play", "error"); return; }
  if (state.phase !== "your-turn") { notice(`not your turn: ${$("status").textContent}`, "error"); return; }
  if (selected && selected !== element) { onLocation(loc); return; }
  if (selected === element) {
    // A second click on the piece: a move that stays put (a flip), else deselect.
    const stay = legalFor(element).find((m) => parseMove(m)!.to === loc);
    if (stay) { void play(stay); return; }
    selected = null; render(); return;
  }
  if (legalFor(element).length === 0) {
    const owner = state.board.find((s) => s.element === element)?.owner;
    notice(`${element} cannot move now${owner && owner !== state.current_player ? " (it is not yours)" : ""}; the pieces you can move are outlined`, "error");
    return;
  }
  selected = element;
  notice(`${element}: pick a highlighted target`);
  render();
}

function onLocation(loc: string): void {
  if (!state) return;
  if (replay) { notice("you are looking at an earlier position; go back to the game to play", "error"); return; }
  if (state.phase !== "your-turn") { notice(`not your turn: ${$("status").textContent}`, "error"); return; }
  if (!selected) {
    notice(`click one of your pieces first (the outlined ones), then a target`, "error");
    return;
  }
  const from = state.board.find((s) => s.element === selected)?.location ?? "?";
  const text = `${selected}:${from}->${loc}`;
  const legal = legalFor(selected).find((m) => parseMove(m)!.to === loc);
  if (legal) { void play(legal); return; }
  // Not a legal target: ask the referee, which says why.
  selected = null;
  render();
  void conn.send({ cmd: "move", move: text }).then((r: Reply) => {
    notice(r.ok ? r.message : `illegal: ${r.message}`, r.ok ? "info" : "error");
  });
}

function onMessage(m: ServerMessage): void {
  switch (m.type) {
    case "hello": {
      const sel = $("ng-game") as HTMLSelectElement;
      sel.replaceChildren(...m.games.map((g) => { const o = document.createElement("option"); o.value = g; o.textContent = g.replace(/^.*\//, ""); return o; }));
      if (state) sel.value = state.game_file;
      break;
    }
    case "layout":
      layout = m.layout;
      if (m.error) notice(`board picture unavailable (${m.error}); showing a grid`, "error");
      render();
      break;
    case "state": {
      const newGame = !state || state.game_number !== m.state.game_number;
      if (newGame) { replay = null; $("replay-bar").hidden = true; $("events").replaceChildren(); pendingMove = null; }
      state = m.state;
      if (selected && legalFor(selected).length === 0) selected = null;
      if (state.phase !== "your-turn") selected = null;
      if (state.phase === "thinking") thinkingSince ??= Date.now(); else thinkingSince = null;
      if (state.phase !== "arm-moving") pendingMove = null;
      (($("ng-game") as HTMLSelectElement).value = state.game_file);
      renderStatus(); renderMoves(); render();
      break;
    }
    case "event": addEvent(m.event); break;
    case "robot": view3d?.setRobot(m.urdf); break;
    case "joints": {
      view3d?.setJoints(m.name, m.position);
      const t = view3d?.toolPosition();
      $("tool-pos").textContent = t ? `tool: x ${t.x.toFixed(3)}  y ${t.y.toFixed(3)}  z ${t.z.toFixed(3)} m` : "tool: –";
      $("tool-pos").dataset.joints = m.position.map((p) => p.toFixed(4)).join(",");
      break;
    }
    case "arm":
      pendingMove = m.moving ? m.move : null;
      $("arm-state").textContent = m.moving ? `moving: ${m.move}` : m.message || "idle";
      render();
      break;
    case "reply": case "error":
      notice(m.message, m.ok ? "info" : "error");
      break;
  }
}

let frameUrl: string | null = null;
function onFrame(channel: number, jpeg: Blob): void {
  const overlay = ($("camera-overlay") as HTMLInputElement).checked;
  if ((channel === 1) !== overlay) return;
  if (frameUrl) URL.revokeObjectURL(frameUrl);
  frameUrl = URL.createObjectURL(jpeg);
  ($("camera") as HTMLImageElement).src = frameUrl;
}

function cameraChanged(): void {
  const on = ($("camera-on") as HTMLInputElement).checked;
  const overlay = ($("camera-overlay") as HTMLInputElement).checked;
  void conn.send({ cmd: "camera", on: on && !overlay, annotated: false });
  void conn.send({ cmd: "camera", on: on && overlay, annotated: true });
}

async function armCommand(cmd: Record<string, unknown>): Promise<void> {
  notice("arm: working…");
  const r = await conn.send(cmd);
  notice(`arm: ${r.message}`, r.ok ? "info" : "error");
}

function setup(): void {
  try { view3d = new View3D($("view3d")); } catch (e) { $("view3d").textContent = `3D view unavailable: ${e}`; }
  $("camera-on").addEventListener("change", cameraChanged);
  $("camera-overlay").addEventListener("change", cameraChanged);
  $("replay-live").addEventListener("click", () => { if (state) void showPly(state.moves.length); });
  document.querySelectorAll<HTMLButtonElement>("[data-jog]").forEach((b) => b.addEventListener("click", () => {
    const from = view3d?.toolPosition();
    if (!from) { notice("arm: no robot description or joint states yet (is the arm controller running?)", "error"); return; }
    const step = Number(($("jog-step") as HTMLSelectElement).value);
    const axis = b.dataset.jog![0], sign = b.dataset.jog![1] === "+" ? 1 : -1;
    const delta = { x: 0, y: 0, z: 0, [axis]: sign * step };
    void armCommand({ cmd: "jog", from, delta });
  }));
  $("grip-open").addEventListener("click", () => void armCommand({ cmd: "gripper", open: true }));
  $("grip-close").addEventListener("click", () => void armCommand({ cmd: "gripper", open: false }));
  $("pose-home").addEventListener("click", () => void armCommand({ cmd: "pose", pose: "home" }));
  $("pose-park").addEventListener("click", () => void armCommand({ cmd: "pose", pose: "park" }));
  $("new-game").addEventListener("submit", (e) => {
    e.preventDefault();
    const game = ($("ng-game") as HTMLSelectElement).value;
    const side = Number(($("ng-side") as HTMLSelectElement).value);
    const you = ($("ng-you") as HTMLSelectElement).value;
    const strategy = ($("ng-strategy") as HTMLInputElement).value.trim();
    const players = game === state?.game_file ? state.players.length : 2;
    const kinds = Array.from({ length: Math.max(players, side) }, (_, i) => (i + 1 === side ? you : `ai:${strategy}`));
    void conn.send({ cmd: "new_game", game_file: game, player_kinds: kinds }).then((r) => notice(r.message, r.ok ? "info" : "error"));
  });
  setInterval(() => {
    if (thinkingSince !== null && state?.phase === "thinking") {
      $("ai-state").textContent = `thinking… ${((Date.now() - thinkingSince) / 1000).toFixed(1)} s`;
    }
  }, 200);
  conn.connect();
}

setup();
