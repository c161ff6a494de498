// One room as this client knows it: a snapshot with every later event applied.

export class RoomModel {
  /** The room as a ``room_snapshot`` describes it. */
  constructor(snapshot) {
    this.id = snapshot.room_id;
    this.seq = snapshot.seq;
    this.status = snapshot.status;
    this.game = snapshot.game;
    this.timeControl = snapshot.time_control;
    this.rated = snapshot.rated;
    this.players = snapshot.players;
    this.yourSide = snapshot.your_side ?? null;
    this.spectators = snapshot.spectators ?? 0;
    this.position = snapshot.position;
    this.legalMoves = snapshot.legal_moves ?? [];
    this.moves = (snapshot.moves ?? []).map((entry) => ({ move: entry.move, cells: null }));
    this.lastCells = [];
    this.result = snapshot.result ?? null;
    this.drawOffer = snapshot.draw_offer ?? null;
    this.rematchOffer = snapshot.rematch_offer ?? null;
    this.newRoomId = null;
    this.chat = [...(snapshot.chat ?? [])];
    this.ratings = snapshot.ratings ?? null;
    this.setClocks(snapshot.clocks);
  }

  /** Apply one room event whose ``seq`` follows the last one applied. */
  apply(event) {
    this.seq = event.seq;
    const handler = HANDLERS[event.type];
    if (handler) handler(this, event);
  }

  /** The clocks as of now: remaining milliseconds of each side. */
  clocksNow(now = performance.now()) {
    if (!this.clocks) return null;
    const { remaining_ms: remaining, running } = this.clocks;
    return remaining.map((ms, side) =>
      side === running && this.status === "running" ? Math.max(0, ms - (now - this.clocksAt)) : ms,
    );
  }

  setClocks(clocks) {
    if (!clocks) return;
    this.clocks = clocks;
    this.clocksAt = performance.now();
  }

  /** Whether this client plays in the room and it is its turn. */
  get myTurn() {
    return (
      this.status === "running" && this.yourSide !== null && this.position.to_move === this.yourSide
    );
  }
}

const HANDLERS = {
  move_made(room, event) {
    room.position = event.position;
    room.legalMoves = event.legal_moves ?? [];
    room.moves.push({ move: event.move, cells: event.cells });
    room.lastCells = event.cells ?? [];
    room.drawOffer = null;
    room.setClocks(event.clocks);
  },
  game_over(room, event) {
    room.result = event.result;
    room.status = event.result.reason === "aborted" ? "aborted" : "finished";
    room.legalMoves = [];
    room.drawOffer = null;
    room.setClocks(event.clocks);
  },
  draw_offered(room, event) {
    room.drawOffer = event.side;
  },
  draw_declined(room) {
    room.drawOffer = null;
  },
  rematch_offered(room, event) {
    room.rematchOffer = event.side;
  },
  rematch_declined(room) {
    room.rematchOffer = null;
  },
  rematch_started(room, event) {
    room.newRoomId = event.new_room_id;
  },
  player_connected(room, event) {
    room.players[event.side] = { ...room.players[event.side], connected: true };
  },
  player_disconnected(room, event) {
    room.players[event.side] = { ...room.players[event.side], connected: false };
  },
  chat_line(room, event) {
    room.chat.push({ author: event.author, text: event.text, seq: event.seq });
  },
};
