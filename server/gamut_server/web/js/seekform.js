// The form that seeks a game: game, options, time control, opponent and side.

import { el, field, replace, select } from "./dom.js";
import { gameFields, secondsInput, timeControl } from "./gamefields.js";

const RANGES = [
  ["", "any rating"],
  ["100", "within 100 of mine"],
  ["200", "within 200 of mine"],
  ["300", "within 300 of mine"],
  ["500", "within 500 of mine"],
];

/** A seek form over ``games`` (the /api/games list); ``submit(seek)`` sends it. A
 * ``guest`` is shown why rated games are not for guests. */
export function seekForm(games, submit, { guest = false } = {}) {
  const game = gameFields(games);
  const clock = select(
    { name: "clock" },
    [
      ["per_move", "per move"],
      ["fischer", "total + increment"],
      ["untimed", "untimed"],
    ],
    "per_move",
  );
  const seconds = secondsInput();
  const increment = el("input", { name: "increment", type: "number", min: 0, max: 3600, value: 2 });
  const opponent = select(
    { name: "opponent" },
    [
      ["anyone", "anyone"],
      ["player", "a named player"],
      ["ai", "the AI"],
    ],
    "anyone",
  );
  const who = el("input", { name: "who", placeholder: "name", maxLength: 24 });
  const level = el("input", { name: "level", type: "number", min: 1, max: 8, value: 3 });
  const side = select(
    { name: "side" },
    [
      ["", "either, by lot"],
      ["0", "first"],
      ["1", "second"],
    ],
    "",
  );
  const rated = el("input", { name: "rated", type: "checkbox", disabled: guest });
  const range = select({ name: "range" }, RANGES, "");
  const refusal = el("p", { class: "refusal", role: "alert" });

  const send = (event) => {
    event.preventDefault();
    replace(refusal);
    const seek = {
      type: "seek",
      ...game.read(),
      time_control: timeControl(clock.value, Number(seconds.value), Number(increment.value)),
      opponent: opponentOf(opponent.value, who.value.trim(), Number(level.value)),
      rated: rated.checked && opponent.value !== "ai",
    };
    if (side.value !== "") seek.side = Number(side.value);
    if (rated.checked && range.value) {
      const gap = Number(range.value);
      seek.rating_range = { below: gap, above: gap };
    }
    submit(seek).catch((error) => replace(refusal, error.message));
  };

  const fields = {
    seconds: field("Seconds (a move, or in all)", seconds),
    increment: field("Increment (s)", increment),
    who: field("Player", who),
    level: field("AI level (1-8)", level),
    rated: field("Rated", rated),
    range: field("Opponent's rating", range),
  };
  const guestNote = guest
    ? el(
        "p",
        { class: "hint rated-note" },
        "Rated games are played between accounts: sign out and sign up (a name and a " +
          "password) to play them.",
      )
    : null;
  // Show only the fields the chosen clock and opponent use.
  const sync = () => {
    fields.seconds.hidden = clock.value === "untimed";
    fields.increment.hidden = clock.value !== "fischer";
    fields.who.hidden = opponent.value !== "player";
    fields.level.hidden = opponent.value !== "ai";
    fields.rated.hidden = opponent.value === "ai";
    fields.range.hidden = !rated.checked || opponent.value === "ai";
  };
  clock.addEventListener("change", sync);
  opponent.addEventListener("change", sync);
  rated.addEventListener("change", sync);
  sync();

  const form = el(
    "form",
    { class: "seek", onsubmit: send },
    el("h2", {}, "New game"),
    game.fields,
    field("Clock", clock),
    fields.seconds,
    fields.increment,
    field("Opponent", opponent),
    fields.who,
    fields.level,
    field("Side", side),
    fields.rated,
    guestNote,
    fields.range,
    el("button", { type: "submit" }, "Seek"),
    refusal,
  );
  return {
    node: form,
    /** Fill the opponent with ``name`` (a challenge from the list of who is online). */
    challenge(name) {
      opponent.value = "player";
      sync();
      who.value = name;
      who.focus();
    },
  };
}

function opponentOf(kind, name, level) {
  if (kind === "player") return { kind, name };
  if (kind === "ai") return { kind, level };
  return { kind: "anyone" };
}
