// Corrections on the page: an entry of the log corrected in place (another card or seat, other points, another bid,
// dealer or card turned up, other cards of an attack or a defence), removed, or with a forgotten entry inserted before
// it, without undoing what came after it (see referee/corrections.py). An entry is opened where the table sees it: its
// line in the log, its card in the trick history (tricks.js), its deal in the scoresheet; the sheet opens on the log.
//
// The sheet lies fixed at the bottom of the screen, where the bottom bar is at the table: the log above it does not
// move when it comes or goes. Its choices (Correct, Remove, Insert before) and Close keep their place at its foot,
// under the thumb; what a choice asks comes above them, and the referee's answer between, next to the thumb. A
// correction is sent like every other entry (the outbox: its Idempotency-Key, the expect_seq of the log it was made
// against); while it is sent, and once it is recorded, what was tapped stays drawn, greyed and out of reach (inert):
// a second tap lands on nothing, and never records it twice.

import { request } from "./api.js";
import { EDITABLE, editor, insertable, startDraft } from "./correct_editors.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { codeText } from "./referee.js";
import { verdictText } from "./words.js";

/**
 * What the sheet shows: null when closed, else {seq, entry, mode ("menu", "change", "remove", "insert", "pick"),
 * kind (of the entry inserted), draft (the editor's choices), sent, gone (the entry no longer stands), from (the tab
 * it was opened from), deal (in "pick": the deal whose entries are offered)}.
 */
let open = null;
let refusal = null; // {text, force}: why the last correction was not recorded, with "let it stand" where it may
let scrollTo = null; // the entry of the log to bring into view above the sheet, once the log is drawn

/**
 * The entries of the log as they now stand, in their order, by seq (an insertion by its correction's seq): the
 * live events other than undos and corrections, each correction applied in place, as the referee folds them.
 */
export function correctable(events) {
  const order = [];
  const current = new Map();
  for (const event of events) {
    if (event.undone_by || event.type === "undo") continue;
    if (event.type !== "correct") {
      order.push(event.seq);
      current.set(event.seq, event);
      continue;
    }
    if (event.insert) {
      const at = order.indexOf(event.before);
      order.splice(at < 0 ? order.length : at, 0, event.seq);
      current.set(event.seq, { ...event.insert, seq: event.seq });
    } else if (current.has(event.corrects)) {
      current.set(event.corrects, event.remove ? null : { ...event.with, seq: event.corrects });
    }
    for (const entry of event.changed || []) if (current.get(entry.seq)) current.set(entry.seq, entry);
  }
  return new Map(order.filter((seq) => current.get(seq)).map((seq) => [seq, current.get(seq)]));
}

/** The entries of deal `n` (its deal and everything up to the next deal), in order. */
export function dealEntries(entries, n) {
  let deal = 0;
  const found = [];
  for (const entry of entries.values()) {
    if (entry.type === "deal") deal += 1;
    if (deal === n) found.push(entry);
  }
  return found;
}

/** What an editor needs of the log around entry `seq`: the hand size of its deal, the attack before it. */
function around(ctx, entries, seq) {
  let deal = 0;
  let attack = null;
  for (const entry of entries.values()) {
    if (entry.seq === seq) break;
    if (entry.type === "deal") deal += 1;
    if (entry.type === "attack") attack = entry;
  }
  const current = entries.get(seq);
  if (current && current.type === "deal") deal += 1;
  const sizes = ctx.state.rules.hand_sizes;
  return { deal, size: sizes[Math.max(0, Math.min(deal, sizes.length) - 1)], attack };
}

// --- opening and closing ------------------------------------------------------------------------------

function show(ctx, sheet, from) {
  const elsewhere = from && from !== "log";
  open = { ...sheet, from: elsewhere ? from : null };
  refusal = null;
  if (elsewhere) {
    ctx.ui.tab = "log";
    scrollTo = sheet.seq ?? { deal: sheet.deal };
  }
  ctx.redraw();
}

/** Opens the sheet for `entry` (as it now stands); `from`, the tab it was tapped on (the sheet opens on the log). */
export function openCorrection(ctx, entry, from = null) {
  show(ctx, { seq: entry.seq, entry, mode: "menu" }, from);
}

/** Opens the sheet for the entry numbered `seq`, as the log read last says it stands (else as `seen` on the table). */
export function openEntry(ctx, seq, seen, from) {
  const entry = correctable(ctx.log ? ctx.log() : []).get(seq) || { ...seen, seq };
  openCorrection(ctx, entry, from);
}

/** Opens the sheet on the entries of deal `n` that make its row of the scoresheet, to pick the wrong one. */
export function openDeal(ctx, n, from) {
  show(ctx, { seq: null, entry: null, mode: "pick", deal: n }, from);
}

function close(ctx) {
  if (open && open.from) ctx.ui.tab = open.from;
  open = null;
  refusal = null;
  ctx.redraw();
}

