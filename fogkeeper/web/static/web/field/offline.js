// The field app (fogkeeper/web/field/app.py, templates/web/field/offline.html): the day's route
// downloaded while online and kept in the browser, the inspection form that works without a
// network, the inspections kept to be sent with their count, and the sending, by hand or as
// soon as the browser is back online. A conflict or a refusal is shown for the inspector to
// decide; nothing is sent again silently against a record that changed.
import * as store from "./store.js";
import * as lock from "./lock.js";
import { el, setup, openForm, closeForm } from "./form.js";
import { session, sendAll } from "./send.js";

const $ = (id) => document.getElementById(id);
const root = $("field-app");
const app = {
  agency: root.dataset.agency,
  user: root.dataset.user,
  routeUrl: root.dataset.routeUrl,
  syncUrl: root.dataset.syncUrl,
  mayInspect: root.dataset.mayInspect === "true",
};
let route = null;
let sending = false;

const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const when = (iso) => new Date(iso).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
const say = (text) => { $("send-status").textContent = text; };
const sentence = (text) => (/[.?!]$/.test(text) ? text : `${text}.`);

function connection() {
  const online = navigator.onLine;
  $("connection").classList.toggle("usa-alert--warning", !online);
  $("connection").classList.toggle("usa-alert--info", online);
  $("connection-text").textContent = online
    ? "Online: an inspection kept here is sent at once."
    : "Offline: what you record is kept on this device and sent when you are back online.";
}

// -- the route ---------------------------------------------------------------------------

// Whether `fse` was inspected on the route's day: by the server (route.py), or here, kept to
// send or sent. In words, or null.
function doneToday(fse, kept, sent) {
  const day = route.as_of;
  const mine = (i) => i.establishment === fse.code && i.date === day && i.user === app.user;
  const waiting = kept.find(mine);
  if (waiting) return `Inspected today: inspection ${waiting.code}, waiting to be sent.`;
  const out = sent.find(mine);
  if (out) return `Inspected today: inspection ${out.code}, sent.`;
  return fse.done_today ? `Inspected today: inspection ${fse.done_today}, stored.` : null;
}

function doneStop(fse, done) {
  return el("li", { class: "stop done", id: `stop-${fse.code}` },
    el("h3", {}, fse.name, " ", el("span", { class: "muted" }, `(${fse.code})`), " ",
      el("span", { class: "usa-tag bg-green" }, "Done today")),
    el("p", {}, [fse.address, fse.city].filter(Boolean).join(", ")),
    el("p", {}, done));
}

function stop(fse) {
  const last = fse.last_inspection;
  const failed = last && last.failed.map((f) => f.question + (f.device ? ` (${f.device})` : ""));
  return el("li", { class: "stop", id: `stop-${fse.code}` },
    el("h3", {}, fse.name, " ", el("span", { class: "muted" }, `(${fse.code})`)),
    el("p", {}, [fse.address, fse.city].filter(Boolean).join(", ") +
      (fse.operator ? `; operated by ${fse.operator}` : "")),
    el("p", {}, `${fse.obligation || "Inspection"} due ${fse.due}` + (fse.citation ? ` (${fse.citation})` : "")),
    fse.findings.length
      ? el("details", {}, el("summary", {}, plural(fse.findings.length, "open finding")),
          el("ul", {}, fse.findings.map((f) => el("li", {}, `${f.title} (${f.citation}), since ${f.since}`))))
      : el("p", {}, "No open finding."),
    el("p", {}, last
      ? `Last inspection ${last.code} on ${last.date}: ` +
        (failed.length ? sentence(`not compliant: ${failed.join("; ")}`) : "nothing found out of compliance.")
      : "Never inspected."),
    app.mayInspect
      ? el("button", { type: "button", class: "usa-button", dataset: { inspect: fse.code } }, `Inspect ${fse.name}`)
      : null);
}

async function renderRoute() {
  if (!route) {
    $("route-status").textContent = "No route on this device yet: download it while you have a connection.";
    $("route-stops").replaceChildren();
    return;
  }
  const [kept, sent] = await Promise.all([store.all("queue"), store.all("sent")]);
  const stops = route.establishments.map((fse) => {
    const done = doneToday(fse, kept, sent);
    return done ? doneStop(fse, done) : stop(fse);
  });
  const n = route.establishments.length;
  const done = stops.filter((li) => li.classList.contains("done")).length;
  $("route-status").textContent = `Route of ${route.as_of} downloaded ${when(route.downloaded_at)}: ` +
    plural(n, "establishment") + (route.due > n ? ` (the riskiest ${n} of ${route.due} due)` : "") +
    (done ? `, ${done} done today` : "") + ".";
  $("route-stops").replaceChildren(...stops);
}

