// The page's entry: who this browser is, the connection, and which view the address asks for.

import { signedInName, signOut } from "./account.js";
import { el, replace } from "./dom.js";
import { showGame } from "./game.js";
import { forgetIdentity, loadIdentity, saveIdentity } from "./identity.js";
import { showLadder } from "./ladder.js";
import { Link } from "./link.js";
import { showLobby } from "./lobby.js";
import { showMod } from "./mod.js";
import { showPlayers } from "./players.js";
import { showProfile } from "./profile.js";
import { showReplay } from "./replay.js";
import { showSignIn } from "./signin.js";
import { showTournament, showTournaments } from "./tournaments.js";

const view = document.getElementById("view");
const notice = document.getElementById("notice");
const me = document.getElementById("me");
let link = null;
let stopView = () => {};

const NOTICES = {
  connecting: "Connecting…",
  reconnecting: "The connection dropped: reconnecting…",
};

function navigate(path) {
  if (path !== location.pathname + location.search) history.pushState(null, "", path);
  route();
}

function route() {
  stopView();
  stopView = () => {};
  const path = location.pathname;
  const game = path.match(/^\/game\/([A-Za-z0-9_.:-]{1,64})$/);
  const player = path.match(/^\/@\/([A-Za-z0-9_.-]{1,24})$/);
  const tournament = path.match(/^\/tournament\/([A-Za-z0-9_.:-]{1,64})$/);
  if (path === "/ladder") stopView = showLadder(view);
  else if (path === "/tournaments") stopView = showTournaments(view, link, navigate);
  else if (tournament) stopView = showTournament(view, link, tournament[1], navigate);
  else if (path === "/mod") stopView = showMod(view);
  else if (path === "/players") stopView = showPlayers(view);
  else if (player) stopView = showProfile(view, player[1], playing(), navigate);
  else if (game && location.search === "?replay") stopView = showReplay(view, game[1]);
  else if (game) stopView = showGame(view, link ?? connect(null), game[1], navigate, askName);
  else if (!link || link.watching) askName();
  else stopView = showLobby(view, link, navigate);
}

/** The link of a player who chose who to be, or null (nobody, or only watching). */
function playing() {
  return link && !link.watching ? link : null;
}

/** Forget a link that only watches, and ask who this browser is. */
function askName() {
  if (link?.watching) {
    link.stop();
    link = null;
  }
  showNotice("");
  replace(me);
  showSignIn(view, start);
}

function start(identity) {
  // A guest's is kept at once, so a reload before the welcome comes back under the same
  // name; an account's session is its cookie.
  saveIdentity(identity);
  connect(identity);
  showMe(identity);
  route();
}

/** Open the link for ``identity`` (null: a visitor who only watches). */
function connect(identity) {
  const opened = new Link(identity);
  link = opened;
  // A link signed out or replaced may still say something; only the current one counts.
  opened.listen((message) => {
    if (opened === link) heard(message);
  });
  showNotice(NOTICES.connecting);
  link.start();
  return link;
}

function heard(message) {
  if (message.type !== "link_state") return;
  if (message.state === "online") {
    if (!link.watching) saveIdentity(link.identity);
    showMe(link.watching ? null : link.identity);
    showNotice("");
  } else if (message.state === "refused") {
    forgetIdentity();
    link = null;
    stopView();
    showNotice("");
    showSignIn(view, start, message.detail);
  } else if (message.state === "retrying") {
    showNotice(`The server did not let this page in (${message.detail}): trying again…`);
  } else {
    showNotice(NOTICES[message.state] ?? "");
  }
}

function showNotice(text) {
  notice.hidden = !text;
  replace(notice, text);
}

function showMe(identity) {
  if (!identity) {
    replace(me, el("button", { type: "button", class: "link", onclick: askName }, "sign in"));
    return;
  }
  const leave = el(
    "button",
    { type: "button", class: "link", onclick: () => signOutNow() },
    "sign out",
  );
  const name = identity.account
    ? el("a", { href: `/@/${identity.name}`, class: "account" }, el("b", {}, identity.name))
    : [el("b", {}, identity.name), " (guest)"];
  replace(me, name, " ", leave);
}

async function signOutNow() {
  const account = link?.identity?.account;
  forgetIdentity();
  link?.stop();
  link = null;
  replace(me);
  if (account) await signOut().catch(() => {});
  navigate("/");
}

document.addEventListener("click", (event) => {
  const anchor = event.target.closest?.("a[href^='/']:not([download])");
  if (!anchor || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(anchor.getAttribute("href"));
});
window.addEventListener("popstate", route);

async function boot() {
  const account = await signedInName();
  const saved = account ? { name: account, token: null, account: true } : loadIdentity();
  if (saved) {
    start(saved);
  } else {
    showMe(null);
    route();
  }
}

boot();
