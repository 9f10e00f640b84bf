// The sign-out form of every page (web/base.html) on a shared phone: before the person is signed
// out, the field app's store and the pages its service worker keeps are cleared of what is
// theirs (lock.js). Inspections not sent yet are sent first; those that cannot be (offline,
// or waiting on the person's decision) are counted, and stay only on the person's say:
// locked with their key for them alone, or deleted. Offline, the server cannot be told: the
// device is cleared at once and the sign-out is sent as soon as the connection is back.
import * as store from "./store.js";
import * as lock from "./lock.js";
import { session, sendAll } from "./send.js";

const form = document.querySelector("form.logout[data-field-user]");
const user = form && form.dataset.fieldUser;
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function el(tag, attrs = {}, text = "") {
  const node = Object.assign(document.createElement(tag), attrs);
  if (text) node.textContent = text;
  return node;
}

function dialog() {
  const box = el("dialog", { id: "signout-dialog", className: "padding-3 maxw-mobile-lg" });
  box.setAttribute("aria-labelledby", "signout-heading");
  box.append(el("h2", { id: "signout-heading", className: "margin-top-0" }, "Signing out of this device"),
    el("p", { id: "signout-count" }), el("p", { id: "signout-keep" }),
    el("div", { id: "signout-choices" }), el("p", { id: "signout-status", role: "status" }));
  document.body.append(box);
  return box;
}

function choice(label, action, kind = "usa-button") {
  const button = el("button", { type: "button", className: kind }, label);
  button.addEventListener("click", action);
  const line = el("p");
  line.append(button);
  return line;
}

// Send what waits of this person for the agency they act for, while online; their key is kept
// first, for locking what could not be sent. Returns why sending stopped: "offline",
// "server", "signin" or null (what is left needs the person's decision).
async function sendFirst(app) {
  if (!navigator.onLine) return "offline";
  if (!app.syncUrl) return null;
  try {
    const answer = await session(app.syncUrl);
    if (answer.user === user && answer.key) await lock.keepKey(user, answer.key);
    return (await sendAll(app, () => {})).stopped;
  } catch (error) {
    return navigator.onLine ? "server" : "offline";
  }
}

// Why what stays was not sent, said of one inspection or of several.
const WHY = {
  offline: ["you are offline", "you are offline"],
  server: ["the server could not take it just now", "the server could not take them just now"],
  signin: ["your sign-in had ended", "your sign-in had ended"],
  null: ["it needs your decision in the field app before it can be sent",
    "they need your decision in the field app before they can be sent"],
};

// The device holds nothing of this person's now but, on their say, their locked inspections.
async function signOut(box, locked) {
  if (!locked) await lock.deleteUnsent(user);
  await lock.lockOthers(null);
  await lock.forget({ staticPrefix: form.dataset.static });
  finish(box, locked);
}

// Signed out on the server, at once or as soon as the connection is back.
function finish(box, locked) {
  form.dataset.cleared = "true";
  if (navigator.onLine) {
    form.submit();
    return;
  }
  box = box || dialog();
  box.querySelector("#signout-choices").replaceChildren();
  box.querySelector("#signout-keep").textContent = "";
  box.querySelector("#signout-count").textContent = locked
    ? `${plural(locked, "unsent inspection")} of yours ${locked === 1 ? "stays" : "stay"} on this device, locked for you.`
    : "";
  box.querySelector("#signout-status").textContent = "This device no longer holds your route, your " +
    "inspections sent or the field pages. You are offline: you are signed out as soon as the connection is back.";
  if (!box.open) box.showModal();
  window.addEventListener("online", () => form.submit(), { once: true });
}

async function ask(unsent, stopped) {
  const box = document.getElementById("signout-dialog") || dialog();
  const n = unsent.length;
  const canLock = await lock.hasKey(user);
  const why = WHY[stopped][n === 1 ? 0 : 1];
  box.querySelector("#signout-count").textContent =
    `${plural(n, "unsent inspection")} ${n === 1 ? "stays" : "stay"} on this device: ${why}.`;
  box.querySelector("#signout-keep").textContent = canLock
    ? `Kept, ${n === 1 ? "it is" : "they are"} locked for you: only you, signed in again in this browser, can open and send ${n === 1 ? "it" : "them"}. Nobody else who signs in here sees ${n === 1 ? "it" : "them"}.`
    : `${n === 1 ? "It" : "They"} cannot be locked for you on this device: delete ${n === 1 ? "it" : "them"}, or stay signed in and send ${n === 1 ? "it" : "them"} when you are back online.`;
  box.querySelector("#signout-choices").replaceChildren(
    canLock ? choice(`Sign out, keep ${n === 1 ? "it" : "them"} locked for me`, () => signOut(box, n)) : "",
    choice(`Delete ${plural(n, "unsent inspection")}`, () => signOut(box, 0), "usa-button usa-button--secondary"),
    choice("Stay signed in", () => box.close(), "usa-button usa-button--unstyled"));
  box.querySelector("#signout-status").textContent = "";
  if (!box.open) box.showModal();
}

// Whether the field app's store or the pages its service worker keeps were in this browser
// when the page opened: where neither is (and this page made none), the sign-out goes as any
// form does, at once.
let held = false;

async function holding() {
  if (await store.exists()) return true;
  return !!self.caches && (await caches.keys()).some((name) => name.startsWith("fogkeeper-field-"));
}

if (form) holding().then((yes) => { held = yes; });

async function clearThenSignOut() {
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  try {
    const stopped = await sendFirst({ user, agency: form.dataset.fieldAgency, syncUrl: form.dataset.fieldSync });
    const unsent = await lock.unsentOf(user);
    if (unsent.length) await ask(unsent, stopped);
    else await signOut(null, 0);
  } finally {
    button.disabled = false;
  }
}

function onSubmit(event) {
  if (form.dataset.cleared || !(held || store.isOpen())) return;
  event.preventDefault();
  clearThenSignOut();
}

if (form) form.addEventListener("submit", onSubmit);
