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
