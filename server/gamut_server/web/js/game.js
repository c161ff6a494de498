// A live room: the board to play or watch, clocks, moves, actions and the room's chat.

import { actionButtons } from "./actions.js";
import { boardLegend, drawBoard, neighbour, swatch } from "./board.js";
import { chatPane } from "./chat.js";
import { el, replace } from "./dom.js";
import { clockText, ratingChangesText, seatText, timeControlText, versusText } from "./format.js";
import { moveRows } from "./movelist.js";
import { click, mapMoves } from "./moves.js";
import { recordLinks, showReplay } from "./replay.js";
import { points, pointsBadge, resultText } from "./result.js";

const TICK_MS = 200;

/**
 * Show room ``roomId`` in ``view``: joined as its player or a spectator. A link that only
 * watches cannot chat: its chat pane offers ``askName()`` instead.
 */
export function showGame(view, link, roomId, navigate, askName) {
  const game = new GameView(view, link, roomId, navigate, askName);
  return () => game.dispose();
}

class GameView {
  constructor(view, link, roomId, navigate, askName) {
    Object.assign(this, { view, link, roomId, navigate, askName });
    this.selected = null;
    this.targets = [];
    this.cursor = null;
    this.confirming = false;
    this.asked = false;
    this.stopListening = link.listen((message) => this.heard(message));
    this.ticker = setInterval(() => this.tick(), TICK_MS);
    this.build();
    if (link.rooms.has(roomId)) this.render();
    else if (link.state === "online") this.join();
  }

  dispose() {
    this.stopListening();
    clearInterval(this.ticker);
    const room = this.room;
    if (room && room.yourSide === null && this.link.rooms.has(this.roomId)) {
      this.link.send({ type: "leave", room_id: this.roomId });
    }
  }

  get room() {
    return this.link.rooms.get(this.roomId);
  }

  join() {
    this.asked = true;
    const mine = this.link.welcome?.rooms?.includes(this.roomId);
    const role = mine ? "player" : "spectator";
    this.link
      .request({ type: "join", room_id: this.roomId, role })
      .catch((error) => this.missing(error));
  }

  missing(error) {
    if (error.code === "unknown_room") showReplay(this.view, this.roomId);
    else if (error.code !== "disconnected") replace(this.status, error.message);
  }

  heard(message) {
    if (
      message.type === "link_state" &&
      message.state === "online" &&
      !this.link.rooms.has(this.roomId)
    ) {
      this.join();
      return;
    }
    if (message.type === "room_snapshot" && message.room_id !== this.roomId) {
      this.followRematch();
      return;
    }
    if (message.type === "rematch_started" && message.room_id === this.roomId) this.followRematch();
    if (message.type === "error" && message.room_id === this.roomId)
      replace(this.refusal, message.message);
    if (message.room_id === this.roomId || message.type === "blocks") this.render();
  }

  /** Go to the rematch's room once it has started and its snapshot has come, in either order. */
  followRematch() {
    const next = this.room?.newRoomId;
    if (next && this.link.rooms.get(next)?.yourSide !== null && this.link.rooms.has(next))
      this.navigate(`/game/${next}`);
  }

  build() {
    this.seats = [0, 1].map((side) => el("div", { class: `seat side${side}` }));
    this.boardHolder = el("div", {
      class: "board-holder",
      tabIndex: 0,
      onkeydown: (event) => this.key(event),
    });
    this.status = el("p", { class: "status", role: "status" });
    this.ratingChanges = el("p", { class: "rating-changes", role: "status" });
    this.refusal = el("p", { class: "refusal", role: "alert" });
    this.actions = el("div", { class: "actions" });
    this.moveInput = el("input", {
      name: "move",
      placeholder: "Type a move",
      autocomplete: "off",
      maxLength: 64,
    });
    const typed = el(
      "form",
      { class: "typed", onsubmit: (event) => this.typed(event) },
      this.moveInput,
      el("button", { type: "submit" }, "Play"),
    );
    this.moveList = el("ol", { class: "moves", "aria-label": "Moves" });
    this.heading = el("h1", { class: "page-title" }, "Game");
    this.legend = el("div", { class: "legend-holder" });
    this.info = el("p", { class: "info" });
    this.chat = chatPane(
      "Room chat",
      (text) => this.link.request({ type: "chat", room_id: this.roomId, text }),
      this.link.watching ? this.nameNeeded() : null,
      this.link,
      this.roomId,
    );
    replace(
      this.view,
      el(
        "section",
        { class: "game" },
        this.heading,
        el("div", { class: "play" }, this.seats[1], this.boardHolder, this.seats[0], this.legend),
        el(
          "div",
          { class: "panels" },
          this.info,
          this.status,
          this.ratingChanges,
          this.refusal,
          this.actions,
          typed,
          el("h2", {}, "Moves"),
          this.moveList,
          this.chat.node,
        ),
      ),
    );
    this.typedForm = typed;
  }

  render() {
    const room = this.room;
    if (!room) return;
    if (room.legalMoves !== this.movesOf) {
      this.movesOf = room.legalMoves;
      this.moves = mapMoves(room.legalMoves, new Set(room.game.geometry.rows.flat()));
      this.selected = null;
      this.targets = [];
    }
    this.renderBoard(room);
    this.renderSeats(room);
    replace(this.heading, `${room.game.title}: ${versusText(room.players)}`);
    if (!this.legend.hasChildNodes()) replace(this.legend, boardLegend(room.game));
    this.view.querySelector(".play").classList.toggle("flipped", room.yourSide === 1);
    replace(
      this.info,
      `${room.game.title} · ${timeControlText(room.timeControl)}${room.rated ? " · rated" : ""} · ${room.spectators} watching`,
    );
    replace(this.status, statusText(room));
    replace(this.ratingChanges, ratingChangesText(room.ratings));
    replace(
      this.actions,
      actionButtons(
        room,
        (type) => this.act(type),
        this.confirming,
        (on) => this.confirmResign(on),
      ),
      this.passButton(room),
    );
    this.typedForm.hidden = room.yourSide === null || room.status !== "running";
    replace(this.moveList, moveRows(room.moves.map((entry) => entry.move)));
    this.moveList.scrollTop = this.moveList.scrollHeight;
    this.chat.render(room.chat);
    if (room.status !== "running") this.offerReplay();
  }

