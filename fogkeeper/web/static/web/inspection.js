// The 25% rule as the inspector types: (fog + solids) / design depth, against the pack's limit.
// Each fieldset.measure of the page at load; the field app (field/form.js) calls
// window.fogkeeperAccumulationFigure for the ones it builds.
"use strict";
function accumulationFigure(box) {
  const out = box.querySelector(".figure");
  const depth = parseFloat(box.dataset.depth);
  const limit = parseFloat(box.dataset.limit);
  if (!out || !(depth > 0)) return;
  const fog = box.querySelector("input[data-fog]");
  const solids = box.querySelector("input[data-solids]");
  const show = () => {
    const f = parseFloat(fog.value), s = parseFloat(solids.value);
    if (Number.isNaN(f) && Number.isNaN(s)) { out.textContent = ""; return; }
    const total = (Number.isNaN(f) ? 0 : f) + (Number.isNaN(s) ? 0 : s);
    const share = total / depth;
    const pct = Math.round(share * 1000) / 10;
    const limited = !Number.isNaN(limit);  // no limit for this kind of device in the pack
    const over = limited && share > limit + 1e-9;
    out.textContent = `(fog+solids)/design depth = ${pct}%` +
      (limited ? ` (limit ${Math.round(limit * 100)}%)` : "") + (over ? ": over the limit" : "");
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
