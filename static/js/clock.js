// Round clocks count down here, between polls. The polled partials are answered with a
// 304 while nothing they show changes (ginclub/http.py), and the browser then gives htmx
// the copy it already holds, whose "m:ss" was right when it was rendered: each
// [data-ends-at] is set again every second and after every swap. The phone's own clock
// may be off; the page as loaded says the server's time (data-rendered-at), once.
(function () {
  var offset = null; // server time minus this device's time, in milliseconds
  function tick() {
    var clocks = document.querySelectorAll("[data-ends-at]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      var ends = Number(el.getAttribute("data-ends-at")) * 1000;
      if (!ends) continue;
      if (offset === null) {
        var rendered = Number(el.getAttribute("data-rendered-at")) * 1000;
        offset = rendered ? rendered - Date.now() : 0;
      }
      var left = Math.max(0, Math.floor((ends - (Date.now() + offset)) / 1000));
      var seconds = left % 60;
      el.textContent = Math.floor(left / 60) + ":" + (seconds < 10 ? "0" : "") + seconds;
    }
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
