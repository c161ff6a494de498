// Numbers and terms in words for people.

/** A clock reading: 4:05, or 9.3 under ten seconds. */
export function clockText(ms) {
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, "0")}`;
}

function seconds(ms) {
  return ms % 60000 === 0 ? `${ms / 60000} min` : `${ms / 1000} s`;
}

/** A time control in words: "5 s a move", "5 min + 2 s", "untimed". */
export function timeControlText(control) {
  if (!control || control.kind === "untimed") return "untimed";
  if (control.kind === "per_move") return `${seconds(control.move_ms)} a move`;
  return `${seconds(control.initial_ms)} + ${seconds(control.increment_ms)}`;
}

/** Game options in words, defaults included: "rules cs61b", "size 6". */
export function optionsText(options) {
  return Object.entries(options ?? {})
    .filter(([name]) => name !== "max_plies")
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
}

/** Whom a seek wants: "anyone", "bob", "the AI at level 3". */
export function opponentText(opponent) {
  if (opponent.kind === "player") return opponent.name;
  if (opponent.kind === "ai") return `the AI at level ${opponent.level}`;
  return "anyone";
}

/** A seat: "ada (1612)", or "ada, away". */
export function seatText(player) {
  if (!player) return "(empty)";
  const rating =
    player.rating === undefined ? "" : ` (${ratingText(player.rating, player.provisional)})`;
  const away = player.connected === false ? ", away" : "";
  const kind = player.kind === "human" ? "" : ` [${player.kind}]`;
  return `${player.name}${kind}${rating}${away}`;
}

/** A rating as shown: "1562", or "1562?" while it is provisional. */
export function ratingText(rating, provisional) {
  return `${rating}${provisional ? "?" : ""}`;
}

/** A rating change with its sign: "+62", "−62", "±0". */
export function signedChange(value) {
  return value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "±0";
}

/** What a rated game did to both ratings: "Ada_L 1562? (+62), bob 1438? (−62)"; "" before. */
export function ratingChangesText(players) {
  if (!players) return "";
  const one = (player) =>
    `${player.name} ${ratingText(player.rating, player.provisional)} (${signedChange(player.change)})`;
  return `New ratings: ${players.map(one).join(", ")}`;
}

/** The players of a game: "ada vs bob". */
export function versusText(players) {
  return players.map((player) => player?.name ?? "?").join(" vs ");
}
