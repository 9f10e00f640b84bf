// The accumulation limit in words as the inspector types: "13 of 48 inches: 27.1%, over the
// 25% limit" against the pack's limit, and before the form is sent, what the server would
// refuse: "60 inches is more than the 48-inch depth of GI-1", a negative depth.
// Each fieldset.measure of the page at load; the field app (field/form.js) calls
// window.fogkeeperAccumulationFigure for the ones it builds.
"use strict";
function inches(n) {
  return String(Math.round(n * 100) / 100);  // 48.00 as 48, 12.50 as 12.5
}
function accumulationWords(fog, solids, depth, limit, device) {
  if (fog < 0 || solids < 0) {
    const what = fog < 0 ? "FOG" : "Solids";
    return { text: `${what} depth in ${device} cannot be negative: give 0 or more.`, over: true };
  }
  const total = (Number.isNaN(fog) ? 0 : fog) + (Number.isNaN(solids) ? 0 : solids);
  if (total > depth + 1e-9) {
    return {
      text: `${inches(total)} inches is more than the ${inches(depth)}-inch depth of ${device}: ` +
        "check the readings.",
      over: true,
    };
  }
  const share = total / depth;
  const pct = Math.round(share * 1000) / 10;
  let text = `${inches(total)} of ${inches(depth)} inches: ${pct}%`;
  const over = !Number.isNaN(limit) && share > limit + 1e-9;  // NaN: no limit for this kind
  if (!Number.isNaN(limit)) text += `, ${over ? "over" : "within"} the ${Math.round(limit * 100)}% limit`;
  return { text, over };
}
function accumulationFigure(box) {
  const out = box.querySelector(".figure");
  const depth = parseFloat(box.dataset.depth);
  const limit = parseFloat(box.dataset.limit);
  if (!out || !(depth > 0)) return;
  const fog = box.querySelector("input[data-fog]");
  const solids = box.querySelector("input[data-solids]");
  const device = box.dataset.device || fog.dataset.device || "the device";
  const show = () => {
    const f = parseFloat(fog.value), s = parseFloat(solids.value);
    if (Number.isNaN(f) && Number.isNaN(s)) { out.textContent = ""; out.classList.remove("over"); return; }
    const { text, over } = accumulationWords(f, s, depth, limit, device);
    out.textContent = text;
    out.classList.toggle("over", over);
  };
  fog.addEventListener("input", show);
  solids.addEventListener("input", show);
  show();
}
window.fogkeeperAccumulationFigure = accumulationFigure;
document.addEventListener("DOMContentLoaded", () => {
  for (const box of document.querySelectorAll("fieldset.measure")) accumulationFigure(box);
});
