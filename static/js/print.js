// Printable pages: the Print button (no inline handlers: the Content-Security-Policy
// allows scripts from our own files only).
document.addEventListener("click", function (e) {
  if (e.target.closest("[data-print]")) window.print();
});
