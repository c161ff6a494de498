// The AI's analysis in a finished game's replay: asking for it, the evaluation graph under
// the board (click or arrow keys to go to a move), the best move drawn on the board, the
// marks in the move list and each side's summary.

import { el, replace, svg } from "./dom.js";
import { layout } from "./layout.js";

/** The mark of a move as chess annotators write it. */
export const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** What a move list adds to a move marked ``mark`` (null for none): {css, nodes}. */
export function markNote(mark) {
  if (!mark) return null;
  return {
    css: `mark-${mark}`,
    nodes: [
      el("span", { class: "mark", "aria-hidden": "true" }, SYMBOLS[mark]),
      el("span", { class: "visually-hidden" }, `, ${mark}`),
    ],
  };
}

const POLL_MS = 1000;
const W = 600;
const H = 120;

/** The analysis of a replayed game: its element, and what the replay draws from it. */
export class AnalysisPanel {
  /**
   * ``record`` is the replay's; ``onJump(ply)`` shows the position after ``ply`` moves,
   * ``onReady()`` redraws the replay once the analysis is there.
   */
  constructor(record, { onJump, onReady }) {
    this.record = record;
    this.onJump = onJump;
    this.onReady = onReady;
    this.report = null;
    this.ply = record.moves.length;
    this.timer = null;
    this.element = el("section", { class: "analysis", "aria-labelledby": "analysis-title" });
    this.body = el("div", { class: "analysis-body" });
    this.element.append(el("h2", { id: "analysis-title" }, "Analysis"), this.body);
    this.load();
  }

  /** Stop polling: the replay is gone. */
  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The mark of move ``index`` (0 for the first), or null. */
  markOf(index) {
    return this.report?.plies[index]?.mark ?? null;
  }

  /** The cells of the AI's best move in the position after ``ply`` moves ([] if none). */
  bestCells(ply) {
    return this.report?.plies[ply]?.best.cells ?? [];
  }

  /** Follow the replay to the position after ``ply`` moves. */
  setPly(ply) {
    this.ply = ply;
    if (this.report) this.showPosition();
  }

  async load() {
    const answer = await this.call("GET");
    if (answer === null) return;
    if (answer.ok) this.shown(answer.body);
    else if (answer.body.error === "no_analysis") this.offer();
    else this.refused(answer.body.message);
  }

  async ask() {
    this.button.disabled = true;
    const answer = await this.call("POST");
    if (answer === null) return;
    if (answer.ok) this.shown(answer.body);
    else this.refused(answer.body.message, true);
  }

  /** One request to the analysis endpoint: {ok, body}, or null after a network failure. */
  async call(method) {
    const url = `/api/games/${encodeURIComponent(this.record.id)}/analysis`;
    try {
      const response = await fetch(url, { method });
      return { ok: response.ok, body: await response.json() };
    } catch (error) {
      this.refused(`The server cannot be reached: ${error.message}`, true);
      return null;
    }
  }

  offer() {
    this.button = el("button", { type: "button", onclick: () => this.ask() }, "Analyse");
    replace(
      this.body,
      el("p", { class: "hint" }, "The AI can judge every move of this game and show where it turned."),
      this.button,
    );
  }

  refused(message, again = false) {
    replace(this.body, el("p", { class: "refusal", role: "alert" }, message));
    if (again) {
      this.button = el("button", { type: "button", onclick: () => this.ask() }, "Analyse");
      this.body.append(this.button);
    }
  }

  shown(answer) {
    if (answer.status === "done") {
      this.report = answer;
      this.draw();
      this.onReady();
      return;
    }
    if (answer.status === "failed") {
      this.refused(answer.message ?? "The analysis failed.", true);
      return;
    }
    const text =
      answer.status === "queued"
        ? "Waiting for the AI to start…"
        : `Analysing: ${answer.done} of ${answer.total} positions`;
    replace(
      this.body,
      el("p", { class: "status", role: "status" }, text),
      el("progress", { max: answer.total, value: answer.done, "aria-label": "analysis progress" }),
    );
    if (this.timer !== undefined) this.timer = setTimeout(() => this.load(), POLL_MS);
  }

  draw() {
    this.graph = evaluationGraph(this.report, this.record, (ply) => this.onJump(ply));
    this.where = el("p", { class: "analysis-move", "aria-live": "polite" });
    replace(this.body, this.graph, this.where, summaryTable(this.report, this.record));
    this.showPosition();
  }

  showPosition() {
    const { report, record, ply } = this;
    moveCursor(this.graph, report, record, ply);
    replace(this.where, positionText(report, record, ply));
  }
}

