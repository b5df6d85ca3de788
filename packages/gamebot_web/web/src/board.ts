// The board as SVG, drawn from the game's layout (point= coordinates,
// location shapes, element colours) and a position. Every location is a
// `[data-location]` element, every piece a `[data-element]` one.
import type { Layout, Square } from "./types";
import { parseMove } from "./types";

const SVG = "http://www.w3.org/2000/svg";

export interface BoardView {
  layout: Layout;
  squares: Square[];
  /** Element names the person may pick now. */
  movable: Set<string>;
  selected: string | null;
  targets: Set<string>;
  lastMove: string | null;
  pendingMove: string | null;
  /** The piece being dragged (drawn faded where it stands). */
  dragging: string | null;
}

function el<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The piece's radius on a location of the layout. */
export function pieceRadius(loc: { shape: string; w: number; h: number }): number {
  return 0.7 * (loc.shape === "circle" ? loc.w : Math.min(loc.w, loc.h) / 2);
}

/** The location under a point of the page: a location's shape or a piece on it. */
export function locationAt(x: number, y: number): string | null {
  for (const e of document.elementsFromPoint(x, y)) {
    const at = e.getAttribute("data-at");
    if (at) return at;
    const g = e.closest("[data-location]");
    if (g) return g.getAttribute("data-location");
  }
  return null;
}

export function colourOf(layout: Layout, type: string, state: number): string {
  const t = layout.element_types.find((e) => e.element_type === type);
  if (!t || t.colours.length === 0) return "#888";
  return t.colours[Math.min(Math.max(state, 1), t.colours.length) - 1];
}

/** A fallback layout when the game file cannot be read: a grid of the locations. */
export function gridLayout(names: string[], gameName: string): Layout {
  const n = Math.ceil(Math.sqrt(names.length));
  return {
    game_name: gameName, game_file: "", players: [],
    locations: names.map((name, i) => ({
      name, location_type: "", x: 40 + 70 * (i % n), y: 40 + 70 * Math.floor(i / n),
      shape: "rect", w: 60, h: 60, relevant: true, robot: null,
    })),
    element_types: [], view_box: [0, 0, 70 * n + 10, 70 * Math.ceil(names.length / n) + 10],
  };
}

export function drawBoard(
  svg: SVGSVGElement,
  v: BoardView,
  onLocation: (name: string) => void,
  onPiece: (element: string, location: string) => void,
  onPieceDown: (element: string, location: string, ev: PointerEvent) => void,
): void {
  const [x0, y0, w, h] = v.layout.view_box;
  svg.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
  svg.replaceChildren();
  const defs = el("defs", {});
  for (const kind of ["last", "pending"]) {
    const m = el("marker", { id: `head-${kind}`, viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    m.appendChild(el("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: kind === "last" ? "#2f6fd6" : "#d33c3c" }));
    defs.appendChild(m);
  }
  svg.appendChild(defs);
  const at = new Map(v.squares.filter((s) => s.element).map((s) => [s.location, s]));
  const centre = new Map(v.layout.locations.map((l) => [l.name, l]));
  const from = v.selected ? v.squares.find((s) => s.element === v.selected)?.location : undefined;
  for (const loc of v.layout.locations) {
    const g = el("g", { "data-location": loc.name, "data-type": loc.location_type });
    const cls = ["loc"];
    if (!loc.relevant) cls.push("irrelevant");
    if (v.targets.has(loc.name)) cls.push("target");
    if (from === loc.name) cls.push("from");
    const shape = loc.shape === "circle"
      ? el("circle", { cx: loc.x, cy: loc.y, r: loc.w, class: cls.join(" ") })
      : el("rect", { x: loc.x - loc.w / 2, y: loc.y - loc.h / 2, width: loc.w, height: loc.h, rx: 4, class: cls.join(" ") });
    g.appendChild(shape);
    g.addEventListener("click", (e) => { e.stopPropagation(); onLocation(loc.name); });
    svg.appendChild(g);
  }
  for (const loc of v.layout.locations) {
    const s = at.get(loc.name);
    if (!s) continue;
    const r = pieceRadius(loc);
    const cls = ["piece"];
    if (v.selected === s.element) cls.push("selected");
    else if (v.movable.has(s.element)) cls.push("movable");
    if (v.dragging === s.element) cls.push("dragging");
    const c = el("circle", {
      cx: loc.x, cy: loc.y, r,
      fill: colourOf(v.layout, s.element_type, s.element_state),
      class: cls.join(" "),
      "data-element": s.element, "data-type": s.element_type, "data-state": s.element_state,
      "data-owner": s.owner, "data-at": s.location,
    });
    const title = el("title", {});
    title.textContent = `${s.element} (${s.element_type}) on ${s.location}`;
    c.appendChild(title);
    c.addEventListener("click", (e) => { e.stopPropagation(); onPiece(s.element, s.location); });
    c.addEventListener("pointerdown", (e) => onPieceDown(s.element, s.location, e));
    svg.appendChild(c);
  }
  for (const [text, kind] of [[v.lastMove, "last"], [v.pendingMove, "pending"]] as const) {
    const m = text ? parseMove(text) : null;
    const a = m && centre.get(m.from);
    const b = m && centre.get(m.to);
    if (!m || !a || !b || m.from === m.to) continue;
    const dx = b.x - a.x, dy = b.y - a.y, len = Math.hypot(dx, dy) || 1;
    const shrink = Math.min(15, len / 4);
    svg.appendChild(el("line", {
      x1: a.x + (dx / len) * shrink, y1: a.y + (dy / len) * shrink,
      x2: b.x - (dx / len) * shrink, y2: b.y - (dy / len) * shrink,
      class: `arrow ${kind}`, "marker-end": `url(#head-${kind})`, "data-arrow": kind, "data-move": text!,
    }));
  }
}
