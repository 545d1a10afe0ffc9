"use strict";
// The replay page: a stored match (from a seat's or the spectator's link: #match=ID&seat=S&token=T)
// or an uploaded log, stepped through move by move. Everything shown comes from the server's
// replay JSON, which holds only what the viewer was sent live (see docs/web.md, "Replays").

const MAX_UPLOAD = 1048576;
const $ = (id) => document.getElementById(id);
let replay = null;   // the server's replay object
let index = 0;       // the step shown
let uploaded = null; // an uploaded log's text, kept to show it from another seat

function text(tag, content, cls) {
  const el = document.createElement(tag);
  el.textContent = content;
  if (cls) el.className = cls;
  return el;
}

function seatLabel(seat) {
  if (seat === null || seat === undefined) return "";
  if (seat < 0) return "The dealer (chance)";
  const you = replay.viewer === seat ? " (you)" : "";
  const name = replay.names[String(seat)];
  return `Seat ${seat}${you || (name ? ` (${name})` : "")}`;
}

function showError(message) {
  $("error").textContent = message;
}

async function post(url, body) {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    throw new Error((data && data.error) || `the server answered ${response.status}`);
  }
  return data;
}

function start(data) {
  replay = data;
  index = 0;
  showError("");
  $("viewer").hidden = false;
  const who = data.viewer === null ? "as a spectator saw it" : `as seat ${data.viewer} saw it`;
  const from = { match: "match", log: "saved log", "seat-log": "seat log" }[data.source] || data.source;
  const game = data.game.charAt(0).toUpperCase() + data.game.slice(1).replace(/-/g, " ");
  $("title").textContent = `${game}, ${who} (${from})`;
  let summary;
  if (data.result) {
    const winners = data.result.winners.map((s) => seatLabel(s)).join(", ") || "nobody";
    summary = `Final scores ${data.result.scores.join(", ")}; winner: ${winners}.`;
  } else if (data.in_progress) {
    summary = "This match is still being played: the replay ends at its newest move.";
  } else {
    summary = "A seat log: the result is in its last sentences.";
  }
  if (data.seeded) summary += " Its creator chose the seed, so the creator could know every hand.";
  $("summary").textContent = summary;
  const choice = $("seat-choice");
  choice.replaceChildren();
  for (const v of data.viewers) {
    const option = text("option", v === null ? "Spectator" : `Seat ${v}`);
    option.value = v === null ? "spectator" : String(v);
    option.selected = v === data.viewer;
    choice.append(option);
  }
  $("seat-choice-wrap").hidden = data.viewers.length < 2;
  $("table-panel").hidden = !data.tables;
  $("no-table").hidden = data.tables;
  if (!data.tables && data.note) $("no-table").textContent = data.note;
  $("rebuilt-note").hidden = !(data.tables && data.source === "seat-log");
  const slider = $("slider");
  slider.max = String(data.steps.length - 1);
  renderStory();
  go(0);
}

function renderStory() {
  const story = $("story");
  story.replaceChildren();
  replay.steps.forEach((step, k) => {
    if (k === 0) return;
    const item = text("li", "");
    item.value = k;
    item.dataset.step = String(k);
    item.textContent = stepLine(step);
    story.append(item);
  });
}

function stepLine(step) {
  const head = step.action ? `${seatLabel(step.actor)}: ${step.action}.` : `${seatLabel(step.actor)}:`;
  return [head, ...step.sentences].join(" ");
}

function go(k) {
  if (!replay) return;
  index = Math.max(0, Math.min(replay.steps.length - 1, k));
  const step = replay.steps[index];
  const last = replay.steps.length - 1;
  $("position").textContent = `Step ${index} of ${last}`;
  $("slider").value = String(index);
  $("slider").setAttribute("aria-valuetext", `step ${index} of ${last}`);
  $("first").disabled = $("prev").disabled = index === 0;
  $("next").disabled = $("last").disabled = index === last;
  $("move").textContent = index === 0 ? "Before the first move." :
    (step.action ? `${seatLabel(step.actor)}: ${step.action}` : `${seatLabel(step.actor)}`);
  const sentences = $("sentences");
  sentences.replaceChildren(...step.sentences.map((s) => text("li", s)));
  if (index > 0 && step.sentences.length === 0) sentences.append(text("li", "Nothing this viewer could see."));
  if (replay.tables) renderTable(step);
  for (const item of $("story").children) {
    const n = Number(item.dataset.step);
    item.hidden = n > index;
    item.classList.toggle("current", n === index);
    if (n === index) item.setAttribute("aria-current", "step"); else item.removeAttribute("aria-current");
  }
  // Scroll the story list only, to show the current line at its bottom (scrollIntoView would
  // scroll the whole page away from the table). The list is the lines' offsetParent.
  const story = $("story");
  const current = story.querySelector("li.current");
  story.scrollTop = current ? current.offsetTop - story.clientHeight + current.offsetHeight + 8 : 0;
}

