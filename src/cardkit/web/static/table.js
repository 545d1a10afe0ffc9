// cardkit web client, part 3: the table. Everything drawn here comes from the seat's own
// update: its view, its legal actions, and the server's wording of both ("table").
"use strict";

const play = { match: null, seat: null, token: null, seq: -1, socket: null, retry: 500, closed: false,
               last: null, selected: [], showLast: false, hint: null, sheet: [] };

function table(params) {
  document.getElementById("table").hidden = false;
  play.match = params.get("match");
  play.seat = params.has("seat") ? Number(params.get("seat")) : null;
  play.token = params.get("token");
  document.getElementById("subtitle").textContent =
    (play.seat === null ? "watching" : "seat " + play.seat) + " \u00b7 match " + play.match;
  document.getElementById("hint-button").addEventListener("click", askHint);
  document.getElementById("last-trick-button").addEventListener("click", () => {
    play.showLast = !play.showLast;
    if (play.last) draw(play.last);
  });
  document.getElementById("rematch-button").addEventListener("click", () => {
    document.getElementById("rematch-button").disabled = true;
    send({ type: "rematch" });
  });
  document.getElementById("undo-button").addEventListener("click", askUndo);
  document.addEventListener("keydown", onKey);
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
    else if (data.type === "hint") showHint(data);
    else if (data.type === "rematch" || data.type === "undo") {
      // The same seat of the new match (a rematch, or the match an undo continues in):
      // this page becomes that seat's page.
      const link = { match: data.match_id, seat: String(data.seat), token: data.token };
      play.last = null;  // not "over": the old socket's close must not stop the new page
      location.hash = new URLSearchParams(link).toString();
    }
    else if (data.type === "error") { if (play.last) draw(play.last); showError(data.message); }  // buttons back
  };
  socket.onclose = (e) => {
    if (e.code === 1008) { showError("The server refused this link: " + (e.reason || "bad token") + "."); play.closed = true; return; }
    if (play.last && play.last.is_over) return;
    setTimeout(connect, play.retry);  // resumes from the last seq seen
    play.retry = Math.min(play.retry * 2, 8000);
  };
}

function send(message) { play.socket.send(JSON.stringify(message)); }

function move(action) {
  document.querySelectorAll("#controls button, #hand button").forEach(b => { b.disabled = true; });
  play.selected = [];
  send({ type: "move", expected_seq: play.seq, action });
}

function showError(text) { document.getElementById("error").textContent = text; }

function askHint() { send({ type: "hint" }); }

function showHint(data) {
  const box = document.getElementById("hint");
  box.hidden = false;
  if (!data.action) { box.textContent = "No hint: " + data.reason + "."; return; }
  play.hint = data.action;
  box.dataset.action = data.action;
  box.textContent = "Hint: " + prettyText(data.action) + " \u2014 " + prettyText(data.reason);
  if (play.last) draw(play.last);
}

// ---------------------------------------------------------------- undo (web/undo.py)

function askUndo() {
  const b = document.getElementById("undo-button");
  if (b.hidden || b.dataset.busy === "1") return;
  const undo = play.last && play.last.undo;
  if (!undo || !undo.allowed) {  // pressing a refused Undo says why (and changes nothing)
    const why = document.getElementById("undo-why");
    why.hidden = false;
    why.textContent = "Undo is not possible now: " + ((undo && undo.reason) || "").replace(/^cannot undo: /, "") + ".";
    return;
  }
  b.dataset.busy = "1";
  send({ type: "undo", expected_seq: play.seq });
}

function drawUndo(data) {
  // data.undo: null where undo never applies (a spectator, another person at the table);
  // a refused undo stays pressable (aria-disabled) so that pressing it can say why.
  const b = document.getElementById("undo-button");
  b.hidden = !data.undo;
  b.dataset.busy = "";
  const allowed = Boolean(data.undo && data.undo.allowed);
  b.setAttribute("aria-disabled", String(!allowed));
  b.classList.toggle("unavailable", !allowed);
  b.title = allowed ? "Take back your last move with the bots' replies (U)" : "Undo is not possible now (U says why)";
  document.getElementById("undo-why").hidden = true;
}

