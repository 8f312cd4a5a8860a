// A stored match: the slider, the keys and the move list step through
// its positions (each drawn by the server's renderer, kept once fetched).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const cache = new Map();
  document.addEventListener("DOMContentLoaded", () => {
    const box = $("match");
    const id = box.dataset.id;
    const n = Number(box.dataset.moves);
    const slider = $("ply");
    let want = Number(slider.value);

    async function go(ply) {
      ply = Math.max(0, Math.min(n, ply));
      want = ply;
      slider.value = ply;
      $("ply-text").textContent = words("ply", { ply: ply, n: n });
      for (const b of document.querySelectorAll("#moves button")) {
        if (Number(b.dataset.ply) === ply) b.setAttribute("aria-current", "step");
        else b.removeAttribute("aria-current");
      }
      $("dl-svg").href = "/match/" + id + "/download.svg?ply=" + ply;
      $("dl-png").href = "/match/" + id + "/download.png?ply=" + ply;
      if (!cache.has(ply)) {
        const r = await fetch("/match/" + id + "/position.svg?ply=" + ply);
        cache.set(ply, await r.text());
      }
      if (want === ply) {
        $("position").innerHTML = cache.get(ply);
        $("position").dataset.ply = ply;
        history.replaceState(null, "", "?ply=" + ply);
        showReview(ply);
      }
    }

    // The review (review.py, computed once on the server, in the
    // background): each move's grade beside it, the better cell of the
    // move just played outlined on the board, the advantage as a graph,
    // the turning points to jump to.
    let review = null;
    const SVG = "http://www.w3.org/2000/svg";
    const CAP = 400; // review.CAP: a win's points
    function el(name, attrs) {
      const e = document.createElementNS(SVG, name);
      for (const k in attrs) e.setAttribute(k, attrs[k]);
      return e;
    }
    function showReview(ply) {
      if (!review) return;
      const box = $("position").querySelector("svg");
      const row = review.moves[ply - 1];
      const line = $("review-better");
      line.textContent = "";
      if (row && row.grade) {
        const grade = words("grade_" + row.grade);
        if (row.earlier) {
          // Junior (§6): the cell the card could have taken sooner
          line.textContent = words("review_earlier", {
            ply: ply, move: row.move, grade: grade, cell: row.earlier.cell, earlier: row.earlier.ply,
          });
        } else {
          line.textContent = row.better
            ? words("review_better", { ply: ply, move: row.move, grade: grade, better: row.better })
            : words("review_fine", { ply: ply, move: row.move, grade: grade });
        }
      }
      if (box && row) {
        const marks = (row.better_cells || []).slice();
        if (row.earlier) marks.push(row.earlier.cell);
        for (const c of marks) {
          const cell = box.querySelector('use.cell[data-cell="' + c + '"]');
          if (!cell) continue;
          const mark = cell.cloneNode(false);
          mark.setAttribute("class", "better-mark");
          mark.setAttribute("data-cell", c);
          mark.setAttribute("fill", "none");
          mark.setAttribute("stroke", "#111");
          mark.setAttribute("stroke-width", "4");
          mark.setAttribute("stroke-dasharray", "6 4");
          box.appendChild(mark);
        }
      }
      const cur = $("review-graph").querySelector(".now");
      if (cur) {
        const x = (320 * ply) / Math.max(n, 1);
        cur.setAttribute("x1", x);
        cur.setAttribute("x2", x);
      }
    }
    function drawGraph(r) {
      const g = $("review-graph");
      g.textContent = "";
      const a = r.advantage;
      const step = 320 / Math.max(a.length - 1, 1);
      const y = (v) => 50 - (45 * Math.max(-CAP, Math.min(CAP, v))) / CAP;
      g.appendChild(el("line", { x1: 0, x2: 320, y1: 50, y2: 50, stroke: "#999", "stroke-width": 1 }));
      const pts = a.map((v, i) => (i * step).toFixed(1) + "," + y(v).toFixed(1)).join(" ");
      g.appendChild(el("polyline", { points: pts, fill: "none", stroke: "#1f4e99", "stroke-width": 2, class: "advantage" }));
      for (const t of r.turning_points) {
        g.appendChild(el("circle", { cx: t.ply * step, cy: y(a[t.ply]), r: 4, fill: "#a00000", class: "turn", "data-ply": t.ply }));
      }
      g.appendChild(el("line", { x1: 0, x2: 0, y1: 0, y2: 100, stroke: "#333", "stroke-dasharray": "2 2", class: "now" }));
      g.addEventListener("click", (e) => {
        const box = g.getBoundingClientRect();
        go(Math.round(((e.clientX - box.left) / box.width) * 320 / step));
      });
    }
    function shown(r) {
      review = r;
      for (const row of r.moves) {
        const b = document.querySelector('#moves button[data-ply="' + row.ply + '"]');
        if (!b || !row.grade || b.querySelector(".grade")) continue;
        const s = document.createElement("span");
        s.className = "grade grade-" + row.grade;
        s.dataset.grade = row.grade;
        s.textContent = words("grade_" + row.grade);
        b.appendChild(s);
      }
      drawGraph(r);
      const turns = $("review-turns");
      turns.textContent = "";
      for (const t of r.turning_points) {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.dataset.ply = t.ply;
        b.textContent = words("review_turn", { ply: t.ply, swing: t.swing, side: t.towards });
        b.addEventListener("click", () => go(t.ply));
        li.appendChild(b);
        turns.appendChild(li);
      }
      const acc = $("review-accuracy");
      acc.textContent = "";
      for (const seat in r.accuracy) {
        const dt = document.createElement("dt");
        dt.textContent = seat;
        const dd = document.createElement("dd");
        dd.textContent = r.accuracy[seat].toFixed(1) + " %";
        acc.append(dt, dd);
      }
      $("review-result").hidden = false;
      $("review-button").hidden = true;
      $("review-text").textContent = words("review_done");
      $("review").dataset.state = "done";
      showReview(want);
    }
    async function follow() {
      const bar = $("review-progress");
      for (;;) {
        const r = await (await fetch("/match/" + id + "/review.json")).json();
        if (r.state === "done") { bar.hidden = true; shown(r.review); return; }
        if (r.state === "failed") {
          bar.hidden = true;
          $("review-text").textContent = words("review_failed", { error: r.error });
          $("review-button").disabled = false;
          $("review").dataset.state = "failed";
          return;
        }
        if (r.state === "none") return;
        bar.hidden = false;
        $("review").dataset.state = "running";
        if (r.total) { bar.max = r.total; bar.value = r.done; }
        $("review-text").textContent = words("review_running", { done: r.done || 0, total: r.total || n });
        await new Promise((ok) => setTimeout(ok, 300));
      }
    }
    $("review-button").addEventListener("click", async () => {
      $("review-button").disabled = true;
      const r = await apiPost("/match/" + id + "/review", {});
      if (r.ok === false) {
        $("review-text").textContent = r.error;
        $("review-button").disabled = false;
        return;
      }
      follow();
    });
    follow(); // a review made before (here or by apixagon logs review) is shown at once
    slider.addEventListener("input", () => go(Number(slider.value)));
    $("prev").addEventListener("click", () => go(want - 1));
    $("next").addEventListener("click", () => go(want + 1));
    $("moves").addEventListener("click", (e) => { if (e.target.dataset.ply) go(Number(e.target.dataset.ply)); });
    document.addEventListener("keydown", (e) => {
      const t = e.target;
      if (t.tagName === "INPUT" && t.type !== "range" || t.tagName === "SELECT" || t.tagName === "TEXTAREA") return;
      if (t === slider) return; // the slider steps itself (and fires input)
      const step = { ArrowLeft: want - 1, ArrowRight: want + 1, Home: 0, End: n }[e.key];
      if (step !== undefined) { e.preventDefault(); go(step); }
    });
    const form = $("tags-form");
    if (form) form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const data = Object.fromEntries(new FormData(form));
      const r = await apiPost("/match/" + id + "/tags", data);
      $("tags-note").textContent = r.ok ? words("saved") : r.error;
    });
    // Keys pressed before this line did nothing: say when they will
    // (a quick reader, or a test, waits for it instead of guessing).
    box.dataset.ready = "1";
  });
})();
