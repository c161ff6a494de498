// Tournaments: the list (/tournaments) and one tournament's page (/tournament/ID) with
// its standings, crosstable, games (each a link to watch or replay) and the join button.

import { el, replace } from "./dom.js";
import { optionsText, timeControlText } from "./format.js";
import { tournamentForm } from "./tournamentform.js";

const REFRESH_MS = 2000;
const KINDS = { arena: "Arena", round_robin: "Round robin" };
const SECTIONS = [
  ["running", "Running"],
  ["upcoming", "Upcoming"],
  ["finished", "Finished"],
];

async function json(path) {
  const response = await fetch(path);
  const body = await response.json();
  if (!response.ok) throw new Error(body.message ?? `the server answered ${response.status}`);
  return body;
}

function when(iso) {
  return new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}

function settingsText(t) {
  const options = optionsText(t.options);
  const length = t.kind === "arena" ? `${t.minutes} min` : `${t.rounds} cycle(s)`;
  const game = options ? `${t.game} (${options})` : t.game;
  return `${KINDS[t.kind]} · ${game} · ${timeControlText(t.time_control)} · ${length}`;
}

/** Every tournament, running first, in ``view``; a signed-in account (``link``'s, or
 * null) may create one, and goes to its page. */
export function showTournaments(view, link, navigate) {
  replace(view, el("p", {}, "Loading the tournaments…"));
  const account = link && !link.watching && link.identity?.account;
  Promise.all([json("/api/tournaments"), account ? json("/api/games") : []])
    .then(([found, games]) =>
      replace(
        view,
        el(
          "section",
          { class: "tournaments" },
          el("h1", {}, "Tournaments"),
          SECTIONS.map(([key, title]) => listSection(title, found[key])),
          account
            ? tournamentForm(games, (made) => navigate(`/tournament/${made.id}`))
            : el("p", {}, "Sign in with an account to create a tournament."),
        ),
      ),
    )
    .catch((error) =>
      replace(view, el("p", { class: "refusal" }, `The tournaments cannot be shown: ${error.message}`)),
    );
  return () => {};
}

function listSection(title, tournaments) {
  const body = tournaments.length
    ? el(
        "table",
        { class: "tournament-list" },
        el("thead", {}, el("tr", {}, ["Tournament", "Settings", "Starts", "Players"].map((h) => el("th", {}, h)))),
        el(
          "tbody",
          {},
          tournaments.map((t) =>
            el(
              "tr",
              { "data-tournament": t.id },
              el("td", {}, el("a", { href: `/tournament/${t.id}` }, t.name)),
              el("td", {}, settingsText(t)),
              el("td", {}, when(t.starts_at)),
              el("td", {}, String(t.players)),
            ),
          ),
        ),
      )
    : el("p", {}, "None.");
  return el("section", {}, el("h2", {}, title), body);
}

/** One tournament in ``view``, kept fresh while shown; ``link`` (or null) joins it. */
export function showTournament(view, link, id, navigate) {
  const heading = el("h1", {}, "Tournament");
  const info = el("p", { class: "info" });
  const entry = el("div", { class: "entry" });
  const note = el("p", { class: "note", role: "status", "aria-live": "polite" });
  const table = el("div", { class: "standings" });
  const cross = el("div", { class: "cross" });
  const games = el("div", { class: "games" });
  replace(
    view,
    el(
      "section",
      { class: "tournament", "data-tournament": id },
      heading,
      info,
      entry,
      note,
      el("h2", {}, "Standings"),
      table,
      el("h2", {}, "Games"),
      games,
      cross,
    ),
  );
  const paired = new Set();
  // The latest pairing: its room opened before the players were told, so its snapshot is
  // here already, unless this connection was not seated then: it joins the room.
  const follow = (roomId) => {
    paired.add(roomId);
    if (link.rooms.get(roomId)?.yourSide != null) navigate(`/game/${roomId}`);
    else link.request({ type: "join", room_id: roomId, role: "player" }).catch(() => {});
  };
  const refresh = () =>
    json(`/api/tournaments/${encodeURIComponent(id)}`)
      .then((t) => {
        replace(heading, t.name);
        const end = t.ends_at ? `, ends ${when(t.ends_at)}` : "";
        replace(info, `${settingsText(t)} · ${t.status}, starts ${when(t.starts_at)}${end}`);
        replace(entry, entryControls(t, link, note, refresh));
        replace(table, standingsTable(t));
        replace(games, gamesTable(t));
        replace(cross, t.kind === "round_robin" ? crossTable(t) : "");
      })
      .catch((error) => replace(info, el("span", { class: "refusal" }, error.message)));
  refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  const stop = link?.listen((message) => {
    if (message.type === "tournament_status" && message.tournament === id) {
      if (message.message) replace(note, message.message);
      if (message.room_id) follow(message.room_id);
      refresh();
    } else if (
      message.type === "room_snapshot" &&
      message.your_side !== undefined &&
      message.status === "running" &&
      paired.has(message.room_id)
    ) {
      navigate(`/game/${message.room_id}`);
    }
  });
  return () => {
    clearInterval(timer);
    stop?.();
  };
}

