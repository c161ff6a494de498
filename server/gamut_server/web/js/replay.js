// A finished game, step by step: buttons and the arrow keys walk through its moves.

import { AnalysisPanel, drawBestMove, markNote } from "./analysis.js";
import { boardLegend, drawBoard, swatch } from "./board.js";
import { el, replace, svg } from "./dom.js";
import { seatText, versusText } from "./format.js";
import { moveRows } from "./movelist.js";
import { points, pointsBadge, resultText } from "./result.js";

/**
 * The step buttons' icons, drawn (a bar and triangles) rather than taken from a font:
 * not every font has ⏮ and ⏭.
 */
const ICONS = {
  start: "M2 2h2v12H2z M14 2v12L5 8z",
  back: "M12 2v12L3 8z",
  forward: "M4 2v12l9-6z",
  end: "M12 2h2v12h-2z M2 2v12l9-6z",
};

function icon(name) {
  return svg(
    "svg",
    { class: "icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" },
    svg("path", { d: ICONS[name] }),
  );
}

/**
 * Links to a finished game's record: its replay (unless it is the page shown) and its
 * export text as a file to download.
 */
export function recordLinks(gameId, withReplay) {
  const id = encodeURIComponent(gameId);
  return el(
    "p",
    { class: "record-links" },
    withReplay ? el("a", { href: `/game/${id}?replay` }, "Replay this game") : null,
    el(
      "a",
      { href: `/api/games/${id}/export`, download: `gamut-${gameId}.txt` },
      "Download the record",
    ),
  );
}

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
    this.moveList = el("ol", { class: "moves", "aria-label": "Moves" });
    this.analysis = new AnalysisPanel(record, {
      onJump: (ply) => this.go(ply),
      onReady: () => this.render(),
    });
    const button = (label, name, go, after = false) =>
      el(
        "button",
        { type: "button", "data-step": name, onclick: go },
        after ? [label, icon(name)] : [icon(name), label],
      );
    const controls = el(
      "div",
      { class: "actions replay-controls" },
      button("Start", "start", () => this.go(0)),
      button("Back", "back", () => this.go(this.ply - 1)),
      button("Forward", "forward", () => this.go(this.ply + 1), true),
      button("End", "end", () => this.go(this.record.moves.length), true),
    );
    const score = points(record.result);
    const seats = record.players.map((player, side) =>
      el(
        "p",
        { class: `seat side${side}` },
        swatch(record.game, side),
        `${record.game.sides[side]}: ${seatText(player)}`,
        score ? pointsBadge(score[side]) : null,
      ),
    );
    replace(
      view,
      el(
        "section",
        { class: "game replay" },
        el(
          "h1",
          { class: "page-title" },
          `Replay: ${record.game.title}: ${versusText(record.players)}`,
        ),
        el(
          "div",
          { class: "play" },
          seats[1],
          this.boardHolder,
          seats[0],
          el("div", { class: "legend-holder" }, boardLegend(record.game)),
          this.analysis.element,
        ),
        el(
          "div",
          { class: "panels" },
          this.caption,
          controls,
          recordLinks(record.id, false),
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
    const result = record.result && resultText(record.result, record.players, null);
    replace(this.caption, atEnd && result ? `${where}. ${result}` : where);
    replace(
      this.moveList,
      moveRows(
        record.moves.map((move) => move.move),
        ply - 1,
        (index) => this.go(index + 1),
        (index) => markNote(this.analysis.markOf(index)),
      ),
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
