// Darwin's web page: follows a live game (server-sent events carrying the state, else polling
// state.json) and plays a finished game's replay (buttons and the arrow keys). No framework,
// no inline code.
(function () {
  "use strict";
  var body = document.body;
  var $ = function (id) { return document.getElementById(id); };

  function text(tag, value, cls) {
    var el = document.createElement(tag);
    el.textContent = value;
    if (cls) el.className = cls;
    return el;
  }

  function showPlayers(data) {
    var tbody = document.querySelector("#players tbody");
    if (!tbody) return;
    var ai = body.getAttribute("data-ai") || "AI";
    tbody.replaceChildren.apply(tbody, data.players.map(function (p) {
      var tr = document.createElement("tr");
      if (p.awaited) tr.className = "awaited";
      tr.appendChild(text("td", p.rank === null ? "" : String(p.rank)));
      var name = text("td", p.name);
      if (p.ai) { name.appendChild(document.createTextNode(" ")); name.appendChild(text("span", ai, "tag")); }
      tr.appendChild(name);
      tr.appendChild(text("td", p.score === null ? "" : String(p.score)));
      return tr;
    }));
  }

  function showLog(lines) {
    var box = $("log-lines");
    if (!box || !lines.length) return;
    var ol = document.createElement("ol");
    lines.forEach(function (line) { ol.appendChild(text("li", line)); });
    box.replaceChildren(ol);
    ol.scrollTop = ol.scrollHeight;
  }

  function show(data) {
    // an answer to an older poll never undoes a newer event
    if (data.seq < parseInt(body.getAttribute("data-seq") || "0", 10)) return;
    body.setAttribute("data-seq", String(data.seq));
    body.setAttribute("data-status", data.status);
    $("status").textContent = data.status_text;
    $("turn").textContent = data.turn_text;
    var heading = $("heading");
    if (heading) heading.replaceChildren.apply(heading, data.heading.map(function (l) { return text("p", l); }));
    if (data.board) {
      $("board").hidden = false;
      var img = $("board-img");
      if (img.getAttribute("src") !== data.board) img.setAttribute("src", data.board);
      $("board-zoom").setAttribute("href", data.board_large);
    }
    showPlayers(data);
    showLog(data.log);
    if (data.status === "finished" && data.frames > 0) startReplay(data.frames);
  }

  var fetching = false, again = false;
  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(body.getAttribute("data-state"), { cache: "no-store", credentials: "omit" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) show(data); })
      .catch(function () {})
      .then(function () { fetching = false; if (again) { again = false; refresh(); } });
  }

  var poller = null;
  function poll() { if (!poller) poller = setInterval(refresh, 5000); }

  function follow() {
    var status = body.getAttribute("data-status");
    if (status !== "active" && status !== "lobby") return;
    if (!window.EventSource) { poll(); return; }
    var source = new EventSource(body.getAttribute("data-events"));
    var failures = 0;
    // each event carries state.json's text: no request but the new board's image
    source.addEventListener("state", function (ev) {
      failures = 0;
      var data = null;
      try { data = JSON.parse(ev.data); } catch (e) { refresh(); return; }
      if (data) show(data);
    });
    source.onerror = function () {
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures > 3) {
        source.close();
        refresh();
        var s = body.getAttribute("data-status");
        if (s === "active" || s === "lobby") poll();
      }
    };
  }

  // --- the replay player ---------------------------------------------------------------------
  var replay = { total: 0, n: 0, timer: null };

  function frame(n) {
    replay.n = Math.max(0, Math.min(replay.total - 1, n));
    $("replay-img").setAttribute("src", body.getAttribute("data-replay") + replay.n + ".png?lang=" + body.getAttribute("data-lang"));
    var pos = $("replay-pos");
    pos.textContent = pos.getAttribute("data-template").replace("{n}", replay.n + 1).replace("{total}", replay.total);
    body.setAttribute("data-frame", String(replay.n));
  }

  function play(on) {
    var button = $("replay-play");
    if (replay.timer) { clearInterval(replay.timer); replay.timer = null; }
    if (on) {
      if (replay.n >= replay.total - 1) frame(0);
      replay.timer = setInterval(function () {
        if (replay.n >= replay.total - 1) { play(false); return; }
        frame(replay.n + 1);
      }, 1500);
    }
    button.textContent = button.getAttribute(on ? "data-pause" : "data-play");
  }

  function startReplay(total) {
    if (replay.total) return;
    replay.total = total;
    body.setAttribute("data-frames", String(total));
    $("replay").hidden = false;
    $("replay-prev").addEventListener("click", function () { play(false); frame(replay.n - 1); });
    $("replay-next").addEventListener("click", function () { play(false); frame(replay.n + 1); });
    $("replay-play").addEventListener("click", function () { play(!replay.timer); });
    document.addEventListener("keydown", function (ev) {
      if (ev.target && /INPUT|TEXTAREA|SELECT/.test(ev.target.tagName)) return;
      if (ev.key === "ArrowLeft") { play(false); frame(replay.n - 1); ev.preventDefault(); }
      else if (ev.key === "ArrowRight") { play(false); frame(replay.n + 1); ev.preventDefault(); }
      else if (ev.key === " " && ev.target === document.body) { play(!replay.timer); ev.preventDefault(); }
    });
    frame(0);
  }

  var frames = parseInt(body.getAttribute("data-frames") || "0", 10);
  if (body.getAttribute("data-status") === "finished" && frames > 0) startReplay(frames);
  follow();
})();
