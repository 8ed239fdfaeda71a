// The match at the table: the seats, the step to log next, undo, and the tabs for scores, money,
// other phones and the log. A phone without the match's key shows it read-only.

import { h } from "./dom.js";
import { describeEvent, renderLog } from "./log.js";
import { ordinal, t, tn } from "./i18n.js";
import { attackBeat } from "./games/attack_beat.js";
import { bout } from "./games/bout.js";
import { ranks } from "./games/ranks.js";
import { suitRank } from "./games/suit_rank.js";
import { renderMoney } from "./money.js";
import { renderScores } from "./scores.js";
import { renderShare } from "./share.js";
import { seatList } from "./table.js";
import { handsControl, shownHands } from "./hands.js";
import { trickHistory } from "./tricks.js";

const KEYPADS = { ranks, suit_rank: suitRank, attack_beat: attackBeat, bout };
const TABS = ["table", "scores", "money", "share", "log"];

/** How the page draws a match's table and keypad: by the keypad the catalogue names for its game. */
export function rulesOf(state) {
  return KEYPADS[state.rules.keypad];
}

/** Whether the table may go on entering while entries wait to be sent: only plays, during play. */
function mayEnterMore(ctx) {
  const waiting = ctx.pending();
  if (!waiting.length) return true;
  const expected = ctx.state.expected;
  return expected && expected.type === "play" && !["attack_beat", "bout"].includes(ctx.state.rules.keypad) && waiting.every((e) => e.body.type === "play");
}

function statusLine(ctx) {
  const items = [];
  items.push(h("span", { class: ["mode", ctx.canScore ? "scoring" : "following"], id: "mode" },
    ctx.canScore ? t("status.scoring") : t("status.following")));
  if (ctx.offline) items.push(h("span", { class: "offline", id: "offline", role: "status" }, t("status.offline")));
  const waiting = ctx.pending().length;
  // in short beside the others ("3 queued"), which a 360-pixel phone would otherwise cut; said whole to a screen
  // reader, and by the sign above the bottom bar (link_sign.js)
  if (waiting) items.push(h("span", { class: "pending", id: "pending", role: "status", "aria-label": tn("status.pending", waiting) },
    tn("status.queued", waiting)));
  // the findings, told once as they came, kept here in short: the list is in the scores (and the plays in the log)
  const found = ctx.state.findings.length;
  if (found) {
    items.push(h("button", { type: "button", class: "findings-count", id: "findings-count",
                             "aria-label": tn("status.findings_label", found),
                             on: { click: () => { ctx.ui.tab = "scores"; ctx.redraw(); document.getElementById("findings")?.scrollIntoView(); } } },
    `⚠ ${found}`));
  }
  // the match's evening, one tap away (its standings, and from there the next match)
  if (ctx.state.evening) {
    items.push(h("a", { class: "evening-link", id: "to-evening", href: `?e=${encodeURIComponent(ctx.state.evening)}`,
                        text: t("match.evening") }));
  }
  return h("div", { class: "status-line" }, items);
}

function tabBar(ctx) {
  return h("nav", { class: "tabs", "aria-label": t("tab.label") }, TABS.map((tab) => h("button", {
    type: "button", class: "tab", id: `tab-${tab}`, "aria-pressed": String(ctx.ui.tab === tab),
    on: { click: () => { ctx.ui.tab = tab; ctx.redraw(); } },
  }, t(`tab.${tab}`))));
}

function controls(ctx, rules) {
  if (!ctx.canScore || ctx.state.status !== "playing") return null;
  const end = h("button", { type: "button", class: "secondary", id: "end", on: { click: () => ctx.ask(() => t("control.end_ask"), {
    yes: () => ctx.send({ type: "end" }), yesLabel: () => t("control.end_confirm"), yesId: "end-confirm" }) } }, t("control.end"));
  return h("div", { class: "controls" }, ...rules.extraControls(ctx), handsControl(ctx), end);
}

/**
 * The bar at the bottom of the screen, in the same place whatever happens above it: what the page did with the
 * last tap, and Undo (there, greyed, even when there is nothing to undo, so that nothing takes its place).
 */
