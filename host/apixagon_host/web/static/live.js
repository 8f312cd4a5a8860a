// The live page: one server-sent event stream; each `state` event is the
// whole view (the board's SVG and the status in words).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const text = (id, t) => { const e = $(id); if (e.textContent !== t) e.textContent = t; };
  window.apixagonUpdates = 0;

  function show(s) {
    $("board").innerHTML = s.svg;
    const link = $("link");
    link.className = "link " + (s.connected ? "ok" : "down");
    link.textContent = s.link_text;
    text("phase", s.phase_text || "—");
    text("setup", s.setup || "—");
    text("turn", s.turn || "—");
    text("moves", String(s.moves || "0"));
    text("last", s.last || "—");
    text("message", s.message || "—");
    const ref = s.refusal || s.last_refusal;
    $("refusal").hidden = !ref;
    text("refusal", ref || "");
    // the declarations the match offers (DECLARE), rebuilt only when they
    // change: a button keeps its focus across the page's updates
    const decl = JSON.stringify(s.declarations || []);
    if (decl !== declShown) {
      declShown = decl;
      $("declare").hidden = !(s.declarations || []).length;
      $("declarations").replaceChildren(...(s.declarations || []).map((d) => {
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.line = d.line;
        b.textContent = d.label;
        return b;
      }));
    }
    const notes = $("notes");
    notes.replaceChildren(...s.notes.map((n) => { const li = document.createElement("li"); li.textContent = n; return li; }));
    const ev = $("events");
    ev.replaceChildren(...s.events.slice().reverse().map((e) => {
      const li = document.createElement("li");
      li.className = "ev-" + e.kind;
      const t = document.createElement("time");
      t.textContent = e.t;
      li.append(t, " " + e.text);
      return li;
    }));
    $("legend").replaceChildren(...s.legend.map(([colour, name, blink]) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = colour;
      li.append(sw, name);
      if (blink) {
        sw.dataset.blink = blink;
        const b = document.createElement("span");
        b.className = "blinks";
        b.textContent = " (" + words(blink === "fast" ? "blinks_fast" : "blinks") + ")";
        li.append(b);
      }
      return li;
    }));
    const f = $("setup-form");
    for (const k of ["mode", "start", "option", "players", "computer", "level", "assist", "hintlimit"]) {
      const el = f.elements[k];
      const v = s.fields[k];
      if (!v || document.activeElement === el) continue;
      if (k === "computer" && ![...el.options].some((o) => o.value === v)) {
        // seats the list does not name one by one (A2+B1): an option of their own
        el.append(new Option(v.replace(/\+/g, " "), v));
      }
      el.value = v;
    }
    for (const r of f.querySelectorAll("input[name=display]")) r.checked = r.value === s.fields.display;
    if (handsShown && s.moves !== handsAt) showHands(s.moves); // a move: the hands changed
    window.apixagonUpdates += 1;
    window.apixagonLast = { at: Date.now() / 1000, sent: s.sent, moves: s.moves, last: s.last };
    if (s.cells_at && (!window.apixagonCells || window.apixagonCells.event !== s.cells_at)) {
      // the first drawing of the board's latest cells event (a figure for the tests)
      window.apixagonCells = { event: s.cells_at, drawn: Date.now() / 1000 };
    }
  }

  let declShown = null;

  // each side's unplayed cards (HANDS), once asked for: again after each move
  let handsShown = false;
  let handsAt = null;
  async function showHands(moves) {
    handsAt = moves;
    const r = await (await fetch("/api/hands")).json();
    $("hands").replaceChildren(...r.lines.map((l) => { const li = document.createElement("li"); li.textContent = l; return li; }));
  }

  let source = null;
  function connect() {
    if (source) source.close();
    source = new EventSource("/events");
    source.addEventListener("state", (e) => show(JSON.parse(e.data)));
  }
  window.apixagonRefresh = connect;

  document.addEventListener("DOMContentLoaded", () => {
    connect();
    const f = $("setup-form");
    f.addEventListener("change", async (e) => {
      const r = await apiPost("/api/set", { key: e.target.name, value: e.target.value });
      text("setup-note", r.ok ? r.note || "" : r.error);
    });
    f.addEventListener("submit", (e) => e.preventDefault());
    $("hands-button").addEventListener("click", () => {
      handsShown = true;
      showHands(window.apixagonLast ? window.apixagonLast.moves : null);
    });
    $("declarations").addEventListener("click", async (e) => {
      const b = e.target.closest("button[data-line]");
      if (!b) return;
      const r = await apiPost("/api/command", { line: b.dataset.line });
      text("declare-out", r.lines.join("\n")); // a refusal shows as the board says it, above
    });
    $("players-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      // the companion's `tag Black=Anna Gold=Ben`: kept for the match on
      // the board (or the next), stored with it at the pull
      const pairs = [];
      for (const input of e.target.querySelectorAll("input")) {
        // (a quote would end the value: the record's tags hold none)
        if (input.value.trim()) pairs.push(input.name + '="' + input.value.trim().replace(/"/g, "") + '"');
      }
      if (!pairs.length) { text("players-note", words("name_first")); return; }
      const r = await apiPost("/api/command", { line: "tag " + pairs.join(" ") });
      text("players-note", r.lines.join("\n"));
    });
    $("command-form").addEventListener("submit", async (e) => {
      e.preventDefault();
      const input = $("command");
      const r = await apiPost("/api/command", { line: input.value });
      text("command-out", r.lines.join("\n"));
      if (r.ok) input.value = "";
    });
  });
})();