// ---------------------------------------------------------------- the per-move clock (web/clock.py)

function drawClock(data) {
  // data.clock.remaining is the time left when the server built the update: counted down
  // here from when it arrived (the page's own monotonic clock).
  const box = document.getElementById("clock");
  if (play.clockTimer) { clearInterval(play.clockTimer); play.clockTimer = null; }
  const clock = data.clock;
  box.hidden = !(clock && clock.seat !== null && clock.remaining !== null && !data.is_over);
  if (box.hidden) return;
  const deadline = performance.now() + clock.remaining * 1000;
  const who = clock.seat === data.seat ? "Your time" : seatName(clock.seat, data);
  const tick = () => {
    const left = Math.max(0, Math.ceil((deadline - performance.now()) / 1000));
    const text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    box.textContent = left > 0 ? who + ": " + text + " left" : who + ": time is up, the " + clock.stand_in + " bot plays";
    box.classList.toggle("low", left <= 10);
    box.dataset.left = String(left);
  };
  tick();
  play.clockTimer = setInterval(tick, 250);
}

// ---------------------------------------------------------------- seats

function seatInfo(data, s) {
  const seats = (data.table && data.table.seats) || [];
  const info = seats.find(x => x.seat === s) || {};
  return info.bot || null;
}

function seatName(s, data) {
  if (s === data.seat) return "You";
  const bot = seatInfo(data, s);
  return "Seat " + s + (bot ? " \u00b7 " + bot + " bot" : "");
}

// The status table's cell for a seat and a column ("bid", "tricks", "bags", "score"...).
function column(data, name, s) {
  const t = data.table && data.table.status.tables[0];
  if (!t) return null;
  const i = t.header.indexOf(name);
  return i < 0 || !t.rows[s] ? null : t.rows[s][i];
}

