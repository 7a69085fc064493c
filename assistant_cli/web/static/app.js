// Taps on the game page: word choices fill the entry box, command buttons and 'why' cells send a line.
// Everything else is plain htmx (hx-* attributes in the templates); no game logic lives here.
(function () {
  function gameId() {
    var panel = document.getElementById("panel");
    return panel ? panel.dataset.gameId : null;
  }
  function sendLine(line) {
    htmx.ajax("POST", "/g/" + gameId() + "/line", {target: "#panel", swap: "outerHTML", values: {line: line}});
  }
  function fill(text) {
    var input = document.getElementById("line");
    input.value = text;
    input.focus();
    htmx.ajax("GET", "/g/" + gameId() + "/compose?line=" + encodeURIComponent(text),
              {target: "#choices", swap: "innerHTML"});
  }
  document.addEventListener("click", function (event) {
    var el = event.target.closest("[data-fill], [data-line], [data-edit]");
    if (!el || !gameId()) return;
    event.preventDefault();
    if (el.dataset.fill !== undefined) fill(el.dataset.fill);
    else if (el.dataset.edit !== undefined) fill(el.dataset.edit);
    else sendLine(el.dataset.line);
  });
})();
