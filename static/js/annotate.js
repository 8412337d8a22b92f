/* Keyboard answers for the annotation page: a/b/e/n, 1 2 3 (A's evidence), 7 8 9 (B's),
   Enter submits, s skips (pick a reason, Enter), u reopens the last vote, Escape leaves
   the note or the skip panel. Keys are ignored while typing in the note. No framework. */
(function () {
  "use strict";
  var KEYS = {
    a: ["preference", "a"], b: ["preference", "b"], e: ["preference", "equal"], n: ["preference", "neither"],
    "1": ["evidence_a", "enough"], "2": ["evidence_a", "partial"], "3": ["evidence_a", "none"],
    "7": ["evidence_b", "enough"], "8": ["evidence_b", "partial"], "9": ["evidence_b", "none"]
  };

  function typing(el) {
    return el.tagName === "TEXTAREA" || el.tagName === "SELECT" ||
      (el.tagName === "INPUT" && ["radio", "checkbox", "hidden", "submit"].indexOf(el.type) < 0);
  }

  function choose(form, name, value) {
    var input = form.querySelector('input[name="' + name + '"][value="' + value + '"]');
    if (input) { input.checked = true; input.focus(); }
  }

  function openSkip(panel) {
    panel.open = true;
    var reason = panel.querySelector('input[name="skip_reason"]:checked') ||
      panel.querySelector('input[name="skip_reason"]');
    reason.checked = true;
    reason.focus();
  }

  function submit(form, panel) {
    if (panel && panel.open) { form.requestSubmit(document.getElementById("skip-button")); }
    else { form.requestSubmit(); }
  }

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var form = document.getElementById("answer-form");
    var panel = document.getElementById("skip-panel");
    var undo = document.getElementById("undo-form");
    var target = ev.target;
    if (typing(target)) { if (ev.key === "Escape") { target.blur(); } return; }
    var key = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
    if (key === "u" && undo) { ev.preventDefault(); undo.requestSubmit(); return; }
    if (!form) { return; }
    if (key === "Enter") {
      if (["SUMMARY", "BUTTON", "A"].indexOf(target.tagName) >= 0) { return; }  // their own action
      ev.preventDefault();
      submit(form, panel);
    } else if (key === "Escape" && panel.open) {
      panel.open = false;
    } else if (key === "s") {
      ev.preventDefault();
      openSkip(panel);
    } else if (KEYS[key]) {
      ev.preventDefault();
      panel.open = false;  // answering again means not skipping after all
      choose(form, KEYS[key][0], KEYS[key][1]);
    } else if (key === "?") {
      document.getElementById("legend").focus();
    }
  });

  // "Show full text": the first opening loads the source's whole text as an htmx partial.
  document.addEventListener("toggle", function (ev) {
    var details = ev.target;
    if (details.classList && details.classList.contains("full") && details.open && window.htmx) {
      window.htmx.trigger(details.querySelector(".full-text"), "load-full");
    }
  }, true);
}());