function seatBox(data, s, tag) {
  const view = data.view;
  const turn = s === data.to_act && !data.is_over;
  const box = el(tag, { class: "seat" + (turn ? " turn" : ""), "data-seat": String(s),
                        "aria-current": turn ? "true" : null });
  const title = el("div", { class: "seat-name" }, seatName(s, data));
  if (turn) title.append(el("span", { class: "to-act" }, s === data.seat ? " \u2014 your turn" : " \u2014 to act"));
  box.append(title);
  const facts = [];
  const sizes = view.hand_sizes;
  if (sizes) facts.push(sizes[s] + (sizes[s] === 1 ? " card" : " cards"));
  for (const name of ["bid", "tricks", "bags", "score"]) {
    const v = column(data, name, s);
    if (v !== null && v !== undefined) facts.push(name + " " + v);
  }
  box.append(el("div", { class: "facts" }, facts.join(" \u00b7 ")));
  if (s !== data.seat && sizes && sizes[s] > 0) {
    const backs = el("span", { class: "backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(sizes[s], 8); i++) backs.append(el("span", { class: "mini-back" }));
    box.append(backs);
  }
  // Spacc 'u Mazz: every seat's face-up cards, face-down count and the cards others know.
  if (view.face_up && s !== data.seat) {
    const up = view.face_up[s] || [];
    box.append(el("div", { class: "zone-line" }, "face up: " + (up.length ? "" : "none")));
    if (up.length) box.append(cardRow(up, "face-up cards of " + seatName(s, data)));
    if (view.face_down_counts) box.append(el("div", { class: "zone-line" }, "face down: " + view.face_down_counts[s]));
    if (view.known && view.known[s] && view.known[s].length)
      box.append(el("div", { class: "zone-line" }, "known in hand: "), cardRow(view.known[s], "known cards of " + seatName(s, data)));
  }
  return box;
}

function drawTableSeats(data) {
  const others = document.getElementById("others");
  others.replaceChildren();
  const n = data.players;
  const me = data.seat === null ? -1 : data.seat;
  // Around the table in playing order, starting after you.
  for (let k = 1; k <= n; k++) {
    const s = (Math.max(me, 0) + k) % n;
    if (s === me) continue;
    others.append(seatBox(data, s, "li"));
  }
  const mine = document.getElementById("my-seat");
  mine.replaceChildren();
  if (data.seat !== null) mine.append(seatBox(data, data.seat, "div"));
}

// ---------------------------------------------------------------- centre

function trickNode(data, trick, label) {
  const box = el("div", { class: "trick", role: "group", "aria-label": label });
  for (const [s, card] of trick) {
    box.append(el("figure", { class: "played" }, cardNode(card), el("figcaption", {}, seatName(s, data))));
  }
  if (!trick.length) box.append(el("span", { class: "empty" }, "no card played yet"));
  return box;
}

function chip(label, value) { return el("div", { class: "chip" }, el("span", { class: "chip-label" }, label + " "), value); }

function suitValue(s) { return el("strong", { class: "suit-" + s }, SUITS[s] + " " + SUIT_NAMES[s]); }

function drawCentre(data) {
  const v = data.view;
  const box = document.getElementById("centre");
  box.replaceChildren();
  const lastButton = document.getElementById("last-trick-button");
  lastButton.hidden = !(v.last_trick && v.last_trick.length);
  lastButton.setAttribute("aria-pressed", String(play.showLast));
  if (data.game === "crazy-eights") {
    if (v.top_card) box.append(chip("Top card", cardNode(v.top_card)));
    if (v.active_suit) box.append(chip("Suit to play", suitValue(v.active_suit)));
    if (v.pending_draw) box.append(chip("Pending draw", el("strong", {}, String(v.pending_draw))));
    if (v.direction !== undefined) box.append(chip("Direction", el("strong", {}, v.direction > 0 ? "\u21bb clockwise" : "\u21ba anticlockwise")));
    box.append(chip("Stock", el("strong", {}, String(v.stock_size))));
  } else if ("trick" in v) {
    if (data.game === "wizard") {
      if (v.turned_card) box.append(chip("Turned", cardNode(v.turned_card)));
      box.append(chip("Trumps", v.trump ? suitValue(v.trump) : el("strong", {}, "none")));
    } else {
      box.append(chip("Trumps", suitValue("S")));
      if (v.spades_broken !== undefined) box.append(chip("Spades", el("strong", {}, v.spades_broken ? "broken" : "not broken")));
    }
    if (v.suit_to_follow) box.append(chip("Follow", suitValue(v.suit_to_follow)));
    box.append(trickNode(data, v.trick || [], "The trick in play"));
    if (play.showLast && v.last_trick && v.last_trick.length) {
      const who = v.last_trick_winner !== undefined && v.last_trick_winner !== null ? " (won by " + seatName(v.last_trick_winner, data) + ")" : "";
      box.append(el("div", { class: "last" }, "Last trick" + who + ":"), trickNode(data, v.last_trick, "The last trick"));
    }
  } else if ("pile" in v) {
    const pile = v.pile || [];
    const top = pile.slice(-6);
    const row = el("div", { class: "pile", role: "group", "aria-label": "The pile, " + pile.length + " cards, top card last" });
    top.forEach(c => row.append(cardNode(c)));
    if (!pile.length) row.append(el("span", { class: "empty" }, "the pile is empty"));
    box.append(chip("Pile (" + pile.length + ")", row));
    box.append(chip("Reference", el("strong", {}, v.reference ? (v.reference === "T" ? "10" : v.reference) : "none: any card")));
    box.append(chip("Main stock", el("strong", {}, String(v.main_stock_size))));
    box.append(chip("Reserve", el("strong", {}, String(v.reserve_stock_size))));
  }
  const list = document.getElementById("sentences");
  list.replaceChildren();
  for (const s of (data.table ? data.table.status.sentences : [])) list.append(el("li", {}, s));
}

// ---------------------------------------------------------------- your hand and actions

// An action's cards: [{zone, card}] ("hand", "up", "down:N"), and its other words.
function parseAction(action) {
  const parts = action.split(" ");
  const verb = parts[0];
  const cards = [];
  const rest = [];
  if (verb === "play" || verb === "up") {
    for (const w of parts.slice(1)) {
      const up = w.toUpperCase();
      if (up.startsWith("+UP:")) cards.push("up:" + up.slice(4));
      else if (isCard(up)) cards.push((verb === "up" ? "up:" : "hand:") + up);
      else rest.push(w);
    }
  } else if (verb === "blind") {
    cards.push("down:" + parts[1]);
  } else {
    return { verb, cards: [], rest: parts.slice(1) };
  }
  return { verb, cards: cards.sort(), rest };
}

function contains(big, small) {  // multiset inclusion of sorted string lists
  const left = big.slice();
  for (const x of small) { const i = left.indexOf(x); if (i < 0) return false; left.splice(i, 1); }
  return true;
}

function legalPlays(data) { return data.legal.map(a => ({ action: a, ...parseAction(a) })).filter(p => p.cards.length); }

function selectedKeys() { return play.selected.map(x => x.key).sort(); }

function onCard(data, key, id) {
  const i = play.selected.findIndex(x => x.id === id);
  if (i >= 0) play.selected.splice(i, 1); else play.selected.push({ id, key });
  const sel = selectedKeys();
  const plays = legalPlays(data);
  const exact = plays.filter(p => p.cards.length === sel.length && contains(p.cards, sel));
  const bigger = plays.some(p => p.cards.length > sel.length && contains(p.cards, sel));
  if (exact.length === 1 && !bigger) { move(exact[0].action); return; }
  draw(data);
  const focus = document.querySelector('[data-id="' + id + '"]');
  if (focus) focus.focus();
}

function cardButton(data, code, key, id, plays, sel) {
  const selected = play.selected.some(x => x.id === id);
  const usable = selected || plays.some(p => contains(p.cards, sel.concat([key]).sort()));
  const hinted = play.hint && parseAction(play.hint).cards.includes(key);
  const where = key.startsWith("up:") ? "face-up " : "";
  const b = cardFace(code, "button", {
    type: "button", "data-id": id, "data-key": key,
    "aria-label": where + cardName(code) + (selected ? ", selected" : "") + (usable ? "" : ", cannot be played now"),
    "aria-pressed": usable ? String(selected) : null,
  });
  b.classList.add("in-hand");
  if (usable) b.classList.add("playable");
  if (selected) b.classList.add("selected");
  if (hinted) b.classList.add("hinted");
  b.disabled = !usable;
  b.addEventListener("click", () => onCard(data, key, id));
  return b;
}

function drawHand(data) {
  const v = data.view;
  const hand = document.getElementById("hand");
  const zones = document.getElementById("my-zones");
  hand.replaceChildren();
  zones.replaceChildren();
  if (data.seat === null) { hand.hidden = true; return; }
  hand.hidden = false;
  const myTurn = data.legal.length > 0;
  const plays = myTurn ? legalPlays(data) : [];
  const sel = selectedKeys();
  const codes = v.hand || [];
  hand.setAttribute("aria-label", "Your hand, " + codes.length + (codes.length === 1 ? " card" : " cards"));
  codes.forEach((code, i) => {
    if (myTurn) hand.append(cardButton(data, code, "hand:" + code, "h" + i, plays, sel));
    else hand.append(cardNode(code));
  });
  const held = v.hand_sizes ? v.hand_sizes[data.seat] : 0;
  if (!codes.length && held > 0) {  // dealt but not seen yet (Cutthroat Spades before you look)
    for (let i = 0; i < Math.min(held, 13); i++) hand.append(cardBack("face-down card"));
    hand.append(el("span", { class: "empty" }, " Your " + held + " cards are face down until you look at them."));
  } else if (!codes.length) hand.append(el("span", { class: "empty" }, "no cards in your hand"));
  // Spacc 'u Mazz: your own face-up and face-down cards, playable when the rules allow.
  if (v.face_up) {
    const mineUp = v.face_up[data.seat] || [];
    const up = el("div", { class: "my-zone", role: "group", "aria-label": "Your face-up cards" },
                  el("span", { class: "zone-line" }, "Your face-up cards: " + (mineUp.length ? "" : "none")));
    (v.face_up[data.seat] || []).forEach((code, i) => {
      up.append(myTurn ? cardButton(data, code, "up:" + code, "u" + i, plays, sel) : cardNode(code));
    });
    const nDown = v.face_down_counts ? v.face_down_counts[data.seat] : 0;
    const down = el("div", { class: "my-zone", role: "group", "aria-label": "Your face-down cards" },
                    el("span", { class: "zone-line" }, "Face down: " + (nDown ? "" : "none")));
    for (let i = 1; i <= nDown; i++) {
      const key = "down:" + i;
      const usable = plays.some(p => p.cards.includes(key));
      const hinted = play.hint && parseAction(play.hint).cards.includes(key);
      const b = el("button", { type: "button", class: "card back in-hand" + (usable ? " playable" : "") + (hinted ? " hinted" : ""), "data-id": "d" + i,
                               "data-key": key, "aria-label": "face-down card " + i + (usable ? ", play it blind" : "") });
      b.disabled = !usable;
      b.addEventListener("click", () => onCard(data, key, "d" + i));
      down.append(b);
    }
    zones.append(up, down);
  }
}

const LABELS = {
  draw: "Draw a card", pass: "Pass", take: "Pick up the pile", dump: "Throw your hand on the pile",
  keep: "Keep your hand", look: "Look at your cards",
};

function actionLabel(action) {
  if (LABELS[action]) return LABELS[action];
  const [verb, ...rest] = action.split(" ");
  if (verb === "trump") return "Trumps: " + SUITS[rest[0]] + " " + SUIT_NAMES[rest[0]];
  if (verb === "remove") {
    const [zone, what] = rest.join("").split(":");
    return zone === "up" ? "Remove your face-up " + cardText(what.toUpperCase()) : "Remove face-down card " + what;
  }
  return prettyText(action);
}

function playLabel(action) {
  const [verb, ...rest] = action.split(" ");
  if (verb === "blind") return "Play face-down card " + rest[0] + " blind";
  const cards = [], named = [];
  for (const w of rest) {
    const up = w.toUpperCase();
    if (up.startsWith("+UP:")) cards.push("face-up " + cardText(up.slice(4)));
    else if (isCard(up) && up.length >= 1 && !(up.length === 1 && SUITS[up])) cards.push((verb === "up" ? "face-up " : "") + cardText(up));
    else if (SUITS[up]) named.push(SUITS[up] + " " + SUIT_NAMES[up]);
    else cards.push(w);
  }
  return "Play " + cards.join(", ") + (named.length ? " and name " + named.join(" ") : "");
}

function bidLabel(action) {
  const b = action.slice(4);
  if (/^\d+$/.test(b)) return b;
  if (/^\d+f$/.test(b)) return b.slice(0, -1) + " for fifty";
  return { nil: "Nil", "blind-nil": "Blind nil", moon: "Moon (all tricks)" }[b] || b;
}

function drawControls(data) {
  const box = document.getElementById("controls");
  box.replaceChildren();
  const legal = data.legal;
  const bids = legal.filter(a => a.startsWith("bid "));
  if (bids.length) {
    const select = el("select", { id: "bid-select", "aria-label": "Your bid (only legal bids are offered)" });
    bids.forEach(a => select.append(el("option", { value: a }, bidLabel(a))));
    if (play.hint && bids.includes(play.hint)) select.value = play.hint;
    else if (bids.length > 2) select.value = bids[Math.floor(bids.length / 3)];
    const button = el("button", { type: "button", id: "bid-button", class: "primary", "aria-keyshortcuts": "b" }, "Bid");
    button.addEventListener("click", () => move(select.value));
    select.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); button.click(); } });
    box.append(el("label", { for: "bid-select", class: "bid-label" }, "Your bid "), select, button);
  }
  // Multi-card plays: what the selection makes, as buttons (one per legal completion).
  const sel = selectedKeys();
  if (sel.length) {
    const exact = legalPlays(data).filter(p => p.cards.length === sel.length && contains(p.cards, sel));
    if (exact.length) {
      exact.forEach((p, i) => {
        const label = playLabel(p.action);
        const b = el("button", { type: "button", class: "primary play-selection", id: i === 0 ? "play-button" : null,
                                 "data-action": p.action, "aria-label": spokenText(p.action) }, label);
        b.addEventListener("click", () => move(p.action));
        box.append(b);
      });
    } else {
      box.append(el("span", { class: "note" }, "Select more cards to make a play."));
    }
    const clear = el("button", { type: "button", id: "clear-button" }, "Clear selection");
    clear.addEventListener("click", () => { play.selected = []; draw(data); });
    box.append(clear);
  }
  let number = 0;
  for (const action of legal) {
    if (action.startsWith("bid ") || parseAction(action).cards.length) continue;
    number += 1;  // keys 1-9 press the first nine of these buttons (onKey)
    const key = number <= 9 ? String(number) : null;
    const b = el("button", { type: "button", class: "action" + (play.hint === action ? " hinted" : ""), "data-action": action,
                             "aria-keyshortcuts": key, "aria-label": actionLabel(action) },
                 key ? el("kbd", { class: "key", "aria-hidden": "true" }, key) : "", actionLabel(action));
    b.addEventListener("click", () => move(action));
    box.append(b);
  }
  document.getElementById("notes").textContent = (data.table ? data.table.notes : []).join(" ");
}

