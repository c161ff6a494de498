// Choosing who to be: signing in to an account, making one, or playing as a guest.

import { signIn, signUp } from "./account.js";
import { el, field, replace } from "./dom.js";

const NAME_PATTERN = "[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,23}";
const NAME_HELP = "Name: up to 24 letters, digits and _ . -";

/** Show the sign-in forms in ``view``; ``chosen(identity)`` is called with the choice:
 * ``{name, account: true}`` once signed in, or ``{name, token: null, account: false}``. */
export function showSignIn(view, chosen, reason = "") {
  const guest = nameInput("name", `guest-${Math.floor(1000 + Math.random() * 9000)}`);
  replace(
    view,
    el(
      "section",
      { class: "signin" },
      el("h1", {}, "Play on Gamut"),
      reason ? el("p", { class: "refusal", role: "alert" }, reason) : null,
      accountForm("login", "Sign in", "Sign in", "current-password", signIn, chosen),
      accountForm("signup", "New here? Make an account", "Sign up", "new-password", signUp, chosen),
      el(
        "form",
        {
          class: "guest",
          onsubmit: (event) => {
            event.preventDefault();
            chosen({ name: guest.value, token: null, account: false });
          },
        },
        el("h2", {}, "Or play as a guest"),
        el("p", { class: "hint" }, "Guests play casual games; rated games need an account."),
        field(NAME_HELP, guest),
        el("button", { type: "submit" }, "Enter as a guest"),
      ),
    ),
  );
  view.querySelector("form.login input[name=name]").focus();
}

function nameInput(name, value = "") {
  return el("input", {
    name,
    required: true,
    pattern: NAME_PATTERN,
    maxLength: 24,
    autocomplete: "username",
    value,
  });
}

function accountForm(kind, heading, label, autocomplete, send, chosen) {
  const name = nameInput("name");
  const password = el("input", {
    name: "password",
    type: "password",
    required: true,
    minLength: kind === "signup" ? 8 : 1,
    maxLength: 256,
    autocomplete,
  });
  const refusal = el("p", { class: "refusal", role: "alert" });
  const button = el("button", { type: "submit" }, label);
  const submit = async (event) => {
    event.preventDefault();
    replace(refusal);
    button.disabled = true;
    try {
      const spelt = await send(name.value, password.value);
      chosen({ name: spelt, token: null, account: true });
    } catch (error) {
      replace(refusal, error.message);
      password.value = "";
      password.focus();
    } finally {
      button.disabled = false;
    }
  };
  return el(
    "form",
    { class: kind, onsubmit: submit },
    el("h2", {}, heading),
    field(kind === "signup" ? NAME_HELP : "Name", name),
    field(kind === "signup" ? "Password: at least 8 characters" : "Password", password),
    button,
    refusal,
  );
}
