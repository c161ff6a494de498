// The form that creates a tournament (for a signed-in account), on the tournaments' list.

import { call } from "./account.js";
import { el, field, replace, select } from "./dom.js";
import { gameFields, secondsInput, timeControl } from "./gamefields.js";

/** A form over ``games`` (the /api/games list); ``created(summary)`` hears of the new one. */
export function tournamentForm(games, created) {
  const name = el("input", { name: "name", maxLength: 80, placeholder: "(the game and the kind)" });
  const game = gameFields(games);
  const kind = select(
    { name: "kind" },
    [
      ["arena", "arena"],
      ["round_robin", "round robin"],
    ],
    "arena",
  );
  const minutes = el("input", { name: "minutes", type: "number", min: 1, max: 1440, value: 30 });
  const rounds = el("input", { name: "rounds", type: "number", min: 1, max: 4, value: 1 });
  const seconds = secondsInput();
  const startsIn = el("input", { name: "starts_in", type: "number", min: 0, max: 43200, value: 5 });
  const entry = select(
    { name: "entry" },
    [
      ["both", "people and bots"],
      ["people", "people only"],
      ["bots", "bots only"],
    ],
    "both",
  );
  const refusal = el("p", { class: "refusal", role: "alert" });
  const fields = {
    minutes: field("Arena's length (minutes)", minutes),
    rounds: field("Cycles", rounds),
  };
  const sync = () => {
    fields.minutes.hidden = kind.value !== "arena";
    fields.rounds.hidden = kind.value === "arena";
  };
  kind.addEventListener("change", sync);
  sync();
  const send = (event) => {
    event.preventDefault();
    replace(refusal);
    const body = {
      ...game.read(),
      kind: kind.value,
      time_control: timeControl("per_move", Number(seconds.value)),
      starts_in: Math.round(Number(startsIn.value) * 60),
      entry: entry.value,
    };
    if (name.value.trim()) body.name = name.value.trim();
    if (kind.value === "arena") body.minutes = Number(minutes.value);
    else body.rounds = Number(rounds.value);
    call("POST", "/api/tournaments", body).then(created, (error) =>
      replace(refusal, error.message),
    );
  };
  return el(
    "form",
    { class: "tournament-form", onsubmit: send },
    el("h2", {}, "New tournament"),
    field("Name", name),
    game.fields,
    field("Kind", kind),
    fields.minutes,
    fields.rounds,
    field("Seconds a move", seconds),
    field("Starts in (minutes)", startsIn),
    field("Who may enter", entry),
    el("button", { type: "submit" }, "Create"),
    refusal,
  );
}
