// cardkit web client: a lobby that creates matches, and a table that draws any game
// from the server's updates (view, legal actions, per-seat entries). No build step.
// Everything from the server is inserted as text (textContent), never as HTML.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const CARD = /^([2-9TJQKA])([SHDC])$|^(RJ|BJ|XJ|W|N)$/;
const SPECIAL = { RJ: "Red joker", BJ: "Black joker", XJ: "Joker", W: "Wizard", N: "Jester" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child instanceof Node ? child : String(child));
  return node;
}

function isCard(value) { return typeof value === "string" && CARD.test(value); }

function cardText(code) {
  const m = CARD.exec(code);
  if (!m) return code;
  if (m[3]) return m[3] === "W" || m[3] === "N" ? SPECIAL[m[3]] : code.replace("J", "\u2605");
  return (m[1] === "T" ? "10" : m[1]) + SUITS[m[2]];
}

function cardNode(code) {
  const red = /[HD]$/.test(code) || code === "RJ";
  return el("span", { class: "card" + (red ? " red" : ""), "data-card": code, title: SPECIAL[code] || code }, cardText(code));
}

// Action and event text with suit symbols: "play 8H S" -> "play 8♥ ♠".
function prettyText(text) {
  return String(text).split(" ").map(w => {
    const up = w.toUpperCase();
    if (isCard(up) && up.length === 2) return cardText(up);
    if (up.length === 1 && SUITS[up]) return SUITS[up];
    return w;
  }).join(" ");
}

function words(key) { return String(key).replace(/_/g, " "); }

function valueNode(value) {
  if (value === null || value === undefined) return document.createTextNode("\u2014");
  if (isCard(value)) return cardNode(value);
  if (Array.isArray(value)) {
    if (value.length && value.every(isCard)) {
      const row = el("span", { class: "cards" });
      value.forEach(c => row.append(cardNode(c)));
      return row;
    }
    const span = el("span");
    value.forEach((v, i) => { if (i) span.append(", "); span.append(valueNode(v)); });
    return value.length ? span : document.createTextNode("none");
  }
  if (typeof value === "object") {
    const span = el("span");
    Object.entries(value).forEach(([k, v], i) => {
      if (i) span.append("; ");
      span.append(words(k) + ": ", valueNode(v));
    });
    return span;
  }
  return document.createTextNode(typeof value === "string" ? prettyText(value) : String(value));
}

// ---------------------------------------------------------------- lobby

let games = [];

async function lobby() {
  document.getElementById("lobby").hidden = false;
  document.getElementById("subtitle").textContent = "lobby";
  const response = await fetch("/api/games");
  const described = await response.json();
  games = described.games;
  // A client seed is refused unless the host is a development host (--allow-seeds).
  const seedsAllowed = !!(described.host && described.host.allow_seeds);
  document.getElementById("seed-label").hidden = !seedsAllowed;
  document.getElementById("seed").disabled = !seedsAllowed;
  const select = document.getElementById("game");
  for (const g of games) select.append(el("option", { value: g.name }, g.name));
  select.addEventListener("change", drawGameForm);
  document.getElementById("players").addEventListener("input", drawSeats);
  document.getElementById("create").addEventListener("submit", create);
  drawGameForm();
}

function currentGame() {
  return games.find(g => g.name === document.getElementById("game").value);
}

function drawGameForm() {
  const game = currentGame();
  const players = document.getElementById("players");
  players.min = game.min_players; players.max = game.max_players;
  const n = Number(players.value);
  if (!(n >= game.min_players && n <= game.max_players)) players.value = game.min_players;
  const box = document.getElementById("options");
  box.replaceChildren(el("legend", {}, "Options (left as they are: the game's defaults)"));
  for (const opt of game.options) {
    let input;
    if (opt.type === "bool") {
      input = el("input", { type: "checkbox" });
      input.checked = !!opt.default;
    } else if (opt.type === "choice") {
      input = el("select");
      for (const c of opt.choices) input.append(el("option", { value: JSON.stringify(c) }, String(c)));
      input.value = JSON.stringify(opt.default);
    } else {
      input = el("input", { type: opt.type.startsWith("int") ? "number" : "text" });
      input.value = opt.default === null ? "" : (opt.type === "json" ? JSON.stringify(opt.default) : String(opt.default));
      if (opt.depends_on_players) input.placeholder = "depends on players";
    }
    input.dataset.option = opt.name;
    input.dataset.kind = opt.type;
    input.dataset.initial = input.type === "checkbox" ? String(input.checked) : input.value;
    box.append(el("label", {}, words(opt.name) + " ", input));
  }
  drawSeats();
}

