// Kibic's page: start a match, or open one (`?m=<id>`), score it when this phone holds its key, follow it
// read-only otherwise. A scorer link carries the key in the fragment (`#key=...`): it is stored on this
// phone and taken out of the address at once.

import { api, reading } from "./api.js";
import { openBigScreen } from "./bigscreen.js";
import { clubOf, clubShown, draw as drawClub, openClub } from "./club.js";
import { h } from "./dom.js";
import { follow } from "./follow.js";
import { bindLanguageButtons, cardText, chooseLanguage, language, setLanguage, t, tn } from "./i18n.js";
import { correctionRefused } from "./corrections.js";
import { drawEveningAgain, eveningEntry, openEvening } from "./evening.js";
import { describeEvent, loadEvents } from "./log.js";
import { local } from "./local.js";
import { Outbox } from "./outbox.js";
import { bottomBar, renderMatch } from "./play.js";
import { announce, backToDesk, clearRefusals, leaveDesk, onMessagesChanged, showError, showFinding, showNotice, showQuestion, useDesk } from "./referee.js";
import { tellWhatIsLost } from "./secure.js";
import { draftForEvening, gameTitle, renderSetup } from "./setup.js";
import { cutLongNames } from "./table.js";
import { controlOf, measure, tapAgain, touch, watchTaps } from "./taps.js";
import { bindThemeButton } from "./theme.js";
import { keepAwake } from "./wake.js";
import { drawLinkSign, heard, streamChanged, useLinkSign } from "./link_sign.js";
import { verdictText } from "./words.js";

const POLL_MS = 1500;
const ENTRY_UI = ["seat", "dealer", "drawn", "trump", "attack", "beats", "active", "penalty", "penaltySeat",
                  "penaltyPoints", "penaltyReason", "hands", "handSeat", "handsOpen", "handUi", "by", "picks", "transfer",
                  "firstAttacker"];

const app = {
  games: [],
  clubId: null, // the club whose page this is (`?c=`), drawn by club.js
  matchId: null,
  key: null,
  state: null,
  etag: null,
  outbox: null,
  ui: { tab: "table" },
  seenFindings: new Set(),
  polling: false,
  arriving: Promise.resolve(),
  lastPushed: null, // the stream's last message: {id, seq, text}
  lastLive: null, // the latest event an undo would take back (scorers only)
  lastWord: () => "", // what became of the last tap, in the bar at the bottom: words drawn in the page's language
  pushed: false, // another phone moved the table since the page was last drawn
  linkKey: null, // a key that came in the address, until the server confirms it is the match's
  showHands: false, // the hands entered for the referee are shown on this phone (asked for, per match)
  log: [], // the log as last read (scorers only), with the hands when they are shown
  quickNext: false, // the tap being handled is the same key again, for the next seat (taps.js)
  quickEntries: new Set(), // the entries (their ids) such a tap sent: the bar says so when they are recorded
  lastRecorded: { entry: "", seq: 0, times: 0 }, // the last entry recorded here (but its seq), its seq, times in a row
};

const main = () => document.getElementById("app");

function findingId(f) {
  return `${f.seq}:${f.proof_seq}:${f.code}`;
}

/** Clears what the table was entering, except the parts named in `keep`. */
function resetEntry(keep = []) {
  for (const name of ENTRY_UI) if (!keep.includes(name)) delete app.ui[name];
}

// --- the context each view gets -------------------------------------------------------------------

function context() {
  const state = app.state;
  return {
    lang: language(),
    games: app.games,
    matchId: app.matchId,
    key: app.key,
    state,
    names: state ? state.players.map((p) => p.name) : [],
    canScore: Boolean(app.key),
    offline: app.outbox ? app.outbox.offline : false,
    ui: app.ui,
    pending: () => (app.outbox ? app.outbox.entries() : []),
    lastLive: app.lastLive,
    lastWord: app.lastWord(),
    ask, // a question before something is recorded (End's), asked again in the language the table switches to
    notice: (text) => showNotice(text),
    say: (words) => say(words),
    showHands: app.showHands,
    toggleHands,
    log: () => app.log,
    keepLog, // the log read by the log's tab: the log as last read from then on
    firstDealer: () => local.get(`first_dealer.${app.matchId}`),
    eveningKey: (id) => local.get(`evening_key.${id}`),
    send,
    undo,
    redraw: render,
    open: (id) => { location.href = `?m=${encodeURIComponent(id)}`; },
  };
}

