// The end of a game for the one reading it: who won, what that means for them, the score,
// then the game's own sentence ("X makes five in a row").

import { el } from "./dom.js";

/** Each side's points: [1, 0], [0, 1], [½, ½]; null for an aborted game. */
export function points(result) {
  if (!result || result.reason === "aborted") return null;
  if (result.winner === null || result.winner === undefined) return ["½", "½"];
  return result.winner === 0 ? ["1", "0"] : ["0", "1"];
}

/** A seat's points at the end, as game sites show them beside the name. */
export function pointsBadge(text) {
  return el("span", { class: "points" }, el("span", { class: "sr" }, "points: "), text);
}

/**
 * The result in a sentence for the reader: "You won (1-0): X makes five in a row", "You
 * lost (1-0): …", "ada won (1-0): …" for a watcher, "Draw (½-½): Drawn by agreement".
 * ``yourSide`` is the reader's side, null for a watcher.
 */
export function resultText(result, players, yourSide) {
  const sentence = result.message ?? result.reason;
  const score = points(result);
  if (!score) return sentence;
  return `${verdict(result, players, yourSide)} (${score.join("-")}): ${sentence}`;
}

function verdict(result, players, yourSide) {
  const winner = result.winner;
  if (winner === null || winner === undefined) return "Draw";
  if (yourSide === null || yourSide === undefined)
    return `${players[winner]?.name ?? "side " + winner} won`;
  return winner === yourSide ? "You won" : "You lost";
}