export function bottomBar(ctx) {
  const waiting = ctx.pending();
  const last = waiting.length ? waiting[waiting.length - 1] : null;
  let what = "";
  if (last) what = last.route === "undo" ? t("event.undo_request") : `${describeEvent(last.body, ctx.names)} (${t("table.pending")})`;
  else if (ctx.lastLive) what = describeEvent(ctx.lastLive, ctx.names);
  const undo = h("button", { type: "button", class: "secondary undo", id: "undo", "data-records": "undo",
                             disabled: !(ctx.state.seq > 0 || waiting.length),
                             on: { click: () => ctx.undo() } },
  h("span", { class: "undo-text", text: `↶ ${what ? t("control.undo_what", { what }) : t("control.undo")}` }));
  return [h("p", { class: "last-word", id: "last-word", text: ctx.lastWord || "" }), undo];
}

function waitingText(ctx) {
  const expected = ctx.state.expected;
  if (!expected) return null;
  let text;
  if (expected.type === "deal") {
    text = expected.dealer === null ? t("waiting.deal_first") : t("waiting.deal", { name: ctx.names[expected.dealer] });
  } else if (expected.seat === null && expected.seats) {
    text = t("waiting.bids", { names: expected.seats.map((seat) => ctx.names[seat]).join(", ") });
  } else {
    text = t(`waiting.${expected.type}`, { name: ctx.names[expected.seat] });
  }
  return h("p", { class: "hint waiting", role: "status", text });
}

function finishedPanel(ctx) {
  const ranking = [...ctx.state.players].sort((a, b) => a.place - b.place);
  return h("section", { class: "action finished", id: "finished" },
    h("h2", { text: t("finished.title") }),
    h("ul", { class: "places" }, ranking.map((p) => h("li", { text: t("finished.place", { place: ordinal(p.place), name: p.name }) }))),
    h("button", { type: "button", class: "secondary", on: { click: () => { ctx.ui.tab = "money"; ctx.redraw(); } } }, t("finished.money")),
    eveningLinks(ctx));
}

/** A finished match of an evening: its next match (on the phone with the evening's key) and the evening, a tap away. */
function eveningLinks(ctx) {
  const id = ctx.state.evening;
  if (!id) return null;
  const evening = `?e=${encodeURIComponent(id)}`;
  return h("div", { class: "evening-links" },
    ctx.eveningKey(id) ? h("a", { class: "primary wide", id: "next-match", href: `${evening}&next`, text: t("evening.next") }) : null,
    h("a", { class: "secondary wide", id: "finished-evening", href: evening, text: t("match.evening_standing") }));
}

/**
 * The line about the deal, its parts ("Deal 1", "stock 11", "discarded 0") joined by dots. A part is never
 * broken: where the line wraps, it wraps after a dot, so that no number is left alone at the start of a line.
 */
function dealLine(parts) {
  const last = parts.length - 1;
  return h("p", { class: "deal-info", id: "deal-info" }, parts.map((part, i) => [
    h("span", { class: "deal-part", text: i < last ? `${part} ·` : part }), i < last ? " " : null]));
}

function renderTable(root, ctx) {
  const rules = rulesOf(ctx.state);
  const { state } = ctx;
  let action;
  if (state.status === "finished") action = finishedPanel(ctx);
  else if (!ctx.canScore) action = waitingText(ctx);
  else if (!mayEnterMore(ctx)) {
    action = (rules.waitingPanel && rules.waitingPanel(ctx)) || h("section", { class: "action" }, h("p", { class: "hint", text: t("play.waiting_to_send") }));
  }
  else action = rules.actionPanel(ctx);
  const trump = rules.trump ? rules.trump(ctx) : null;
  const tableArea = h("div", { class: "table-area", "data-area": "table" },
    dealLine(rules.dealInfo(ctx)),
    seatList(ctx, rules),
    h("div", { class: ["trick-slot", trump && "with-trump"] }, trump, rules.lastTrick(ctx)));
  root.replaceChildren(...[
    tableArea,
    rules.result(ctx),
    action,
    controls(ctx, rules),
    ctx.canScore ? shownHands(ctx) : null,
    trickHistory(ctx),
  ].filter(Boolean));
}

export function renderMatch(root, ctx) {
  const panel = h("div", { class: "tab-panel", id: `panel-${ctx.ui.tab}` });
  const title = h("h1", { class: "visually-hidden", text: document.getElementById("bar-title").textContent });
  root.replaceChildren(title, statusLine(ctx), tabBar(ctx), panel);
  if (ctx.ui.tab !== "log") document.body.classList.remove("correcting"); // the sheet of a correction is the log's
  const render = { table: renderTable, scores: renderScores, money: renderMoney, share: renderShare, log: renderLog }[ctx.ui.tab];
  render(panel, ctx);
}
