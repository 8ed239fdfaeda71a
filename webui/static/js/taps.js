// Taps the table did not mean. One tap per card works well, and that is what makes a stray tap dangerous:
//
// - a control that has just appeared or moved (the page changed under the finger, or another phone moved
//   the table) takes no tap for SETTLE_MS: the tap is ignored and the page says so;
// - a control that records something (a card key, a bid, Deal, Undo...) tapped twice within DOUBLE_MS
//   records once, and the second tap asks ("S played 3 too?") away from where the finger is.
//
// Controls are known by what they are (their id or their data-card, data-bid...), not by their element: the
// page redraws its elements after every entry.

export const SETTLE_MS = 350;
export const DOUBLE_MS = 500;
// quicker than this, the same key again is a finger's bounce whoever it now records for: it asks
export const BOUNCE_MS = 200;
const DOUBLE_UNDO_MS = 1000; // an undo takes back something recorded: a second one soon after always asks

const IDENTITY = ["data-card", "data-bid", "data-seat", "data-suit", "data-attack", "data-take", "data-exchange", "data-lang"];
const CONTROLS = "button, summary, a[href], input, select";

const WHO = "\u0001"; // in an identity, before whom the control records for (never in a name: no control characters)
const seen = new Map(); // identity -> {box, since}
let last = null; // the last tap that went through: {identity, at}
let bypass = false;
let hooks = { active: () => false, ignored: () => {}, twice: () => {}, quick: () => {} };
let ahead = 0; // ms added to the page's clock by `passes`, for these checks alone
const clock = () => performance.now() + ahead;

/** Where a control lives and what it is, the same after a redraw. */
export function identityOf(el) {
  const place = el.closest("[data-area]")?.dataset.area || el.closest("section, nav, footer, header, form, details")?.className || "";
  if (el.id) return `${place}#${el.id}`;
  const attribute = IDENTITY.find((name) => el.hasAttribute(name));
  const what = attribute ? `[${attribute}=${el.getAttribute(attribute)}]` : `:${el.textContent.trim().slice(0, 40)}`;
  // a key that records for a player is another control once it records for another one (the next seat's 10)
  const who = el.dataset.who ? `${WHO}${el.dataset.who}` : "";
  return `${place}|${el.tagName}${what}${who}`;
}

/** The control's identity without whom it records for: the same key, whichever seat it is for. */
function keyOf(identity) {
  const at = identity.indexOf(WHO);
  return at < 0 ? identity : identity.slice(0, at);
}

/**
 * The control's box on the page (on the screen, for a control in the bottom bar or the top bar, which sticks to
 * the top of the screen): scrolling moves nothing.
 */
function boxText(el) {
  const r = el.getBoundingClientRect();
  const fixed = Boolean(el.closest(".fixed-bar, header.bar"));
  let x = fixed ? r.left : r.left + window.scrollX;
  let y = fixed ? r.top : r.top + window.scrollY;
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    x += box.scrollLeft; // a message scrolled inside its place has not moved under the finger
    y += box.scrollTop;
  }
  return `${Math.round(x)},${Math.round(y)},${Math.round(r.width)},${Math.round(r.height)}`;
}

/** The controls inside `root` count as new: something that covered them went, or came. */
export function touch(root) {
  if (!root) return;
  const now = clock();
  for (const el of root.querySelectorAll(CONTROLS)) seen.set(keyOf(identityOf(el)), { box: boxText(el), since: now });
  settling(now);
}

/**
 * After the page was drawn: controls that appeared or moved are settling for SETTLE_MS. `everything` marks
 * every control as new (the table was moved by another phone: what a key means has changed).
 */
export function measure({ everything = false } = {}) {
  const now = clock();
  const present = new Set();
  let changed = everything;
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (!el.isConnected || el.closest(".visually-hidden")) continue;
    const id = keyOf(identityOf(el)); // a key that now records for the next seat has not moved
    const box = boxText(el);
    present.add(id);
    const before = seen.get(id);
    if (everything || !before || before.box !== box) {
      seen.set(id, { box, since: now });
      changed = true;
    }
  }
  for (const id of seen.keys()) if (!present.has(id)) seen.delete(id);
  if (changed) settling(now);
}