  renderBoard(room) {
    const marks = new Map();
    const mark = (cell, css) => marks.set(cell, `${marks.get(cell) ?? ""} ${css}`);
    room.lastCells.forEach((cell) => mark(cell, "last"));
    (room.result?.line ?? []).forEach((cell) => mark(cell, "win"));
    if (room.myTurn) {
      // Pieces that can move are outlined; empty cells that take a piece are not (on a
      // 15×15 board that would be every cell), they show the piece under the pointer.
      for (const move of this.moves) {
        if (move.cells) mark(move.cells[0], move.cells.length === 1 ? "placeable" : "movable");
      }
      // In a pick line (a drop game's column) every cell plays the line's placement.
      for (const line of room.game.geometry.pick_lines ?? []) {
        if (line.some((cell) => marks.get(cell)?.includes("placeable"))) {
          line.forEach((cell) => mark(cell, "pickable"));
        }
      }
    }
    if (this.selected) mark(this.selected, "selected");
    this.targets.forEach((cell) => mark(cell, "target"));
    if (this.cursor) mark(this.cursor, "cursor");
    const board = drawBoard(
      room.game,
      room.position.board,
      marks,
      (cell) => this.clicked(cell),
      room.result?.line,
      room.yourSide === 1,
      room.yourSide,
    );
    replace(this.boardHolder, board);
  }

  renderSeats(room) {
    const clocks = room.clocksNow();
    const score = points(room.result);
    for (const side of [0, 1]) {
      const player = room.players[side];
      const turn = room.status === "running" && room.position.to_move === side;
      this.seats[side].className = `seat side${side}${turn ? " turn" : ""}`;
      replace(
        this.seats[side],
        swatch(room.game, side),
        el("span", { class: "name" }, `${room.game.sides[side]}: ${seatText(player)}`),
        clocks ? el("span", { class: "clock", "data-side": side }, clockText(clocks[side])) : null,
        score ? pointsBadge(score[side]) : null,
      );
    }
  }

  tick() {
    const clocks = this.room?.clocksNow();
    if (!clocks) return;
    this.view.querySelectorAll(".clock").forEach((node) => {
      node.textContent = clockText(clocks[Number(node.dataset.side)]);
    });
  }

  passButton(room) {
    if (!room.myTurn) return null;
    return this.moves
      .filter((m) => !m.cells)
      .map((m) => el("button", { type: "button", onclick: () => this.play(m.text) }, m.text));
  }

  clicked(cell) {
    const room = this.room;
    if (!room?.myTurn) return;
    const choice = click(this.moves, this.selected, cell, room.game.geometry.pick_lines ?? []);
    if (choice.play) {
      this.play(choice.play);
      return;
    }
    this.selected = choice.select ?? null;
    this.targets = choice.targets ?? [];
    this.render();
  }

  key(event) {
    const room = this.room;
    if (!room) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[event.key]) {
      // A flipped board turns the arrows round too, so they move the cursor as seen.
      const [dx, dy] = steps[event.key].map((d) => (room.yourSide === 1 ? -d : d));
      this.cursor = neighbour(room.game.geometry, this.cursor, dx, dy);
      this.renderBoard(room);
    } else if (event.key === "Enter" || event.key === " ") {
      if (this.cursor) this.clicked(this.cursor);
    } else if (event.key === "Escape") {
      this.selected = null;
      this.targets = [];
      this.renderBoard(room);
    } else return;
    event.preventDefault();
  }

  typed(event) {
    event.preventDefault();
    const text = this.moveInput.value.trim();
    if (!text) return;
    this.play(text).then((played) => {
      if (played) this.moveInput.value = "";
    });
  }

  /** Send a move; resolves with whether the server accepted it. */
  play(text) {
    replace(this.refusal);
    this.selected = null;
    this.targets = [];
    const message = { type: "move", room_id: this.roomId, move: text, ply: this.room.position.ply };
    return this.link.request(message).then(
      () => true,
      (error) => {
        replace(this.refusal, error.message);
        return false;
      },
    );
  }

  act(type) {
    this.confirming = false;
    replace(this.refusal);
    this.link
      .request({ type, room_id: this.roomId })
      .catch((error) => replace(this.refusal, error.message));
    this.render();
  }

  confirmResign(on) {
    this.confirming = on;
    this.render();
  }

  /** What a visitor without a name sees instead of the chat field. */
  nameNeeded() {
    return el(
      "p",
      { class: "hint name-needed" },
      "Watching needs no name; to chat, ",
      el(
        "button",
        { type: "button", class: "link", onclick: () => this.askName() },
        "choose a name or sign in",
      ),
      ".",
    );
  }

  offerReplay() {
    if (this.view.querySelector(".record-links")) return;
    this.actions.after(recordLinks(this.roomId, true));
  }
}

function statusText(room) {
  if (room.result) return resultText(room.result, room.players, room.yourSide);
  const side = room.position.to_move;
  if (room.myTurn) return `Your move (${room.game.sides[side]})`;
  return `${room.game.sides[side]} to move: ${room.players[side]?.name ?? ""}`;
}
