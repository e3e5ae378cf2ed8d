// The correction page: a new preview request first empties the old preview (and the
// form's last refusal), and so does a change to the form after a preview, which leaves
// a note to preview again in its place: an Apply button never outlives the values it was
// shown for (it applies what was previewed, not what the form says since).
(function () {
  function empty(form) {
    var shown = document.querySelector(form.dataset.clears);
    if (shown) shown.innerHTML = "";
    var slot = form.querySelector(":scope > .refusal-slot");
    if (slot) slot.innerHTML = "";
    return shown;
  }
  document.addEventListener("htmx:beforeRequest", function (e) {
    var form = e.detail.elt;
    if (!form || !form.dataset || !form.dataset.clears) return;
    empty(form);
  });
  document.addEventListener("input", function (e) {
    var form = e.target && e.target.form;
    if (!form || !form.dataset || !form.dataset.clears) return;
    var shown = document.querySelector(form.dataset.clears);
    if (!shown || !shown.querySelector("[data-testid=apply]")) return;
    empty(form);
    var note = document.getElementById("preview-stale");
    if (note) shown.appendChild(note.content.cloneNode(true));
  });
})();
