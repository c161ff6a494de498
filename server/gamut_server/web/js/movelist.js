// The move list as game sites write it: numbered in pairs, one row a move of each side
// ("1. a5 a1", "2. b5 b1"), read row by row.

import { el } from "./dom.js";

/**
 * The rows of a move list for ``moves`` (texts, in order). ``current`` is the index of the
 * move to mark (-1 for none); ``pick(index)``, when given, makes each move a button.
 */
export function moveRows(moves, current = -1, pick = null) {
  const rows = [];
  for (let first = 0; first < moves.length; first += 2) {
    const pair = moves.slice(first, first + 2).map((text, offset) => {
      const index = first + offset;
      const label = pick
        ? el("button", { type: "button", class: "link", onclick: () => pick(index) }, text)
        : text;
      const css = `move${index === current ? " current" : ""}`;
      return el("span", { class: css, "aria-current": index === current ? "step" : null }, label);
    });
    rows.push(el("li", {}, el("span", { class: "number" }, `${first / 2 + 1}.`), pair));
  }
  return rows;
}
