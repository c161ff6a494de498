// A rating history as a small SVG line chart, the uncertainty as a shaded band.

import { svg } from "./dom.js";

const W = 480;
const H = 200;
const PAD = 32;

/** A chart of ``points`` ({rating, uncertainty}), oldest first. */
export function ratingPlot(points) {
  const highs = points.map((p) => p.rating + p.uncertainty);
  const lows = points.map((p) => p.rating - p.uncertainty);
  const top = Math.max(...highs);
  const bottom = Math.min(...lows);
  const span = Math.max(1, top - bottom);
  const x = (i) => PAD + (points.length === 1 ? 0 : (i * (W - 2 * PAD)) / (points.length - 1));
  const y = (value) => H - PAD - ((value - bottom) * (H - 2 * PAD)) / span;
  const line = points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" ");
  const band = [
    ...points.map((p, i) => `${x(i)},${y(p.rating + p.uncertainty)}`),
    ...points.map((p, i) => `${x(i)},${y(p.rating - p.uncertainty)}`).reverse(),
  ].join(" ");
  return svg(
    "svg",
    { class: "plot", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "rating history" },
    svg("polygon", { class: "band", points: band }),
    svg("polyline", { class: "rating", points: line }),
    svg("text", { x: 2, y: y(top) + 4 }, String(Math.round(top))),
    svg("text", { x: 2, y: y(bottom) + 4 }, String(Math.round(bottom))),
    svg(
      "text",
      { x: W - PAD, y: H - 8, "text-anchor": "end" },
      `${points.length - 1} game${points.length === 2 ? "" : "s"}`,
    ),
  );
}
