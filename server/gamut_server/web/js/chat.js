// A chat pane: its lines (always as text) and a one-line field to speak.

import { el, replace } from "./dom.js";

const MAX_CHAT = 500;

/**
 * A chat pane titled ``title``; ``send(text)`` returns a promise of the server's answer.
 * ``instead``, when given, is shown in place of the field (to one who may not chat).
 */
export function chatPane(title, send, instead = null) {
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
  return {
    node,
    /** Show ``chat`` ({author, text} lines), appending only the new ones. */
    render(chat) {
      if (chat.length < shown) {
        lines.replaceChildren();
        shown = 0;
      }
      for (const line of chat.slice(shown)) {
        lines.append(el("li", {}, el("b", {}, line.author), ": ", line.text));
      }
      shown = chat.length;
      lines.scrollTop = lines.scrollHeight;
    },
  };
}
