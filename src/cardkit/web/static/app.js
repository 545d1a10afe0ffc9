// cardkit web client: a lobby that creates matches (lobby.js), and a table per game
// (table.js) drawn from the server's updates. No build step; no inline script or style
// (the host's Content-Security-Policy forbids both).
"use strict";

const params = new URLSearchParams(location.hash.slice(1));
if (params.has("match")) table(params); else lobby();
// A seat link opened in the same tab only changes the fragment: start over with it.
window.addEventListener("hashchange", () => location.reload());
