// The fields a seek and a tournament share: the game with its options, and the clock.

import { el, field, replace, select } from "./dom.js";

/** The game's select over ``games`` (the /api/games list) and the fields of the chosen
 * game's options, shown anew when the game changes. ``fields`` go into a form;
 * ``read()`` gives ``{game, options}`` as the server takes them. */
export function gameFields(games) {
  const game = select(
    { name: "game" },
    games.map((info) => [info.name, info.title.replace(/ \d+×\d+$| n=\d+$/, "")]),
    games[0]?.name,
  );
  const options = el("div", { class: "options" });
  const showOptions = () =>
    replace(
      options,
      (games.find((info) => info.name === game.value)?.options ?? [])
        .filter((o) => o.name !== "max_plies")
        .map(optionField),
    );
  game.addEventListener("change", showOptions);
  showOptions();
  return {
    fields: [field("Game", game), options],
    read: () => ({ game: game.value, options: readOptions(options) }),
  };
}

/** The input of a clock's seconds (a move's, or the whole game's). */
export function secondsInput() {
  return el("input", { name: "seconds", type: "number", min: 1, max: 86400, value: 30 });
}

/** A time control as the server takes it: ``kind`` is per_move, fischer or untimed. */
export function timeControl(kind, seconds, increment = 0) {
  if (kind === "untimed") return { kind };
  if (kind === "fischer")
    return {
      kind,
      initial_ms: Math.round(seconds * 1000),
      increment_ms: Math.round(increment * 1000),
    };
  return { kind, move_ms: Math.round(seconds * 1000) };
}

/** A field for one of a game's declared options. */
export function optionField(option) {
  const name = `option-${option.name}`;
  const kind = typeof option.default;
  const input = option.choices.length
    ? select(
        { name, "data-option": option.name, "data-kind": kind },
        option.choices.map((choice) => [choice, String(choice)]),
        option.default,
      )
    : el("input", {
        name,
        "data-option": option.name,
        "data-kind": kind,
        type: "number",
        min: option.minimum,
        max: option.maximum,
        value: option.default,
      });
  return field(option.help.replace(/\.$/, ""), input);
}

/** The options the fields in ``holder`` hold, typed as declared. */
export function readOptions(holder) {
  const options = {};
  for (const input of holder.querySelectorAll("[data-option]")) {
    const value = input.value;
    options[input.dataset.option] = input.dataset.kind === "number" ? Number(value) : value;
  }
  return options;
}
