// Sending the inspections kept in the browser (fogkeeper/web/field/sync.py), one at a time,
// each with the id made for it when it was kept: the server stores an id once, so a send
// repeated after a lost answer finds the inspection stored, never stores a second.
import * as store from "./store.js";

export class SignInNeeded extends Error {}

function signInPage(response) {
  return response.type === "opaqueredirect" || (response.redirected && response.url.includes("/accounts/login/"));
}

// A fresh CSRF token, and whose session it is (the page may be older than the session).
export async function session(syncUrl) {
  const response = await fetch(syncUrl, { credentials: "same-origin", redirect: "manual",
                                          headers: { Accept: "application/json" } });
  if (signInPage(response) || response.status === 403 || !response.ok) throw new SignInNeeded();
  return response.json();
}

function body(item) {
  const data = new FormData();
  const { photos, signature, state, messages, changes, current, kept_at, name, agency_name, user, ...rest } = item;
  data.append("inspection", JSON.stringify(rest));
  photos.forEach((photo, i) => data.append("photos", photo, photo.name || `photo-${i + 1}.jpg`));
  if (signature) data.append("signature", signature, "signature.png");
  return data;
}

// One inspection sent: {kind: "stored" | "conflict" | "refused" | "offline" | "server" |
// "signin", answer}.
export async function sendOne(syncUrl, token, item) {
  let response;
  try {
    response = await fetch(syncUrl, {
      method: "POST", body: body(item), credentials: "same-origin", redirect: "manual",
      headers: { "X-CSRFToken": token, Accept: "application/json" },
    });
  } catch (error) {
    return { kind: "offline" };
  }
  if (signInPage(response)) return { kind: "signin" };
  let answer = {};
  try {
    answer = await response.json();
  } catch (error) {
    answer = { messages: [`The server answered ${response.status} ${response.statusText}.`] };
  }
  if (response.ok) return { kind: "stored", answer };
  if (response.status === 409 && answer.status === "conflict") return { kind: "conflict", answer };
  if (response.status === 400 || response.status === 403 || response.status === 404) {
    return { kind: "refused", answer: { messages: answer.messages || [answer.detail || answer.message || `Refused (${response.status}).`] } };
  }
  return { kind: "server", answer };
}

// Send every inspection waiting of this person and agency, in the order kept; stop at the
// first that could not reach the server (it and the rest wait for the next time).
// `progress(text)` is told what happens. Returns {sent, stopped}. One sending at a time in
// the browser: the field page sends when the connection is back while the sign-out sends
// before it clears the device, and a second sending would mark sent after the clearing.
export async function sendAll(app, progress) {
  if (!navigator.locks) return sendWaiting(app, progress);
  return navigator.locks.request("fogkeeper-field-send", () => sendWaiting(app, progress));
}

async function sendWaiting(app, progress) {
  const waiting = (await store.all("queue"))
    .filter((i) => i.state === "waiting" && i.agency === app.agency && i.user === app.user)
    .sort((a, b) => a.kept_at.localeCompare(b.kept_at));
  if (!waiting.length) return { sent: 0, stopped: null };
  let token;
  try {
    token = (await session(app.syncUrl)).csrf;
  } catch (error) {
    return { sent: 0, stopped: error instanceof SignInNeeded ? "signin" : "offline" };
  }
  let sent = 0;
  for (const item of waiting) {
    progress(`Sending ${item.name}, inspection ${item.code}…`);
    const result = await sendOne(app.syncUrl, token, item);
    if (["offline", "server", "signin"].includes(result.kind)) return { sent, stopped: result.kind };
    if (result.kind === "stored") {
      const a = result.answer;
      await store.markSent(item.client_id, {
        client_id: item.client_id, agency: item.agency, user: item.user, name: item.name,
        establishment: item.establishment, code: a.inspection.code, date: a.inspection.date,
        url: a.inspection.url, receipt: a.inspection.receipt, status: a.status,
        receipt_sent_to: a.receipt_sent_to, sent_at: new Date().toISOString(),
      });
      sent += 1;
    } else if (result.kind === "conflict") {
      await store.put("queue", { ...item, state: "conflict", changes: result.answer.changes,
                                 current: { version: result.answer.version, seen: result.answer.seen } });
    } else {
      await store.put("queue", { ...item, state: "refused", messages: result.answer.messages });
    }
  }
  return { sent, stopped: null };
}