function drawSeats() {
  const n = Number(document.getElementById("players").value) || 0;
  const box = document.getElementById("seats");
  box.replaceChildren(el("legend", {}, "Seats"));
  for (let s = 0; s < Math.min(n, 10); s++) {
    const select = el("select", { id: "seat-" + s, "data-seat": String(s) });
    for (const [value, label] of [["human", "person"], ["rule", "rule bot"], ["random", "random bot"], ["ismcts:300", "ISMCTS bot"]])
      select.append(el("option", { value }, label));
    if (s > 0 && s === n - 1) select.value = "rule";
    box.append(el("label", {}, "Seat " + s + " ", select));
  }
}

function readOptions() {
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const now = input.type === "checkbox" ? String(input.checked) : input.value;
    if (now === input.dataset.initial) continue;
    const kind = input.dataset.kind;
    let value;
    if (kind === "bool") value = input.checked;
    else if (kind === "choice" || kind === "json") value = JSON.parse(input.value);
    else if (kind.startsWith("int")) value = input.value === "" ? null : Number(input.value);
    else value = input.value;
    options[input.dataset.option] = value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("lobby-error");
  error.textContent = "";
  const bots = {};
  for (const select of document.querySelectorAll("[data-seat]"))
    if (select.value !== "human") bots[select.dataset.seat] = select.value;
  const body = {
    game: document.getElementById("game").value,
    players: Number(document.getElementById("players").value),
    bots,
  };
  try { body.options = readOptions(); } catch (e) { error.textContent = "An option is not valid JSON."; return; }
  const seedInput = document.getElementById("seed");
  if (!seedInput.disabled && seedInput.value !== "") body.seed = Number(seedInput.value);
  if (document.getElementById("private").checked) body.private = true;
  const response = await fetch("/api/matches", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) { error.textContent = data.error; return; }
  const list = document.getElementById("link-list");
  list.replaceChildren();
  const base = location.origin + "/#";
  for (const [seat, token] of Object.entries(data.tokens)) {
    const url = base + new URLSearchParams({ match: data.match_id, seat, token }).toString();
    list.append(el("li", {}, "Seat " + seat + ": ", el("a", { href: url, class: "seat-link", "data-seat": seat, target: "_blank", rel: "noopener" }, url)));
  }
  const watchParams = { match: data.match_id, spectator: "1" };
  if (data.spectator_token) watchParams.token = data.spectator_token;
  const watch = base + new URLSearchParams(watchParams).toString();
  list.append(el("li", {}, "Spectators: ", el("a", { href: watch, class: "spectator-link", target: "_blank", rel: "noopener" }, watch)));
  document.getElementById("links").hidden = false;
}

// ---------------------------------------------------------------- table

const play = { match: null, seat: null, token: null, seq: -1, socket: null, retry: 500, closed: false, last: null };

function table(params) {
  document.getElementById("table").hidden = false;
  play.match = params.get("match");
  play.seat = params.has("seat") ? Number(params.get("seat")) : null;
  play.token = params.get("token");
  document.getElementById("subtitle").textContent =
    (play.seat === null ? "watching" : "seat " + play.seat) + " \u00b7 match " + play.match;
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const socket = new WebSocket(scheme + "//" + location.host + "/api/matches/" + encodeURIComponent(play.match) + "/ws");
  play.socket = socket;
  socket.onopen = () => {
    const join = play.seat === null
      ? { type: "join", spectator: true, after: play.seq }
      : { type: "join", seat: play.seat, token: play.token, after: play.seq };
    if (play.seat === null && play.token) join.token = play.token;  // a private match's spectator link
    socket.send(JSON.stringify(join));
  };
  socket.onmessage = (msg) => {
    const data = JSON.parse(msg.data);
    if (data.type === "update") { play.retry = 500; update(data); }
    else if (data.type === "error") showError(data.code + ": " + data.message);
  };
  socket.onclose = (e) => {
    if (e.code === 1008) { showError("The server refused this link: " + (e.reason || "bad token") + "."); play.closed = true; return; }
    if (play.last && play.last.is_over) return;
    setTimeout(connect, play.retry);  // resumes from the last seq seen
    play.retry = Math.min(play.retry * 2, 8000);
  };
}

