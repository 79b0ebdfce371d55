// The header's menu button on phones. Without this script the button stays hidden and the
// links stay open, so the site works without JavaScript.
(function () {
  "use strict";
  var button = document.querySelector(".menu-button");
  var menu = document.getElementById("site-menu");
  if (!button || !menu) { return; }
  document.documentElement.classList.add("has-menu-button");
  button.hidden = false;
  button.addEventListener("click", function () {
    var open = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", open ? "true" : "false");
    menu.classList.toggle("is-open", open);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && button.getAttribute("aria-expanded") === "true") {
      button.setAttribute("aria-expanded", "false");
      menu.classList.remove("is-open");
      button.focus();
    }
  });
})();

// The header's search box suggests card names as the player types (GET
// /api/cards/autocomplete/), as an ARIA combobox: arrows move through the names, Enter or a tap
// on one searches that exact name, Escape closes the list, and Enter with no name chosen runs
// the query as typed. A query written in the search syntax (t:monster, lvl>=10...) is left
// alone. Without this script the box is the plain search form.
(function () {
  "use strict";
  var input = document.getElementById("site-search");
  var form = input && input.form;
  if (!input || !form || !window.fetch) { return; }
  var SYNTAX = /[:<>=!"()]/;
  var list = document.createElement("ul");
  list.id = "site-search-names";
  list.className = "name-suggestions";
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-label", "Card names");
  list.hidden = true;
  var status = document.createElement("p");
  status.className = "visually-hidden";
  status.setAttribute("role", "status");
  form.appendChild(list);
  form.appendChild(status);
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-autocomplete", "list");
  input.setAttribute("aria-controls", list.id);
  input.setAttribute("aria-expanded", "false");
  input.setAttribute("autocomplete", "off");

  var active = -1;
  var asked = 0;
  var timer = null;

  function options() { return list.querySelectorAll("[role=option]"); }

  function close() {
    list.hidden = true;
    active = -1;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function highlight(index) {
    var all = options();
    if (!all.length) { return; }
    active = (index + all.length) % all.length;
    for (var i = 0; i < all.length; i++) {
      all[i].setAttribute("aria-selected", i === active ? "true" : "false");
    }
    input.setAttribute("aria-activedescendant", all[active].id);
    all[active].scrollIntoView({block: "nearest"});
  }

  function choose(name) {
    input.value = '!"' + name + '"';
    close();
    form.requestSubmit ? form.requestSubmit() : form.submit();
  }

  function show(names) {
    list.textContent = "";
    names.forEach(function (name, i) {
      var option = document.createElement("li");
      option.id = "site-search-name-" + i;
      option.setAttribute("role", "option");
      option.setAttribute("aria-selected", "false");
      option.textContent = name;
      // mousedown, not click: the box must not lose focus (and close the list) first.
      option.addEventListener("mousedown", function (event) {
        event.preventDefault();
        choose(name);
      });
      list.appendChild(option);
    });
    active = -1;
    input.removeAttribute("aria-activedescendant");
    list.hidden = names.length === 0;
    input.setAttribute("aria-expanded", names.length ? "true" : "false");
    status.textContent = names.length ? names.length + " card names suggested" : "";
  }

  function suggest() {
    var text = input.value.trim();
    if (text.length < 2 || SYNTAX.test(text)) { show([]); return; }
    var mine = ++asked;
    fetch("/api/cards/autocomplete/?q=" + encodeURIComponent(text), {
      headers: {Accept: "application/json"}, credentials: "same-origin"
    }).then(function (response) {
      return response.ok ? response.json() : {data: []};
    }).then(function (body) {
      if (mine === asked && document.activeElement === input) { show(body.data || []); }
    }).catch(function () { /* no suggestions: the search itself still works */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(suggest, 120);
  });
  input.addEventListener("keydown", function (event) {
    var open = !list.hidden;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (open) { highlight(active + 1); } else { suggest(); }
    } else if (event.key === "ArrowUp" && open) {
      event.preventDefault();
      highlight(active - 1);
    } else if (event.key === "Enter" && open && active >= 0) {
      event.preventDefault();
      choose(options()[active].textContent);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close();
    }
  });
  input.addEventListener("blur", close);
})();

// A link to a part of the page folded away in a closed <details> (the card page's verdict
// links to the rules engine's report) opens it first, in browsers that do not on their own.
(function () {
  "use strict";
  function reveal(id) {
    var target = id && document.getElementById(id);
    var fold = target && target.closest("details:not([open])");
    while (fold) {
      fold.open = true;
      fold = fold.parentElement && fold.parentElement.closest("details:not([open])");
    }
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) { reveal(decodeURIComponent(link.getAttribute("href").slice(1))); }
  });
  reveal(decodeURIComponent(window.location.hash.slice(1)));
})();
