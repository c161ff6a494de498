// Choosing who to be: a guest name, or an account's name and token.

import { el, field, replace } from "./dom.js";

const NAME_PATTERN = "[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,23}";

/** Show the sign-in forms in ``view``; ``chosen(identity)`` is called with the choice. */
export function showSignIn(view, chosen, reason = "") {
  const guest = el("input", {
    name: "name",
    required: true,
    pattern: NAME_PATTERN,
    maxLength: 24,
    value: `guest-${Math.floor(1000 + Math.random() * 9000)}`,
  });
  const account = el("input", {
    name: "account",
    required: true,
    pattern: NAME_PATTERN,
    maxLength: 24,
  });
  const token = el("input", {
    name: "token",
    required: true,
    type: "password",
    maxLength: 256,
    autocomplete: "off",
  });
  const submit = (identity) => (event) => {
    event.preventDefault();
    chosen(identity());
  };
  replace(
    view,
    el(
      "section",
      { class: "signin" },
      el("h1", {}, "Play on Gamut"),
      reason ? el("p", { class: "refusal", role: "alert" }, reason) : null,
      el(
        "form",
        {
          class: "guest",
          onsubmit: submit(() => ({ name: guest.value, token: null, account: false })),
        },
        el("h2", {}, "As a guest"),
        field("Name: up to 24 letters, digits and _ . -", guest),
        el("button", { type: "submit" }, "Enter"),
      ),
      el(
        "form",
        {
          class: "account",
          onsubmit: submit(() => ({ name: account.value, token: token.value, account: true })),
        },
        el("h2", {}, "With an account"),
        field("Account name", account),
        field("Token", token),
        el("button", { type: "submit" }, "Sign in"),
      ),
    ),
  );
  guest.focus();
}
