// The field app's store in the browser (IndexedDB): the day's route of each agency ("route",
// by agency code), the inspections kept to be sent ("queue", by the id made for each), and
// those sent from this device ("sent"). Photos and signatures are kept as Blobs. A shared
// phone: the key the server gives each person ("keys", by user) and the inspections of a
// person signed out before they could be sent, locked with that key ("locked", lock.js).
export const NAME = "fogkeeper-field";
const STORES = { route: "agency", queue: "client_id", sent: "client_id", keys: "user", locked: "client_id" };
let opened = null;

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function database() {
  if (!opened) {
    const req = indexedDB.open(NAME, 2);
    req.onupgradeneeded = () => {
      for (const [store, keyPath] of Object.entries(STORES)) {
        if (!req.result.objectStoreNames.contains(store)) {
          req.result.createObjectStore(store, { keyPath });
        }
      }
    };
    opened = request(req);
  }
  return opened;
}

function finished(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

async function run(store, mode, action) {
  const db = await database();
  const tx = db.transaction(store, mode);
  const done = finished(tx);
  const result = request(action(tx.objectStore(store)));
  await done;
  return result;
}

export const get = (store, key) => run(store, "readonly", (s) => s.get(key));
export const all = (store) => run(store, "readonly", (s) => s.getAll());
export const put = (store, value) => run(store, "readwrite", (s) => s.put(value));
export const remove = (store, key) => run(store, "readwrite", (s) => s.delete(key));
export const clear = (store) => run(store, "readwrite", (s) => s.clear());

// Whether this page opened the store (the field app, by now, holds something in it).
export const isOpen = () => opened !== null;

// Whether this browser holds the field app's store at all (without making an empty one where
// the browser can say; where it cannot, the store is opened, which makes it).
export async function exists() {
  if (!indexedDB.databases) return true;
  return (await indexedDB.databases()).some((db) => db.name === NAME);
}

// An inspection sent: out of the queue and into the list of those sent, in one transaction.
export async function markSent(clientId, sent) {
  const db = await database();
  const tx = db.transaction(["queue", "sent"], "readwrite");
  tx.objectStore("queue").delete(clientId);
  tx.objectStore("sent").put(sent);
  await finished(tx);
}

// A new id for an inspection, made in the browser (randomUUID needs a secure context:
// https, or localhost).
export function newId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