function entryControls(t, link, note, refresh) {
  if (t.status === "finished") return "";
  const me = link && !link.watching ? link.identity : null;
  if (!me?.account) return el("p", {}, "Sign in with an account to enter.");
  const entered = t.entrants.some((e) => e.name === me.name && !e.withdrawn);
  const ask = (type) =>
    link.request({ type, tournament: t.id }).then(
      (answer) => {
        replace(note, answer.message ?? "");
        refresh();
      },
      (error) => replace(note, el("span", { class: "refusal" }, error.message ?? String(error))),
    );
  return entered
    ? el("button", { type: "button", class: "leave", onclick: () => ask("leave_tournament") }, "Withdraw")
    : el("button", { type: "button", class: "join", onclick: () => ask("join_tournament") }, "Join");
}

function standingsTable(t) {
  if (!t.standings.length) return el("p", {}, "Nobody has entered yet.");
  const head = ["#", "Player", "Points", "Games", "Won", "Drawn", "Lost"];
  return el(
    "table",
    { class: "standings" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", {}, h)))),
    el(
      "tbody",
      {},
      t.standings.map((line) =>
        el(
          "tr",
          { "data-player": line.name },
          el("td", {}, String(line.rank)),
          el("td", {}, el("a", { href: `/@/${line.name}` }, line.name), line.withdrawn ? " (withdrew)" : ""),
          el("td", { class: "points" }, String(line.points)),
          el("td", {}, String(line.games)),
          el("td", {}, String(line.wins)),
          el("td", {}, String(line.draws)),
          el("td", {}, String(line.losses)),
        ),
      ),
    ),
  );
}

function resultText(game) {
  if (game.status === "scheduled") return "to play";
  if (game.status === "playing") return "playing";
  if (game.status === "aborted") return "aborted";
  if (game.winner === null) return "½-½";
  const result = game.winner === 0 ? "1-0" : "0-1";
  return game.status === "forfeit" ? `${result} (forfeit)` : result;
}

function gamesTable(t) {
  if (!t.games.length) return el("p", {}, "No game yet.");
  const rows = [...t.games].reverse();
  return el(
    "table",
    { class: "tournament-games" },
    el("thead", {}, el("tr", {}, ["Round", "First", "Second", "Result", ""].map((h) => el("th", {}, h)))),
    el(
      "tbody",
      {},
      rows.map((game) =>
        el(
          "tr",
          { "data-game": game.game_id ?? "" },
          el("td", {}, String(game.round)),
          el("td", {}, game.first),
          el("td", {}, game.second),
          el("td", {}, resultText(game)),
          el(
            "td",
            {},
            game.game_id
              ? el("a", { href: `/game/${game.game_id}` }, game.status === "playing" ? "watch" : "replay")
              : "",
          ),
        ),
      ),
    ),
  );
}

function crossTable(t) {
  const names = t.standings.map((line) => line.name);
  if (!names.length) return "";
  return [
    el("h2", {}, "Crosstable"),
    el(
      "table",
      { class: "crosstable" },
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), names.map((n, i) => el("th", { title: n }, String(i + 1))))),
      el(
        "tbody",
        {},
        t.standings.map((line, row) =>
          el(
            "tr",
            {},
            el("th", { scope: "row" }, `${row + 1}. ${line.name}`),
            names.map((other) =>
              el("td", {}, other === line.name ? "×" : String(line.against[other] ?? "")),
            ),
          ),
        ),
      ),
    ),
  ];
}
