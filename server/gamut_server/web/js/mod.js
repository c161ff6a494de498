// The moderators' page, /mod: the reports waiting, a player looked up (their sanctions,
// reports, games and log) with the actions on them, bans of addresses, and the audit log.
// Every request goes through /api/mod/..., which refuses anyone but a moderator.

import { getJson, postJson } from "./account.js";
import { el, field, replace, select } from "./dom.js";

const LENGTHS = [
  ["", "until lifted"],
  ["1h", "an hour"],
  ["1d", "a day"],
  ["7d", "a week"],
  ["30d", "30 days"],
];
const ACTIONS = [
  ["ban", "Ban"],
  ["mute", "Mute"],
  ["unban", "Lift the ban"],
  ["unmute", "Lift the mute"],
];
/** What only a guest's name can be given: taken off it, or given back. */
const GUEST_ACTIONS = [
  ["take-name", "Take the guest off the name"],
  ["release-name", "Let guests use the name again"],
];
const KINDS = { ban: "ban", mute: "mute", address: "address ban", name: "kept from guests" };

/** Show the moderators' page in ``view``; returns a function that stops it. */
export function showMod(view) {
  const reports = el("div", { class: "reports" });
  const player = el("div", { class: "player" });
  const log = el("ol", { class: "audit" });
  const said = el("p", { role: "status", class: "hint" });
  const refresh = () => Promise.all([loadReports(reports, lookUp, refresh, say), loadLog(log)]);
  const say = (text, refused = false) => {
    said.className = refused ? "refusal" : "hint";
    replace(said, text);
  };
  const lookUp = (name) => loadPlayer(player, name, refresh, say);
  const name = el("input", { name: "player", required: true, maxLength: 24, autocomplete: "off" });
  const lookup = el(
    "form",
    {
      class: "lookup",
      onsubmit: (event) => {
        event.preventDefault();
        lookUp(name.value.trim());
      },
    },
    field("Player", name),
    el("button", { type: "submit" }, "Look up"),
  );
  replace(
    view,
    el(
      "section",
      { class: "mod" },
      el("h1", { class: "page-title" }, "Moderation"),
      said,
      el("div", { class: "column" }, el("h2", {}, "Reports waiting"), reports),
      el(
        "div",
        { class: "column" },
        el("h2", {}, "Players"),
        lookup,
        player,
        addressForm(refresh, say),
        abortForm(refresh, say),
        el("h2", {}, "Audit log"),
        log,
      ),
    ),
  );
  refresh().catch((error) => {
    replace(view, el("p", { class: "refusal", role: "alert" }, error.message));
  });
  return () => {};
}

async function loadReports(holder, lookUp, refresh, say) {
  const { reports } = await getJson("/api/mod/reports");
  if (!reports.length) {
    replace(holder, el("p", {}, "No report is waiting."));
    return;
  }
  replace(holder, el("ol", { class: "report-list" }, reports.map((r) => reportItem(r, lookUp, refresh, say))));
}

function reportItem(report, lookUp, refresh, say) {
  const reason = el("input", { name: "resolution", required: true, maxLength: 500, autocomplete: "off" });
  const close = el(
    "form",
    {
      class: "close-report",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          say((await postJson(`/api/mod/reports/${report.id}/close`, { reason: reason.value })).message);
          await refresh();
        } catch (error) {
          say(error.message, true);
        }
      },
    },
    field(`What was done about report ${report.id}`, reason),
    el("button", { type: "submit" }, "Close the report"),
  );
  const context = report.context ?? {};
  return el(
    "li",
    { class: "report", "data-report": report.id },
    el(
      "p",
      {},
      el("b", {}, report.reporter),
      " reports ",
      el("button", { type: "button", class: "link", onclick: () => lookUp(report.subject) }, report.subject),
      `: ${report.reason}`,
      context.room_id ? ` (in game ${context.room_id})` : " (in the lobby)",
    ),
    el(
      "ul",
      { class: "context" },
      (context.chat ?? []).map((line) =>
        el("li", {}, el("b", {}, line.author), ": ", line.text, " ", removeButton(report, line, say)),
      ),
    ),
    close,
  );
}

/** A button removing a line of a report's context for everyone. */
function removeButton(report, line, say) {
  const where = report.context?.room_id;
  const body = where
    ? { room_id: where, seq: line.seq, reason: `reported in report ${report.id}` }
    : { author: line.author, text: line.text, reason: `reported in report ${report.id}` };
  return el(
    "button",
    {
      type: "button",
      class: "link remove-line",
      onclick: async () => {
        try {
          say((await postJson("/api/mod/remove-line", body)).message);
        } catch (error) {
          say(error.message, true);
        }
      },
    },
    `Remove ${line.author}'s line`,
  );
}

async function loadPlayer(holder, name, refresh, say) {
  if (!name) return;
  try {
    const found = await getJson(`/api/mod/players/${encodeURIComponent(name)}`);
    replace(holder, playerSection(found, async () => {
      await refresh();
      await loadPlayer(holder, name, refresh, say);
    }, say));
  } catch (error) {
    say(error.message, true);
  }
}

