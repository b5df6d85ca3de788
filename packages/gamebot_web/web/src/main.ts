// The gamebot page: board, moves, events, robot panel, 3D view, camera,
// manual arm, new game — all fed by one WebSocket.
import { Connection } from "./net";
import { colourOf, drawBoard, gridLayout, locationAt, pieceRadius } from "./board";
import { View3D } from "./view3d";
import type { GameEventView, GameStateView, Layout, ProgressView, Reply, ServerMessage, Square } from "./types";
import { parseMove } from "./types";

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

let layout: Layout | null = null;
let state: GameStateView | null = null;
let selected: string | null = null;
let pendingMove: string | null = null;
let replay: { ply: number; board: Square[] } | null = null;
let thinkingSince: number | null = null;
let view3d: View3D | null = null;
/** The planner's latest report (/planner/progress). */
let progress: ProgressView | null = null;
/** Whether the simulated world's hand makes the person's moves. */
let sim = false;
/** The game whose players the new-game form was last set from. */
let formGame: number | null = null;

/** A piece being dragged: it becomes a drag once the pointer moved a few pixels. */
interface Drag { element: string; from: string; pointerId: number; x0: number; y0: number; moved: boolean; x: number; y: number }
let drag: Drag | null = null;
/** Clicks that follow a drop are not clicks. */
let swallowClickUntil = 0;

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
    dragging: drag?.moved ? drag.element : null,
  }, onLocation, onPiece, onPieceDown);
  if (drag?.moved) drawGhost(svg, lay, squares);
  view3d?.setBoard(lay, squares);
}

const SVGNS = "http://www.w3.org/2000/svg";

/** The dragged piece under the pointer (it lets the pointer through to the targets). */
function drawGhost(svg: SVGSVGElement, lay: Layout, squares: Square[]): void {
  if (!drag) return;
  const sq = squares.find((q) => q.element === drag!.element);
  const loc = lay.locations.find((l) => l.name === drag!.from);
  if (!sq || !loc) return;
  let g = svg.querySelector<SVGCircleElement>("circle.ghost");
  if (!g) {
    g = document.createElementNS(SVGNS, "circle");
    g.setAttribute("class", "ghost");
    g.setAttribute("data-ghost", drag.element);
    g.setAttribute("r", String(pieceRadius(loc)));
    g.setAttribute("fill", colourOf(lay, sq.element_type, sq.element_state));
    svg.appendChild(g);
  }
  g.setAttribute("cx", String(drag.x));
  g.setAttribute("cy", String(drag.y));
}

/** A point of the page in the board's coordinates. */
function boardPoint(svg: SVGSVGElement, ev: PointerEvent): { x: number; y: number } {
  const m = svg.getScreenCTM();
  if (!m) return { x: 0, y: 0 };
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  return { x: p.x, y: p.y };
}

function onPieceDown(element: string, loc: string, ev: PointerEvent): void {
  if (ev.button !== 0 || !state || !myTurn() || legalFor(element).length === 0) return;
  if (selected && selected !== element) return; // a click on a target piece, not a drag
  drag = { element, from: loc, pointerId: ev.pointerId, x0: ev.clientX, y0: ev.clientY, moved: false, x: 0, y: 0 };
}

function setupDrag(): void {
  const svg = $("board") as unknown as SVGSVGElement;
  svg.addEventListener("pointermove", (ev) => {
    if (!drag || ev.pointerId !== drag.pointerId) return;
    if (!drag.moved) {
      if (Math.hypot(ev.clientX - drag.x0, ev.clientY - drag.y0) < 6) return;
      if (!myTurn()) { drag = null; return; }
      drag.moved = true;
      svg.setPointerCapture(ev.pointerId);
      selected = drag.element;
      notice(`${drag.element}: drop it on a highlighted target`);
      Object.assign(drag, boardPoint(svg, ev));
      render();
      return;
    }
    Object.assign(drag, boardPoint(svg, ev));
    const g = svg.querySelector<SVGCircleElement>("circle.ghost");
    g?.setAttribute("cx", String(drag.x));
    g?.setAttribute("cy", String(drag.y));
  });
  const end = (ev: PointerEvent, dropped: boolean) => {
    if (!drag || ev.pointerId !== drag.pointerId) return;
    const d = drag;
    drag = null;
    if (!d.moved) return; // a plain click: the click handlers do it
    swallowClickUntil = performance.now() + 500;
    if (svg.hasPointerCapture(ev.pointerId)) svg.releasePointerCapture(ev.pointerId);
    svg.querySelector("circle.ghost")?.remove();
    const loc = dropped ? locationAt(ev.clientX, ev.clientY) : null;
    if (loc && loc !== d.from) { onLocation(loc); return; }
    selected = null;
    render();
    notice(loc ? "dropped where it was: nothing played" : "dropped off the board: nothing played");
  };
  svg.addEventListener("pointerup", (ev) => end(ev, true));
  svg.addEventListener("pointercancel", (ev) => end(ev, false));
  svg.addEventListener("click", (ev) => {
    if (performance.now() < swallowClickUntil) { ev.stopPropagation(); ev.preventDefault(); swallowClickUntil = 0; }
  }, true);
}

