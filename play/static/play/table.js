// The table page: follows the game in place and opens cards large.
//
// Following: every few seconds the script asks the API for the seat's state; when it changed,
// it fetches the page's changing regions (the same page with ?fragment=1) and swaps each
// region that differs ([data-region], by name), keeping the scroll position, the log scrolled
// to its end (when it was), the focused button and any card opened large. "Your move" is
// announced politely. Without JavaScript the page still works: reload it by hand.
//
// Cards: each card is a link to its page; a click (or Enter) opens it large in a <dialog>
// (the face at the width of a phone, its rules text, a link to its page), closed by Esc, the
// Close button or a click beside it.
(function () {
  "use strict";
  var table = document.querySelector(".play-table");
  if (!table) {
    return;
  }
  var dialog = document.getElementById("card-dialog");
  var opener = null;

  function scrollLogToEnd() {
    var log = table.querySelector(".game-log");
    if (log) {
      log.scrollTop = log.scrollHeight;
    }
  }

  // ---- The card dialog ----
  function openCard(link) {
    var title = dialog.querySelector("#card-dialog-title");
    var image = dialog.querySelector("img");
    var text = dialog.querySelector(".card-dialog-text");
    var page = dialog.querySelector(".card-dialog-page");
    var face = link.getAttribute("data-card-face");
    var url = link.getAttribute("data-card-url");
    title.textContent = link.getAttribute("data-card-name");
    if (face) {
      image.src = face;
      image.alt = "The face of " + link.getAttribute("data-card-name");
      image.hidden = false;
    } else {
      image.removeAttribute("src");
      image.hidden = true;
    }
    text.textContent = link.getAttribute("data-card-text") || "";
    page.hidden = !url;
    page.href = url || "#";
    dialog.querySelector(".yours-line").hidden = link.getAttribute("data-card-mine") !== "true";
    opener = link;
    dialog.showModal();
    dialog.querySelector(".card-dialog-close").focus();
  }

  if (dialog && typeof dialog.showModal === "function") {
    table.addEventListener("click", function (event) {
      var link = event.target.closest ? event.target.closest("a.card-link") : null;
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) {
        return;
      }
      event.preventDefault();
      openCard(link);
    });
    dialog.querySelector(".card-dialog-close").addEventListener("click", function () {
      dialog.close();
    });
    dialog.addEventListener("click", function (event) {
      if (event.target === dialog) {
        dialog.close(); // a click on the backdrop, beside the card
      }
    });
    dialog.addEventListener("close", function () {
      if (opener && document.body.contains(opener)) {
        opener.focus();
      }
      opener = null;
    });
    table.querySelectorAll("a.card-link").forEach(function (link) {
      link.setAttribute("aria-haspopup", "dialog");
    });
  }

  // ---- Forms: the Gold of the items ticked for sale, and how many cards a pick takes ----
  function goldTotal(form) {
    var total = 0;
    form.querySelectorAll("input[name=pick]:checked").forEach(function (box) {
      total += parseInt(box.getAttribute("data-gold") || "0", 10);
    });
    var hint = form.querySelector(".gold-total");
    if (hint) {
      var levels = Math.floor(total / 1000);
      hint.hidden = total === 0;
      hint.textContent = "Ticked: " + total.toLocaleString("en") + " Gold, worth " + levels +
        (levels === 1 ? " Level." : " Levels.");
    }
  }
  table.addEventListener("change", function (event) {
    var form = event.target.form;
    if (form && event.target.name === "pick") {
      goldTotal(form);
    }
  });
  table.addEventListener("submit", function (event) {
    var form = event.target;
    var least = parseInt(form.getAttribute("data-least") || "0", 10);
    var most = parseInt(form.getAttribute("data-most") || "0", 10);
    if (!form.hasAttribute("data-least")) {
      return;
    }
    var ticked = form.querySelectorAll("input[name=pick]:checked").length;
    var first = form.querySelector("input[name=pick]");
    var wrong = ticked < least || (most > 0 && ticked > most);
    if (wrong && first) {
      var words = least === most ? "exactly " + least : (most > 0 ? least + " to " + most : "at least " + least);
      first.setCustomValidity("Tick " + words + (most === 1 || (least === 1 && most === 0) ? " card." : " cards."));
      first.reportValidity();
      first.setCustomValidity("");
      event.preventDefault();
    }
  });

  // ---- Following the game ----
  function normalized(node) {
    var copy = node.cloneNode(true);
    copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (input) {
      input.remove();
    });
    return node.className + "\n" + copy.innerHTML;
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var x = window.scrollX;
    var y = window.scrollY;
    var log = table.querySelector(".game-log");
    var logAtEnd = !log || log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    var logTop = log ? log.scrollTop : 0;
    var focused = document.activeElement;
    var focusKey = focused && focused.form && focused.form.querySelector("input[name=move]") ?
      focused.form.querySelector("input[name=move]").value + "|" + focused.textContent : null;
    var wasMine = !!table.querySelector(".status.your-move");
    fresh.querySelectorAll("[data-region]").forEach(function (region) {
      var name = region.getAttribute("data-region");
      var here = table.querySelector('[data-region="' + name + '"]');
      if (here && normalized(here) !== normalized(region)) {
        here.className = region.className;
        here.innerHTML = region.innerHTML;
      }
    });
    table.querySelectorAll("a.card-link").forEach(function (link) {
      link.setAttribute("aria-haspopup", "dialog");
    });
    var newLog = table.querySelector(".game-log");
    if (newLog) {
      newLog.scrollTop = logAtEnd ? newLog.scrollHeight : logTop;
    }
    if (focusKey && !document.body.contains(focused)) {
      table.querySelectorAll("form input[name=move]").forEach(function (input) {
        var button = input.form.querySelector("button");
        if (button && input.value + "|" + button.textContent === focusKey) {
          button.focus({ preventScroll: true });
        }
      });
    }
    window.scrollTo(x, y);
    var status = table.querySelector(".status");
    var isMine = !!table.querySelector(".status.your-move");
    var announce = document.getElementById("announce");
    if (announce && isMine && !wasMine) {
      announce.textContent = status ? status.textContent : "Your move";
    }
  }

  var pollUrl = table.getAttribute("data-poll-url");
  var pageUrl = table.getAttribute("data-page-url");
  var made = table.getAttribute("data-moves-made");
  var last = null;
  var busy = false;

  function fragmentUrl() {
    return pageUrl + (pageUrl.indexOf("?") >= 0 ? "&" : "?") + "fragment=1";
  }

  function refresh() {
    return fetch(fragmentUrl(), { credentials: "same-origin" }).then(function (answer) {
      if (answer.status === 204) {
        window.location.assign(pageUrl); // hot seat: the device passes on, behind the cover
        return;
      }
      if (!answer.ok) {
        throw new Error("the table did not answer");
      }
      return answer.text().then(swap);
    });
  }

  function poll() {
    if (busy || document.hidden) {
      window.setTimeout(poll, 3000);
      return;
    }
    busy = true;
    fetch(pollUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.text() : null; })
      .then(function (text) {
        if (text === null) {
          return null;
        }
        var changed = last === null ? String(JSON.parse(text).moves_made) !== made : text !== last;
        last = text;
        return changed ? refresh() : null;
      })
      .then(function () { busy = false; window.setTimeout(poll, 3000); })
      .catch(function () { busy = false; window.setTimeout(poll, 10000); });
  }

  // ---- The time to answer a fight ----
  // The server said how many seconds were left when it drew the page; each second counts one
  // down, and at zero the page says the time is up (the server checks it: an early word is
  // refused and changes nothing).
  var countdownSent = null;
  function countDown() {
    var form = table.querySelector("form.countdown");
    if (form) {
      var shown = form.querySelector(".seconds");
      var left = Math.max(0, parseInt(form.getAttribute("data-seconds-left"), 10) - 1);
      form.setAttribute("data-seconds-left", String(left));
      if (shown) {
        shown.textContent = String(left);
      }
      var key = table.getAttribute("data-moves-made") + "|" + (last || "");
      if (left === 0 && countdownSent !== key && window.fetch) {
        countdownSent = key;
        fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
          .then(function () { return refresh(); })
          .catch(function () { countdownSent = null; });
      }
    }
    window.setTimeout(countDown, 1000);
  }
  window.setTimeout(countDown, 1000);

  scrollLogToEnd();
  table.querySelectorAll(".js-only").forEach(function (node) { node.hidden = false; });
  if (table.hasAttribute("data-follow") && window.fetch && window.DOMParser) {
    window.setTimeout(poll, 3000);
  }
})();
