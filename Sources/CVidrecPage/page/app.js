"use strict";
const token = document.querySelector('meta[name="vidrec-token"]').content;
const $ = (id) => document.getElementById(id);
let presetsShown = "", pendingShown = "", albumShown = "";

function say(text) { $("message").textContent = text || ""; }

async function post(action, fields) {
  const response = await fetch("/api/" + action, {
    method: "POST", headers: { "Content-Type": "application/json", "X-Vidrec-Token": token },
    body: JSON.stringify(fields || {}),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { say(answer.error || ("failed: " + response.status)); return null; }
  say(answer.message || "");
  refresh();
  return answer;
}

function clock(seconds) {
  const s = Math.floor(seconds), m = Math.floor(s / 60);
  return String(m).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
}

function size(bytes) {
  if (bytes >= 1e9) return (bytes / 1e9).toFixed(1) + " GB";
  if (bytes >= 1e6) return (bytes / 1e6).toFixed(1) + " MB";
  return Math.round(bytes / 1e3) + " kB";
}

function button(label, action) {
  const b = document.createElement("button");
  b.textContent = label;
  b.addEventListener("click", action);
  return b;
}

function show(state) {
  const view = state.viewfinder || {};
  $("camera").textContent = view.camera ? (view.camera + (view.mode ? " · " + view.mode : "")) : "";
  const status = $("status");
  if (state.recording) {
    const r = state.recording;
    status.className = "recording";
    status.textContent = "● REC " + r.id + " " + clock(r.elapsed || 0)
      + (r.maxDuration ? " / " + clock(r.maxDuration) : "") + " · " + size(r.bytes || 0)
      + (r.droppedFrames ? " · " + r.droppedFrames + " dropped" : "") + (r.paused ? " · paused" : "");
  } else {
    status.className = "";
    status.textContent = view.problem ? view.problem : (view.source === "preview" ? "preview" : "…");
  }
  $("start").disabled = !!state.recording;
  for (const id of ["stop", "pause", "resume", "trigger", "switch"]) $(id).disabled = !state.recording;
  const presets = (state.presets || []).join(",");
  if (presets !== presetsShown) {
    presetsShown = presets;
    const select = $("quality");
    select.replaceChildren();
    for (const name of state.presets || []) {
      const option = document.createElement("option");
      option.value = option.textContent = name;
      if (name === state.quality) option.selected = true;
      select.appendChild(option);
    }
  }
  // A list is drawn again only when it changed: a name being typed stays.
  const pendingNow = JSON.stringify(state.pending || []);
  if (pendingNow !== pendingShown) { pendingShown = pendingNow; showPending(state.pending || []); }
  // The album is fetched only when its version changed (reading it costs the server
  // a look at every file).
  if (state.albumVersion !== albumShown) loadAlbum(state.albumVersion);
}

function showPending(items) {
  const pending = $("pending");
  // Names being typed are kept (a recording's row changes every second).
  const typed = {};
  for (const field of pending.querySelectorAll("input.name")) typed[field.closest("li").dataset.id] = field.value;
  pending.replaceChildren();
  for (const item of items) {
    const li = document.createElement("li");
    li.dataset.id = item.id;
    const link = document.createElement("a");
    link.href = "/media/pending/" + encodeURIComponent(item.id);
    link.textContent = item.id + " · " + item.kind + " · " + item.state
      + (item.kind === "video" ? " · " + (item.duration || 0).toFixed(1) + " s" : "") + " · " + size(item.bytes || 0);
    li.appendChild(link);
    if (item.state !== "recording") {
      const name = document.createElement("input");
      name.placeholder = "name";
      name.className = "name";
      name.value = typed[item.id] || "";
      li.append(" ", name, " ",
        button("Save", () => post("save", { id: item.id, name: name.value })), " ",
        button("Discard", () => post("discard", { id: item.id })));
    }
    pending.appendChild(li);
  }
}

function showAlbum(items) {
  const album = $("album");
  album.replaceChildren();
  for (const item of items) {
    const link = document.createElement("a");
    link.href = "#";
    link.dataset.name = item.name;
    const poster = document.createElement("img");
    poster.alt = "";
    poster.loading = "lazy";
    poster.src = (item.kind === "photo" ? "/media/album/" : "/media/poster/") + encodeURIComponent(item.name);
    link.append(poster, item.name + (item.duration ? " · " + item.duration.toFixed(1) + " s" : ""));
    link.addEventListener("click", (event) => { event.preventDefault(); open(item); });
    album.appendChild(link);
  }
}

function open(item) {
  const player = $("player");
  player.replaceChildren();
  const source = "/media/album/" + encodeURIComponent(item.name);
  if (item.kind === "photo") {
    const img = document.createElement("img");
    img.src = source;
    player.appendChild(img);
  } else {
    const video = document.createElement("video");
    video.id = "movie";
    video.controls = true;
    video.preload = "metadata";
    video.src = source;
    player.appendChild(video);
  }
}

// The version being fetched: the state comes every second, the album may be slower.
let albumAsked = null;
async function loadAlbum(version) {
  if (albumAsked === version) return;
  albumAsked = version;
  try {
    const response = await fetch("/api/album", { headers: { "X-Vidrec-Token": token } });
    if (!response.ok || albumShown === version) return;
    const album = await response.json();
    albumShown = album.version;
    showAlbum(album.items || []);
  } catch (error) {
    say("the server does not answer");
  } finally {
    if (albumAsked === version) albumAsked = null;
  }
}

async function refresh() {
  try {
    const response = await fetch("/api/state", { headers: { "X-Vidrec-Token": token } });
    if (response.ok) show(await response.json());
  } catch (error) { say("the server does not answer"); }
}

// The camera's controls as sliders, switches and menus; each change is set at once
// (the viewfinder shows it), then they are read back.
async function loadControls() {
  const response = await fetch("/api/controls", { headers: { "X-Vidrec-Token": token } });
  if (!response.ok) return;
  const answer = await response.json();
  const box = $("controls");
  box.replaceChildren();
  for (const c of answer.controls || []) {
    if (c.readOnly || !["integer", "boolean", "menu", "intmenu"].includes(c.type)) continue;
    const label = document.createElement("label");
    label.className = "control";
    label.textContent = c.name;
    let input;
    if (c.type === "boolean") {
      input = document.createElement("input");
      input.type = "checkbox";
      input.checked = c.value === 1;
    } else if (c.menu) {
      input = document.createElement("select");
      for (const item of c.menu) {
        const option = document.createElement("option");
        option.value = item.value;
        option.textContent = item.name;
        option.selected = item.value === c.value;
        input.appendChild(option);
      }
    } else {
      input = document.createElement("input");
      input.type = "range";
      input.min = c.min; input.max = c.max; input.step = c.step || 1;
      input.value = c.value;
    }
    input.dataset.key = c.key;
    input.addEventListener("change", async () => {
      const value = input.type === "checkbox" ? (input.checked ? 1 : 0) : input.value;
      await post("controls", { name: c.key, value: value });
      loadControls();
    });
    label.appendChild(input);
    box.appendChild(label);
  }
}

$("start").addEventListener("click", () => post("start", { quality: $("quality").value, max: $("max").value }));
$("stop").addEventListener("click", () => post("stop", {}));
for (const action of ["pause", "resume", "trigger"]) $(action).addEventListener("click", () => post(action, {}));
$("switch").addEventListener("click", () => post("switch", { camera: $("switchTo").value }));
$("snap").addEventListener("click", () => post("snap", {}));
refresh();
loadControls();
setInterval(refresh, 1000);
