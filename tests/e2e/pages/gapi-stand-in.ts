import type { BrowserContext } from "@playwright/test";

/**
 * Google's `https://apis.google.com/js/api.js`, which both the identity SDK (to embed its helper
 * frame for popup and redirect sign-ins) and the Auth emulator's helper frame load from the
 * internet. The machines that run our tests have no internet, so the browser gets this stand-in of
 * the one part they use, `gapi.iframes`: a parent opens a frame and both sides `register` handlers
 * and `send` messages to each other (over postMessage, queued until the other side registered).
 * Everything else of the flow is real: the SDK, the emulator's account page and its sign-in.
 */
const SCRIPT = String.raw`(function () {
  var TAG = "gapi-stand-in";
  function channel(target, isReady) {
    var handlers = {}, queued = {}, waiting = {}, seq = 0, readyCallbacks = [], ready = isReady;
    window.addEventListener("message", function (event) {
      var data = event.data;
      if (!data || data.tag !== TAG || event.source !== target()) return;
      if (data.kind === "ready") { ready = true; readyCallbacks.splice(0).forEach(function (cb) { cb(); }); }
      if (data.kind === "call") {
        if (handlers[data.name]) answer(data);
        else (queued[data.name] = queued[data.name] || []).push(data);
      }
      if (data.kind === "reply" && waiting[data.id]) { waiting[data.id]([data.result]); delete waiting[data.id]; }
    });
    function answer(call) {
      var result = handlers[call.name](call.payload);
      target().postMessage({ tag: TAG, kind: "reply", id: call.id, result: result }, "*");
    }
    return {
      restyle: function () { return Promise.resolve(); },
      ping: function (cb) {
        return new Promise(function (resolve) {
          var done = function () { if (cb) cb(); resolve(); };
          if (ready) done(); else readyCallbacks.push(done);
        });
      },
      register: function (name, handler) {
        handlers[name] = handler;
        (queued[name] || []).splice(0).forEach(answer);
      },
      send: function (name, payload, cb) {
        var id = TAG + ":" + (++seq) + ":" + Math.random();
        if (cb) waiting[id] = cb;
        target().postMessage({ tag: TAG, kind: "call", id: id, name: name, payload: payload }, "*");
      },
    };
  }
  var context = {
    open: function (options, onOpen) {
      var frame = document.createElement("iframe");
      frame.src = options.url;
      var attributes = options.attributes || {};
      Object.keys(attributes).forEach(function (key) {
        if (key === "style") Object.assign(frame.style, attributes.style);
        else frame.setAttribute(key, attributes[key]);
      });
      var wrapper = channel(function () { return frame.contentWindow; }, false);
      (options.where || document.body).appendChild(frame);
      return onOpen(wrapper);
    },
    getParentIframe: function () {
      var wrapper = channel(function () { return window.parent; }, true);
      window.parent.postMessage({ tag: TAG, kind: "ready" }, "*");
      return wrapper;
    },
  };
  window.gapi = {
    load: function (_name, options) { setTimeout(options.callback || options, 0); },
    iframes: { CROSS_ORIGIN_IFRAMES_FILTER: function () { return true; }, getContext: function () { return context; } },
  };
  var src = document.currentScript && document.currentScript.src;
  var onload = src ? new URL(src).searchParams.get("onload") : null;
  if (onload && window[onload]) window[onload]();
  else if (window.gapi_onload) window.gapi_onload();
})();`;

export async function standInForGapi(context: BrowserContext): Promise<void> {
  await context.route("https://apis.google.com/js/api.js*", (route) =>
    route.fulfill({ contentType: "text/javascript", body: SCRIPT }),
  );
}
