// The WebSocket to the server: hello, replies, reconnection and resumption.
// Room events are applied in sequence order: one already seen is ignored, a gap asks
// the server to resume from the last one applied, as docs/protocol.md describes.

import { LobbyModel } from "./lobbymodel.js";
import { RoomModel } from "./room.js";

const PROTOCOL = 6;
const CLIENT = "gamut-web 0.1";
const RETRY_MS = [250, 500, 1000, 2000, 4000];

/** Refusals of a hello that another try with the same name cannot cure. */
const FINAL_HELLO_ERRORS = new Set([
  "name_taken",
  "bad_token",
  "bad_message",
  "unsupported_version",
  "banned",
]);

export class Link {
  /**
   * A link that says hello as ``identity`` ({name, token}) once started; with ``identity``
   * null it says hello without a name, and only watches rooms.
   */
  constructor(identity) {
    this.identity = identity;
    this.rooms = new Map();
    this.listeners = new Set();
    this.nextId = 1;
    this.pending = new Map();
    this.held = [];
    this.attempt = 0;
    this.state = "connecting";
    this.welcome = null;
    this.lobby = null;
    this.blocks = null;
    this.stopped = false;
  }

  /** Whether this link only watches: its visitor has chosen no name. */
  get watching() {
    return this.identity === null;
  }

  /** Call ``listener(message)`` for every message; returns a function that stops it. */
  listen(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Open the connection (and reopen it whenever it drops, until stop()). */
  start() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const socket = new WebSocket(`${scheme}//${location.host}/ws`);
    this.socket = socket;
    socket.addEventListener("open", () => this.hello());
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => this.closed(socket));
  }

  /** Close for good. */
  stop() {
    this.stopped = true;
    this.socket?.close();
  }

  hello() {
    const hello = { type: "hello", protocol: PROTOCOL, kind: "human", client: CLIENT };
    if (this.identity) {
      hello.name = this.identity.name;
      hello.lobby = true;
      if (this.identity.token) hello.token = this.identity.token;
    }
    this.request(hello).then(
      (welcome) => this.welcomed(welcome),
      (error) => this.refused(error),
    );
  }

  /** The answer to hello: ``welcome``, or ``watching`` for a link without a name. */
  welcomed(welcome) {
    this.attempt = 0;
    if (welcome.type === "welcome") {
      this.welcome = welcome;
      this.identity = {
        ...this.identity,
        name: welcome.name,
        token: welcome.token ?? this.identity.token,
      };
    }
    this.setState("online");
    for (const [roomId, room] of this.rooms) {
      this.send({ type: "resume", room_id: roomId, after_seq: room.seq });
    }
    for (const message of this.held.splice(0)) this.send(message);
  }

  refused(error) {
    if (error.code === "disconnected") return;
    if (FINAL_HELLO_ERRORS.has(error.code)) {
      this.stopped = true;
      this.setState("refused", error.message);
      return;
    }
    // Anything else (the server busy, say) is worth another try: say why, then reconnect.
    this.setState("retrying", error.message);
    this.socket?.close();
  }

  closed(socket) {
    if (socket !== this.socket) return;
    for (const { reject } of this.pending.values())
      reject({ code: "disconnected", message: "the connection dropped" });
    this.pending.clear();
    this.held = [];
    if (this.stopped) return;
    if (this.state !== "retrying") this.setState("reconnecting");
    const delay = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
    this.attempt += 1;
    setTimeout(() => {
      if (!this.stopped) this.start();
    }, delay);
  }

  setState(state, detail = "") {
    this.state = state;
    this.emit({ type: "link_state", state, detail });
  }

  /** Send ``message`` as it is. */
  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /**
   * Send ``message`` with a fresh id; resolves with the reply, rejects with an error.
   * Until the server has answered hello the request is held, and sent once it has.
   */
  request(message) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      if (this.state === "online" || message.type === "hello") this.send({ ...message, id });
      else this.held.push({ ...message, id });
    });
  }

  receive(data) {
    let message;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (message.type === "chat_removed") {
      this.removeLine(message);
      this.emit(message);
      return;
    }
    if (message.type === "lobby_snapshot") this.lobby = new LobbyModel(message);
    else if (message.type === "blocks") this.blocks = message;
    else this.lobby?.apply(message);
    if (message.room_id !== undefined && !this.applyRoom(message)) return;
    this.settle(message);
    this.emit(message);
  }

  /** Take a line a moderator removed out of its room's chat, or the lobby's. */
  removeLine(message) {
    if (message.room_id) {
      const room = this.rooms.get(message.room_id);
      if (room) room.chat = room.chat.filter((line) => line.seq !== message.line_seq);
    } else if (this.lobby) {
      const gone = (line) => line.author === message.author && line.text === message.text;
      this.lobby.chat = this.lobby.chat.filter((line) => !gone(line));
    }
  }

  settle(message) {
    const waiting = this.pending.get(message.reply_to);
    if (!waiting) return;
    this.pending.delete(message.reply_to);
    if (message.type === "error") waiting.reject(message);
    else waiting.resolve(message);
  }

  /** Apply a room's message to its model; false when it is a duplicate to drop. */
  applyRoom(message) {
    if (message.type === "room_snapshot") {
      this.rooms.set(message.room_id, new RoomModel(message));
      return true;
    }
    const room = this.rooms.get(message.room_id);
    if (message.type === "room_left") this.rooms.delete(message.room_id);
    if (message.type === "game_rated" && room) room.ratings = message.players;
    if (!room || message.seq === undefined) return true;
    if (message.seq <= room.seq) return false;
    if (message.seq > room.seq + 1) {
      if (room.resumeAsked !== room.seq) {
        room.resumeAsked = room.seq;
        this.send({ type: "resume", room_id: message.room_id, after_seq: room.seq });
      }
      return false;
    }
    room.apply(message);
    return true;
  }

  emit(message) {
    for (const listener of [...this.listeners]) listener(message);
  }
}
