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
      textEl.textContent = job.ok ? (job.lines[job.lines.length - 1] || words("job_done")) : words("job_failed", { error: job.error });
      if (done) done(job);
      return;
    }
    textEl.textContent = words("job_" + job.name);
    await new Promise((r) => setTimeout(r, 200));
  }
}
// A job's button (id NAME-button): POST url, then follow the job in NAME-progress
// and the text element; out: the element for its output lines (or none).
function jobButton(name, url, textId, outId, after) {
  const button = document.getElementById(name + "-button");
  if (!button) return;
  button.addEventListener("click", async () => {
    button.disabled = true;
    const r = await apiPost(url, {});
    const text = document.getElementById(textId);
    if (!r.ok) { text.textContent = r.error; button.disabled = false; return; }
    const out = outId ? document.getElementById(outId) : null;
    await followJob(document.getElementById(name + "-progress"), text, out, (job) => {
      button.disabled = false;
      if (after) after(job);
    });
  });
}
document.addEventListener("DOMContentLoaded", () => {
  jobButton("update", "/api/update", "update-result", "update-out");
  // After a pull the list is read again in place: a reload took the
  // "N logs pulled" / "nothing new" line away before it could be read.
  jobButton("pull", "/api/pull", "pull-text", null, async (job) => {
    if (!job.ok) return;
    const html = await (await fetch("/library")).text();
    const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("library-list");
    const list = document.getElementById("library-list");
    if (fresh && list) list.replaceWith(fresh);
  });
});
