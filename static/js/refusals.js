// A refusal (the server's 4xx answer to an htmx request, marked X-Refusal) is shown next
// to what was sent: in the sending form's refusal slot (made on first use), or in the
// page's #flash region when the request came from outside a form. The form itself is
// never replaced, so what the player typed stays; fields the refusal names are marked,
// and unfolded when they sit in a closed <details>.
(function () {
  function slotFor(elt) {
    var form = elt && (elt.tagName === "FORM" ? elt : elt.closest("form"));
    if (!form) return document.getElementById("flash");
    var slot = form.querySelector(":scope > .refusal-slot");
    if (!slot) {
      slot = document.createElement("div");
      slot.className = "refusal-slot";
      slot.setAttribute("aria-live", "assertive");
      form.prepend(slot);
    }
    return slot;
  }
  document.addEventListener("htmx:beforeSwap", function (e) {
    var xhr = e.detail.xhr;
    if (!xhr || !xhr.getResponseHeader("X-Refusal")) return;
    e.detail.target = slotFor(e.detail.requestConfig ? e.detail.requestConfig.elt : e.detail.elt);
    e.detail.swapOverride = "innerHTML";
    e.detail.shouldSwap = true;
    e.detail.isError = false;
  });
  document.addEventListener("htmx:afterSwap", function (e) {
    var refusal = e.detail.target && e.detail.target.querySelector(".refusal");
    var form = e.detail.target && e.detail.target.closest("form");
    if (!form) return;
    form.querySelectorAll("[aria-invalid]").forEach(function (el) { el.removeAttribute("aria-invalid"); });
    if (!refusal) return;
    (refusal.dataset.fields || "").split(" ").forEach(function (name) {
      if (!name) return;
      form.querySelectorAll('[name="' + name + '"]').forEach(function (el) {
        el.setAttribute("aria-invalid", "true");
        // a field folded away ("More options") is unfolded, so the one named is seen
        for (var fold = el.closest("details"); fold; fold = fold.parentElement.closest("details")) {
          fold.open = true;
        }
      });
    });
    refusal.scrollIntoView({ block: "nearest" });
  });
})();
