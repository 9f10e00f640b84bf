// The online inspection form's signature box (records/inspection.html): the pad the field app
// uses (signature.js); when the form is sent, what was drawn goes as its `signature` file, the
// image the field app sends, so the two forms store a signature alike.
import { clearPad, padImage, signaturePad } from "./signature.js";

document.addEventListener("DOMContentLoaded", () => {
  const canvas = document.getElementById("signature-pad");
  const input = document.getElementById("id_signature");
  if (!canvas || !input) return;
  const form = canvas.closest("form");
  let signed = false;
  clearPad(canvas);
  signaturePad(canvas, () => { signed = true; });
  document.getElementById("signature-clear").addEventListener("click", () => {
    clearPad(canvas);
    signed = false;
  });
  form.addEventListener("submit", async (e) => {
    if (!signed || input.files.length) return;
    e.preventDefault();
    const files = new DataTransfer();
    files.items.add(new File([await padImage(canvas)], "signature.png", { type: "image/png" }));
    input.files = files.files;
    form.submit();
  });
});