function playerSection(player, again, say) {
  const sanctions = player.sanctions.map((s) =>
    el(
      "li",
      {},
      `${KINDS[s.kind] ?? s.kind} by ${s.by} ${s.until ? `until ${shown(s.until)}` : "for good"}: ${s.reason}`,
      s.lifted_at ? ` (lifted ${shown(s.lifted_at)})` : "",
    ),
  );
  return el(
    "section",
    { class: "mod-player", "data-player": player.name },
    el("h3", {}, player.name),
    el("p", {}, `${player.account ? "an account" : "a guest's name"}, ${player.online ? "online" : "offline"}`),
    actionForm(player.name, player.account, again, say),
    el("h4", {}, "Sanctions"),
    sanctions.length ? el("ul", { class: "sanctions" }, sanctions) : el("p", {}, "None."),
    el("h4", {}, "Reports about them"),
    player.reports.length
      ? el("ul", {}, player.reports.map((r) => el("li", {}, `${r.reporter}: ${r.reason}`, r.closed_at ? ` (closed: ${r.resolution})` : " (open)")))
      : el("p", {}, "None."),
    el("h4", {}, "Latest chat lines in games"),
    player.chat.length
      ? el(
          "ul",
          { class: "player-chat" },
          player.chat.map((line) =>
            el("li", {}, el("a", { href: `/game/${line.room_id}?replay` }, shown(line.at)), ` ${line.text}`),
          ),
        )
      : el("p", {}, "None."),
    el("h4", {}, "Latest games"),
    player.games.length
      ? el(
          "ul",
          {},
          player.games.map((g) =>
            el("li", {}, el("a", { href: `/game/${g.game_id}?replay` }, `${g.game}: ${g.players.join(" – ")}`)),
          ),
        )
      : el("p", {}, "None."),
  );
}

function actionForm(name, account, again, say) {
  const action = select({ name: "action" }, account ? ACTIONS : [...ACTIONS, ...GUEST_ACTIONS], "ban");
  const length = select({ name: "for" }, LENGTHS, "1d");
  const reason = el("input", { name: "reason", required: true, maxLength: 500, autocomplete: "off" });
  return el(
    "form",
    {
      class: "mod-action",
      onsubmit: async (event) => {
        event.preventDefault();
        const body = { name, reason: reason.value };
        const lifting = action.value.startsWith("un") || action.value === "release-name";
        if (length.value && !lifting) body.for = length.value;
        try {
          say((await postJson(`/api/mod/${action.value}`, body)).message);
          reason.value = "";
          await again();
        } catch (error) {
          say(error.message, true);
        }
      },
    },
    field("Action", action),
    field("For", length),
    field("Reason", reason),
    el("button", { type: "submit" }, "Apply"),
  );
}

function addressForm(refresh, say) {
  const network = el("input", { name: "network", required: true, maxLength: 64, autocomplete: "off" });
  const length = select({ name: "for" }, LENGTHS, "1d");
  const reason = el("input", { name: "reason", required: true, maxLength: 500, autocomplete: "off" });
  return el(
    "form",
    {
      class: "ban-address",
      onsubmit: async (event) => {
        event.preventDefault();
        const body = { network: network.value, reason: reason.value };
        if (length.value) body.for = length.value;
        try {
          say((await postJson("/api/mod/ban-address", body)).message);
          await refresh();
        } catch (error) {
          say(error.message, true);
        }
      },
    },
    el("h2", {}, "Ban an address or a network"),
    field("Address or range (203.0.113.0/24)", network),
    field("For", length),
    field("Reason", reason),
    el("button", { type: "submit" }, "Ban it"),
  );
}

function abortForm(refresh, say) {
  const room = el("input", { name: "room_id", required: true, maxLength: 64, autocomplete: "off" });
  const reason = el("input", { name: "reason", required: true, maxLength: 500, autocomplete: "off" });
  return el(
    "form",
    {
      class: "abort-room",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          say((await postJson("/api/mod/abort", { room_id: room.value, reason: reason.value })).message);
          await refresh();
        } catch (error) {
          say(error.message, true);
        }
      },
    },
    el("h2", {}, "Call a game off"),
    field("Room (the id in the game's address)", room),
    field("Reason", reason),
    el("button", { type: "submit" }, "Call it off"),
  );
}

async function loadLog(holder) {
  const { entries } = await getJson("/api/mod/log?limit=50");
  replace(
    holder,
    entries.map((e) =>
      el(
        "li",
        {},
        `${shown(e.at)} ${e.by}: ${e.action} ${e.subject}${e.until ? ` until ${shown(e.until)}` : ""}: ${e.reason}`,
      ),
    ),
  );
}

function shown(iso) {
  return iso.slice(0, 16).replace("T", " ") + " UTC";
}
