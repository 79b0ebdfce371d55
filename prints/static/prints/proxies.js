// The proxy page's live preview: after each change the first sheet is drawn again by the
// server from the same options (the request's address carries them, never the CSRF token).
// A preview that cannot be drawn comes back as JSON reasons, shown as text in a live region
// beside the image; they go as soon as the options draw again.
(() => {
  "use strict";
  const form = document.querySelector("form[data-preview-url]");
  const image = document.getElementById("proxy-preview");
  const status = document.getElementById("proxy-preview-status");
  if (!form || !image || !status) return;
  let timer = null;
  let sequence = 0;

  function say(lines, asErrors) {
    if (!lines.length) {
      status.replaceChildren();
      return;
    }
    if (!asErrors) {
      const p = document.createElement("p");
      p.textContent = lines.join(" ");
      status.replaceChildren(p);
      return;
    }
    const list = document.createElement("ul");
    list.className = "errorlist";
    list.dataset.testid = "proxy-preview-errors";
    list.replaceChildren(...lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
    status.replaceChildren(list);
  }

  function chosen(data) {
    return ["sets", "pack", "query", "cards"].some((name) =>
      data.getAll(name).some((value) => String(value).trim() !== ""));
  }

  function asDataUrl(blob) {
    // The page's Content-Security-Policy allows data: images, not blob: ones.
    return new Promise((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result);
      reader.onerror = () => reject(reader.error);
      reader.readAsDataURL(blob);
    });
  }

  async function refresh() {
    const mine = ++sequence;
    const data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    if (!chosen(data)) {
      image.hidden = true;
      say(["Choose sets, a pack, a query or cards to see the first sheet here."], false);
      return;
    }
    const address = `${form.dataset.previewUrl}?${new URLSearchParams(data).toString()}`;
    say(["Drawing the preview…"], false);
    let lines = null;
    let picture = null;
    try {
      const response = await fetch(address, { credentials: "same-origin" });
      if (response.ok) {
        picture = await asDataUrl(await response.blob());
      } else {
        const body = await response.json().catch(() => ({}));
        lines = body.errors || [`The preview failed (${response.status}).`];
      }
    } catch (error) {
      lines = ["The preview is unavailable; the PDF is still made from these options."];
    }
    if (mine !== sequence) return; // an older answer arriving late is dropped
    if (lines) {
      image.hidden = true;
      say(lines, true);
      return;
    }
    image.dataset.query = address.split("?")[1];
    image.src = picture;
    image.hidden = false;
    say([], false);
  }

  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  });
  form.addEventListener("change", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  });
})();