const FOCUS_ATTRIBUTES = ["data-card", "data-bid", "data-seat", "data-suit", "data-attack", "data-take", "data-exchange"];

/** Where the keyboard is in the page, as a selector that finds the same control after the page is redrawn. */
function focusedControl() {
  const el = document.activeElement;
  if (!el || !main().contains(el)) return null;
  if (el.id) return `#${CSS.escape(el.id)}`;
  const attribute = FOCUS_ATTRIBUTES.find((name) => el.hasAttribute(name));
  return attribute ? `${el.tagName.toLowerCase()}[${attribute}="${CSS.escape(el.getAttribute(attribute))}"]` : null;
}

function render() {
  const focused = focusedControl();
  draw();
  placeReferee();
  drawBottom();
  drawLinkSign();
  cutLongNames(main());
  bringStepInView();
  if (app.matchId && app.state) local.set(`state.${app.matchId}`, app.state); // to open it again without network
  keepAwake(Boolean(app.matchId && app.state && app.key && app.state.status === "playing"));
  if (focused) main().querySelector(focused)?.focus({ preventScroll: true });
  if (app.pushed) {
    app.pushed = false;
    measure({ everything: true }); // what every key means has changed under the finger
  }
}

const referee = document.getElementById("referee");

/**
 * The referee's messages at the top of the page, except at the table: there a scorer's come in the bottom bar (the
 * desk), and a follower's (a phone without the key, no bar) at the bottom of the screen; never over the seats.
 */
function placeReferee() {
  const area = main().querySelector(".table-area");
  referee.classList.toggle("at-bottom", Boolean(area));
  referee.dataset.area = "referee";
  if (referee.nextElementSibling !== main()) main().before(referee);
}

// the questions and refusals waiting for an answer at the table, in the bottom bar above its line (referee.js)
const desk = h("div", { class: "desk", id: "desk", "data-area": "desk" });
useDesk(desk, () => !document.getElementById("bottom").hidden);

function drawBottom() {
  const bar = document.getElementById("bottom");
  const shown = Boolean(app.matchId && app.state && app.key && app.ui.tab === "table");
  bar.hidden = !shown;
  document.body.classList.toggle("with-bar", shown);
  if (shown) {
    bar.replaceChildren(desk, ...bottomBar(context()));
    backToDesk();
  }
  else leaveDesk(); // a question still waiting: at the top of the other tabs
}

let stepShown = null; // the step (of this match, at this seq) last brought into view

/**
 * A step marked `data-in-view` (Dureń's attack and defence: a keypad of every card, and right after the deal the
 * swap of the nine of trumps below the log button; every game's deal step, its Deal below the seats, the dealer's
 * choice and the card turned up) may reach below the bottom bar on a small phone, which the page keeps room for
 * below its content. When such a step comes, the page scrolls just enough that the whole step, down to its last
 * button (or down to the control marked `data-in-view-end`: Deal, above the optional known hands), is above the
 * bar (never its heading under the top bar), and its controls count as moved: a tap in that moment is ignored
 * (taps.js). Only when the step comes: while it is entered, and when it is already in view, nothing scrolls.
 * A later deal comes under the last deal's result, which the table reads before it deals: the result stays whole
 * below the top bar (the page scrolls back up to it if it was scrolled past), even where Deal then waits below the
 * bottom bar, to be scrolled to (Oh Hell's or Dureń's deal step with a result above it does not fit a 360x740 phone).
 */
function bringStepInView() {
  const step = app.ui.tab === "table" ? main().querySelector(".action[data-in-view]") : null;
  const shown = step && `${app.matchId}:${app.state.seq}:${step.dataset.inView}`;
  if (!step || shown === stepShown) {
    stepShown = shown;
    return;
  }
  stepShown = shown;
  const bar = document.getElementById("bottom");
  if (bar.hidden) return;
  const end = step.querySelector("[data-in-view-end]") || step;
  const result = step.previousElementSibling?.matches(".result") ? step.previousElementSibling : null;
  const top = result ? result.getBoundingClientRect().top - parseFloat(getComputedStyle(result).marginTop)
    : step.getBoundingClientRect().top;
  const below = end.getBoundingClientRect().bottom - bar.getBoundingClientRect().top;
  const room = top - document.querySelector(".bar").getBoundingClientRect().bottom;
  let by = Math.max(0, Math.min(below, room));
  if (result && room < 0) by = room; // the page was scrolled past the result: back up to it
  if (!by) return;
  window.scrollBy({ top: by, behavior: "instant" });
  touch(step);
}

