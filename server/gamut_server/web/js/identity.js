// A guest's identity: a name and the token that reclaims it, kept in localStorage so a
// reload or a new tab comes back as the same guest. An account keeps nothing here: its
// session is a cookie the page cannot read.

const KEY = "gamut.identity";

/** The saved guest identity {name, token}, or null. */
export function loadIdentity() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved && typeof saved.name === "string" && !saved.account) return saved;
  } catch {
    // A damaged entry is the same as none.
  }
  forgetIdentity();
  return null;
}

/** Keep a guest's ``identity`` for the next visit (an account's is never kept). */
export function saveIdentity(identity) {
  if (identity.account) forgetIdentity();
  else localStorage.setItem(KEY, JSON.stringify({ name: identity.name, token: identity.token }));
}

/** Forget the saved identity. */
export function forgetIdentity() {
  localStorage.removeItem(KEY);
}
