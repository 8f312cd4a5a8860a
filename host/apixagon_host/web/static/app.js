// Shared by every page: JSON posts to this server (same origin: the
// browser sends the Origin header the server checks), the palette, and the
// words the scripts show, in the page's language (base.html's #page-words,
// from the server: no English here).
"use strict";
const pageWords = JSON.parse(document.getElementById("page-words").textContent);
// words(key, {name: value}): the words of key, its {name} placeholders filled
function words(key, values) {
  let text = pageWords[key] || key;
  for (const [name, value] of Object.entries(values || {})) text = text.split("{" + name + "}").join(String(value));
  return text;
}
async function apiPost(url, data) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data || {}),
  });
  let body = null;
  try { body = await r.json(); } catch (e) { body = { ok: false, error: await r.text() }; }
  return body;
}
function getPalette() {
  const m = document.cookie.match(/(?:^|; )palette=([^;]*)/);
  return m ? decodeURIComponent(m[1]) : "standard";
}
document.addEventListener("DOMContentLoaded", () => {
  const sel = document.getElementById("palette");
  const p = getPalette();
  document.body.className = "palette-" + p;
  if (sel) {
    sel.value = p;
    sel.addEventListener("change", async () => {
      document.cookie = "palette=" + encodeURIComponent(sel.value) + "; path=/; SameSite=Strict; max-age=31536000";
      document.body.className = "palette-" + sel.value;
      // the board's LEDs take the same palette where its firmware has one
      const r = await apiPost("/api/set", { key: "palette", value: sel.value });
      const note = document.getElementById("setup-note");
      if (note && !r.ok) note.textContent = r.error;
      if (window.apixagonRefresh) window.apixagonRefresh();
    });
  }
});
