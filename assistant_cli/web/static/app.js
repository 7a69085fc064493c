// The game page's own behaviour; no game logic lives here (everything else is plain htmx in the templates).
// - Taps: word choices fill the entry box, command buttons and 'why' cells send a line.
// - One request at a time: a line sent is never sent twice (taps while one is under way are ignored, and each
//   send carries a nonce the server answers once); work over 300 ms shows "Working...".
// - A line the server never answered is shown as not sent, and kept in the box.
// - Push: the shared state and history arrive over Server-Sent Events (/g/ID/events) the moment another phone
//   changes them; a lost server is shown, and the page reconnects by itself and catches up.
// The choices (word buttons, tapped objects, 'do this', edit and drop) are in choices.js.
(function () {
  var busy = false, workingTimer = null, source = null, retryTimer = null;

  function gameId() {
    var panel = document.getElementById("panel");
    return panel ? panel.dataset.gameId : null;
  }
  function show(id, on, text) {
    var el = document.getElementById(id);
    if (!el) return;
    if (text !== undefined) el.textContent = text;
    el.hidden = !on;
  }
  function nonce() {
    var bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function setBusy(on) {
    busy = on;
    document.querySelectorAll("#enter, .actions button, [data-line]").forEach(function (b) {
      if (on) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
    });
    var form = document.getElementById("entry");
    if (form) form.classList.toggle("busy", on);
    clearTimeout(workingTimer);
    if (on) workingTimer = setTimeout(function () { show("working", true); }, 300);
    else show("working", false);
  }
  function sendLine(line) {
    if (busy) return;
    htmx.ajax("POST", "/g/" + gameId() + "/line", {target: "#panel", swap: "outerHTML", values: {line: line}});
  }
  function isLine(detail) {
    var path = (detail.requestConfig && detail.requestConfig.path) || detail.pathInfo && detail.pathInfo.requestPath || "";
    return /\/line$/.test(path.split("?")[0]);
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest("[data-line]");
    if (!el || !gameId()) return;
    event.preventDefault();
    sendLine(el.dataset.line);
  });
  document.addEventListener("htmx:configRequest", function (event) {
    if (event.detail.verb !== "post" || !/\/line$/.test(event.detail.path)) return;
    if (busy) { event.preventDefault(); return; }
    event.detail.parameters.nonce = nonce();
    show("unsent", false);
    setBusy(true);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isLine(event.detail)) return;
    setBusy(false);
    if (event.detail.successful) return;
    var params = event.detail.requestConfig && event.detail.requestConfig.parameters;
    var line = params && (params.get ? params.get("line") : params.line);
    var status = event.detail.xhr ? event.detail.xhr.status : 0;
    var why = status ? "the server answered " + status : "the server did not answer";
    show("unsent", true, "Not sent: '" + (line || "") + "' (" + why + "). It is still in the box: Enter sends it again.");
    var box = document.getElementById("line");
    if (box && line) box.value = line;
  });

  // -- push ---------------------------------------------------------------------------------------------------
  function shown() {
    var live = document.getElementById("live");
    return live ? live.dataset.version : "";
  }
  function newer(version, current) {
    if (!current) return true;
    var a = version.split("."), b = current.split(".");
    return a[0] !== b[0] || Number(a[1]) > Number(b[1]);  // another server run, or a later version
  }
  function connect() {
    if (!gameId() || !window.EventSource) return;
    if (source) source.close();
    source = new EventSource("/g/" + gameId() + "/events");
    source.addEventListener("open", function () { show("offline", false); });
    source.addEventListener("live", function (event) {
      show("offline", false);
      var live = document.getElementById("live");
      if (!live || !newer(event.lastEventId, shown())) return;
      var holder = document.createElement("div");
      holder.innerHTML = event.data;
      var fresh = holder.firstElementChild;
      if (!fresh) return;
      live.replaceWith(fresh);
      htmx.process(fresh);
    });
    source.addEventListener("error", function () {
      show("offline", true);
      if (source.readyState === EventSource.CLOSED) {  // refused or gone for good: try again by hand
        clearTimeout(retryTimer);
        retryTimer = setTimeout(connect, 2000);
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", connect);
  else connect();
})();
