// The card editor's live preview: after each pause in typing, the form goes to the preview
// endpoint and the errors (on their field or YAML line), rules text, face and validator
// report come back. Everything is written with textContent: user text is never HTML.
// The YAML box has line numbers beside it; a line with an error is marked there, and each
// error of the list links to its line (the caret moves to it).
(() => {
  "use strict";
  const form = document.querySelector("form[data-preview-url]");
  if (!form) return;
  const url = form.dataset.previewUrl;
  const kind = form.querySelector("[name=kind]");
  const yaml = form.querySelector("[name=document_yaml]");
  const gutter = document.getElementById("yaml-gutter");
  const editor = document.querySelector(".editor");
  const tabs = document.querySelector(".editor-tabs");
  const $ = (id) => document.getElementById(id);
  let timer = null;
  let sequence = 0;
  let errorLines = new Set();

  function showStatsOfKind() {
    form.querySelectorAll(".stat-row").forEach((row) => {
      const input = row.querySelector("[data-kinds]");
      row.hidden = !input || !input.dataset.kinds.split(" ").includes(kind.value);
    });
  }

  // --- the line-numbered YAML box -------------------------------------------------------

  function drawGutter() {
    const count = yaml.value.split("\n").length;
    if (gutter.childElementCount !== count) {
      const numbers = [];
      for (let n = 1; n <= count; n += 1) {
        const span = document.createElement("span");
        span.textContent = String(n);
        numbers.push(span);
      }
      gutter.replaceChildren(...numbers);
    }
    Array.from(gutter.children).forEach((span, i) => {
      span.classList.toggle("error-line", errorLines.has(i + 1));
    });
    gutter.scrollTop = yaml.scrollTop;
  }

  function markLines(lines) {
    errorLines = new Set(lines);
    drawGutter();
  }

  function show(view) {
    editor.dataset.view = view;
    tabs.querySelectorAll("button").forEach((button) => {
      button.setAttribute("aria-pressed", String(button.dataset.show === view));
    });
  }

  function goToLine(line) {
    if (getComputedStyle(form).display === "none") show("form");
    const lines = yaml.value.split("\n");
    const target = Math.min(Math.max(line, 1), lines.length);
    let offset = 0;
    for (let i = 0; i < target - 1; i += 1) offset += lines[i].length + 1;
    yaml.focus();
    yaml.setSelectionRange(offset, offset + lines[target - 1].length);
    const lineHeight = parseFloat(getComputedStyle(yaml).lineHeight) || 20;
    yaml.scrollTop = Math.max(0, (target - 1) * lineHeight - yaml.clientHeight / 3);
    drawGutter();
  }

  function lineLink(line) {
    const link = document.createElement("a");
    link.href = `#${yaml.id}`;
    link.className = "line-link";
    link.dataset.line = String(line);
    link.textContent = `line ${line}`;
    return link;
  }

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a.line-link[data-line]");
    if (!link) return;
    event.preventDefault();
    goToLine(Number(link.dataset.line));
  });

  // --- the preview ----------------------------------------------------------------------

  function fill(list, items) {
    list.replaceChildren(...items.map((text) => {
      const li = document.createElement("li");
      li.textContent = text;
      return li;
    }));
  }

  function errorItem(error) {
    const li = document.createElement("li");
    const path = error.path && !error.field ? `${error.path}: ` : "";
    if (error.line) {
      li.dataset.line = String(error.line);
      li.append(lineLink(error.line), `: ${path}${error.message}`);
    } else {
      li.textContent = (error.field ? `${error.field}: ` : "") + path + error.message;
    }
    return li;
  }

  function render(body) {
    form.querySelectorAll(".form-row.live-error").forEach((row) => {
      row.classList.remove("live-error");
    });
    $("preview-errors").replaceChildren(...body.errors.map(errorItem));
    body.errors.forEach((error) => {
      const row = form.querySelector(`[data-field="${error.field || "document_yaml"}"]`);
      if (row) row.classList.add("live-error");
    });
    markLines(body.errors.filter((e) => e.line).map((e) => e.line));
    const n = body.errors.length;
    $("preview-tab-note").textContent = n ? `(${n} problem${n === 1 ? "" : "s"})` : "";
    const face = $("preview-face");
    const status = $("preview-status");
    if (!body.ok) {
      $("preview-state").textContent = `${n} problem${n === 1 ? "" : "s"} to fix`;
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
    data.delete("photo"); // the proposal form's photo: never sent again with each preview
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
    if (mine !== sequence) return; // an older answer arriving late is dropped
    render(body);
    // The controls (card-controls.js) place errors on their rows and follow YAML edits.
    form.dispatchEvent(new CustomEvent("card-preview", { detail: { body, yamlText: data.get("document_yaml") } }));
  }

  // Nothing lost: once the card is edited, leaving the page (a link, closing the tab,
  // reloading) asks first, until the form is saved or submitted.
  let unsaved = false;
  form.addEventListener("submit", () => {
    unsaved = false;
  });
  window.addEventListener("beforeunload", (event) => {
    if (!unsaved) return;
    event.preventDefault();
    event.returnValue = "";
  });

  form.addEventListener("input", () => {
    unsaved = true;
    drawGutter();
    clearTimeout(timer);
    timer = setTimeout(refresh, 300);
  });
  yaml.addEventListener("scroll", () => {
    gutter.scrollTop = yaml.scrollTop;
  });
  kind.addEventListener("change", showStatsOfKind);
  form.addEventListener("card-refresh", () => {
    unsaved = true;
    clearTimeout(timer);
    refresh();
  });
  tabs.hidden = false;
  tabs.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-show]");
    if (button) show(button.dataset.show);
  });
  showStatsOfKind();
  // Errors the server found on saving are marked on their lines until the first preview.
  markLines(Array.from(document.querySelectorAll("[data-testid=save-errors] li[data-line]"))
    .map((li) => Number(li.dataset.line)));
  // A blank new card says nothing until it is first edited; any other form is checked now.
  if (!("fresh" in form.dataset)) refresh();
})();