let settleTimer = null;
let settleFrom = 0;
function settling(now) {
  document.documentElement.dataset.settling = "";
  settleFrom = now;
  settled();
}

/** Whether a control still settles: the page keeps `data-settling` on its root until none does. */
function settled() {
  clearTimeout(settleTimer);
  const left = Math.max(...[...seen.values()].map((v) => v.since), settleFrom) + SETTLE_MS - clock();
  if (left > 0) settleTimer = setTimeout(settled, left);
  else delete document.documentElement.dataset.settling;
}

/**
 * Time passes for these checks alone, as if the table waited `ms` before its next tap (by default, until no control
 * settles); answers the ms passed. The page's tests wait so for a control that moved, and a key tapped again not as a
 * double tap, without waiting for them: nothing else of the page moves on.
 */
export function passes(ms) {
  const waited = ms ?? Math.max(0, Math.max(...[...seen.values()].map((v) => v.since), settleFrom) + SETTLE_MS - clock());
  ahead += waited;
  settled();
  return waited;
}

function onClick(event) {
  if (bypass || !hooks.active()) return;
  const el = event.target instanceof Element ? event.target.closest(CONTROLS) : null;
  if (!el || el.disabled || el.closest(".visually-hidden")) return;
  const now = clock();
  const id = identityOf(el);
  const place = keyOf(id);
  if (!seen.has(place) || seen.get(place).box !== boxText(el)) measure(); // it moved unnoticed: it is new now
  if (seen.has(place) && now - seen.get(place).since < SETTLE_MS) {
    stop(event);
    hooks.ignored(el);
    return;
  }
  if (el.hasAttribute("data-records")) {
    const window = el.id === "undo" ? DOUBLE_UNDO_MS : DOUBLE_MS;
    const again = last && (last.identity === id || (keyOf(last.identity) === keyOf(id) && now - last.at < BOUNCE_MS));
    if (again && now - last.at < window) {
      stop(event);
      last = null;
      hooks.twice(el, id);
      return;
    }
    // the same key again soon, now for the next seat: a play that can stand (the next player's 10 after a 10),
    // recorded, and the page says so where the thumb is
    if (last && last.identity !== id && keyOf(last.identity) === keyOf(id) && now - last.at < window) hooks.quick(el);
    last = { identity: id, at: now };
  }
}

function stop(event) {
  event.preventDefault();
  event.stopImmediatePropagation();
}

/** The control known as `identity` as the page shows it now; null when it is gone. */
export function controlOf(identity) {
  return [...document.querySelectorAll(CONTROLS)].find((c) => identityOf(c) === identity) || null;
}

/** Taps the control known as `identity` for the table, past the double-tap check; false when it is gone. */
export function tapAgain(identity) {
  const el = controlOf(identity);
  if (!el || el.disabled) return false;
  bypass = true;
  try {
    el.click();
  } finally {
    bypass = false;
  }
  last = { identity, at: clock() };
  return true;
}

/**
 * Watches the page from now on: every change of the page is measured as it happens. `active()`: whether taps
 * are checked (at the table, not in the start form); `ignored(el)`: a tap on a control that had just moved;
 * `twice(el, identity)`: a second tap of a recording control; `quick(el)`: the same key tapped again soon for
 * another player (recorded).
 */
export function watchTaps(callbacks) {
  hooks = { ...hooks, ...callbacks };
  document.addEventListener("click", onClick, true);
  new MutationObserver(() => measure()).observe(document.body, { childList: true, subtree: true, characterData: true });
  // a phone turned moves every control: they settle from the turn, not from the first tap after it (which the
  // page would otherwise ignore however long the table had looked at the turned screen)
  window.addEventListener("resize", () => measure());
}
