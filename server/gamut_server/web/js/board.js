// Boards as SVG, drawn from the game descriptor alone: every cell's centre and shape
// come from the geometry, its owner from the position's board (in the same order).

import { svg } from "./dom.js";

const HEX_R = 0.5;
const SQRT3 = Math.sqrt(3);

/** A side's piece colour: "dark" or "light", as its name says when it names one. */
export function toneOf(sides, side) {
  const name = String(sides[side]).toLowerCase();
  if (name === "black") return "dark";
  if (name === "white") return "light";
  return side === 0 ? "light" : "dark";
}

/** Every cell {name, x, y, shape} of a geometry, and the drawing's width and height. */
export function layout(geometry) {
  if (geometry.kind === "hex") return hexLayout(geometry.rows);
  return squareLayout(geometry.rows);
}

function squareLayout(rows) {
  const cells = rows.flatMap((row, y) => row.map((name, x) => ({ name, x: x + 0.5, y: y + 0.5, shape: "square" })));
  return { cells, width: Math.max(...rows.map((row) => row.length)), height: rows.length };
}

function hexLayout(rows) {
  // Pointy-top hexagons, each row centred under the widest.
  const step = SQRT3 * HEX_R;
  const widest = Math.max(...rows.map((row) => row.length));
  const cells = rows.flatMap((row, y) =>
    row.map((name, x) => ({
      name,
      x: (x + (widest - row.length) / 2 + 0.5) * step,
      y: HEX_R + y * 1.5 * HEX_R,
      shape: "hex",
    })),
  );
  return { cells, width: widest * step, height: (rows.length - 1) * 1.5 * HEX_R + 2 * HEX_R };
}

/** The areas each cell belongs to, as CSS classes: goal0, goal1, dead. */
function areaClasses(areas) {
  const classes = new Map();
  for (const [area, names] of Object.entries(areas ?? {})) {
    const css = area.replace(/[^a-z0-9]/gi, "");
    for (const name of names) classes.set(name, `${classes.get(name) ?? ""} ${css}`);
  }
  return classes;
}

function cellShape(cell) {
  if (cell.shape === "square") {
    return svg("rect", { class: "ground", x: cell.x - 0.5, y: cell.y - 0.5, width: 1, height: 1 });
  }
  const points = [];
  for (let k = 0; k < 6; k += 1) {
    const angle = (Math.PI / 3) * k + Math.PI / 6;
    points.push(`${(cell.x + HEX_R * Math.cos(angle)).toFixed(3)},${(cell.y + HEX_R * Math.sin(angle)).toFixed(3)}`);
  }
  return svg("polygon", { class: "ground", points: points.join(" ") });
}

/**
 * Draw a board. ``marks`` maps a cell name to extra classes (selected, target, last,
 * win, cursor); ``onCell`` is called with a cell's name when it is clicked; ``line``
 * (the winning network or row, in order) is drawn through its cells' centres.
 */
export function drawBoard(descriptor, board, marks, onCell, line = []) {
  const shape = layout(descriptor.geometry);
  const areas = areaClasses(descriptor.geometry.areas);
  const pad = 0.1;
  const root = svg("svg", {
    class: `board ${descriptor.geometry.kind}`,
    viewBox: `${-pad} ${-pad} ${shape.width + 2 * pad} ${shape.height + 2 * pad}`,
    role: "grid",
    "aria-label": `${descriptor.title} board`,
  });
  shape.cells.forEach((cell, index) => {
    const owner = board[index];
    const classes = ["cell", areas.get(cell.name) ?? "", marks.get(cell.name) ?? ""].join(" ");
    const group = svg(
      "g",
      { class: classes.trim(), "data-cell": cell.name, "data-owner": owner ?? "", onclick: () => onCell(cell.name) },
      svg("title", {}, owner === null ? cell.name : `${cell.name}: ${descriptor.sides[owner]}`),
      cellShape(cell),
    );
    if (owner !== null && owner !== undefined) {
      group.append(svg("circle", { class: `piece side${owner} ${toneOf(descriptor.sides, owner)}`, cx: cell.x, cy: cell.y, r: 0.36 }));
    }
    root.append(group);
  });
  if (line.length > 1) root.append(winningLine(shape.cells, line));
  return root;
}

function winningLine(cells, line) {
  const centres = new Map(cells.map((cell) => [cell.name, cell]));
  const points = line.filter((name) => centres.has(name)).map((name) => `${centres.get(name).x},${centres.get(name).y}`);
  return svg("polyline", { class: "winline", points: points.join(" ") });
}

/** The cell nearest ``from`` in direction (dx, dy), for the keyboard cursor. */
export function neighbour(geometry, from, dx, dy) {
  const { cells } = layout(geometry);
  const start = cells.find((cell) => cell.name === from) ?? cells[0];
  let best = null;
  let bestScore = Infinity;
  for (const cell of cells) {
    const ox = cell.x - start.x;
    const oy = cell.y - start.y;
    const along = ox * dx + oy * dy;
    if (along <= 0.01) continue;
    const across = Math.abs(ox * dy - oy * dx);
    const score = along + 2 * across;
    if (score < bestScore) {
      bestScore = score;
      best = cell;
    }
  }
  return (best ?? start).name;
}