// ---------------------------------------------------------------- scores, history, the end

function htmlTable(t, caption) {
  const table = el("table", {}, el("caption", {}, caption || t.title || "Seats"));
  const head = el("tr");
  t.header.forEach(h => head.append(el("th", { scope: "col" }, h)));
  table.append(el("thead", {}, head));
  const body = el("tbody");
  t.rows.forEach(r => {
    const tr = el("tr");
    r.forEach((c, i) => tr.append(i === 0 ? el("th", { scope: "row" }, c) : el("td", { class: t.numeric[i] ? "num" : null }, c)));
    body.append(tr);
  });
  table.append(body);
  return table;
}

function drawScores(data) {
  const box = document.getElementById("scores");
  box.replaceChildren();
  for (const t of (data.table ? data.table.status.tables : [])) box.append(el("div", { class: "scroll" }, htmlTable(t)));
  const rounds = data.view.round_points;
  if (!(rounds && rounds.length) && play.sheet.length) {
    const header = ["hand"].concat(Array.from({ length: data.players }, (_, s) => s === data.seat ? "you" : "seat " + s));
    const rows = play.sheet.map((r, i) => [String(i + 1)].concat(r.map(x => (x > 0 ? "+" : "") + x)));
    box.append(el("div", { class: "scroll" }, htmlTable({ header, rows, numeric: header.map((_, i) => i > 0) }, "Points per hand")));
  }
  if (rounds && rounds.length) {
    const header = ["round"].concat(Array.from({ length: data.players }, (_, s) => s === data.seat ? "you" : "seat " + s));
    const rows = rounds.map((r, i) => [String(i + 1)].concat(r.map(x => (x > 0 ? "+" : "") + x)));
    rows.push(["total"].concat(data.view.scores.map(String)));
    box.append(el("div", { class: "scroll" }, htmlTable({ header, rows, numeric: header.map((_, i) => i > 0) }, "Points per round")));
  }
}

