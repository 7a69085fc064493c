// Every entry by taps (issue 19 §2): the choice buttons fill the entry box ([data-entry-box]) with the whole
// line so far and ask the server for the next legal choices; a choice that ends the entry sends it. A tapped
// object (a card: [data-card], a player: [data-seat]) offers the entries it takes part in; an advice row's
// move ([data-do]) fills the entry in one tap. No game logic lives here: the server offers only legal words.
(function () {
  function gameId() {
    var panel = document.getElementById("panel");
    return panel ? panel.dataset.gameId : null;
  }
  function box() { return document.querySelector("[data-entry-box]"); }
  function send(line) {
    htmx.ajax("POST", "/g/" + gameId() + "/line", {target: "#panel", swap: "outerHTML", values: {line: line}});
  }
  function offer(text) {
    htmx.ajax("GET", "/g/" + gameId() + "/compose?line=" + encodeURIComponent(text),
              {target: "#choices", swap: "innerHTML"});
  }
  function fill(text) {
    var input = box();
    input.value = text;
    offer(text);
  }
  function starts(word, kind) {
    htmx.ajax("GET", "/g/" + gameId() + "/starts?object=" + encodeURIComponent(word) + "&kind=" + kind,
              {target: "#choices", swap: "innerHTML"});
    var input = box();
    if (input) input.scrollIntoView({block: "nearest"});
  }
  document.addEventListener("click", function (event) {
    if (!gameId()) return;
    var el = event.target.closest("[data-fill], [data-do], [data-card], [data-seat]");
    if (!el || el.closest("[data-line]")) return;
    event.preventDefault();
    if (el.dataset.fill !== undefined) {
      if (el.dataset.ends) send(el.dataset.fill);
      else fill(el.dataset.fill);
    } else if (el.dataset.do !== undefined) {
      fill(el.dataset.do);
    } else {
      if (el.dataset.card !== undefined) starts(el.dataset.card, "card");
      else starts(el.dataset.seat, "seat");
    }
  });
})();