function choose(ctx, name, entries, kind = null) {
  const insert = name === "insert";
  const editing = name === "change" || insert;
  const chosen = editing ? kind || (insert ? defaultKind(ctx, open.entry) : open.entry.type) : null;
  const draft = editing ? startDraft(ctx, chosen, open.entry, insert, around(ctx, entries, open.seq)) : null;
  open = { ...open, mode: name, kind: chosen, draft, sent: false };
  refusal = null;
  ctx.redraw();
}

/** What the table most likely forgot before `entry`: its own kind (a bid before a bid), a card before a penalty or
 * a deal, in Dureń the other half of a round (a defence before an attack, an attack before a defence). */
function defaultKind(ctx, entry) {
  const kinds = insertable(ctx.state);
  const likely = { attack: "defend", defend: "attack", penalty: "play" }[entry.type] || entry.type;
  return kinds.includes(likely) ? likely : kinds[0];
}

// --- sending ------------------------------------------------------------------------------------------

/** The entry numbered `seq` as it stands, read with the key: a deal with the hands entered with it. */
async function keyedEntry(ctx, seq) {
  const read = async (n) => (await request("GET", `api/matches/${encodeURIComponent(ctx.matchId)}/events?after=${n - 1}&limit=1`,
    { key: ctx.key })).data.events[0];
  const event = await read(seq);
  let entry = event.type === "correct" ? event.insert : event;
  if (event.corrected_by) {
    const correction = await read(event.corrected_by);
    if (correction.corrects === seq && correction.with) entry = correction.with;
    else entry = (correction.changed || []).find((e) => e.seq === seq) || entry;
  }
  return entry;
}

async function send(ctx, body) {
  refusal = null;
  open = { ...open, sent: true };
  // a deal corrected keeps its hands: the page that does not show them reads them, with the key, to send them back
  if (body.with && body.with.type === "deal" && !body.with.hands && !ctx.showHands) {
    ctx.redraw();
    try {
      const entry = await keyedEntry(ctx, open.seq);
      if (entry && entry.hands) body = { ...body, with: { ...body.with, hands: entry.hands } };
    } catch {
      refusal = { text: t("correct.hands_unread"), force: null };
      open = { ...open, sent: false };
      ctx.redraw();
      return;
    }
  }
  ctx.send(body);
}

/**
 * A correction refused: the words of why, in the table's language, in the sheet (and for the referee's message at
 * the top of the page, `error.said`); `force` sends it again to let the later entries stand, where the rule allows.
 * True when the sheet is open and the refusal is the referee's word on the correction itself (not the key, nor the
 * log moved on by another phone): the sheet says it by the thumb, and the page nowhere else.
 */
export function correctionRefused(error, names, force) {
  const details = error.details || {};
  if (error.code === "correction_breaks_rule" || error.code === "correction_breaks_log") {
    const inner = details.details || {};
    const why = verdictText(details.code, inner, inner.seat ?? error.details.seat, names) || codeText(details.code);
    error.said = t(`say.${error.code}`, { seq: details.seq, why });
  }
  const text = error.said || verdictText(error.code, details, details.seat, names) || codeText(error.code, error.message);
  refusal = { text, force: details.forceable ? force : null };
  if (!open) return false;
  open = { ...open, sent: false };
  return [409, 422].includes(error.status) && !ELSEWHERE.has(error.code);
}

const ELSEWHERE = new Set(["seq_conflict", "possibly_recorded", "key_required", "wrong_key"]);

// --- the sheet ----------------------------------------------------------------------------------------

function editorBody(ctx, entries) {
  const { seq, draft, kind } = open;
  const insert = open.mode === "insert";
  const e = { seq, insert, draft, where: around(ctx, entries, seq), redraw: ctx.redraw, done: (body) => send(ctx, insert
    ? { type: "correct", before: seq, insert: body } : { type: "correct", seq, with: body }) };
  const kinds = insert ? insertable(ctx.state) : [];
  const chooser = kinds.length > 1 ? h("div", { class: "correct-kinds", role: "group", "aria-label": t("correct.insert_what") },
    kinds.map((k) => h("button", { type: "button", class: "choice", id: `correct-kind-${k}`, "aria-pressed": String(k === kind),
                                   on: { click: () => choose(ctx, "insert", entries, k) } }, t(`correct.kind.${k}`)))) : null;
  return [chooser, ...editor(ctx, kind, e)];
}

