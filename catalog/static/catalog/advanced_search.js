// Shows the search the advanced form writes while it is filled in. The query is written by
// the server (the same code that answers the form), asked for with ?preview=1; this script
// only displays it, so the page and the search it lands on never disagree.
(function () {
  "use strict";
  const form = document.querySelector("form.advanced-search");
  const output = document.getElementById("built-query");
  if (!form || !output) return;
  let pending = null;
  let asked = 0;

  function refresh() {
    const params = new URLSearchParams(new FormData(form));
    params.set("preview", "1");
    const ask = ++asked;
    fetch(form.dataset.preview + "?" + params.toString(), { headers: { Accept: "application/json" } })
      .then((response) => response.json())
      .then((answer) => {
        if (ask !== asked) return; // an older answer arriving late
        const problems = Object.values(answer.errors || {}).flat();
        output.textContent = answer.query || (problems.length ? problems.join(" ") : "");
        output.classList.toggle("has-errors", !answer.query && problems.length > 0);
      })
      .catch(() => {});
  }

  function later() {
    clearTimeout(pending);
    pending = setTimeout(refresh, 250);
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
