// The ladder: each pool's standings and crosstable, and a player's rating history.

import { el, replace } from "./dom.js";
import { timeControlText } from "./format.js";
import { ratingPlot } from "./plot.js";

/** How the standings are ordered, said on the page as docs/ladder.md says it. */
const RANKING_RULE =
  "Ranked by rating less three times its uncertainty (rating − 3 × uncertainty): a " +
  "figure the player is very likely above, so a newcomer starts low and climbs as " +
  "results make the rating both higher and surer.";

async function json(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
  return body;
}

/** Show every pool in ``view``. */
export function showLadder(view) {
  replace(view, el("p", {}, "Loading the ladder…"));
  json("/api/ladder/pools")
    .then((pools) =>
      replace(
        view,
        el("section", { class: "ladder" }, el("h1", {}, "The ladder"), pools.map(poolSection)),
      ),
    )
    .catch((error) =>
      replace(view, el("p", { class: "refusal" }, `The ladder cannot be shown: ${error.message}`)),
    );
  return () => {};
}

function poolSection(pool) {
  const standings = el("div", {}, "Loading…");
  const cross = el("div");
  const history = el("div", { class: "history" });
  const id = encodeURIComponent(pool.pool);
  json(`/api/ladder/${id}/standings`).then((body) =>
    replace(
      standings,
      standingsTable(body.standings, (name) => showHistory(history, pool.pool, name)),
    ),
  );
  json(`/api/ladder/${id}/crosstable`).then((body) => replace(cross, crossTable(body)));
  return el(
    "section",
    { class: "pool", "data-pool": pool.pool },
    el("h2", {}, pool.title),
    el(
      "p",
      { class: "info" },
      `${pool.game} · ${timeControlText(pool.time_control)} · ${pool.members} members, ${pool.playing} playing`,
    ),
    standings,
    el("h3", {}, "Crosstable"),
    cross,
    history,
  );
}

function standingsTable(rows, pick) {
  if (!rows.length) return el("p", {}, "Nobody is rated in this pool yet.");
  const head = ["#", "Player", "Ranked by", "Rating", "Won", "Drawn", "Lost"];
  return el(
    "table",
    { class: "standings" },
    el("caption", { class: "ranking-rule" }, RANKING_RULE),
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        head.map((text) => el("th", {}, text)),
      ),
    ),
    el(
      "tbody",
      {},
      rows.map((row) =>
        el(
          "tr",
          {},
          el("td", {}, String(row.rank)),
          el(
            "td",
            {},
            el(
              "button",
              { type: "button", class: "link", onclick: () => pick(row.name) },
              row.name,
            ),
          ),
          el("td", {}, String(row.ordinal)),
          el("td", {}, `${row.rating} ± ${row.uncertainty}`),
          el("td", {}, String(row.wins)),
          el("td", {}, String(row.draws)),
          el("td", {}, String(row.losses)),
        ),
      ),
    ),
  );
}

function crossTable(body) {
  if (!body.names.length) return el("p", {}, "No rated games yet.");
  const cell = (record) => (record ? `${record.wins}-${record.draws}-${record.losses}` : "");
  return el(
    "table",
    { class: "crosstable" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th"),
        body.names.map((name) => el("th", {}, name)),
      ),
    ),
    el(
      "tbody",
      {},
      body.rows.map((row) =>
        el(
          "tr",
          {},
          el("th", {}, row.name),
          row.results.map((record) => el("td", {}, cell(record))),
        ),
      ),
    ),
  );
}

function showHistory(holder, pool, name) {
  replace(holder, `Loading ${name}'s history…`);
  json(`/api/ladder/${encodeURIComponent(pool)}/players/${encodeURIComponent(name)}/history`)
    .then((body) => {
      const games = body.history.length;
      const chart = games
        ? ratingPlot([body.start, ...body.history])
        : el("p", {}, "No rated games yet.");
      replace(holder, el("h3", {}, `${name}'s rating`), chart);
    })
    .catch((error) => replace(holder, error.message));
}
