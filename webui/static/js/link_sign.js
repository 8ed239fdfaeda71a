// The sign of a phone cut off from the table, in view whatever is scrolled: a scorer's "Offline" with the entries
// waiting to be sent, just above the bottom bar by the thumb; a follower's lost live view, with how old the table it
// shows may be (when this phone last heard from the server: what a follower can know), at the bottom of the screen.

import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

const AGO_EVERY_MS = 15000;

let heardAt = Date.now();
let streamUp = null; // null until the stream has said anything
let read = () => ({});
const sign = h("p", { class: "link-sign", id: "link-sign", role: "status", hidden: true });

/** `what()` answers {match, scoring, offline, waiting}: whether a match is open, with the key, offline, entries waiting. */
export function useLinkSign(what) {
  read = what;
  document.body.append(sign);
  setInterval(drawLinkSign, AGO_EVERY_MS);
}

/** The server answered (a state, or "nothing new"). */
export function heard() {
  heardAt = Date.now();
}

/** The live stream came (a message) or broke. */
export function streamChanged(up) {
  streamUp = up;
  drawLinkSign();
}

function ago(ms) {
  const minutes = Math.floor(ms / 60000);
  return minutes < 1 ? t("status.ago_now") : tn("status.ago_min", minutes);
}

export function drawLinkSign() {
  const { match, scoring, offline, waiting } = read();
  let text = "";
  if (match && scoring && offline) text = waiting ? `${t("status.offline")} · ${tn("status.pending", waiting)}` : t("status.offline");
  else if (match && !scoring && streamUp === false) text = t("status.stream_lost", { ago: ago(Date.now() - heardAt) });
  sign.hidden = !text;
  // a sign too long for the line wraps between its parts, never inside one
  sign.replaceChildren(...text.split(" · ").map((part, i) => [i ? " · " : "", h("span", { class: "part", text: part })]).flat());
  // a scorer's at the table just above the bottom bar (in the bar, which the page redraws), else at the screen's bottom
  const bar = document.getElementById("bottom");
  const home = bar && !bar.hidden ? bar : document.body;
  if (sign.parentElement !== home) home.append(sign);
}