/**
 * Says in the bottom bar what became of the last tap. `words` makes the text (`() => t(...)`), so that the bar
 * says it again in the new language when the table switches: a string is kept as it is.
 */
function say(words) {
  app.lastWord = typeof words === "function" ? words : () => words;
  const word = document.getElementById("last-word");
  if (word) word.textContent = app.lastWord();
}

let asked = null; // the question asked, still open or gone: {item, question, yesLabel, yes, yesId}

/**
 * Asks `question()` (a function of the words, made anew in each language), the bar's line saying `said()` (the
 * question itself unless given): `yes` does what is asked, answered by `yesLabel()` (the page's "Yes" when it
 * makes none).
 */
function ask(question, { yes, yesLabel = () => undefined, yesId, said = question } = {}) {
  say(said);
  asked = { item: showQuestion(question(), { yes, yesLabel: yesLabel(), yesId }), question, yesLabel, yes, yesId };
  return asked.item;
}

/**
 * The second tap of a recording control: ask, away from the finger, whether it was meant. The question and the
 * bottom bar's words about it are made anew in each language: a control is named by its words as the page
 * shows them now (the words it had when tapped only once it is gone).
 */
function askTwice(el, identity) {
  const { records, who, card, bid } = el.dataset;
  const label = el.textContent.trim();
  const question = () => {
    if (records === "play") return t("double.play", { name: who, card: cardText(card) });
    if (records === "bid") return t("double.bid", { name: who, bid });
    if (records === "undo") return t("double.undo");
    return t("double.again", { what: controlOf(identity)?.textContent.trim() || label });
  };
  // "Undo one more entry?" is answered "Yes, undo" (a yes that records an undo, not a play or a bid)
  const yesLabel = () => (records === "undo" ? t("double.undo_yes") : undefined);
  const yes = () => { if (!tapAgain(identity)) say(() => t("double.gone")); };
  ask(question, { yes, yesLabel, said: () => `${t("double.asked")} ${question()}` });
}

/** The question asked, still open, asked again in the language the table switched to. */
function askAgain(open) {
  if (open) asked = { ...open, item: showQuestion(open.question(), { yes: open.yes, yesLabel: open.yesLabel(), yesId: open.yesId }) };
}

function draw() {
  const ctx = context();
  const title = document.getElementById("bar-title");
  if (app.clubId) {
    drawClub(); // the club read again, in the language just chosen
    return;
  }
  if (!app.matchId && drawEveningAgain()) return; // an evening's page, not the start form
  if (!app.matchId) {
    title.textContent = "";
    document.title = "Kibic";
    renderSetup(main(), ctx);
    if (!new URLSearchParams(location.search).has("e")) main().append(eveningEntry());
    return;
  }
  if (!app.state) return;
  title.textContent = gameTitle(app.state.game, app.games);
  document.title = `Kibic · ${title.textContent}`;
  renderMatch(main(), ctx);
}

// --- writing ---------------------------------------------------------------------------------------

/**
 * Sends an entry; `step`, what the step showed beside it (the defence's row), to draw it the same while it waits;
 * `keep`, what the table was entering that outlives this entry (the cards picked for an attack, across the swap
 * of the nine of trumps).
 */
function send(body, step, { keep = [] } = {}) {
  clearRefusals();
  const entry = app.outbox.add("events", body, app.state.seq, step);
  if (app.quickNext) app.quickEntries.add(entry.id);
  app.quickNext = false;
  resetEntry(keep);
  const names = app.state.players.map((p) => p.name);
  say(() => t("word.sending", { what: describeEvent(body, names) }));
  render();
}

function resend(route, body) {
  clearRefusals();
  app.outbox.add(route, body, app.state.seq);
  render();
}

function undo() {
  clearRefusals();
  if (app.outbox.cancelLast()) {
    showNotice(t("undo.cancelled"));
    say(() => t("undo.cancelled"));
    render();
    return;
  }
  app.outbox.add("undo", {}, app.state.seq);
  say(() => t("word.sending", { what: t("event.undo_request") }));
  resetEntry();
  render();
}

/**
 * A newer state of the match. When someone else moved the table (another phone), what this phone was
 * entering no longer applies and is cleared; its own recorded entries were cleared when they were sent.
 */
