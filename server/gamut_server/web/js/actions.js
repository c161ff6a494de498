// The buttons a player has in a room: resign, draw, abort, rematch, pass.

import { el } from "./dom.js";

/** The buttons for ``room`` as seen by its player; ``act(type)`` sends a room message. */
export function actionButtons(room, act, confirming, setConfirming) {
  const me = room.yourSide;
  if (me === null) return [];
  const other = 1 - me;
  const button = (label, type, extra = {}) =>
    el(
      "button",
      { type: "button", "data-action": type, onclick: () => act(type), ...extra },
      label,
    );
  if (room.status !== "running") {
    if (room.newRoomId) return [];
    if (room.rematchOffer === other) {
      return [button("Accept rematch", "rematch"), button("Decline rematch", "decline_rematch")];
    }
    if (room.rematchOffer === me) return [el("span", { class: "hint" }, "Rematch offered…")];
    return [button("Rematch", "rematch")];
  }
  const buttons = [];
  if (confirming) {
    buttons.push(button("Yes, resign", "resign", { class: "danger" }));
    buttons.push(
      el("button", { type: "button", onclick: () => setConfirming(false) }, "Keep playing"),
    );
  } else {
    buttons.push(
      el(
        "button",
        { type: "button", "data-action": "ask-resign", onclick: () => setConfirming(true) },
        "Resign",
      ),
    );
  }
  if (room.drawOffer === other) {
    buttons.push(button("Accept draw", "accept_draw"), button("Decline draw", "decline_draw"));
  } else if (room.drawOffer === me) {
    buttons.push(el("span", { class: "hint" }, "Draw offered…"));
  } else {
    buttons.push(button("Offer draw", "offer_draw"));
  }
  if (room.position.ply < 2) buttons.push(button("Abort", "abort"));
  return buttons;
}
