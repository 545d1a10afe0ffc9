// cardkit web client, part 1: cards as text, symbols and words, and small DOM helpers.
// Everything from the server is inserted as text (textContent), never as HTML.
"use strict";

const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = { A: "ace", K: "king", Q: "queen", J: "jack", T: "ten", 9: "nine", 8: "eight", 7: "seven",
                     6: "six", 5: "five", 4: "four", 3: "three", 2: "two" };
const CARD = /^([2-9TJQKA])([SHDC])$|^(RJ|BJ|XJ|W|N)$/;
const SPECIAL = { RJ: "red joker", BJ: "black joker", XJ: "joker", W: "Wizard", N: "Jester" };
const SHORT = { RJ: "Jkr", BJ: "Jkr", XJ: "Jkr", W: "Wiz", N: "Jes" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v; else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child instanceof Node ? child : String(child));
  return node;
}

function isCard(value) { return typeof value === "string" && CARD.test(value); }

// "QS" -> "queen of spades": what screen readers read.
function cardName(code) {
  const m = CARD.exec(code);
  if (!m) return code;
  if (m[3]) return SPECIAL[m[3]];
  return RANK_NAMES[m[1]] + " of " + SUIT_NAMES[m[2]];
}

// "QS" -> "Q♠", "TH" -> "10♥": what the eye reads.
function cardText(code) {
  const m = CARD.exec(code);
  if (!m) return code;
  if (m[3]) return SPECIAL[m[3]].replace(/^./, c => c.toUpperCase());
  return (m[1] === "T" ? "10" : m[1]) + SUITS[m[2]];
}

function suitOf(code) { const m = CARD.exec(code); return m && m[2] ? m[2] : (code === "RJ" ? "H" : ""); }

// A card face: rank in the corner, a big suit symbol; the shape of the suit symbol (and a
// suit-specific pattern class) tells suits apart without colour. role=img + aria-label
// gives screen readers the card's name; a button variant is built by cardButton.
function cardFace(code, tag, attrs) {
  const m = CARD.exec(code);
  const suit = suitOf(code);
  const node = el(tag || "span", Object.assign({ class: "card suit-" + (suit || "x"), "data-card": code }, attrs || {}));
  if (m && m[3]) {
    node.classList.add("special");
    node.append(el("span", { class: "rank", "aria-hidden": "true" }, SHORT[m[3]]),
                el("span", { class: "pip", "aria-hidden": "true" }, m[3] === "W" ? "\u2605" : (m[3] === "N" ? "\u263A" : "\u2726")));
  } else if (m) {
    node.append(el("span", { class: "rank", "aria-hidden": "true" }, m[1] === "T" ? "10" : m[1]),
                el("span", { class: "pip", "aria-hidden": "true" }, SUITS[m[2]]));
  } else {
    node.append(code);
  }
  return node;
}

function cardNode(code) { return cardFace(code, "span", { role: "img", "aria-label": cardName(code) }); }

function cardBack(label) { return el("span", { class: "card back", role: "img", "aria-label": label || "face-down card" }); }

function cardRow(codes, label) {
  const row = el("span", { class: "cards", role: "group", "aria-label": label || null });
  for (const c of codes) row.append(cardNode(c));
  return row;
}

// Action and event text with suit symbols: "play 8H S" -> "play 8♥ ♠".
function prettyText(text) {
  return String(text).split(" ").map(w => {
    const up = w.toUpperCase().replace(/^\+?UP:/, "");
    if (isCard(up) && up.length === 2) return (w.includes(":") ? "face-up " : "") + cardText(up);
    if (up.length === 1 && SUITS[up]) return SUITS[up] + " " + SUIT_NAMES[up];
    return w;
  }).join(" ");
}

// The same in words for screen readers: "play 8H S" -> "play eight of hearts, name spades".
function spokenText(text) {
  return String(text).split(" ").map(w => {
    const up = w.toUpperCase().replace(/^\+?UP:/, "");
    if (isCard(up)) return (w.includes(":") ? "face-up " : "") + cardName(up);
    if (up.length === 1 && SUITS[up]) return SUIT_NAMES[up];
    return w;
  }).join(" ");
}

function words(key) { return String(key).replace(/_/g, " "); }
