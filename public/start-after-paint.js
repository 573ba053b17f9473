// Every page the build writes (scripts/lib/prerender.ts) starts the app once the browser has
// painted what the HTML holds (a public page's snapshot, or the loading notice), so a slow phone
// shows it before loading antd's stylesheet and parsing the app's JavaScript.
// The build names on this script's tag the entry, the modules it imports and antd's stylesheet,
// which must be in place before the app renders: antd's style engine reads it once, at its start.
(function () {
  var tag = document.currentScript;
  var started = false;
  function startEntry() {
    var entry = document.createElement("script");
    entry.type = "module";
    entry.crossOrigin = "";
    entry.src = tag.getAttribute("data-entry");
    document.head.appendChild(entry);
  }
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
    var href = tag.getAttribute("data-stylesheet");
    if (!href) return startEntry();
    var sheet = document.createElement("link");
    sheet.rel = "stylesheet";
    sheet.href = href;
    // Loaded or not, the app starts: without the sheet antd writes its styles itself.
    sheet.onload = sheet.onerror = startEntry;
    // First in the head, where antd's engine puts what it writes.
    document.head.insertBefore(sheet, document.head.firstChild);
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  // A tab opened in the background paints no frame until it is shown: start anyway.
  setTimeout(start, 1000);
})();
