// The field app's inspection form (offline.html), built from the route kept in the browser:
// the pack's checklist (a tap per item, as on the online form), the depths measured in each
// device with the 25% figure (inspection.js), photos (kept as Blobs), and the signature of
// who signs for the establishment, drawn on a canvas.
import { newId } from "./store.js";
import { clearPad, padImage, signaturePad } from "../signature.js";

const $ = (id) => document.getElementById(id);
let state = null; // {route, fse, draft, photos: [File], signed: bool}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function checkItem(item, i, answer) {
  const name = `item_${i}`;
  const taps = el("div", { class: "taps" });
  for (const [value, label] of [["yes", "Compliant"], ["no", "Not compliant"]]) {
    const id = `f-${name}-${value}`;
    const checked = answer && (answer.compliant === (value === "yes"));
    taps.append(el("input", { type: "radio", name, value, id, checked }),
      el("label", { for: id }, label));
  }
  const noteId = `f-${name}-note`;
  return el("fieldset", { class: "usa-fieldset check", id: `check-${item.item}`,
                          dataset: { item: item.item } },
    el("legend", { class: "usa-legend" }, item.question, " ",
      el("span", { class: "muted" }, `(${item.citation})`)),
    taps,
    el("div", { class: "note" },
      el("label", { class: "usa-label", for: noteId }, `Note (${item.citation})`),
      el("input", { class: "usa-input", id: noteId, maxlength: 500, value: answer?.note || "" })));
}

function deviceBox(device, reading) {
  const box = el("fieldset", { class: "usa-fieldset measure",
                               dataset: { device: device.code, depth: device.design_depth_inches || "",
                                          limit: device.limit || "" } },
    el("legend", { class: "usa-legend" }, `${device.code}: ${device.kind_title}` +
      (device.design_depth_inches ? `, design depth ${device.design_depth_inches} in` : "")));
  for (const [part, what] of [["fog", "FOG"], ["solids", "Solids"]]) {
    const id = `f-${part}-${device.code}`;
    box.append(el("div", { class: "usa-form-group" },
      el("label", { class: "usa-label", for: id }, `${what} depth in ${device.code} (in)`),
      el("input", { class: "usa-input", id, type: "number", min: 0, step: "0.01",
                    inputmode: "decimal", [`data-${part}`]: true,
                    value: reading?.[`${part}_inches`] ?? "" })));
  }
  if (device.design_depth_inches) box.append(el("p", { class: "figure", "aria-live": "polite" }));
  return box;
}

function renderPhotos() {
  const list = $("f-photo-list");
  list.replaceChildren(...state.photos.map((photo, i) => el("li", {},
    `${photo.name || `photo ${i + 1}`} (${Math.max(1, Math.round(photo.size / 1024))} KB) `,
    el("button", { type: "button", class: "usa-button usa-button--unstyled",
                   dataset: { removePhoto: i } }, `Remove ${photo.name || `photo ${i + 1}`}`))));
}

function clearSignature() {
  clearPad($("f-signature"));
  if (state) state.signed = false;
}

// The form's wiring, once: `onKeep(item)` when the inspector keeps it, `onCancel()`.
export function setup({ onKeep, onCancel }) {
  const form = $("inspection-form");
  signaturePad($("f-signature"), () => { state.signed = true; });
  $("f-signature-clear").addEventListener("click", clearSignature);
  $("f-cancel").addEventListener("click", onCancel);
  $("f-photos").addEventListener("change", (e) => {
    state.photos.push(...e.target.files);
    e.target.value = "";
    renderPhotos();
  });
  $("f-photo-list").addEventListener("click", (e) => {
    const i = e.target.dataset.removePhoto;
    if (i === undefined) return;
    state.photos.splice(Number(i), 1);
    renderPhotos();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const problems = check();
    showProblems(problems);
    if (!problems.length) await onKeep(await collect());
  });
}