async function loadRoute() {
  const kept = await store.get("route", app.agency);
  route = kept && kept.route.user === app.user ? kept.route : null;
  await renderRoute();
}

// A shared phone (lock.js): what another person left here is neither shown nor kept readable;
// online, this person's key is kept and what they left locked here is unlocked, to be sent.
async function ownData() {
  await lock.lockOthers(app.user);
  await lock.forget({ user: app.user, staticPrefix: root.dataset.static, keepPath: location.pathname });
  if (!navigator.onLine || !app.mayInspect) return;
  try {
    const answer = await session(app.syncUrl);
    if (answer.user !== app.user || !answer.key) return;
    await lock.keepKey(app.user, answer.key);
    await lock.unlockOwn(app.user);
  } catch (error) {
    // signed out meanwhile, or no connection after all: what is locked stays locked
  }
}

async function downloadRoute() {
  $("route-status").textContent = "Downloading the route…";
  try {
    const response = await fetch(app.routeUrl, { credentials: "same-origin", redirect: "manual" });
    if (!response.ok) throw new Error(`${response.status}`);
    const fresh = await response.json();
    await store.put("route", { agency: fresh.agency.code, route: fresh });
    route = fresh;
    await renderRoute();
  } catch (error) {
    $("route-status").textContent = navigator.onLine
      ? "The route could not be downloaded: sign in again if asked, then download it again."
      : "Offline: the route is downloaded while you have a connection.";
  }
}

// -- the inspections kept to be sent -----------------------------------------------------

const STATES = {
  waiting: "waiting to be sent",
  refused: "refused, nothing stored",
  conflict: "the establishment changed since the route was downloaded, nothing stored",
};

function button(label, data, outline = true) {
  return el("button", { type: "button", class: outline ? "usa-button usa-button--outline" : "usa-button", dataset: data }, label);
}

function queued(item) {
  const photos = plural(item.photos.length, "photo");
  const signed = item.signature ? `, signed by ${item.signed_by}` : "";
  const ref = `inspection ${item.code}`;
  return el("li", { class: `queued ${item.state}`, id: `queued-${item.client_id}` },
    el("p", {}, el("strong", {}, `${item.name} (${item.establishment})`),
      `, ${ref} of ${item.date}, ${photos}${signed}: ${STATES[item.state]}.`),
    item.state === "refused" ? el("ul", { class: "messages" }, item.messages.map((m) => el("li", {}, m))) : null,
    item.state === "conflict" ? [
      el("p", {}, "What changed:"),
      el("ul", { class: "changes" }, item.changes.map((c) => el("li", {}, c))),
      button(`Send ${ref} against the record as it is now`, { resend: item.client_id }, false),
    ] : null,
    item.state !== "waiting" ? [
      button(`Edit ${ref}`, { edit: item.client_id }),
      button(`Discard ${ref}`, { discard: item.client_id }),
    ] : null);
}

function sentRow(s) {
  const how = s.status === "already stored" ? "stored (it had reached the server before)" : "stored";
  return el("li", {}, el("strong", {}, `${s.name} (${s.establishment})`), `, inspection ${s.code} of ${s.date}: ${how}. `,
    el("a", { href: s.url }, `Inspection ${s.code}`), " · ",
    el("a", { href: s.receipt }, `Receipt of ${s.code} (PDF)`),
    s.receipt_sent_to ? `; receipt emailed to ${s.receipt_sent_to}.` : "");
}

async function renderQueue() {
  const items = (await store.all("queue")).filter((i) => i.agency === app.agency)
    .sort((a, b) => a.kept_at.localeCompare(b.kept_at));
  const mine = items.filter((i) => i.user === app.user);
  const locked = (await store.all("locked")).filter((i) => i.agency === app.agency);
  const others = items.length - mine.length + locked.filter((i) => i.user !== app.user).length;
  const lockedMine = locked.length - locked.filter((i) => i.user !== app.user).length;
  const attention = mine.filter((i) => i.state !== "waiting").length;
  $("queue-count").textContent = (mine.length
    ? `${plural(mine.length, "inspection")} waiting to be sent` +
      (attention ? `, ${attention} of them needing your decision` : "") + "."
    : "No inspection waiting to be sent.") +
    (lockedMine ? ` ${plural(lockedMine, "inspection")} of yours locked on this device: open this page online to unlock and send.` : "") +
    (others ? ` ${plural(others, "inspection")} kept here by another person, locked: only they can send them.` : "");
  $("queue").replaceChildren(...mine.map(queued));
  const sent = (await store.all("sent")).filter((s) => s.agency === app.agency && s.user === app.user)
    .sort((a, b) => b.sent_at.localeCompare(a.sent_at)).slice(0, 20);
  $("sent").replaceChildren(...(sent.length ? sent.map(sentRow) : [el("li", {}, "None yet.")]));
  await renderRoute();
}