function takeState(state, { own = false, putBack = false } = {}) {
  if (!state || (!putBack && app.state && state.seq < app.state.seq && state.id === app.state.id)) return;
  const moved = !app.state || state.seq !== app.state.seq || putBack;
  app.state = state;
  if (moved && !own) {
    resetEntry();
    app.pushed = true;
  }
}

/**
 * An entry recorded: the page shows the step the answer's state brings at once, before anything is read to say
 * more about it (the proof of a finding, what an undo took back).
 */
async function recorded(answer, entry) {
  takeState(answer.state, { own: true });
  const names = app.state.players.map((p) => p.name);
  const event = answer.event;
  for (const warning of answer.warnings) {
    showNotice(t("finding.let_stand", { what: verdictText(warning.code, warning.details, warning.seat, names) || warning.message }));
  }
  if (event.type !== "undo") {
    app.lastLive = event;
    // the same entry twice in a row in the log (a trick's winner leads the rank just played; no entry of another
    // phone, no undo between), whatever the language each was said in: the bar says it was recorded again
    const same = JSON.stringify({ ...event, seq: undefined });
    const again = app.lastRecorded.entry === same && app.lastRecorded.seq === event.seq - 1;
    const times = again ? app.lastRecorded.times + 1 : 1;
    app.lastRecorded = { entry: same, seq: event.seq, times };
    const quick = app.quickEntries.delete(entry.id);
    // a double tap asked before this answer came (a slow network): the bar keeps saying what is asked above
    if (!(asked && asked.item.isConnected)) say(() => {
      const now = describeEvent(event, names);
      if (quick) return t("word.recorded_next", { what: now });
      return times > 1 ? t("word.recorded_again", { n: times, what: now }) : t("announce.recorded", { what: now });
    });
  } else {
    app.lastRecorded = { entry: "", seq: 0, times: 0 };
    app.lastLive = null; // the latest live event before it is known when the log is read again, just below
  }
  render();
  for (const finding of answer.findings) {
    app.seenFindings.add(findingId(finding));
    showFinding(finding, names, await proofText(finding));
  }
  if (event.type === "undo") {
    const log = await readLog();
    const undone = log.find((e) => e.seq === event.undoes);
    const what = () => (undone ? describeEvent(undone, names) : t("undo.unknown"));
    showNotice(t("undo.done", { what: what() }), { detail: t("undo.recorded") });
    say(() => t("undo.done", { what: what() }));
  } else if (event.type === "deal" && !("dealer" in entry.body)) {
    showNotice(t("deal.lot_chose", { name: names[event.dealer] }));
  }
  announce(t("announce.recorded", { what: describeEvent(event, names) }));
  render();
}

/** The log, and with it the latest live event; an empty log when it cannot be read just now. */
async function readLog() {
  try {
    const log = await loadEvents(app.matchId);
    app.lastLive = log.filter((e) => e.type !== "undo" && !e.undone_by).pop() || null;
    app.log = log;
    return log;
  } catch {
    return [];
  }
}

/** The log read just now by a view (the log's tab): kept as the log last read, unless a newer one came meanwhile. */
function keepLog(log) {
  const last = (events) => (events.length ? events[events.length - 1].seq : 0);
  if (app.key && last(log) >= last(app.log)) app.log = log;
}

/** The event that proved a finding, in words. */
async function proofText(finding) {
  const names = app.state.players.map((p) => p.name);
  try {
    const proof = (await loadEvents(app.matchId)).find((e) => e.seq === finding.proof_seq);
    return proof ? describeEvent(proof, names) : `#${finding.proof_seq}`;
  } catch {
    return `#${finding.proof_seq}`;
  }
}

/**
 * An entry refused: the page shows at once the step as the server says it is now (the state a conflict's answer
 * brings, else the one it showed: nothing was recorded), with the refusal; the log is read again after that.
 */
