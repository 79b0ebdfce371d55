// The proxy page's live preview: after each change, the first sheet is drawn again by the
// server from the same options (the image's address carries them).
(() => {
  "use strict";
  const form = document.querySelector("form[data-preview-url]");
  const image = document.getElementById("proxy-preview");
  if (!form || !image) return;
  let timer = null;
  const refresh = () => {
    const data = new FormData(form);
    data.delete("csrfmiddlewaretoken");
    image.src = `${form.dataset.previewUrl}?${new URLSearchParams(data).toString()}`;
  };
  form.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 400);
  });
  form.addEventListener("change", () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 150);
  });
})();
