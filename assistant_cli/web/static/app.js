// Taps on the game page that send a line at once: command buttons and 'why' cells. The choices (word
// buttons, tapped objects, edit and drop) are in choices.js; everything else is plain htmx.
(function () {
  function gameId() {
    var panel = document.getElementById("panel");
    return panel ? panel.dataset.gameId : null;
  }
  document.addEventListener("click", function (event) {
    var el = event.target.closest("[data-line]");
    if (!el || !gameId()) return;
    event.preventDefault();
    htmx.ajax("POST", "/g/" + gameId() + "/line", {target: "#panel", swap: "outerHTML", values: {line: el.dataset.line}});
  });
})();
