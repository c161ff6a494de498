// Where every cell of a board goes, from the descriptor's geometry alone.
//
// The plane is the protocol's: x grows to the right, y downwards, one unit is the
// distance between the centres of two cells that share an edge (a square is 1 wide, a
// hexagon 1 across its flat sides). A "board" geometry (protocol version 3) places every
// cell itself; "square" and "hex" geometries (older servers) are placed here by rule.

const SQRT3 = Math.sqrt(3);

/** A hexagon's circumradius when it is 1 across its flat sides. */
export const HEX_RADIUS = 1 / SQRT3;

/** How far a cell of ``shape`` reaches from its centre: [across, up and down]. */
function reach(shape) {
  if (shape === "hex_pointy") return [0.5, HEX_RADIUS];
  if (shape === "hex_flat") return [HEX_RADIUS, 0.5];
  return [0.5, 0.5];
}

/**
 * Every cell {name, x, y, shape} in the order of a position's board, the row and column
 * labels {text, x, y}, and the box {left, top, width, height} that holds them all.
 */
export function layout(geometry) {
  const placed = place(geometry);
  const points = placed.cells.flatMap((cell) => {
    const [dx, dy] = reach(cell.shape);
    return [
      [cell.x - dx, cell.y - dy],
      [cell.x + dx, cell.y + dy],
    ];
  });
  for (const label of placed.labels)
    points.push([label.x - 0.3, label.y - 0.3], [label.x + 0.3, label.y + 0.3]);
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const left = Math.min(...xs);
  const top = Math.min(...ys);
  const box = { left, top, width: Math.max(...xs) - left, height: Math.max(...ys) - top };
  return { ...placed, box };
}

function place(geometry) {
  if (geometry.kind === "board") return boardPlaces(geometry);
  if (geometry.kind === "hex") return { cells: hexPlaces(geometry.rows), labels: [] };
  return { cells: squarePlaces(geometry.rows), labels: [] };
}

function boardPlaces(geometry) {
  const byName = geometry.places;
  const cells = geometry.rows.flat().map((name) => ({
    name,
    x: byName[name].x,
    y: byName[name].y,
    shape: byName[name].shape ?? geometry.shape ?? "square",
  }));
  const at = new Map(cells.map((cell) => [cell.name, cell]));
  const labels = [];
  geometry.rows.forEach((row, i) => {
    const first = at.get(row[0]);
    if (geometry.row_names?.[i])
      labels.push({ text: geometry.row_names[i], x: first.x - 0.85, y: first.y });
  });
  (geometry.columns ?? []).forEach((column, i) => {
    const first = at.get(column[0]);
    if (geometry.column_names?.[i])
      labels.push({ text: geometry.column_names[i], x: first.x, y: first.y - 0.85 });
  });
  return { cells, labels };
}

function squarePlaces(rows) {
  return rows.flatMap((row, y) => row.map((name, x) => ({ name, x, y, shape: "square" })));
}

function hexPlaces(rows) {
  // Pointy-top hexagons, each row centred under the widest; rows are 1.5 radii apart.
  const widest = Math.max(...rows.map((row) => row.length));
  return rows.flatMap((row, y) =>
    row.map((name, x) => ({
      name,
      x: x + (widest - row.length) / 2,
      y: y * 1.5 * HEX_RADIUS,
      shape: "hex_pointy",
    })),
  );
}