function narrate(data) {
  const list = document.getElementById("narration");
  for (const entry of data.entries) {
    // The score sheet per hand: every event with "points" for each seat (a hand's end).
    for (const ev of entry.events || []) {
      if (Array.isArray(ev.points) && ev.points.length === data.players && ev.points.every(x => typeof x === "number"))
        play.sheet.push(ev.points);
      else if (Array.isArray(ev.seats) && ev.seats.length === data.players && ev.seats.every(x => x && typeof x.total === "number"))
        play.sheet.push(ev.seats.map(x => x.total));  // Cutthroat Spades: each seat's hand total
    }
    const sentences = entry.sentences && entry.sentences.length ? entry.sentences
      : [(entry.actor < 0 ? "The dealer" : seatName(entry.actor, data)) + (entry.text ? ": " + prettyText(entry.text) : "")];
    const timedOut = data.clock && data.clock.timed_out.includes(entry.seq)
      ? " (time ran out: the " + data.clock.stand_in + " bot played this move)" : "";
    const item = el("li", { "data-seq": String(entry.seq) }, sentences.join(" ") + timedOut);
    list.prepend(item);
  }
}

function drawSummary(data) {
  const box = document.getElementById("summary");
  box.hidden = !data.is_over;
  if (!data.is_over) return;
  document.getElementById("rematch-button").hidden = data.seat === null;
  const winners = data.result ? data.result.winners.map(s => seatName(s, data)) : [];
  const youWon = data.result && data.result.winners.includes(data.seat);
  document.getElementById("summary-text").textContent =
    (youWon ? "You won! " : "") + "Winner" + (winners.length === 1 ? ": " : "s: ") + (winners.join(", ") || "nobody") + ".";
  const header = ["seat", "final score"];
  const rows = (data.result ? data.result.scores : data.scores).map((x, s) => [seatName(s, data), String(x)]);
  document.getElementById("summary-scores").replaceChildren(htmlTable({ header, rows, numeric: [false, true] }, "Final scores"));
}

