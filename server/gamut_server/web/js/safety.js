// Blocks and reports from a player's name: the buttons, the blocked list, and whether a
// line is to be shown (a blocked player's lines are not).

import { el, replace } from "./dom.js";

/** The names this link's player has blocked (folded to lower case). */
export function blockedNames(link) {
  return new Set((link?.blocks?.names ?? []).map((name) => name.toLowerCase()));
}

/** Whether this link's player has blocked ``name``. */
export function isBlocked(link, name) {
  return blockedNames(link).has(name.toLowerCase());
}

/**
 * The actions on ``name`` for the player of ``link``: block or unblock, and report (in
 * ``roomId``, if given). Returns null for oneself or a link that only watches.
 */
export function playerActions(link, name, roomId = null) {
  if (!link || link.watching || link.identity?.name?.toLowerCase() === name.toLowerCase()) {
    return null;
  }
  const said = el("p", { class: "hint", role: "status" });
  const show = (text, refused = false) => {
    said.className = refused ? "refusal" : "hint";
    replace(said, text);
  };
  const label = () => (isBlocked(link, name) ? `Unblock ${name}` : `Block ${name}`);
  const toggle = el("button", { type: "button", class: "block" }, label());
  toggle.addEventListener("click", () => {
    const blocking = !isBlocked(link, name);
    link
      .request({ type: blocking ? "block" : "unblock", name })
      .then(() => {
        replace(toggle, label());
        show(blocking ? `You blocked ${name}.` : `You unblocked ${name}.`);
      })
      .catch((error) => show(error.message, true));
  });
  const reason = el("input", {
    name: "reason",
    maxLength: 500,
    required: true,
    autocomplete: "off",
    placeholder: "What happened",
  });
  const report = el(
    "form",
    {
      class: "report",
      onsubmit: (event) => {
        event.preventDefault();
        const message = { type: "report", name, reason: reason.value };
        if (roomId) message.room_id = roomId;
        link
          .request(message)
          .then(() => {
            reason.value = "";
            show(`Thank you: the moderators have your report about ${name}.`);
          })
          .catch((error) => show(error.message, true));
      },
    },
    el("label", { class: "field" }, el("span", {}, `Report ${name}`), reason),
    el("button", { type: "submit" }, "Report"),
  );
  return el("div", { class: "player-actions", "data-player": name }, toggle, report, said);
}

/** The list of blocked players, each with a button to unblock; null when there is none. */
export function blockedList(link) {
  const names = link?.blocks?.names ?? [];
  if (!names.length) return null;
  return el(
    "section",
    { class: "blocked" },
    el("h2", {}, "Blocked players"),
    el(
      "ul",
      {},
      names.map((name) =>
        el(
          "li",
          {},
          name,
          " ",
          el(
            "button",
            {
              type: "button",
              class: "link",
              onclick: () => link.request({ type: "unblock", name }),
            },
            `Unblock ${name}`,
          ),
        ),
      ),
    ),
  );
}
