// A chat pane: its lines (always as text) and a one-line field to speak.

import { el, replace } from "./dom.js";
import { isBlocked, playerActions } from "./safety.js";

const MAX_CHAT = 500;

/**
 * A chat pane titled ``title``; ``send(text)`` returns a promise of the server's answer.
 * ``instead``, when given, is shown in place of the field (to one who may not chat).
 * With ``link``, each author's name opens the actions on them (block, report in
 * ``roomId``), and the lines of players blocked are not shown.
 */
export function chatPane(title, send, instead = null, link = null, roomId = null) {
  const lines = el("ol", { class: "chat-lines", "aria-live": "polite" });
  const input = el("input", {
    name: "chat",
    maxLength: MAX_CHAT,
    placeholder: "Say something",
    autocomplete: "off",
  });
  const refusal = el("p", { class: "refusal", role: "alert" });
  const form = el(
    "form",
    {
      class: "chat-form",
      onsubmit: (event) => {
        event.preventDefault();
        const text = input.value;
        if (!text.trim()) return;
        input.value = "";
        replace(refusal);
        send(text).catch((error) => replace(refusal, error.message));
      },
    },
    input,
    el("button", { type: "submit" }, "Send"),
  );
  const node = el(
    "section",
    { class: "chat" },
    el("h2", {}, title),
    lines,
    instead ?? form,
    refusal,
  );
  let shown = 0;
  let blocks = null;
  const actions = el("div", { class: "chat-actions" });
  node.append(actions);
  const author = (name) => {
    if (!link || link.watching) return el("b", {}, name);
    const open = () => replace(actions, playerActions(link, name, roomId));
    return el("button", { type: "button", class: "link author", onclick: open }, name);
  };
  return {
    node,
    /** Show ``chat`` ({author, text} lines), appending only the new ones (all of them
     * again when the player's blocks changed). */
    render(chat) {
      if (chat.length < shown || (link && link.blocks !== blocks)) {
        lines.replaceChildren();
        shown = 0;
        blocks = link?.blocks ?? null;
      }
      for (const line of chat.slice(shown)) {
        if (link && isBlocked(link, line.author)) continue;
        lines.append(el("li", {}, author(line.author), ": ", line.text));
      }
      shown = chat.length;
      lines.scrollTop = lines.scrollHeight;
    },
  };
}
