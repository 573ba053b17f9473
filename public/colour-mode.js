// Applies the saved colour mode before the app loads, so a dark page never flashes white, and marks
// a page opened by someone signed in.
// A file rather than an inline script: the CSP allows scripts from 'self' only. The rules are
// those of src/lib/colour-mode.ts (key "nuxt-color-mode"; missing or unknown means "system"),
// which takes over once the app starts.
(function () {
  var preference = "system";
  try {
    preference = localStorage.getItem("nuxt-color-mode") || "system";
  } catch (error) {
    // Site data blocked: follow the system.
  }
  var dark = preference === "dark" || (preference !== "light" && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var mode = dark ? "dark" : "light";
  document.documentElement.classList.add(mode);
  document.documentElement.style.colorScheme = mode;
  // Someone signed in (the identity SDK keeps its user under this prefix, src/providers/session.ts
  // hasSavedIdentityUser) sees a portal page's frame drawn by the build at once (scripts/lib/prerender.ts).
  try {
    for (var i = 0; i < localStorage.length; i++) {
      if ((localStorage.key(i) || "").indexOf("firebase:authUser:") === 0) {
        document.documentElement.classList.add("signed-in");
        break;
      }
    }
  } catch (error) {
    // Site data blocked: nobody is signed in here.
  }
})();
