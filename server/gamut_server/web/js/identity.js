// Who this browser is: a name and its token, kept in localStorage so a reload or a
// new tab comes back as the same player.

const KEY = "gamut.identity";

/** The saved identity {name, token, account}, or null. */
export function loadIdentity() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved && typeof saved.name === "string") return saved;
  } catch {
    // A damaged entry is the same as none.
  }
  return null;
}

/** Keep ``identity`` for the next visit. */
export function saveIdentity(identity) {
  localStorage.setItem(KEY, JSON.stringify(identity));
}

/** Forget the saved identity. */
export function forgetIdentity() {
  localStorage.removeItem(KEY);
}