// ---------------------------------------------------------------- one update

function update(data) {
  if (data.seq !== play.seq) { play.selected = []; play.hint = null; document.getElementById("hint").hidden = true; }
  play.seq = data.seq;
  play.last = data;
  showError("");
  narrate(data);
  draw(data);
}

function draw(data) {
  document.getElementById("seeded").hidden = !data.seeded;
  const rules = document.getElementById("rules-link");
  rules.hidden = false;
  rules.href = "/rules/" + encodeURIComponent(data.game);
  rules.textContent = "Rules of " + data.game;
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
  } else if (data.to_act === null || data.to_act === undefined) {
    status.textContent = "Dealing\u2026";
  } else {
    status.textContent = seatName(data.to_act, data) + (data.to_act === data.seat ? " are" : " is") + " to act.";
  }
  document.getElementById("hint-button").hidden = !(data.legal.length > 0);
  drawUndo(data);
  drawClock(data);
  document.getElementById("keys").hidden = data.seat === null;
  drawTableSeats(data);
  drawCentre(data);
  drawHand(data);
  drawControls(data);
  drawScores(data);
  drawSummary(data);
}

// ---------------------------------------------------------------- keyboard

function toggleKeyHelp() {
  const help = document.getElementById("key-help");
  help.hidden = !help.hidden;
}

