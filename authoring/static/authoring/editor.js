// The card editor's live preview: after each pause in typing, the form goes to the preview
// endpoint and the errors (on their field or YAML line), rules text, face and validator
// report come back. Everything is written with textContent: user text is never HTML.
(() => {
  "use strict";
  const form = document.querySelector("form[data-preview-url]");
  if (!form) return;
  const url = form.dataset.previewUrl;
  const kind = form.querySelector("[name=kind]");
  const $ = (id) => document.getElementById(id);
  let timer = null;
  let sequence = 0;

  function showStatsOfKind() {
    form.querySelectorAll(".stat-row").forEach((row) => {
      const input = row.querySelector("[data-kinds]");
      row.hidden = !input || !input.dataset.kinds.split(" ").includes(kind.value);
    });
  }

  function fill(list, items) {
    list.replaceChildren(...items.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
  }

  function describe(error) {
    const where = error.line ? `line ${error.line}: ` : error.field ? `${error.field}: ` : "";
    const path = error.path && !error.field ? `${error.path}: ` : "";
    return where + path + error.message;
  }

  function render(body) {
    form.querySelectorAll(".form-row.live-error").forEach((row) => {
      row.classList.remove("live-error");
    });
    fill($("preview-errors"), body.errors.map(describe));
    body.errors.forEach((error) => {
      const row = form.querySelector(`[data-field="${error.field || "document_yaml"}"]`);
      if (row) row.classList.add("live-error");
    });
    const face = $("preview-face");
    const status = $("preview-status");
    if (!body.ok) {
      $("preview-state").textContent =
        `${body.errors.length} problem${body.errors.length === 1 ? "" : "s"} to fix`;
      face.hidden = true;
      fill($("preview-text"), []);
      status.textContent = "not valid";
      status.className = "badge badge-check-fail";
      fill($("preview-messages"), []);
      return;
    }
    $("preview-state").textContent = "The card parses.";
    face.src = body.face;
    face.hidden = false;
    const text = $("preview-text");
    text.replaceChildren(...body.text.map((line) => {
      const p = document.createElement("p");
      p.textContent = line;
      return p;
    }));
    status.textContent = body.report.status;
    status.className = `badge badge-check-${body.report.status}`;
    fill($("preview-messages"), body.report.messages);
  }

  async function refresh() {
    const mine = ++sequence;
    const data = new FormData(form);
    data.delete("art");
    $("preview-state").textContent = "Checking…";
    let body;
    try {
      const response = await fetch(url, {
        method: "POST",
        body: data,
        credentials: "same-origin",
        headers: { "X-CSRFToken": data.get("csrfmiddlewaretoken") },
      });
      body = await response.json();
    } catch (error) {
      $("preview-state").textContent = "The preview is unavailable; saving still checks the card.";
      return;
    }
    if (mine === sequence) render(body); // an older answer arriving late is dropped
  }

  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
  kind.addEventListener("change", showStatsOfKind);
  showStatsOfKind();
  refresh();
})();
