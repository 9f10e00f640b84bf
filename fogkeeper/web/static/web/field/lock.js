// A shared phone (fogkeeper/web/field/sync.py gives each person a key of their own): what the
// field app keeps of one person must not be read by the next who signs in on the same browser.
// At sign-out (signout.js), and when the field app opens for someone other than whose data it
// holds (offline.js), the route, the list of inspections sent and the field pages the service
// worker keeps are deleted; the inspections not sent yet are locked with their inspector's key
// (AES-GCM) and the key is deleted, so that only that person, signed in again (the server
// gives the key again), unlocks them. An inspection whose inspector's key is not on the
// device is left as it is: it was kept before this device ever got that key.
import * as store from "./store.js";

const CACHE_PREFIX = "fogkeeper-field-";

function bytes(base64) {
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

// The key the server gave `user` (`session` of send.js), kept in the browser as a key that
// can lock and unlock but not be read back.
export async function keepKey(user, base64) {
  const key = await crypto.subtle.importKey("raw", bytes(base64), "AES-GCM", false, ["encrypt", "decrypt"]);
  await store.put("keys", { user, key });
}

async function encrypt(key, data) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  return { iv, data: await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, data) };
}

const decrypt = (key, part) => crypto.subtle.decrypt({ name: "AES-GCM", iv: part.iv }, key, part.data);

// An inspection kept to be sent, locked: its JSON, then each photo and the signature, each
// encrypted; only whose it is and its agency are left readable (to count them).
async function seal(key, item) {
  const { photos, signature, ...rest } = item;
  const files = [...photos, ...(signature ? [signature] : [])];
  const meta = { ...rest, files: files.map((f) => ({ name: f.name || "", type: f.type })), signed: !!signature };
  const parts = [new TextEncoder().encode(JSON.stringify(meta))];
  for (const file of files) parts.push(new Uint8Array(await file.arrayBuffer()));
  const sealed = [];
  for (const part of parts) sealed.push(await encrypt(key, part));
  return { client_id: item.client_id, user: item.user, agency: item.agency, parts: sealed };
}

async function unseal(key, locked) {
  const [head, ...files] = locked.parts;
  const meta = JSON.parse(new TextDecoder().decode(await decrypt(key, head)));
  const blobs = [];
  for (const [i, part] of files.entries()) {
    const { name, type } = meta.files[i];
    const data = await decrypt(key, part);
    blobs.push(name ? new File([data], name, { type }) : new Blob([data], { type }));
  }
  const { files: _, signed, ...item } = meta;
  return { ...item, photos: signed ? blobs.slice(0, -1) : blobs, signature: signed ? blobs.at(-1) : null };
}

async function keyOf(user) {
  const kept = await store.get("keys", user);
  return kept ? kept.key : null;
}

// Lock the inspections kept to be sent of every person but `except` whose key is on this
// device; then delete those keys. Returns how many were locked.
export async function lockOthers(except = null) {
  let locked = 0;
  for (const item of await store.all("queue")) {
    if (item.user === except) continue;
    const key = await keyOf(item.user);
    if (!key) continue;
    await store.put("locked", await seal(key, item));
    await store.remove("queue", item.client_id);
    locked += 1;
  }
  for (const kept of await store.all("keys")) {
    if (kept.user !== except) await store.remove("keys", kept.user);
  }
  return locked;
}

// Unlock the inspections `user` left locked here, with their key (kept just before, signed
// in): back among those waiting to be sent. Returns how many.
export async function unlockOwn(user) {
  const key = await keyOf(user);
  if (!key) return 0;
  let unlocked = 0;
  for (const locked of await store.all("locked")) {
    if (locked.user !== user) continue;
    try {
      await store.put("queue", await unseal(key, locked));
    } catch (error) {
      continue; // locked with a key this server no longer gives: it stays locked
    }
    await store.remove("locked", locked.client_id);
    unlocked += 1;
  }
  return unlocked;
}

// Everything of the field app's that is not an inspection to send and not `user`'s (no
// user: everyone's): the routes, the list of inspections sent, and the pages the service
// worker keeps, but `keepPath` (its static files hold no record and stay, for the next person
// to work offline). Returns whether anything of another person's was there.
export async function forget({ user = null, staticPrefix, keepPath = null }) {
  let found = false;
  for (const [name, key, whose] of [["route", "agency", (r) => r.route.user], ["sent", "client_id", (s) => s.user]]) {
    for (const row of await store.all(name)) {
      if (user !== null && whose(row) === user) continue;
      found = true;
      await store.remove(name, row[key]);
    }
  }
  if (!found && user !== null) return false;
  if (self.caches) {
    for (const name of await caches.keys()) {
      if (!name.startsWith(CACHE_PREFIX)) continue;
      const cache = await caches.open(name);
      for (const request of await cache.keys()) {
        const path = new URL(request.url).pathname;
        if (!path.startsWith(staticPrefix) && path !== keepPath) await cache.delete(request);
      }
    }
  }
  return found;
}

// What stays of `user`'s after sign-out: their inspections not sent yet, in whatever state.
export async function unsentOf(user) {
  return (await store.all("queue")).filter((i) => i.user === user);
}

export async function deleteUnsent(user) {
  for (const item of await unsentOf(user)) await store.remove("queue", item.client_id);
}

export const hasKey = async (user) => !!(await keyOf(user));
