// cardkit web client, part 2: the lobby (choose a game, seats and options; create a match).
"use strict";

let games = [];
let levels = [];
let defaultLevel = "";

async function lobby() {
  document.getElementById("lobby").hidden = false;
  document.getElementById("subtitle").textContent = "lobby";
  const response = await fetch("/api/games");
  const described = await response.json();
  games = described.games;
  levels = described.levels || [{ name: "casual", spec: "rule" }];
  defaultLevel = (described.bots && described.bots.default) || levels[0].spec;
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
  document.getElementById("game-rules-link").href = "/rules/" + encodeURIComponent(game.name);
  document.getElementById("game-rules-link").textContent = "Rules of " + game.name + " (opens a new tab)";
  const players = document.getElementById("players");
  players.min = game.min_players; players.max = game.max_players;
  const n = Number(players.value);
  if (!(n >= game.min_players && n <= game.max_players)) players.value = game.min_players;
  const box = document.getElementById("options");
  box.replaceChildren(el("legend", {}, "Options (left as they are: the game's defaults)"));
  for (const opt of game.options) {
    let input;
    const id = "option-" + opt.name;
    const doc = opt.doc ? "opt-doc-" + opt.name : null;
    if (opt.type === "bool") {
      input = el("input", { type: "checkbox", id });
      input.checked = !!opt.default;
    } else if (opt.type === "choice") {
      input = el("select", { id });
      for (const c of opt.choices) input.append(el("option", { value: JSON.stringify(c) }, String(c)));
      input.value = JSON.stringify(opt.default);
    } else {
      input = el("input", { id, type: opt.type.startsWith("int") ? "number" : "text" });
      input.value = opt.default === null ? "" : (opt.type === "json" ? JSON.stringify(opt.default) : String(opt.default));
      if (opt.depends_on_players) input.placeholder = "depends on players";
    }
    if (doc) input.setAttribute("aria-describedby", doc);
    input.dataset.option = opt.name;
    input.dataset.kind = opt.type;
    input.dataset.initial = input.type === "checkbox" ? String(input.checked) : input.value;
    const def = opt.depends_on_players ? "depends on the players" : JSON.stringify(opt.default);
    box.append(el("div", { class: "option" },
      el("label", { for: id }, words(opt.name) + " "), input,
      el("small", { id: doc, class: "doc" }, (opt.doc ? opt.doc + ". " : "") + "Default: " + def + ".")));
  }
  drawSeats();
}

function drawSeats() {
  const n = Number(document.getElementById("players").value) || 0;
  const box = document.getElementById("seats");
  box.replaceChildren(el("legend", {}, "Seats"));
  for (let s = 0; s < Math.min(n, 10); s++) {
    const select = el("select", { id: "seat-" + s, "data-seat": String(s) });
    select.append(el("option", { value: "human" }, "person"));
    for (const level of levels) select.append(el("option", { value: level.spec }, level.name + " bot"));
    if (s > 0 && s === n - 1) select.value = (levels.find(l => l.spec === defaultLevel) || levels[0]).spec;
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

function linkList(data) {
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
  const moveSeconds = document.getElementById("move-seconds").value;  // empty: no clock (web/clock.py)
  if (moveSeconds !== "") body.move_seconds = Number(moveSeconds);
  const response = await fetch("/api/matches", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) { error.textContent = data.error; return; }
  linkList(data);
}
