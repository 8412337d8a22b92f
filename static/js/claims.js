// A list by keyboard (the claims list, the patrol feed): j/k move, o (or Enter on a row)
// opens, / searches. Choice filters apply at once; text boxes apply on Enter (one request,
// no double send). The filter form names its rows' container in data-rows; a list that
// refreshes itself (the patrol feed) keeps the row the keys were on (after htmx settles,
// which would put back the class attribute the new row came with).
(function () {
  const form = document.getElementById("claim-filters") || document.getElementById("patrol-filters");
  const container = form.dataset.rows || "#claim-rows";
  let at = -1;
  let atId = null;
  const rows = () => Array.from(document.querySelectorAll(`${container} [data-href]`));
  function mark(index) {
    const all = rows();
    if (!all.length) return;
    at = Math.max(0, Math.min(index, all.length - 1));
    all.forEach((row, i) => row.classList.toggle("current", i === at));
    atId = all[at].id || null;
    all[at].querySelector("a").focus({ preventScroll: true });
    all[at].scrollIntoView({ block: "nearest" });
  }
  // A search is read best match first: words typed into an empty box switch the order to
  // "best match", and emptying the box switches it back (a sort chosen by hand stays).
  const box = form.querySelector("input[name=q]");
  const sort = form.querySelector("select[name=sort]");
  if (box && sort) {
    let had = box.value.trim() !== "";
    box.addEventListener("input", () => {
      const has = box.value.trim() !== "";
      if (has && !had && sort.value === "score") sort.value = "relevance";
      if (!has && had && sort.value === "relevance") sort.value = "score";
      had = has;
    });
  }
  form.addEventListener("change", (event) => {
    const type = event.target.type;
    if (type !== "search" && type !== "text") form.requestSubmit();
  });
  document.body.addEventListener("htmx:afterSettle", () => {
    const kept = atId ? rows().findIndex((row) => row.id === atId) : -1;
    at = kept;
    if (kept >= 0) rows()[kept].classList.add("current");
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest("input, select, textarea")) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    if (event.key === "j") mark(at + 1);
    else if (event.key === "k") mark(at - 1);
    else if (event.key === "o" && at >= 0) window.location = rows()[at].dataset.href;
    else if (event.key === "/" && form.querySelector("input[name=q]")) form.querySelector("input[name=q]").focus();
    else return;
    event.preventDefault();
  });
})();