/** Draw the AI's best move onto a board drawn by drawBoard: a ring, or an arrow from-to. */
export function drawBestMove(board, descriptor, cells) {
  if (!cells.length) return;
  const centres = new Map(layout(descriptor.geometry).cells.map((cell) => [cell.name, cell]));
  const points = cells.map((name) => centres.get(name)).filter(Boolean);
  if (!points.length) return;
  const to = points[points.length - 1];
  const group = svg("g", { class: "best-move" }, svg("title", {}, `best move: ${cells.join("-")}`));
  if (points.length > 1) {
    const from = points[0];
    group.append(svg("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y }));
  }
  group.append(svg("circle", { cx: to.x, cy: to.y, r: 0.42 }));
  board.append(group);
}

/** Side 0's chance of winning in the position after ``ply`` moves. */
function chanceAt(report, ply) {
  if (ply === 0) return report.plies[0]?.eval.probability ?? 0.5;
  return report.plies[ply - 1].after.probability;
}

function evaluationGraph(report, record, onJump) {
  const count = report.plies.length;
  const x = (ply) => (count ? (ply * W) / count : 0);
  const y = (chance) => H - chance * H;
  const points = [];
  for (let ply = 0; ply <= count; ply += 1) points.push(`${x(ply)},${y(chanceAt(report, ply))}`);
  const side0 = record.game.sides[0];
  const graph = svg(
    "svg",
    {
      class: "eval-graph",
      viewBox: `0 0 ${W} ${H}`,
      preserveAspectRatio: "none",
      tabindex: 0,
      role: "slider",
      "aria-label": `Evaluation: ${side0}'s chance of winning after each move`,
      "aria-valuemin": 0,
      "aria-valuemax": count,
    },
    svg("polygon", { class: "area", points: `0,${H} ${points.join(" ")} ${W},${H}` }),
    svg("line", { class: "even", x1: 0, y1: H / 2, x2: W, y2: H / 2 }),
    svg("polyline", { class: "chance", points: points.join(" ") }),
  );
  report.plies.forEach((ply, index) => {
    if (!ply.mark) return;
    const dot = svg("circle", {
      class: `mark-${ply.mark}`,
      cx: x(index + 1),
      cy: y(ply.after.probability),
      r: 4,
    });
    dot.append(svg("title", {}, `${index + 1}. ${ply.move}: ${ply.mark}`));
    graph.append(dot);
  });
  graph.append(svg("line", { class: "cursor", x1: 0, y1: 0, x2: 0, y2: H }));
  graph.addEventListener("click", (event) => {
    const box = graph.getBoundingClientRect();
    onJump(Math.round(((event.clientX - box.left) / box.width) * count));
  });
  graph.addEventListener("keydown", (event) => {
    const now = Number(graph.getAttribute("aria-valuenow"));
    const steps = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: count };
    if (!(event.key in steps)) return;
    event.preventDefault();
    event.stopPropagation(); // the replay's own arrow keys would step twice
    onJump(steps[event.key]);
  });
  return graph;
}

function moveCursor(graph, report, record, ply) {
  const count = report.plies.length;
  const at = count ? (ply * W) / count : 0;
  const cursor = graph.querySelector(".cursor");
  cursor.setAttribute("x1", at);
  cursor.setAttribute("x2", at);
  graph.setAttribute("aria-valuenow", ply);
  graph.setAttribute("aria-valuetext", positionText(report, record, ply));
}

/** The current position in words: the move that made it, its mark, the best move next. */
function positionText(report, record, ply) {
  const side0 = record.game.sides[0];
  const chance = `${side0}'s chance ${percent(chanceAt(report, ply))}`;
  const parts = [];
  if (ply === 0) parts.push(`Start: ${chance}.`);
  else {
    const made = report.plies[ply - 1];
    const mark = made.mark ? `, a ${made.mark} (${percent(made.loss)} lost)` : "";
    parts.push(`Move ${ply}, ${made.move}${mark}: ${chance}.`);
    if (made.forced && !made.forced.kept) parts.push(`It missed a win in ${made.forced.win_in}.`);
  }
  const next = report.plies[ply];
  if (next) parts.push(`Best next: ${next.best.line.slice(0, 6).join(" ")}.`);
  return parts.join(" ");
}

function summaryTable(report, record) {
  const head = ["", "inaccuracies", "mistakes", "blunders", "average loss"];
  const rows = report.summary.map((side) =>
    el(
      "tr",
      {},
      el("th", { scope: "row" }, sideName(record, side.side)),
      el("td", {}, side.inaccuracies),
      el("td", {}, side.mistakes),
      el("td", {}, side.blunders),
      el("td", {}, percent(side.average_loss)),
    ),
  );
  const calibrated = report.calibrated
    ? ""
    : " The chances are a guess: this game's scale was never measured.";
  // Focusable: on a narrow phone the table scrolls sideways, by keyboard too.
  return el(
    "div",
    { class: "analysis-summary", tabindex: 0, role: "region", "aria-label": "Each side's play" },
    el(
      "table",
      {},
      el("caption", {}, "Each side's play"),
      el("thead", {}, el("tr", {}, head.map((text) => el("th", { scope: "col" }, text)))),
      el("tbody", {}, rows),
    ),
    el("p", { class: "hint" }, `Each position: about ${report.work.toLocaleString()} nodes searched.${calibrated}`),
  );
}

function sideName(record, side) {
  const player = record.players[side];
  const who = player ? ` (${player.name})` : "";
  return `${record.game.sides[side]}${who}`;
}

function percent(chance) {
  return `${Math.round(chance * 100)}%`;
}
