// The best players of every rating category whose rating is no longer provisional.

import { getJson } from "./account.js";
import { el, replace } from "./dom.js";

/** Show the best players in ``view``; returns a function that stops it. */
export function showPlayers(view) {
  replace(view, el("p", {}, "Loading the players…"));
  getJson("/api/players")
    .then((body) => replace(view, playersSection(body.categories)))
    .catch((error) =>
      replace(view, el("p", { class: "refusal" }, `The players cannot be shown: ${error.message}`)),
    );
  return () => {};
}

function playersSection(categories) {
  const shown = categories.filter((category) => category.players.length);
  return el(
    "section",
    { class: "players" },
    el("h1", {}, "The best players"),
    el(
      "p",
      { class: "hint" },
      "Each game, variant and speed has its own rating. A rating is provisional (marked ?) " +
        "for about its first twelve games, and only settled ones are ranked here.",
    ),
    shown.length
      ? shown.map(categoryTable)
      : el("p", {}, "Nobody's rating has settled yet: play rated games to be the first."),
  );
}

function categoryTable(category) {
  return el(
    "section",
    { class: "category", "data-category": category.category },
    el("h2", {}, category.title),
    el(
      "table",
      { class: "leaders" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          ["#", "Player", "Rating", "Games"].map((text) => el("th", { scope: "col" }, text)),
        ),
      ),
      el(
        "tbody",
        {},
        category.players.map((player, index) =>
          el(
            "tr",
            {},
            el("td", {}, String(index + 1)),
            el("td", {}, el("a", { href: `/@/${player.name}` }, player.name)),
            el("td", {}, String(player.rating)),
            el("td", {}, String(player.games)),
          ),
        ),
      ),
    ),
  );
}
