// The projector scrolls by itself: down slowly, a pause at the bottom, back to the top.
// htmx replaces the board every few seconds; the window's scroll position survives it.
(function () {
  var SPEED = 40;       // pixels a second
  var PAUSE = 5000;     // milliseconds at the top and at the bottom
  var pausedUntil = Date.now() + PAUSE;
  var last = null;
  var position = 0;
  function step(now) {
    if (last === null) last = now;
    var elapsed = (now - last) / 1000;
    last = now;
    var room = document.documentElement.scrollHeight - window.innerHeight;
    if (room > 0 && Date.now() > pausedUntil) {
      position += SPEED * elapsed;
      if (position >= room) {
        position = room;
        pausedUntil = Date.now() + PAUSE;
        setTimeout(function () { position = 0; window.scrollTo(0, 0); pausedUntil = Date.now() + PAUSE; }, PAUSE);
      }
      window.scrollTo(0, position);
    }
    window.requestAnimationFrame(step);
  }
  window.requestAnimationFrame(step);
})();
