// A finished game, step by step: buttons and the arrow keys walk through its moves.

import { AnalysisPanel, drawBestMove, SYMBOLS } from "./analysis.js";
import { drawBoard, toneOf } from "./board.js";
import { el, replace } from "./dom.js";
import { seatText } from "./format.js";

/** Fetch game ``gameId``'s replay and show it in ``view``; returns a function that stops it. */
export function showReplay(view, gameId) {
  replace(view, el("p", {}, "Loading the game…"));
  let stop = () => {};
  fetch(`/api/games/${encodeURIComponent(gameId)}/replay`)
    .then(async (response) => {
      const body = await response.json();
      if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
      stop = new Replay(view, body).stop;
    })
    .catch((error) =>
      replace(
        view,
        el("p", { class: "refusal", role: "alert" }, `This game cannot be shown: ${error.message}`),
      ),
    );
  return () => stop();
}

class Replay {
  constructor(view, record) {
    this.record = record;
    this.boards = boardsOf(record);
    this.ply = record.moves.length;
    this.boardHolder = el("div", { class: "board-holder" });
    this.caption = el("p", { class: "status", role: "status" });
    this.moveList = el("ol", { class: "moves" });
    this.analysis = new AnalysisPanel(record, {
      onJump: (ply) => this.go(ply),
      onReady: () => this.render(),
    });
    const button = (label, name, go) =>
      el("button", { type: "button", "data-step": name, onclick: go }, label);
    const controls = el(
      "div",
      { class: "actions replay-controls" },
      button("⏮ Start", "start", () => this.go(0)),
      button("◀ Back", "back", () => this.go(this.ply - 1)),
      button("Forward ▶", "forward", () => this.go(this.ply + 1)),
      button("End ⏭", "end", () => this.go(this.record.moves.length)),
    );
    const seats = record.players.map((player, side) =>
      el(
        "p",
        { class: `seat side${side}` },
        el("span", { class: `swatch ${toneOf(record.game.sides, side)}` }),
        `${record.game.sides[side]}: ${seatText(player)}`,
      ),
    );
    replace(
      view,
      el(
        "section",
        { class: "game replay" },
        el("div", { class: "play" }, seats[1], this.boardHolder, seats[0], this.analysis.element),
        el(
          "div",
          { class: "panels" },
          el("p", { class: "info" }, `Replay: ${record.game.title}`),
          this.caption,
          controls,
          el("h2", {}, "Moves"),
          this.moveList,
        ),
      ),
    );
    this.keys = (event) => this.key(event);
    document.addEventListener("keydown", this.keys);
    this.stop = () => {
      document.removeEventListener("keydown", this.keys);
      this.analysis.stop();
    };
    this.render();
  }

  key(event) {
    if (event.target instanceof HTMLInputElement) return;
    const steps = {
      ArrowLeft: this.ply - 1,
      ArrowRight: this.ply + 1,
      Home: 0,
      End: this.record.moves.length,
    };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.go(steps[event.key]);
  }

  go(ply) {
    this.ply = Math.max(0, Math.min(this.record.moves.length, ply));
    this.render();
  }

  render() {
    const { record, ply } = this;
    const atEnd = ply === record.moves.length;
    const marks = new Map();
    const last = record.moves[ply - 1];
    (last?.cells ?? []).forEach((cell) => marks.set(cell, "last"));
    const line = atEnd ? (record.result?.line ?? []) : [];
    line.forEach((cell) => marks.set(cell, `${marks.get(cell) ?? ""} win`));
    const board = drawBoard(record.game, this.boards[ply], marks, () => {}, line);
    drawBestMove(board, record.game, this.analysis.bestCells(ply));
    replace(this.boardHolder, board);
    this.analysis.setPly(ply);
    const where = `Move ${ply} of ${record.moves.length}${last ? `: ${last.move}` : ""}`;
    replace(this.caption, atEnd && record.result ? `${where}. ${record.result.message}` : where);
    replace(
      this.moveList,
      record.moves.map((move, index) => {
        const mark = this.analysis.markOf(index);
        const current = index === ply - 1 ? "current" : "";
        return el(
          "li",
          { class: `${current} ${mark ? `mark-${mark}` : ""}`.trim() },
          el(
            "button",
            { type: "button", class: "link", onclick: () => this.go(index + 1) },
            move.move,
            mark ? el("span", { class: "mark", "aria-hidden": "true" }, SYMBOLS[mark]) : null,
            mark ? el("span", { class: "visually-hidden" }, `, ${mark}`) : null,
          ),
        );
      }),
    );
  }
}

/** The board before the first move and after each, from the start and each move's changes. */
function boardsOf(record) {
  const boards = [record.start];
  for (const move of record.moves) {
    const board = [...boards[boards.length - 1]];
    for (const [index, owner] of move.changes) board[index] = owner;
    boards.push(board);
  }
  return boards;
}
