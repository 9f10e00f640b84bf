// The signature of who signs for the establishment, drawn on a canvas with a finger, a stylus
// or the mouse. One pad for both inspection forms, the online one (records/inspection.html,
// inspection-form.js) and the field app's (field/form.js), so that both send the same PNG,
// which the inspection stores the same way (inspections.services.inspection_record).

// Draw on `canvas` as the pointer moves; `onDraw()` once a stroke has marked it.
export function signaturePad(canvas, onDraw) {
  const ctx = canvas.getContext("2d");
  let drawing = false;
  const point = (e) => {
    const r = canvas.getBoundingClientRect();
    return [(e.clientX - r.left) * canvas.width / r.width,
            (e.clientY - r.top) * canvas.height / r.height];
  };
  canvas.addEventListener("pointerdown", (e) => {
    drawing = true;
    canvas.setPointerCapture(e.pointerId);
    Object.assign(ctx, { lineWidth: 3, lineCap: "round", lineJoin: "round", strokeStyle: "#1b1b1b" });
    ctx.beginPath();
    ctx.moveTo(...point(e));
  });
  canvas.addEventListener("pointermove", (e) => {
    if (!drawing) return;
    ctx.lineTo(...point(e));
    ctx.stroke();
    onDraw();
  });
  for (const end of ["pointerup", "pointercancel"]) canvas.addEventListener(end, () => { drawing = false; });
}

// A blank (white) pad.
export function clearPad(canvas) {
  const ctx = canvas.getContext("2d");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, canvas.width, canvas.height);
}

// What was drawn, as the PNG the inspection stores.
export function padImage(canvas) {
  return new Promise((resolve) => canvas.toBlob(resolve, "image/png"));
}