function renderTable(step) {
  const status = $("status");
  const lines = [...step.status.sentences];
  if (step.to_act === -1) lines.unshift("The cards are being dealt.");
  else if (step.to_act !== null && step.to_act !== undefined) lines.unshift(`${seatLabel(step.to_act)} is to act.`);
  else if (index === replay.steps.length - 1 && replay.result) lines.unshift("The game is over.");
  status.replaceChildren(...lines.map((s) => text("li", s)));
  const tables = $("tables");
  tables.replaceChildren();
  for (const t of step.status.tables) {
    const wrap = text("div", "", "table-wrap");
    const table = document.createElement("table");
    table.append(text("caption", t.title || "Seats"));
    const head = document.createElement("tr");
    for (const h of t.header) {
      const th = text("th", h);
      th.scope = "col";
      head.append(th);
    }
    const thead = document.createElement("thead");
    thead.append(head);
    const tbody = document.createElement("tbody");
    t.rows.forEach((row, r) => {
      const tr = document.createElement("tr");
      row.forEach((cell, c) => {
        const td = c === 0 ? text("th", cell) : text("td", cell, t.numeric[c] ? "num" : "");
        if (c === 0) td.scope = "row";
        tr.append(td);
      });
      if (t.header[0] === "seat" && r === step.to_act) tr.className = "turn";
      tbody.append(tr);
    });
    table.append(thead, tbody);
    wrap.append(table);
    tables.append(wrap);
  }
  const hand = $("hand");
  hand.replaceChildren();
  $("hand-title").hidden = hand.hidden = step.hand === null;
  if (step.hand !== null) {
    $("hand-title").textContent = replay.viewer === null ? "Hand" : `Seat ${replay.viewer}'s hand (${step.hand.length})`;
    if (step.hand.length === 0) hand.append(text("li", "No cards."));
    for (const card of step.hand) {
      const item = text("li", "", `card s-${card.suit || "x"}`);
      const face = text("span", card.text);
      face.setAttribute("aria-hidden", "true");
      const name = text("span", card.name, "sr-only");
      item.append(face, name);
      item.title = card.name;
      hand.append(item);
    }
  }
}

async function openMatch(params) {
  const match = params.get("match");
  const seat = params.get("seat");
  const body = { seat: seat === null || seat === "" ? null : Number(seat), token: params.get("token") };
  try {
    start(await post(`/api/matches/${encodeURIComponent(match)}/replay`, JSON.stringify(body)));
  } catch (e) {
    showError(`Cannot show that replay: ${e.message}`);
  }
}

async function showUpload(seat) {
  const query = seat === undefined ? "" : `?seat=${encodeURIComponent(seat)}`;
  try {
    start(await post(`/api/replays${query}`, uploaded));
  } catch (e) {
    showError(`Cannot show that log: ${e.message}`);
  }
}

$("upload").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("file").files[0];
  if (!file) { showError("Choose a log file first."); return; }
  if (file.size > MAX_UPLOAD) { showError(`A log to replay is at most ${MAX_UPLOAD} bytes; this one has ${file.size}.`); return; }
  uploaded = await file.text();
  await showUpload(undefined);
});

$("seat-choice").addEventListener("change", () => {
  if (uploaded !== null) showUpload($("seat-choice").value);
});
$("first").addEventListener("click", () => go(0));
$("prev").addEventListener("click", () => go(index - 1));
$("next").addEventListener("click", () => go(index + 1));
$("last").addEventListener("click", () => go(replay ? replay.steps.length - 1 : 0));
$("slider").addEventListener("input", () => go(Number($("slider").value)));
document.addEventListener("keydown", (event) => {
  if (!replay || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target;
  if (target && (target.id === "slider" || target.tagName === "SELECT" || target.tagName === "INPUT")) return;
  const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: replay.steps.length - 1 };
  if (event.key in moves) {
    event.preventDefault();
    go(moves[event.key]);
  }
});

const params = new URLSearchParams(location.hash.slice(1));
if (params.get("match")) openMatch(params);
// Another link opened in the same tab only changes the fragment: start over with it.
window.addEventListener("hashchange", () => location.reload());