function showError(text) { document.getElementById("error").textContent = text; }

function seatName(s, data) {
  if (s === data.seat) return "You (seat " + s + ")";
  return "Seat " + s + (data.bots.includes(s) ? " (bot)" : "");
}

function update(data) {
  play.seq = data.seq;
  play.last = data;
  showError("");
  document.getElementById("seeded").hidden = !data.seeded;
  const status = document.getElementById("status");
  status.dataset.seq = String(data.seq);
  status.dataset.over = String(data.is_over);
  status.dataset.toAct = data.to_act === null ? "" : String(data.to_act);
  status.classList.toggle("yours", data.legal.length > 0);
  if (data.is_over) {
    const winners = data.result ? data.result.winners.map(s => seatName(s, data)).join(", ") : "nobody";
    status.textContent = "Game over. Winner: " + winners + ".";
  } else if (data.halted) {
    status.textContent = data.halted.charAt(0).toUpperCase() + data.halted.slice(1) + ".";
  } else if (data.legal.length) {
    status.textContent = "Your turn.";
  } else {
    status.textContent = seatName(data.to_act, data) + " to act.";
  }
  drawActions(data);
  drawHands(data);
  drawScores(data);
  drawFields(data);
  narrate(data);
}

function drawActions(data) {
  const box = document.getElementById("actions");
  box.replaceChildren();
  for (const action of data.legal) {
    const button = el("button", { class: "action", "data-action": action, type: "button" }, prettyText(action));
    button.addEventListener("click", () => {
      box.querySelectorAll("button").forEach(b => { b.disabled = true; });
      play.socket.send(JSON.stringify({ type: "move", expected_seq: play.seq, action }));
    });
    box.append(button);
  }
}

function drawHands(data) {
  const box = document.getElementById("hand-area");
  box.replaceChildren();
  const view = data.view || {};
  for (const [key, value] of Object.entries(view)) {
    if (!/hand|trick|table|discard|top|pile|revealed/.test(key) || !Array.isArray(value) || !value.length || !value.every(isCard)) continue;
    const row = el("div", { class: "cards", id: "zone-" + key });
    value.forEach(c => row.append(cardNode(c)));
    box.append(el("h3", {}, key === "hand" ? "Your hand" : words(key)), row);
  }
}

function drawScores(data) {
  const box = document.getElementById("scores");
  const head = el("tr", {}, el("th", {}, ""));
  const row = el("tr", {}, el("th", {}, "score"));
  for (let s = 0; s < data.players; s++) {
    const turn = s === data.to_act ? "turn" : "";
    head.append(el("th", { class: turn }, seatName(s, data)));
    row.append(el("td", { class: turn }, String(data.scores[s])));
  }
  box.replaceChildren(el("table", {}, head, row));
}

function drawFields(data) {
  const list = document.getElementById("fields");
  list.replaceChildren();
  for (const [key, value] of Object.entries(data.view || {})) {
    if (["game", "seat", "legal_actions", "to_act", "hand"].includes(key)) continue;
    list.append(el("dt", {}, words(key)), el("dd", {}, valueNode(value)));
  }
}

function narrate(data) {
  const list = document.getElementById("narration");
  for (const entry of data.entries) {
    const who = entry.actor === "chance" ? "Dealer" : seatName(entry.actor, data);
    const item = el("li", { "data-seq": String(entry.seq) }, who + (entry.text ? ": " + prettyText(entry.text) : ""));
    for (const event of entry.events) {
      const parts = Object.entries(event).filter(([k]) => k !== "type");
      const line = el("div", { class: "event" }, words(event.type));
      if (parts.length) {
        line.append(" (");
        parts.forEach(([k, v], i) => { if (i) line.append(", "); line.append(words(k) + " ", valueNode(v)); });
        line.append(")");
      }
      item.append(line);
    }
    list.prepend(item);
  }
}

// ---------------------------------------------------------------- start

const params = new URLSearchParams(location.hash.slice(1));
if (params.has("match")) table(params); else lobby();
// A seat link opened in the same tab only changes the fragment: start over with it.
window.addEventListener("hashchange", () => location.reload());
