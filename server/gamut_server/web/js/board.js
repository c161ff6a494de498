// Boards as SVG, drawn from the game descriptor alone: every cell's centre and shape
// come from the geometry, its owner from the position's board (in the same order).

import { el, svg } from "./dom.js";
import { HEX_RADIUS, layout } from "./layout.js";

const TONES = { black: "dark", white: "light", red: "red", blue: "blue" };

/** What areas other than a side's goals are, for the legend. */
const AREA_NAMES = { dead: "Cells no one may use" };

/** A side's piece colour (a CSS class), as its name says when it names one. */
export function toneOf(sides, side) {
  const name = String(sides[side]).toLowerCase();
  if (Object.hasOwn(TONES, name)) return TONES[name];
  return side === 0 ? "light" : "dark";
}

/** A side's piece colour as the game declares it ("#c62828"), or null to go by its tone. */
export function colourOf(descriptor, side) {
  return descriptor.colours?.[side] ?? null;
}

/** A side's swatch beside a player's name: its tone, in the game's colour if it declares one. */
export function swatch(descriptor, side) {
  const colour = colourOf(descriptor, side);
  return el("span", {
    class: `swatch ${toneOf(descriptor.sides, side)}`,
    style: colour ? `background: ${colour}` : null,
  });
}

/**
 * The areas each cell belongs to, as CSS classes: a side's goals are tinted with its
 * pieces' colour (goal-light, goal-dark, goal-red…), unusable cells are "dead".
 */
function areaClasses(areas, sides) {
  const classes = new Map();
  for (const [area, names] of Object.entries(areas ?? {})) {
    const goal = area.match(/^goal:([01])$/);
    const css = goal
      ? `goal goal-${toneOf(sides, Number(goal[1]))}`
      : area.replace(/[^a-z0-9]/gi, "");
    for (const name of names) classes.set(name, `${classes.get(name) ?? ""} ${css}`);
  }
  return classes;
}

function cellShape(cell) {
  if (cell.shape === "square") {
    return svg("rect", { class: "ground", x: cell.x - 0.5, y: cell.y - 0.5, width: 1, height: 1 });
  }
  const turn = cell.shape === "hex_flat" ? 0 : Math.PI / 6;
  const points = [];
  for (let k = 0; k < 6; k += 1) {
    const angle = (Math.PI / 3) * k + turn;
    const x = cell.x + HEX_RADIUS * Math.cos(angle);
    const y = cell.y + HEX_RADIUS * Math.sin(angle);
    points.push(`${x.toFixed(3)},${y.toFixed(3)}`);
  }
  return svg("polygon", { class: "ground", points: points.join(" ") });
}

/**
 * Draw a board. ``marks`` maps a cell name to extra classes (selected, target, last,
 * win, cursor, movable, placeable); ``onCell`` is called with a cell's name when it is
 * clicked; ``line`` (the winning network or row, in order) is drawn through its cells'
 * centres; ``flip`` turns the board round, for the player of the second side; ``ghost``
 * is the side whose piece a placeable cell shows under the pointer.
 *
 * For assistive technology the board is a grid of its rows, each cell a gridcell named
 * with its content ("e5, empty", "e5, X").
 */
export function drawBoard(descriptor, board, marks, onCell, line = [], flip = false, ghost = null) {
  const shape = flip ? turned(layout(descriptor.geometry)) : layout(descriptor.geometry);
  const areas = areaClasses(descriptor.geometry.areas, descriptor.sides);
  const { left, top, width, height } = shape.box;
  const pad = 0.1;
  const root = svg("svg", {
    class: "board",
    viewBox: `${left - pad} ${top - pad} ${width + 2 * pad} ${height + 2 * pad}`,
    role: "grid",
    "aria-label": `${descriptor.title} board`,
  });
  root.append(
    svg(
      "g",
      { "aria-hidden": "true" },
      shape.labels.map((label) =>
        svg("text", { class: "label", x: label.x, y: label.y }, label.text),
      ),
    ),
  );
  const drawn = shape.cells.map((cell, index) =>
    drawCell(descriptor, cell, board[index], areas, marks, onCell, ghost),
  );
  let first = 0;
  for (const row of descriptor.geometry.rows) {
    root.append(svg("g", { role: "row" }, drawn.slice(first, first + row.length)));
    first += row.length;
  }
  if (line.length > 1) root.append(winningLine(shape.cells, line));
  return root;
}

function drawCell(descriptor, cell, owner, areas, marks, onCell, ghost) {
  const classes = ["cell", areas.get(cell.name) ?? "", marks.get(cell.name) ?? ""].join(" ");
  const taken = owner !== null && owner !== undefined;
  const group = svg(
    "g",
    {
      class: classes.trim(),
      role: "gridcell",
      "aria-label": `${cell.name}, ${taken ? descriptor.sides[owner] : "empty"}`,
      "aria-selected": classes.includes("selected") ? "true" : null,
      "data-cell": cell.name,
      "data-owner": owner ?? "",
      onclick: () => onCell(cell.name),
    },
    svg("title", {}, taken ? `${cell.name}: ${descriptor.sides[owner]}` : cell.name),
    cellShape(cell),
  );
  if (taken) group.append(piece(descriptor, cell, owner, "piece"));
  else if (ghost !== null && classes.includes("placeable"))
    group.append(piece(descriptor, cell, ghost, "ghost"));
  return group;
}

function piece(descriptor, cell, side, kind) {
  const circle = svg("circle", {
    class: `${kind} side${side} ${toneOf(descriptor.sides, side)}`,
    cx: cell.x,
    cy: cell.y,
    r: 0.36,
  });
  // Through the style object: the page's Content-Security-Policy ignores style attributes.
  const colour = colourOf(descriptor, side);
  if (colour) circle.style.fill = colour;
  return circle;
}

/**
 * What the board's tints mean, for a board that has any: each side's goals and the cells
 * no one may use; null for a board without areas.
 */
export function boardLegend(descriptor) {
  // Goals first, in side order, then the rest.
  const names = Object.keys(descriptor.geometry.areas ?? {}).sort(
    (a, b) => b.startsWith("goal:") - a.startsWith("goal:") || a.localeCompare(b),
  );
  if (!names.length) return null;
  const entries = names.map((area) => {
    const goal = area.match(/^goal:([01])$/);
    const side = goal ? Number(goal[1]) : null;
    const css = goal ? `goal-${toneOf(descriptor.sides, side)}` : area.replace(/[^a-z0-9]/gi, "");
    const text = goal ? `${descriptor.sides[side]}'s goal` : (AREA_NAMES[area] ?? area);
    return el("li", {}, el("span", { class: `area-swatch ${css}`, "aria-hidden": "true" }), text);
  });
  return el("ul", { class: "legend", "aria-label": "What the tinted cells are" }, entries);
}

/** A layout turned through half a circle, labels upright. */
function turned({ cells, labels, box }) {
  const turn = (item) => ({ ...item, x: -item.x, y: -item.y });
  return {
    cells: cells.map(turn),
    labels: labels.map(turn),
    box: { ...box, left: -(box.left + box.width), top: -(box.top + box.height) },
  };
}

function winningLine(cells, line) {
  const centres = new Map(cells.map((cell) => [cell.name, cell]));
  const points = line
    .filter((name) => centres.has(name))
    .map((name) => `${centres.get(name).x},${centres.get(name).y}`);
  return svg("polyline", { class: "winline", points: points.join(" "), "aria-hidden": "true" });
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