function fmtCount(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)} k` : String(n);
}

/** The robot panel: what the planner thinks (live while it searches). */
function renderAi(): void {
  const panel = $("ai-panel");
  const p = progress;
  const ply = state?.moves.length ?? -1;
  // The planner's latest report of this game (cleared when a game starts): live
  // while it searches the position on the board, else about its last move.
  const relevant = p && state && p.game_file === state.game_file && p.ply <= ply ? p : null;
  const live = !!relevant && !relevant.done && relevant.ply === ply && state?.phase === "thinking";
  panel.dataset.live = String(live);
  panel.dataset.ply = relevant ? String(relevant.ply) : "";
  panel.dataset.done = relevant ? String(relevant.done) : "";
  const set = (id: string, text: string, value?: number) => {
    const e = $(id);
    e.textContent = text;
    if (value !== undefined) e.dataset.value = String(value);
  };
  if (!relevant) {
    for (const id of ["ai-best", "ai-value", "ai-speed", "ai-pv", "ai-for"]) set(id, "–");
    set("ai-iterations", "–", 0);
    set("ai-depth", "–", 0);
    return;
  }
  set("ai-for", `move ${relevant.ply + 1}${relevant.done ? " (search ended)" : live ? " (searching)" : ""}`);
  set("ai-strategy", relevant.strategy);
  set("ai-best", relevant.best_move || "–");
  set("ai-value", `${relevant.value >= 0 ? "+" : ""}${relevant.value.toFixed(3)}`);
  set("ai-iterations", `${fmtCount(relevant.iterations)}${relevant.playouts ? `, ${fmtCount(relevant.playouts)} playouts` : ""}`, relevant.iterations);
  set("ai-depth", String(relevant.depth), relevant.depth);
  set("ai-speed", `${fmtCount(Math.round(relevant.nodes_per_second))} nodes/s (${fmtCount(relevant.nodes)} nodes in ${relevant.seconds.toFixed(2)} s)`);
  set("ai-pv", relevant.pv.length ? relevant.pv.join("  ") : "–");
}

/** The new-game form starts from the players of the game on the board. */
function formFromState(s: GameStateView): void {
  if (formGame === s.game_number) return;
  formGame = s.game_number;
  const person = s.player_kinds.findIndex((k) => !k.startsWith("ai"));
  if (person >= 0) {
    ($("ng-side") as HTMLSelectElement).value = String(person + 1);
    const kind = s.player_kinds[person];
    if (kind === "human" || kind === "camera") ($("ng-you") as HTMLSelectElement).value = kind;
  }
  const ai = s.player_kinds.find((k) => k.startsWith("ai:"));
  if (ai) ($("ng-strategy") as HTMLInputElement).value = ai.slice(3);
}

function renderStatus(): void {
  const s = $("status");
  if (!state) return;
  s.dataset.phase = state.phase;
  s.dataset.player = String(state.current_player);
  s.dataset.winner = String(state.winner);
  s.dataset.game = String(state.game_number);
  s.dataset.help = String(state.help);
  const who = (p: number) => `${state!.players[p - 1] ?? "player " + p} (player ${p}, ${state!.player_kinds[p - 1] ?? "?"})`;
  let text: string;
  switch (state.phase) {
    case "your-turn": text = `${who(state.current_player)}: your move`; break;
    case "thinking": text = `${who(state.current_player)} is thinking…`; break;
    case "arm-moving": text = "the arm is moving"; break;
    case "checking": text = state.help
      ? "the referee needs help: put the board as shown"
      : "checking the board: the camera confirms the move"; break;
    case "over": text = state.winner === 0 ? "game over: draw" : `game over: ${who(state.winner)} wins`; break;
  }
  s.textContent = `${state.game_name} #${state.game_number} — ${text}`;
  $("game-title").textContent = state.game_name;
  $("scores").textContent = state.players.map((p, i) => `${p}: ${state!.scores[i] ?? 0}`).join("   ");
  const ai = state.player_kinds.map((k, i) => [k, i + 1] as const).filter(([k]) => k.startsWith("ai"));
  $("ai-strategy").textContent = ai.map(([k, p]) => `player ${p}: ${k.replace(/^ai:/, "") || "planner default"}`).join("; ") || "–";
  renderAi();
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
      sim = m.sim;
      document.body.dataset.sim = String(sim);
      // In simulation the person's moves are made on the board by the simulated hand.
      const human = document.querySelector<HTMLOptionElement>('#ng-you option[value="human"]');
      if (human) human.disabled = sim;
      if (sim) ($("ng-you") as HTMLSelectElement).value = "camera";
      break;
    }
    case "progress":
      progress = m.progress;
      renderAi();
      break;
    case "layout":
      layout = m.layout;
      if (m.error) notice(`board picture unavailable (${m.error}); showing a grid`, "error");
      render();
      break;
    case "state": {
      const newGame = !state || state.game_number !== m.state.game_number;
      if (newGame) { replay = null; $("replay-bar").hidden = true; $("events").replaceChildren(); pendingMove = null; }
      if (newGame && state) progress = null;
      state = m.state;
      formFromState(state);
      if (sim) ($("ng-you") as HTMLSelectElement).value = "camera";
      if (selected && legalFor(selected).length === 0) selected = null;
      if (state.phase !== "your-turn") { selected = null; drag = null; }
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
      $("tool-pos").dataset.tool = t ? [t.x, t.y, t.z].map((v) => v.toFixed(4)).join(",") : "";
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

/** Shows the registration wizard's state (the `data` of a `register` reply). */
function showRegistration(d: any): void {
  const active = !!d?.active;
  $("register").dataset.active = String(active);
  $("reg-wizard").hidden = !active;
  if (!active) return;
  $("register").dataset.recorded = String(d.recorded);
  $("reg-next").textContent = d.next
    ? `jog the tool tip onto ${d.next.text}, then record it (${d.recorded} recorded)`
    : `every mark is recorded (${d.recorded}): save, or undo the last`;
  const fit = $("reg-fit");
  ($("reg-save") as HTMLButtonElement).disabled = !d.fit;
  if (d.fit) {
    const f = d.fit;
    fit.dataset.rms = String(f.rms_mm);
    fit.textContent = `shift (${f.offset_mm[0].toFixed(2)}, ${f.offset_mm[1].toFixed(2)}) mm, turn ${f.rotation_deg.toFixed(3)}°, ` +
      `surface ${f.surface_offset_mm.toFixed(2)} mm — residuals ${f.residuals_mm.map((r: number) => r.toFixed(2)).join(", ")} mm (rms ${f.rms_mm.toFixed(2)})` +
      (d.saved ? ` — saved to ${d.saved}` : "");
  } else {
    delete fit.dataset.rms;
    fit.textContent = d.fit_error ?? (d.recorded < 3 ? `the fit needs 3 points (${d.recorded} so far)` : "–");
  }
}

async function registerStep(step: string): Promise<void> {
  notice(`registration: ${step}…`);
  const r = await conn.send({ cmd: "register", step });
  if (r.data) showRegistration(r.data);
  notice(r.message, r.ok ? "info" : "error");
}

function setup(): void {
  try { view3d = new View3D($("view3d")); } catch (e) { $("view3d").textContent = `3D view unavailable: ${e}`; }
  setupDrag();
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
  for (const [id, step] of [["reg-start", "start"], ["reg-record", "record"], ["reg-undo", "undo"], ["reg-save", "save"], ["reg-cancel", "cancel"]]) {
    $(id).addEventListener("click", () => void registerStep(step));
  }
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
