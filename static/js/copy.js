// "Copy" buttons: <button data-copy="ID"> copies the text of the element with that id.
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.dataset.copy);
  if (!source) return;
  var text = source.value !== undefined ? source.value : source.textContent;
  var done = function () { button.textContent = "Copied"; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done);
  } else {  // plain http (the demo): select and copy the old way
    var area = document.createElement("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    document.execCommand("copy");
    area.remove();
    done();
  }
});