async function refused(error, entry, dropped) {
  const names = app.state.players.map((p) => p.name);
  const moved = Boolean(error.details && error.details.state);
  if (moved) {
    takeState(error.details.state);
    app.lastLive = null; // someone else's entry, named once the log is read again, just below
  }
  const { expect_seq: _, ...body } = entry.body;
  const what = () => (entry.route === "undo" ? t("event.undo_request") : describeEvent(body, names));
  say(() => t("referee.not_recorded", { what: what() }));
  const inSheet = body.type === "correct" && correctionRefused(error, names, () => send({ ...body, force: true }));
  if (!inSheet) showError(error, {
    what: t("referee.not_recorded", { what: what() }),
    names,
    kind: body.type,
    letItStand: () => send({ ...body, force: true }),
    sendAgain: error.code === "seq_conflict" ? () => resend(entry.route, body) : null,
  });
  if (error.code === "key_required" || error.code === "wrong_key") {
    local.setKey(app.matchId, null); // this phone follows from now on
    app.key = null;
    app.showHands = false;
    reading.key = null;
    app.outbox.key = null;
  }
  if (dropped.length) {
    const list = dropped.map((e) => (e.route === "undo" ? t("event.undo_request") : describeEvent(e.body, names))).join("; ");
    showNotice(tn("outbox.dropped", dropped.length), {
      detail: list,
      actions: [h("button", { type: "button", class: "secondary", on: { click: (e) => {
        e.target.closest(".verdict").remove();
        for (const waiting of dropped) {
          const { expect_seq: __, ...again } = waiting.body;
          resend(waiting.route, again);
        }
      } } }, t("outbox.send_anyway"))],
    });
  }
  render();
  if (moved && app.key) {
    await readLog();
    render();
  }
}

// --- reading -----------------------------------------------------------------------------------------

async function poll() {
  if (document.visibilityState === "hidden" || app.polling) return;
  app.polling = true;
  try {
    const answer = await api.state(app.matchId, app.etag);
    heard();
    if (answer.status === 304) return;
    app.etag = answer.etag;
    await arrived(answer.data);
  } catch {
    // the next poll tries again; a scorer's entries wait in the outbox meanwhile
  } finally {
    app.polling = false;
  }
}

// A state pushed by the stream: handled one after another, with the ETag a poll would get for it.
function pushed(state, text) {
  heard();
  app.etag = `"${state.id}-${state.seq}"`;
  // the stream sends a seq once, in order: a seq behind the last one it sent, or the same seq in other words, is
  // the match as the server's operator put it back (a restore), taken whatever this phone showed
  const last = app.lastPushed;
  const putBack = Boolean(last && last.id === state.id && (state.seq < last.seq || (state.seq === last.seq && text !== last.text)));
  app.lastPushed = { id: state.id, seq: state.seq, text };
  app.arriving = app.arriving.then(() => arrived(state, putBack)).catch(() => {});
}

async function arrived(state, putBack = false) {
  if (!putBack && app.state && state.seq === app.state.seq) return;
  const before = app.state ? app.state.seq : -1;
  // our own entry, pushed back to us
  takeState(state, { own: !putBack && Boolean(app.outbox && app.outbox.sending), putBack });
  if (!putBack && app.state.seq === before) return;
  if (app.showHands && state.expected && !("legal" in state.expected)) await readWithKey(); // pushed without the hands
  if (app.key) await readLog();
  await announceNewFindings();
  render();
}

async function announceNewFindings() {
  const names = app.state.players.map((p) => p.name);
  for (const finding of app.state.findings) {
    const id = findingId(finding);
    if (app.seenFindings.has(id)) continue;
    app.seenFindings.add(id);
    showFinding(finding, names, await proofText(finding));
  }
}

async function openMatch() {
  try {
    const answer = await api.state(app.matchId);
    app.etag = answer.etag;
    app.state = answer.data;
  } catch (error) {
    const kept = error.network ? local.get(`state.${app.matchId}`) : null; // opened without network
    if (!kept) {
      main().replaceChildren(h("section", { class: "panel" },
        h("h1", { text: error.code === "match_not_found" ? t("match.not_found") : t("common.unavailable") }),
        h("a", { href: "./", class: "primary", text: t("match.new") })));
      if (!error.network) return;
      setTimeout(openMatch, POLL_MS * 2);
      return;
    }
    app.state = kept;
    app.linkKey = null;
  }
  for (const finding of app.state.findings) app.seenFindings.add(findingId(finding));
  local.remember(app.state);
  await confirmLinkKey();
  if (app.key) {
    app.outbox = new Outbox(app.matchId, app.key, { recorded, refused, changed: render });
    if (!app.etag) app.outbox.setOffline(true); // the match as this phone last saw it; sent when back
    app.outbox.flush();
    await readLog();
  }
  render();
  if (app.key) tellWhatIsLost();
  heard();
  follow({ url: api.streamUrl(app.matchId), onState: pushed, poll, pollMs: POLL_MS, onLink: streamChanged });
}

// --- starting --------------------------------------------------------------------------------------

