// Legal moves as cells: a move's text is a cell name (place there) or two cell names
// joined by "-" or "x" (from, to), in the notation every hosted game writes.

/** The cells a move's text names, or null when it names none (a pass, say). */
export function moveCells(text, cellNames) {
  if (cellNames.has(text)) return [text];
  for (let i = 1; i < text.length - 1; i += 1) {
    if (text[i] !== "-" && text[i] !== "x") continue;
    const from = text.slice(0, i);
    const to = text.slice(i + 1);
    if (cellNames.has(from) && cellNames.has(to)) return [from, to];
  }
  return null;
}

/** The legal moves with their cells: [{text, cells}], cells null for moves off the board. */
export function mapMoves(legalMoves, cellNames) {
  return legalMoves.map((text) => ({ text, cells: moveCells(text, cellNames) }));
}

/**
 * What a click on ``cell`` means with ``selected`` already picked: {play: text} to send a
 * move, {select: cell, targets: [...]} to pick a piece, or {} to clear the selection.
 * ``pickLines`` are the game's lines (a drop game's columns) in which a click on any cell
 * plays the line's one single-cell move.
 */
export function click(moves, selected, cell, pickLines = []) {
  if (selected) {
    const move = moves.find(
      (m) => m.cells?.length === 2 && m.cells[0] === selected && m.cells[1] === cell,
    );
    if (move) return { play: move.text };
  }
  const placing = moves.find((m) => m.cells?.length === 1 && m.cells[0] === cell);
  if (placing) return { play: placing.text };
  const targets = moves
    .filter((m) => m.cells?.length === 2 && m.cells[0] === cell)
    .map((m) => m.cells[1]);
  if (targets.length && cell !== selected) return { select: cell, targets };
  const picked = picking(moves, cell, pickLines);
  return picked ? { play: picked.text } : {};
}

/** The one single-cell move in the pick line holding ``cell``, if there is exactly one. */
function picking(moves, cell, pickLines) {
  for (const line of pickLines) {
    if (!line.includes(cell)) continue;
    const found = moves.filter((m) => m.cells?.length === 1 && line.includes(m.cells[0]));
    if (found.length === 1) return found[0];
  }
  return null;
}

/** The cells where a click does something now: single-cell moves and pieces that can move. */
export function startCells(moves) {
  return new Set(moves.filter((m) => m.cells).map((m) => m.cells[0]));
}
