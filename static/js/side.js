// What every page does with htmx answers that went wrong.
// - Side editor's own error fragments (header X-Side-Fragment) are shown like any answer, in
//   place of the part of the page that asked: htmx leaves 4xx/5xx answers unshown by default.
// - A failure with no fragment of ours (the server unreachable, a proxy's error page) becomes
//   one sentence at the top of the page, gone again once a request succeeds.
(function () {
  "use strict";
  var NOTE_ID = "side-connection-problem";

  function say(text) {
    var note = document.getElementById(NOTE_ID);
    if (!note) {
      note = document.createElement("p");
      note.id = NOTE_ID;
      note.className = "message error";
      note.setAttribute("role", "alert");
      document.querySelector("main").prepend(note);
    }
    note.textContent = text;
  }

  document.addEventListener("htmx:beforeSwap", function (ev) {
    var xhr = ev.detail.xhr;
    if (xhr.status >= 400 && xhr.getResponseHeader("X-Side-Fragment")) {
      ev.detail.shouldSwap = true;
      ev.detail.isError = false;
    }
  });
  document.addEventListener("htmx:responseError", function (ev) {
    say("The server answered with an error (HTTP " + ev.detail.xhr.status + "), so nothing changed. " +
        "Reload the page and try again.");
  });
  document.addEventListener("htmx:sendError", function () {
    say("The server could not be reached, so nothing changed. Check the connection; " +
        "the page tries again by itself where it updates on its own.");
  });
  document.addEventListener("htmx:afterSwap", function () {
    var note = document.getElementById(NOTE_ID);
    if (note) { note.remove(); }
  });
}());
