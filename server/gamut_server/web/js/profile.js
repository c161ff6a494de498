// A player's page: ratings per category with their graphs, record, live games, every game.

import { changePassword, getJson } from "./account.js";
import { el, field, replace } from "./dom.js";
import { ratingText, signedChange } from "./format.js";
import { ratingPlot } from "./plot.js";
import { playerActions } from "./safety.js";

const PAGE = 20;

/** Show the profile of ``name`` in ``view``; returns a function that stops it. */
export function showProfile(view, name, link, navigate) {
  replace(view, el("p", {}, `Loading ${name}'s page…`));
  getJson(`/api/players/${encodeURIComponent(name)}`)
    .then((profile) => replace(view, profileSection(profile, link, navigate)))
    .catch((error) => replace(view, el("p", { class: "refusal", role: "alert" }, error.message)));
  return () => {};
}

function profileSection(profile, link, navigate) {
  const items = profile.recent.map((game) => gameItem(game, profile.name));
  const games = el("ol", { class: "games" }, items);
  return el(
    "section",
    { class: "profile", "data-player": profile.name },
    el("h1", {}, profile.name),
    el("p", { class: "info" }, presenceText(profile), ` · member since ${day(profile.created_at)}`),
    playingNow(profile),
    challengeButton(profile.name, link, navigate),
    playerActions(link, profile.name),
    el("h2", {}, "Record"),
    el(
      "p",
      { class: "record" },
      `${profile.record.wins} won, ${profile.record.draws} drawn, ${profile.record.losses} lost`,
    ),
    el("h2", {}, "Ratings"),
    profile.ratings.length
      ? profile.ratings.map(ratingCard)
      : el("p", {}, "No rated game yet: ratings come with rated games between accounts."),
    el("h2", {}, "Games"),
    profile.total_games ? games : el("p", {}, "No game over yet."),
    moreButton(profile, games),
    link?.identity.account && link.identity.name === profile.name ? passwordForm() : null,
  );
}

function passwordForm() {
  const current = el("input", {
    name: "password",
    type: "password",
    required: true,
    autocomplete: "current-password",
  });
  const fresh = el("input", {
    name: "new_password",
    type: "password",
    required: true,
    minLength: 8,
    maxLength: 256,
    autocomplete: "new-password",
  });
  const said = el("p", { role: "status" });
  const submit = async (event) => {
    event.preventDefault();
    replace(said);
    try {
      replace(said, await changePassword(current.value, fresh.value));
      said.className = "hint";
    } catch (error) {
      replace(said, error.message);
      said.className = "refusal";
    }
    current.value = "";
    fresh.value = "";
  };
  return el(
    "form",
    { class: "password", onsubmit: submit },
    el("h2", {}, "Change your password"),
    field("Current password", current),
    field("New password: at least 8 characters", fresh),
    el("button", { type: "submit" }, "Change it"),
    said,
  );
}

function presenceText(profile) {
  if (profile.playing.length) return "playing now";
  return profile.online ? "online" : "offline";
}

function playingNow(profile) {
  if (!profile.playing.length) return null;
  return el(
    "p",
    { class: "playing" },
    "Watch: ",
    profile.playing.map((id, index) => [
      index ? ", " : "",
      el("a", { href: `/game/${id}` }, `game ${id}`),
    ]),
  );
}

function challengeButton(name, link, navigate) {
  if (link?.identity.name === name) return null;
  const label = link ? `Challenge ${name}` : `Sign in to challenge ${name}`;
  return el(
    "button",
    {
      type: "button",
      class: "challenge",
      onclick: () => navigate(link ? `/?challenge=${encodeURIComponent(name)}` : "/"),
    },
    label,
  );
}

function ratingCard(rating) {
  return el(
    "section",
    { class: "rating", "data-category": rating.category },
    el("h3", {}, rating.title),
    el(
      "p",
      {},
      el("b", { class: "value" }, ratingText(rating.rating, rating.provisional)),
      ` ± ${rating.uncertainty} · ${rating.games} rated game${rating.games === 1 ? "" : "s"}: `,
      `${rating.wins} won, ${rating.draws} drawn, ${rating.losses} lost`,
      rating.provisional ? " · provisional until about twelve games" : "",
    ),
    rating.history.length > 1 ? ratingPlot(rating.history) : null,
  );
}

function gameItem(game, name) {
  const side = game.players.findIndex((player) => player?.name === name);
  const opponent = game.players[1 - side]?.name ?? "?";
  const change = game.rating_change;
  return el(
    "li",
    { "data-game": game.id },
    el("a", { href: `/game/${game.id}?replay` }, `${game.game} against ${opponent}`),
    ` · ${outcomeText(game, side)}`,
    change ? ` · rated ${change.after} (${signedChange(change.change)})` : game.rated ? " · rated" : "",
    ` · ${day(game.finished_at ?? game.created_at)}`,
  );
}

function outcomeText(game, side) {
  if (game.status === "aborted") return "aborted";
  const winner = game.result?.winner;
  if (winner === undefined || winner === null) return "drawn";
  return winner === side ? "won" : "lost";
}

function moreButton(profile, list) {
  if (profile.total_games <= profile.recent.length) return null;
  let offset = profile.recent.length;
  const button = el("button", { type: "button", class: "more" }, "Older games");
  button.addEventListener("click", async () => {
    const page = await getJson(
      `/api/players/${encodeURIComponent(profile.name)}/games?offset=${offset}&limit=${PAGE}`,
    );
    page.games.forEach((game) => list.append(gameItem(game, profile.name)));
    offset += page.games.length;
    button.hidden = offset >= page.total;
  });
  return button;
}

function day(iso) {
  return iso ? iso.slice(0, 10) : "";
}