// Open the form for the establishment `fse` of `route`, empty or with a `draft` kept before.
export async function openForm(route, fse, draft = null) {
  state = { route, fse, draft, photos: [...(draft?.photos || [])], signed: false };
  $("inspection-heading").textContent = `Inspection of ${fse.name} (${fse.code})`;
  const day = draft?.date || route.as_of;
  $("f-code").value = draft?.code || `${fse.code}-${day.replaceAll("-", "")}`;
  $("f-date").value = day;
  $("f-notes").value = draft?.notes || "";
  $("f-signed-by").value = draft?.signed_by || "";
  const answers = Object.fromEntries((draft?.answers || []).map((a) => [a.item, a]));
  $("f-checklist").replaceChildren(...route.checklist.map((item, i) => checkItem(item, i, answers[item.item])));
  const readings = Object.fromEntries((draft?.measurements || []).map((m) => [m.device, m]));
  const boxes = fse.devices.map((d) => deviceBox(d, readings[d.code]));
  $("f-devices").replaceChildren(...(boxes.length ? boxes : [el("p", {}, "No device in service.")]));
  boxes.forEach((box) => window.fogkeeperAccumulationFigure?.(box));
  renderPhotos();
  clearSignature();
  if (draft?.signature) {
    $("f-signature").getContext("2d").drawImage(await createImageBitmap(draft.signature), 0, 0);
    state.signed = true;
  }
  showProblems([]);
  $("inspection").hidden = false;
  $("inspection-heading").scrollIntoView();
}

export function closeForm() {
  $("inspection").hidden = true;
  state = null;
}

function answered() {
  return [...document.querySelectorAll("#f-checklist fieldset.check")].flatMap((box) => {
    const chosen = box.querySelector("input[type=radio]:checked");
    if (!chosen) return [];
    const note = box.querySelector(".note input").value.trim();
    return [{ item: box.dataset.item, compliant: chosen.value === "yes", note }];
  });
}

function measured() {
  return [...document.querySelectorAll("#f-devices fieldset.measure")].flatMap((box) => {
    const fog = box.querySelector("input[data-fog]").value;
    const solids = box.querySelector("input[data-solids]").value;
    if (fog === "" && solids === "") return [];
    return [{ device: box.dataset.device, fog_inches: fog || null, solids_inches: solids || null }];
  });
}

function check() {
  const problems = [];
  if (!$("f-code").value.trim()) problems.push("Give the inspection number.");
  if (!$("f-date").value) problems.push("Give the date of the inspection.");
  if (!answered().length && !measured().length) {
    problems.push("Answer a question of the checklist or measure a device: an inspection records at least one.");
  }
  for (const m of measured()) {
    for (const [part, what] of [["fog_inches", "FOG"], ["solids_inches", "Solids"]]) {
      if (m[part] !== null && Number(m[part]) < 0) problems.push(`${what} depth in ${m.device} cannot be negative.`);
    }
  }
  const name = $("f-signed-by").value.trim();
  if (state.signed && !name) problems.push("Give the name of who signed for the establishment.");
  if (name && !state.signed) problems.push(`${name} is named as signing: have them sign, or clear the name.`);
  return problems;
}

function showProblems(problems) {
  const box = $("f-errors");
  box.replaceChildren();
  if (!problems.length) return;
  box.append(el("div", { class: "usa-alert usa-alert--error usa-alert--slim" },
    el("div", { class: "usa-alert__body" },
      el("ul", { class: "usa-alert__text" }, problems.map((p) => el("li", {}, p))))));
}

function signatureBlob() {
  return state.signed ? padImage($("f-signature")) : Promise.resolve(null);
}

async function collect() {
  const { route, fse, draft } = state;
  return {
    client_id: draft?.client_id || newId(),
    agency: route.agency.code,
    agency_name: route.agency.name,
    user: route.user,
    establishment: fse.code,
    name: fse.name,
    version: draft?.version || fse.version,
    seen: draft?.seen || fse.seen,
    code: $("f-code").value.trim(),
    date: $("f-date").value,
    notes: $("f-notes").value,
    answers: answered(),
    measurements: measured(),
    photos: state.photos,
    signature: await signatureBlob(),
    signed_by: $("f-signed-by").value.trim(),
    state: "waiting",
    messages: [],
    changes: [],
    kept_at: new Date().toISOString(),
  };
}
