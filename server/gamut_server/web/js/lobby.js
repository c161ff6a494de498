// The lobby: new games, open seeks, live and finished games, who is online, and chat.

import { chatPane } from "./chat.js";
import { el, replace } from "./dom.js";
import { opponentText, optionsText, ratingText, seatText, timeControlText } from "./format.js";
import { blockedList } from "./safety.js";
import { seekForm } from "./seekform.js";

/** Show the lobby in ``view``; returns a function that stops it. */
export function showLobby(view, link, navigate) {
  const seeks = el("tbody");
  const seekRefusal = el("p", { class: "refusal", role: "alert" });
  const rooms = el("tbody");
  const finished = el("ul", { class: "finished" });
  const present = el("ul", { class: "present" });
  const online = el("span");
  const chat = chatPane("Lobby chat", (text) => link.request({ type: "chat", text }), null, link);
  const blocked = el("div", { class: "blocked-holder" });
  const formHolder = el("div");
  let form = null;

  const open = (seek) =>
    link.request(seek).then((answer) => {
      if (answer.type === "room_snapshot") navigate(`/game/${answer.room_id}`);
    });

  fetch("/api/games")
    .then((response) => response.json())
    .then((games) => {
      form = seekForm(games, open, { guest: !link.identity.account });
      replace(formHolder, form.node);
      const wanted = new URLSearchParams(location.search).get("challenge");
      if (wanted) form.challenge(wanted);
    });
  loadFinished(finished);

  const render = () => {
    const lobby = link.lobby;
    if (!lobby) return;
    const me = link.identity.name;
    replace(
      seeks,
      [...lobby.seeks.values()].map((seek) =>
        seekRow(seek, me, link, (text) => replace(seekRefusal, text)),
      ),
    );
    replace(
      rooms,
      [...lobby.rooms.values()].map((room) => roomRow(room, me)),
    );
    replace(online, ` (${lobby.online})`);
    replace(
      present,
      [...lobby.present.values()].map((player) =>
        presentItem(player, me, () => form?.challenge(player.name)),
      ),
    );
    chat.render(lobby.chat);
    replace(blocked, blockedList(link));
  };

  replace(
    view,
    el(
      "section",
      { class: "lobby" },
      el("h1", { class: "page-title" }, "Lobby"),
      el("div", { class: "column" }, formHolder, chat.node, blocked),
      el(
        "div",
        { class: "column" },
        el("h2", {}, "Open seeks"),
        seekRefusal,
        table(["Player", "Game", "Clock", "Opponent", ""], seeks, "seeks"),
        el("h2", {}, "Games being played"),
        table(["Game", "Players", "Moves", "Watching", ""], rooms, "rooms"),
        el("h2", {}, "Online", online),
        present,
        el("h2", {}, "Finished games"),
        finished,
      ),
    ),
  );
  render();
  const stop = link.listen((message) => {
    if (
      message.type === "room_snapshot" &&
      message.your_side !== undefined &&
      message.status === "running"
    ) {
      navigate(`/game/${message.room_id}`);
    } else if (
      message.room_id === undefined ||
      message.type === "chat_removed" ||
      message.type === "room_updated" ||
      message.type === "room_removed"
    ) {
      render();
    }
  });
  return stop;
}

function table(headings, body, name) {
  return el(
    "table",
    { class: name },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        headings.map((text) => el("th", {}, text)),
      ),
    ),
    body,
  );
}

function seekRow(seek, me, link, refused) {
  const mine = seek.author === me;
  const answer = (type) =>
    link.request({ type, seek_id: seek.seek_id }).catch((error) => refused(error.message));
  const button = mine
    ? el("button", { type: "button", onclick: () => answer("cancel_seek") }, "Cancel")
    : el("button", { type: "button", onclick: () => answer("accept_seek") }, "Accept");
  const terms = [seek.title, optionsText(seek.options), ratedText(seek)];
  const game = terms.filter(Boolean).join(", ");
  const author =
    seek.author_rating === undefined
      ? seek.author
      : `${seek.author} (${ratingText(seek.author_rating, seek.author_provisional)})`;
  return el(
    "tr",
    { "data-seek": seek.seek_id },
    el("td", {}, author),
    el("td", {}, game),
    el("td", {}, timeControlText(seek.time_control)),
    el("td", {}, opponentText(seek.opponent)),
    el("td", {}, button),
  );
}

function ratedText(seek) {
  if (!seek.rated) return "";
  const range = seek.rating_range;
  if (!range || seek.author_rating === undefined) return "rated";
  return `rated, ${seek.author_rating - range.below} to ${seek.author_rating + range.above}`;
}

function roomRow(room, me) {
  const playing = room.players.some((player) => player?.name === me);
  const label = room.status !== "running" ? "Replay" : playing ? "Play" : "Watch";
  const players = room.players.map(seatText).join(" vs ");
  return el(
    "tr",
    { "data-room": room.room_id },
    el("td", {}, room.title),
    el("td", {}, players),
    el("td", {}, String(room.ply)),
    el("td", {}, String(room.spectators)),
    el("td", {}, el("a", { href: `/game/${room.room_id}` }, label)),
  );
}

function presentItem(player, me, challenge) {
  const kind = player.kind === "bot" ? " [bot]" : "";
  const busy = player.playing.length ? " (playing)" : "";
  const button =
    player.name === me
      ? null
      : el("button", { type: "button", class: "link", onclick: challenge }, "challenge");
  return el("li", {}, `${player.name}${kind}${busy} `, button);
}

function loadFinished(list) {
  fetch("/api/games/finished?limit=10")
    .then((response) => response.json())
    .then((page) => {
      replace(
        list,
        page.games.map((game) =>
          el(
            "li",
            {},
            el(
              "a",
              { href: `/game/${game.id}` },
              `${game.game}: ${game.players.map((p) => p?.name ?? "?").join(" vs ")}`,
            ),
            ` (${game.result?.reason ?? game.status})`,
          ),
        ),
      );
    });
}
