// Pages the build rendered into their HTML (scripts/lib/prerender.ts) start the app once the
// browser has painted that page, so a slow phone shows it before parsing the app's JavaScript.
// The entry and the modules it imports are named on this script's tag by the build.
(function () {
  var tag = document.currentScript;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    (tag.getAttribute("data-preload") || "").split(" ").forEach(function (href) {
      if (!href) return;
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
    var entry = document.createElement("script");
    entry.type = "module";
    entry.crossOrigin = "";
    entry.src = tag.getAttribute("data-entry");
    document.head.appendChild(entry);
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  // A tab opened in the background paints no frame until it is shown: start anyway.
  setTimeout(start, 1000);
})();
