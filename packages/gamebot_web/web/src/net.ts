// One WebSocket to the web node, reconnecting; commands get replies by id.
import type { Reply, ServerMessage } from "./types";

export class Connection {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private pending = new Map<number, (r: Reply) => void>();
  constructor(
    private onMessage: (m: ServerMessage) => void,
    private onFrame: (channel: number, jpeg: Blob) => void,
    private onOpenChange: (open: boolean) => void,
  ) {}

  connect(): void {
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    ws.onopen = () => this.onOpenChange(true);
    ws.onclose = () => {
      this.onOpenChange(false);
      for (const [, resolve] of this.pending) resolve({ type: "reply", id: null, ok: false, message: "connection lost" });
      this.pending.clear();
      setTimeout(() => this.connect(), 1000);
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== "string") {
        const bytes = new Uint8Array(ev.data as ArrayBuffer);
        if (bytes.length > 1) this.onFrame(bytes[0], new Blob([bytes.subarray(1)], { type: "image/jpeg" }));
        return;
      }
      let m: ServerMessage;
      try { m = JSON.parse(ev.data); } catch { return; }
      if ((m.type === "reply" || m.type === "error") && m.id != null && this.pending.has(m.id)) {
        const resolve = this.pending.get(m.id)!;
        this.pending.delete(m.id);
        resolve(m);
        return;
      }
      this.onMessage(m);
    };
  }

  /** Sends a command and resolves with its reply. */
  send(cmd: Record<string, unknown>): Promise<Reply> {
    return new Promise((resolve) => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
        resolve({ type: "reply", id: null, ok: false, message: "not connected to the robot" });
        return;
      }
      const id = this.nextId++;
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ ...cmd, id }));
    });
  }
}
