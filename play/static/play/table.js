// The table follows the game: while the page waits for another seat, it asks the API every
// few seconds how many moves were made, and reloads when that changes. Without JavaScript the
// page still works: reload it by hand.
(function () {
  "use strict";
  var table = document.querySelector(".play-table[data-waiting]");
  if (!table || !window.fetch) {
    return;
  }
  var url = table.getAttribute("data-poll-url");
  var made = table.getAttribute("data-moves-made");
  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (state) {
        if (state && String(state.moves_made) !== made) {
          window.location.reload();
        } else {
          window.setTimeout(poll, 3000);
        }
      })
      .catch(function () { window.setTimeout(poll, 10000); });
  }
  window.setTimeout(poll, 3000);
})();