function pressIfShown(id, when) {
  const b = document.getElementById(id);
  if (when && b && !b.hidden && !b.disabled) b.click();
}

function onKey(e) {
  if (e.target && ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName)) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const data = play.last;
  if (!data) return;
  if (e.key === "h" || e.key === "H") { if (data.legal.length) askHint(); e.preventDefault(); return; }
  if (e.key === "?") { toggleKeyHelp(); e.preventDefault(); return; }
  if (e.key === "u" || e.key === "U") { askUndo(); e.preventDefault(); return; }
  if (e.key === "r" || e.key === "R") { pressIfShown("rematch-button", data.is_over); return; }
  if (e.key === "b" || e.key === "B") {
    const select = document.getElementById("bid-select");
    if (select) { select.focus(); e.preventDefault(); }
    return;
  }
  if (/^[1-9]$/.test(e.key)) {
    const b = document.querySelector('#controls button.action[aria-keyshortcuts="' + e.key + '"]');
    if (b && !b.disabled) { b.click(); e.preventDefault(); }
    return;
  }
  if (e.key === "Escape") { document.getElementById("key-help").hidden = true; play.selected = []; draw(data); return; }
  if (e.key === "p" || e.key === "P") { const b = document.getElementById("play-button"); if (b) b.click(); return; }
  if (e.key === "l" || e.key === "L") { const b = document.getElementById("last-trick-button"); if (!b.hidden) b.click(); return; }
  if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
    const cards = Array.from(document.querySelectorAll("#me button.card:not([disabled])"));
    if (!cards.length) return;
    const i = cards.indexOf(document.activeElement);
    const next = i < 0 ? 0 : (i + (e.key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length;
    cards[next].focus();
    e.preventDefault();
  }
}