const STOPPED = {
  offline: "The connection was lost: what was not sent is kept on this device and sent when you are back online.",
  server: "The server could not take them just now; they are kept on this device. Send them again in a moment.",
  signin: "Your sign-in has ended: sign in again in this browser, then send them. They are kept on this device.",
};

async function send() {
  if (sending || !app.mayInspect) return;
  if (!navigator.onLine) { say(STOPPED.offline); return; }
  sending = true;
  $("send-now").disabled = true;
  try {
    const result = await sendAll(app, say);
    await renderQueue();
    const attention = document.querySelectorAll("#queue .queued:not(.waiting)").length;
    const sent = result.sent ? `${plural(result.sent, "inspection")} sent.` : "Nothing sent.";
    const decide = attention ? ` ${plural(attention, "inspection")} not stored: your decision is needed, below.` : "";
    say(result.stopped ? STOPPED[result.stopped] : sent + decide);
  } finally {
    sending = false;
    $("send-now").disabled = false;
  }
}

// -- the page's wiring -------------------------------------------------------------------

// Once the service worker (register.js) is active, this page opens without a network.
async function workerReady() {
  if (!("serviceWorker" in navigator)) {
    $("offline-ready").textContent = "This browser cannot keep this page for use offline.";
    return;
  }
  const worker = (await navigator.serviceWorker.ready).active;
  if (worker.state !== "activated") {
    await new Promise((resolve) => worker.addEventListener("statechange", () => {
      if (worker.state === "activated") resolve();
    }));
  }
  root.dataset.offline = "ready";
  $("offline-ready").textContent = "This page is kept on this device: it opens without a connection.";
}

function establishmentOf(item) {
  const found = route && route.establishments.find((f) => f.code === item.establishment);
  if (found) return found;
  const devices = Object.entries(item.seen.devices || {}).filter(([, d]) => !d.removed_on)
    .map(([code, d]) => ({ code, kind_title: d.kind, design_depth_inches: d.design_depth_inches, limit: null }));
  return { code: item.establishment, name: item.name, devices, version: item.version, seen: item.seen };
}

async function onQueueClick(event) {
  const data = event.target.dataset;
  const id = data.resend || data.edit || data.discard;
  if (!id) return;
  const item = await store.get("queue", id);
  if (!item) return;
  if (data.resend) {
    await store.put("queue", { ...item, state: "waiting", version: item.current.version, seen: item.current.seen,
                               changes: [], current: null });
    await renderQueue();
    await send();
  } else if (data.edit) {
    if (!route) { say("Download the route again to edit it: its checklist is needed."); return; }
    await openForm(route, establishmentOf(item), item);
  } else if (window.confirm(`Discard inspection ${item.code} of ${item.name}? It was not stored and will be lost.`)) {
    await store.remove("queue", id);
    await renderQueue();
  }
}

async function keep(item) {
  await store.put("queue", item);
  closeForm();
  await renderQueue();
  say(`Kept: ${item.name}, inspection ${item.code}.` + (navigator.onLine ? "" : " It is sent when you are back online."));
  $("queue-heading").scrollIntoView();
  await send();
}

function start() {
  connection();
  window.addEventListener("online", () => { connection(); send(); });
  window.addEventListener("offline", connection);
  $("route-download").addEventListener("click", downloadRoute);
  $("send-now").addEventListener("click", send);
  $("queue").addEventListener("click", onQueueClick);
  $("route-stops").addEventListener("click", (event) => {
    const code = event.target.dataset.inspect;
    const fse = code && route.establishments.find((f) => f.code === code);
    if (fse) openForm(route, fse);
  });
  if (app.mayInspect) setup({ onKeep: keep, onCancel: closeForm });
  workerReady();
  ownData().then(loadRoute).then(renderQueue).then(() => {
    root.dataset.ready = "true";
    if (navigator.onLine) send();
  });
}

start();
