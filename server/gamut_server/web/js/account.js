// People's accounts over HTTP: who is signed in, signing up, in and out, the password.
// The session lives in a cookie the page cannot read; nothing secret is kept here.

/** One call of the JSON API with this browser's session; rejects with the server's sentence. */
export async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
    credentials: "same-origin",
  });
  let answer = {};
  try {
    answer = await response.json();
  } catch {
    // An answer without JSON says only its status.
  }
  if (!response.ok) throw new Error(answer.message ?? `the server answered ${response.status}`);
  return answer;
}

/** The name of the account this browser is signed in to, or null. */
export async function signedInName() {
  try {
    return (await call("GET", "/api/session")).name ?? null;
  } catch {
    return null;
  }
}

/** Make an account and sign in to it; resolves with its name as spelt. */
export async function signUp(name, password) {
  return (await call("POST", "/api/signup", { name, password })).name;
}

/** Sign in; resolves with the account's name as its owner spells it. */
export async function signIn(name, password) {
  return (await call("POST", "/api/login", { name, password })).name;
}

/** Sign this browser's session out. */
export async function signOut() {
  await call("POST", "/api/logout");
}

/** Change the password (the current one proves it is you); other sessions end. */
export async function changePassword(password, newPassword) {
  return (await call("POST", "/api/account/password", { password, new_password: newPassword }))
    .message;
}

/** GET ``path`` as JSON; rejects with the server's sentence. */
export function getJson(path) {
  return call("GET", path);
}

/** POST ``body`` as JSON to ``path``; resolves with the answer, rejects with its sentence. */
export function postJson(path, body) {
  return call("POST", path, body);
}
