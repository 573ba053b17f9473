// Every page the build writes (scripts/lib/prerender.ts) starts the app once the browser has
// painted what the HTML holds (a public page's snapshot, or the loading notice), so a slow phone
// shows it before loading antd's stylesheet and parsing the app's JavaScript.
// The build names on this script's tag the entry, the modules it imports and antd's stylesheet (its parts),
// which must be in place before the app renders: antd's style engine reads it once, at its start.
(function () {
  var tag = document.currentScript;
  var started = false;
  function appendEntry() {
    var entry = document.createElement("script");
    entry.type = "module";
    entry.crossOrigin = "";
    entry.src = tag.getAttribute("data-entry");
    document.head.appendChild(entry);
  }
  // The entry's script evaluates every module it imports in one task (React, antd's base, the
  // router: 30-50 ms on a phone). The build lists its imports with each after those it imports, the
  // order the browser evaluates them in; run one per task in that order, they leave the entry's task
  // only its own code. Where an import fails, the entry's script is left to report it.
  function nextTask(callback) {
    var channel = new MessageChannel();
    channel.port1.onmessage = function () {
      channel.port1.close();
      callback();
    };
    channel.port2.postMessage(null);
  }
  function evaluateInTurns(hrefs, done) {
    if (hrefs.length === 0 || typeof MessageChannel !== "function") return done();
    nextTask(function () {
      var evaluating;
      try {
        evaluating = import(hrefs[0]);
      } catch (error) {
        return done();
      }
      evaluating.then(function () {
        evaluateInTurns(hrefs.slice(1), done);
      }, done);
    });
  }
  function startEntry() {
    evaluateInTurns((tag.getAttribute("data-preload") || "").split(" ").filter(Boolean), appendEntry);
  }
  // Inserting a module preload costs a slow phone's main thread a few milliseconds (its fetch starts
  // there and then): the thirty-odd chunks of a page are asked for a few at a time, each turn its
  // own task, so that none of them keeps the page from answering a tap.
  function preloadInTurns(hrefs, done) {
    hrefs.slice(0, 4).forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.appendChild(link);
    });
    if (hrefs.length > 4) setTimeout(preloadInTurns, 0, hrefs.slice(4), done);
    else done();
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
  // A portal page's own antd sheet (what its first load shows; the page's tag names the sheet of every
  // component): its parts' addresses, separated by spaces.
  function routeStylesheet(found) {
    return found && found.route.length > 3 ? found.preloads.sheets[found.route[3]] : tag.getAttribute("data-stylesheet");
  }
  function start() {
    if (started) return;
    started = true;
    var found = routeOf(window.location.pathname);
    // antd's sheet comes in parts, each parsed in a task of its own (scripts/lib/stylesheet-parts.ts).
    var parts = (routeStylesheet(found) || "").split(" ").filter(Boolean);
    // The entry runs when every part has loaded (or failed: without it antd writes its styles
    // itself) and its own modules are linked.
    var waiting = parts.length + 1;
    function ready() {
      waiting -= 1;
      if (waiting === 0) startEntry();
    }
    // First in the head, in order, where antd's engine puts what it writes.
    var first = document.head.firstChild;
    parts.forEach(function (href) {
      var sheet = document.createElement("link");
      sheet.rel = "stylesheet";
      sheet.href = href;
      sheet.onload = sheet.onerror = ready;
      document.head.insertBefore(sheet, first);
    });
    // The entry and its imports first, then the page's chunks. The app asks for those (src/main.tsx)
    // once all are linked: Vite's preload helper inserts, in one task, every chunk it does not find linked.
    var entryHrefs = [tag.getAttribute("data-entry")].concat((tag.getAttribute("data-preload") || "").split(" "));
    preloadInTurns(entryHrefs.filter(Boolean), function () {
      ready();
      preloadInTurns(routeChunks(found), function () {
        window.__routeChunksLinked = true;
        window.dispatchEvent(new Event("route-chunks-linked"));
      });
    });
  }
  requestAnimationFrame(function () {
    setTimeout(start, 0);
  });
  // A tab opened in the background paints no frame until it is shown: start anyway.
  setTimeout(start, 1000);
})();
