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
      }
    }
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