function body(ctx, entries, describe) {
  switch (open.mode) {
    case "change":
    case "insert":
      return editorBody(ctx, entries);
    case "remove":
      return [h("p", { class: "correct-ask", text: t("correct.ask_remove", { seq: open.seq }) }),
        h("div", { class: "correct-row" },
          h("button", { type: "button", class: "danger", id: "correct-remove-yes",
                        on: { click: () => send(ctx, { type: "correct", seq: open.seq, remove: true }) } },
          t("correct.remove_yes", { seq: open.seq })))];
    case "pick": {
      const listed = dealEntries(entries, open.deal).filter((e) => !["play", "attack", "defend"].includes(e.type));
      return [h("p", { class: "correct-ask", text: t("correct.ask_pick", { n: open.deal }) }),
        h("div", { class: "correct-picks" }, listed.map((entry) => h("button", {
          type: "button", class: "secondary correct-pick", "data-seq": entry.seq,
          on: { click: () => {
            const { from } = open;
            scrollTo = entry.seq;
            open = { seq: entry.seq, entry, mode: "menu", from };
            ctx.redraw();
          } },
        }, `#${entry.seq} · ${describe(entry, ctx.names)}`))),
        h("p", { class: "hint correct-hint", text: t("correct.pick_hint") })];
    }
    default:
      if (open.entry.type === "end") return [h("p", { class: "hint correct-hint", text: t("correct.end_nothing") })];
      return [];
  }
}

/** What of the log the sheet shows: drawn again only when this changes. */
export function sheetKey(ctx, entries) {
  if (!open || !ctx.canScore) return "";
  const shown = open.mode === "pick" ? dealEntries(entries, open.deal) : entries.get(open.seq) || null;
  const waiting = ctx.pending().some((e) => e.body.type === "correct");
  return JSON.stringify([open, refusal && refusal.text, shown, waiting, ctx.lastWord, ctx.lang]);
}

/**
 * The sheet, when an entry is open: the entry, what a choice asks, the referee's answer, the choices and Close at the
 * bottom. `entries`: the log's entries as they stand (`fresh`: read just now, not the log as last read).
 */
export function correctionSheet(ctx, describe, entries, fresh = false) {
  if (!open || !ctx.canScore) return null;
  if (open.seq !== null) {
    const now = entries.get(open.seq);
    if (now) open = { ...open, entry: now, gone: false };
    else if (fresh) open = { ...open, gone: true };
  }
  const waiting = ctx.pending().some((e) => e.body.type === "correct");
  const answer = refusal ? refusal.text : waiting || open.sent ? ctx.lastWord : "";
  const force = refusal && refusal.force;
  const picking = open.mode === "pick";
  const entry = open.entry;
  const can = {
    change: !picking && !open.gone && EDITABLE.has(entry.type),
    remove: !picking && !open.gone,
    insert: !picking && !open.gone && insertable(ctx.state).length > 0,
  };
  const title = picking ? t("correct.deal_title", { n: open.deal })
    : `#${open.seq} · ${describe(entry, ctx.names)}${open.gone ? ` (${t("correct.gone")})` : ""}`;
  const choice = (name, id) => h("button", { type: "button", class: "secondary", id, disabled: !can[name],
                                             "aria-pressed": can[name] ? String(open.mode === name) : null,
                                             on: { click: () => choose(ctx, name, entries) } }, t(`correct.${name}`));
  return h("section", { class: "fixed-bar correction-sheet", id: "correction", role: "dialog", "data-area": "correction",
                        "aria-label": picking ? title : t("correct.title", { seq: open.seq }) },
  h("p", { class: "correct-entry", id: "correct-entry", text: title }),
  h("div", { class: ["correct-body", open.sent && "waiting-step"], inert: open.sent || null, "aria-busy": waiting ? "true" : null },
    ...body(ctx, entries, describe)),
  h("p", { class: ["correct-answer", refusal && "refused"], id: "correction-answer", role: "status", text: answer || "" }),
  h("div", { class: "correct-choices" },
    choice("change", "correct-change"), choice("remove", "correct-remove"), choice("insert", "correct-insert")),
  h("div", { class: "correct-row" },
    h("button", { type: "button", class: "secondary", id: "correct-close", on: { click: () => close(ctx) } },
      open.from ? t("correct.close_back", { tab: t(`tab.${open.from}`) }) : t("correct.close")),
    h("button", { type: "button", class: ["danger", !force && "unseen"], id: "correct-force", disabled: !force,
                  on: { click: () => { const again = refusal.force; refusal = null; open = { ...open, sent: true }; again(); } } },
    t("referee.let_it_stand"))));
}

/**
 * Brings the entry the sheet was opened on (from the trick history or the scoresheet) into view, just above the
 * sheet, once the log shows it: the entries after it (newer, above it) stay in view. Once only.
 */
export function bringEntryInView(list, entries) {
  if (!scrollTo) return;
  let seq = scrollTo;
  if (typeof seq === "object") seq = (dealEntries(entries, seq.deal)[0] || {}).seq;
  const item = seq && list.querySelector(`li[data-seq="${seq}"]`);
  const sheet = document.getElementById("correction");
  if (!item || !sheet) return;
  scrollTo = null;
  const bar = document.querySelector("header.bar").getBoundingClientRect().bottom;
  const room = sheet.getBoundingClientRect().top - 8;
  const box = item.getBoundingClientRect();
  if (box.bottom > room || box.top < bar) window.scrollBy({ top: box.bottom - room, behavior: "instant" });
}
