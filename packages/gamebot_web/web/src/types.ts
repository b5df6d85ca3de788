// The messages of the web node's WebSocket (see src/protocol.rs).

export interface LocationLayout {
  name: string; location_type: string; x: number; y: number;
  shape: "circle" | "rect"; w: number; h: number; relevant: boolean;
  robot: [number, number, number] | null;
}
export interface Layout {
  game_name: string; game_file: string; players: string[];
  locations: LocationLayout[];
  element_types: { element_type: string; colours: string[] }[];
  view_box: [number, number, number, number];
}
export interface Square {
  location: string; element: string; element_type: string; element_state: number; owner: number;
}
export interface GameStateView {
  game_name: string; game_file: string; game_number: number; moves: string[];
  players: string[]; player_kinds: string[]; current_player: number; winner: number;
  scores: number[]; board: Square[]; legal_moves: string[];
  phase: "your-turn" | "thinking" | "arm-moving" | "checking" | "over"; help: boolean; state_hash: string;
}
/** The planner's /planner/progress report (src/protocol.rs ProgressView). */
export interface ProgressView {
  game_file: string; ply: number; strategy: string; iterations: number; nodes: number; playouts: number;
  depth: number; value: number; best_move: string; pv: string[]; seconds: number; nodes_per_second: number;
  done: boolean;
}
export interface GameEventView {
  kind: string; game_number: number; ply: number; player: number; move: string; winner: number; message: string;
}
export interface Reply { type: "reply" | "error"; id: number | null; ok: boolean; message: string; data?: any }

export type ServerMessage =
  | { type: "hello"; games: string[]; sim: boolean }
  | { type: "progress"; progress: ProgressView }
  | { type: "layout"; layout: Layout | null; error?: string }
  | { type: "state"; state: GameStateView }
  | { type: "event"; event: GameEventView }
  | { type: "robot"; urdf: string }
  | { type: "joints"; name: string[]; position: number[] }
  | { type: "arm"; moving: boolean; move: string; message: string }
  | Reply;

/** `element:from->to` split into its parts. */
export function parseMove(text: string): { element: string; from: string; to: string } | null {
  const colon = text.indexOf(":");
  const arrow = text.indexOf("->", colon + 1);
  if (colon < 0 || arrow < 0) return null;
  return { element: text.slice(0, colon), from: text.slice(colon + 1, arrow), to: text.slice(arrow + 2) };
}