function readAddress() {
  const params = new URLSearchParams(location.search);
  app.matchId = params.get("m");
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (app.matchId && fragment.get("key")) {
    app.linkKey = fragment.get("key"); // kept only once the server says it is the match's key
    history.replaceState(null, "", location.pathname + location.search);
  }
  app.key = app.matchId ? local.key(app.matchId) : null;
  app.showHands = Boolean(app.matchId && app.key && local.get(`show_hands.${app.matchId}`));
  reading.key = app.showHands ? app.key : null;
}

/**
 * A key from a link replaces the one this phone scores with only when the server confirms it is the match's
 * (a read with it, which records nothing): a crafted link cannot take the working key away.
 */
async function confirmLinkKey() {
  const key = app.linkKey;
  app.linkKey = null;
  if (!key || key === app.key) return;
  try {
    await api.checkKey(app.matchId, key);
  } catch (error) {
    const kept = app.key ? t("key.kept") : t("key.follows");
    showNotice(error.network ? t("key.unchecked") : t("key.wrong"), { detail: kept });
    return;
  }
  local.setKey(app.matchId, key);
  app.key = key;
}

/** The state again, read with the key: a pushed state carries no hands. */
async function readWithKey() {
  try {
    takeState((await api.state(app.matchId)).data, { own: true });
  } catch {
    // the next state brings it
  }
}

/** Shows or hides the entered hands on this phone; the reads are made with the key only while they show. */
async function toggleHands() {
  app.showHands = !app.showHands;
  local.set(`show_hands.${app.matchId}`, app.showHands || null);
  reading.key = app.showHands ? app.key : null;
  app.etag = null;
  try {
    const answer = await api.state(app.matchId);
    app.etag = answer.etag;
    app.state = answer.data;
  } catch {
    // the next poll brings it
  }
  if (app.key) await readLog();
  render();
}

function bindLanguages() {
  bindThemeButton();
  bindLanguageButtons(() => {
    bindThemeButton();
    const open = asked && asked.item.isConnected ? asked : null;
    document.getElementById("referee").replaceChildren(); // what was said stays in the language it was said in
    desk.replaceChildren();
    render();
    askAgain(open); // but a question waiting for an answer is asked again, in the same place
  });
}

/** An evening's page (`?e=<id>`): the big screen by the table with `&screen`, else the evening itself (or, for
 * `?e=new`, the form that starts one). */
function openEveningPage(id, params) {
  if (id !== "new" && params.has("screen")) return openBigScreen(main(), id, app.games);
  return openEvening(main(), id, app.games);
}

async function boot() {
  await setLanguage(chooseLanguage());
  bindLanguages();
  readAddress();
  try {
    app.games = (await api.games()).data.games;
    local.set("games", app.games); // to open a match again without network
  } catch {
    app.games = local.get("games");
    if (!app.games) {
      main().replaceChildren(h("p", { class: "loading", text: t("common.unavailable") }));
      setTimeout(boot, POLL_MS * 2);
      return;
    }
  }
  const params = new URLSearchParams(location.search);
  const evening = params.get("e");
  app.clubId = clubOf(params);
  if (app.clubId) await openClub(main(), app.clubId, params, app.games);
  else if (evening && params.has("next") && local.get(`evening_key.${evening}`)) {
    try {
      await draftForEvening(evening, app.games, language()); // the start form, for the evening's next match
      render();
    } catch {
      await openEveningPage(evening, params);
    }
  } else if (evening) await openEveningPage(evening, params);
  else if (app.matchId) await openMatch();
  else {
    render();
    tellWhatIsLost(); // whoever opens the start form scores: told at the top of the page, before the match
  }
}

// The page opens without network too, where the browser allows a service worker (HTTPS, or this machine).
if ("serviceWorker" in navigator && window.isSecureContext) navigator.serviceWorker.register("sw.js").catch(() => {});

// A link with a key opened on this page: read the address again, as when it opens anew.
window.addEventListener("hashchange", () => { if (/(key|read)=/.test(location.hash)) location.reload(); });
onMessagesChanged(() => touch(main().querySelector(".table-area")));
useLinkSign(() => ({ match: Boolean(app.matchId && app.state), scoring: Boolean(app.key),
                     offline: Boolean(app.outbox && app.outbox.offline), waiting: app.outbox ? app.outbox.entries().length : 0 }));
watchTaps({
  active: () => Boolean(app.matchId && app.state) || clubShown(),
  ignored: () => say(() => t("tap.ignored")),
  twice: askTwice,
  quick: () => { app.quickNext = true; setTimeout(() => { app.quickNext = false; }); }, // for this tap's entry only
});
boot();
