// Long jobs (pull on the library page, update here): start, then poll.
"use strict";
async function followJob(progress, textEl, outEl, done) {
  progress.hidden = false;
  for (;;) {
    const job = await (await fetch("/api/job")).json();
    if (!job) return;
    if (job.total) { progress.max = job.total; progress.value = job.done; }
    else progress.removeAttribute("value");
    if (outEl) outEl.textContent = job.lines.join("\n");
    if (!job.running) {
      progress.max = 1; progress.value = job.ok ? 1 : 0;
      textEl.textContent = job.ok ? (job.lines[job.lines.length - 1] || "done") : "failed: " + job.error;
      if (done) done(job);
      return;
    }
    textEl.textContent = job.name + "…";
    await new Promise((r) => setTimeout(r, 200));
  }
}
document.addEventListener("DOMContentLoaded", () => {
  const up = document.getElementById("update-button");
  if (up) up.addEventListener("click", async () => {
    up.disabled = true;
    const r = await apiPost("/api/update", {});
    const res = document.getElementById("update-result");
    if (!r.ok) { res.textContent = r.error; up.disabled = false; return; }
    await followJob(document.getElementById("update-progress"), res, document.getElementById("update-out"), () => { up.disabled = false; });
  });
  const pull = document.getElementById("pull-button");
  if (pull) pull.addEventListener("click", async () => {
    pull.disabled = true;
    const r = await apiPost("/api/pull", {});
    const t = document.getElementById("pull-text");
    if (!r.ok) { t.textContent = r.error; pull.disabled = false; return; }
    await followJob(document.getElementById("pull-progress"), t, null, (job) => {
      pull.disabled = false;
      if (job.ok) location.reload();
    });
  });
});
