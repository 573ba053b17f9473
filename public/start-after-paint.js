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
  // Inserting a module preload costs a slow phone's main thread a few milliseconds (its fetch starts
  // there and then): the thirty-odd chunks of a page are asked for a few at a time, each turn its
  // own task, so that none of them keeps the page from answering a tap.
  function preloadInTurns(hrefs) {
    hrefs.slice(0, 4).forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
    if (hrefs.length > 4) setTimeout(preloadInTurns, 0, hrefs.slice(4));
  }
  // The chunks this page needs beyond the entry's, which the entry would ask for only once it has run:
  // for a portal page, the portal's code, its frame and the page's own (the build lists them by route,
  // scripts/lib/prerender.ts routePreloads, and the routes in the order the app matches them).
  function matches(pattern, pathname) {
    var source = pattern
      .split("/")
      .map(function (segment) {
        if (segment === "*") return ".*";
        if (segment.charAt(0) === ":") return "[^/]+";
        return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    return new RegExp("^" + source + "/?$", "i").test(pathname);
  }
  // The route a path opens (the first that matches, as in the app), with the build's lists; null for a path no route knows.
  function routeOf(pathname) {
    var element = document.getElementById("route-preloads");
    if (!element) return null;
    var preloads = JSON.parse(element.textContent);
    for (var i = 0; i < preloads.routes.length; i++) {
      var route = preloads.routes[i];
      if (matches(route[0], pathname)) return { preloads: preloads, route: route };
    }
    return null;
  }
  function routeChunks(found) {
    if (!found || found.route.length === 1) return [];
    var lists = [found.preloads.portal, found.route[1] ? found.preloads.frame : "", found.route[2]].join(" ");
    return lists
      .split(" ")
      .filter(Boolean)
      .map(function (index) {
        return found.preloads.files[Number(index)];
      });
  }
  // A portal page's own antd sheet (what its first load shows; the page's tag names the sheet of every component).
  function routeStylesheet(found) {
    return found && found.route.length > 3 ? found.preloads.sheets[found.route[3]] : tag.getAttribute("data-stylesheet");
  }
  function start() {
    if (started) return;
    started = true;
    var found = routeOf(window.location.pathname);
    var href = routeStylesheet(found);
    if (href) {
      var sheet = document.createElement("link");
      sheet.rel = "stylesheet";
      sheet.href = href;
      // Loaded or not, the app starts: without the sheet antd writes its styles itself.
      sheet.onload = sheet.onerror = startEntry;
      // First in the head, where antd's engine puts what it writes.
      document.head.insertBefore(sheet, document.head.firstChild);
    }
    preloadInTurns((tag.getAttribute("data-preload") || "").split(" ").filter(Boolean).concat(routeChunks(found)));
    if (!href) startEntry();
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  // A tab opened in the background paints no frame until it is shown: start anyway.
  setTimeout(start, 1000);
})();
