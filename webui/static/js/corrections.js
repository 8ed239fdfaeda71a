// Corrections on the page: an entry of the log tapped is corrected in place (another card, other points), removed,
// or has a forgotten card inserted before it, without undoing what came after it (see referee/corrections.py).
//
// The choices lie in a sheet fixed at the bottom of the screen, where the bottom bar is at the table: the log above
// it does not move when it comes or goes, and the referee's answer is said in it, next to the thumb. A correction is
// sent like every other entry (the outbox: its Idempotency-Key, the expect_seq of the log it was made against).

import { rankKeys } from "./cards.js";
import { h } from "./dom.js";
import { rankPad, suitedPad } from "./keypad.js";
import { t } from "./i18n.js";
import { seatButtons } from "./table.js";
import { codeText } from "./referee.js";
import { verdictText } from "./words.js";

/** What the sheet shows: null when closed, else {seq, entry, mode, seat}, and the last refusal of a correction. */
let open = null;
let refusal = null; // {text, force}: why the last correction was not recorded, with "let it stand" where it may

/** The entries of the log a correction can name, by seq, as they now stand (an insertion by its correction's seq). */
export function correctable(events) {
  const entries = new Map();
  for (const event of events) {
    if (event.undone_by || event.type === "undo") continue;
    if (event.type !== "correct") entries.set(event.seq, event);
    else if (event.insert) entries.set(event.seq, { ...event.insert, seq: event.seq });
  }
  for (const event of events) {
    if (event.type !== "correct" || event.undone_by || event.insert) continue;
    if (event.remove) entries.delete(event.corrects);
    else if (entries.has(event.corrects)) entries.set(event.corrects, { ...event.with, seq: event.corrects });
  }
  return entries;
}

/** Opens the sheet for the entry `entry` (as it now stands). */
export function openCorrection(ctx, entry) {
  open = { seq: entry.seq, entry, mode: "menu" };
  refusal = null;
  ctx.redraw();
}

function close(ctx) {
  open = null;
  refusal = null;
  ctx.redraw();
}

function mode(ctx, name, extra = {}) {
  open = { ...open, mode: name, ...extra };
  refusal = null;
  ctx.redraw();
}

function send(ctx, body) {
  refusal = null;
  open = { ...open, mode: "sent" };
  ctx.send(body);
}

/**
 * A correction refused: the words of why, in the table's language, in the sheet (and for the referee's message at
 * the top of the page, `error.said`); `force` sends it again to let the later entries stand, where the rule allows.
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
  if (open) open = { ...open, mode: "menu" };
}

function cardPad(ctx, onPick, label) {
  const { state, ui } = ctx;
  const ranks = rankKeys(state);
  if (state.rules.keypad === "ranks") return rankPad({ ranks, onPick, label });
  ui.correctSuit = ui.correctSuit || {};
  return suitedPad({ ranks, ui: ui.correctSuit, onPick, label });
}

/** The seat that played before `seat`, in the order of the table (the player out skipped). */
function seatBefore(ctx, seat) {
  const players = ctx.state.players;
  for (let step = 1; step <= players.length; step += 1) {
    const before = (seat - step + players.length) % players.length;
    if (!players[before].out) return before;
  }
  return seat;
}

function body(ctx) {
  const { entry, seq } = open;
  const names = ctx.names;
  switch (open.mode) {
    case "change":
      if (entry.type === "play") {
        return [h("p", { class: "correct-ask", text: t("correct.ask_card", { seq, name: names[entry.seat] }) }),
          cardPad(ctx, (card) => send(ctx, { type: "correct", seq, with: { type: "play", seat: entry.seat, card } }),
            t("correct.ask_card", { seq, name: names[entry.seat] }))];
      }
      return [h("label", { for: "correct-points", class: "correct-ask", text: t("correct.ask_points", { seq, name: names[entry.seat] }) }),
        h("div", { class: "correct-row" },
          h("input", { id: "correct-points", type: "number", inputmode: "numeric", min: 1, max: 1000, value: String(entry.points) }),
          h("button", { type: "button", class: "primary", id: "correct-points-send", on: { click: () => {
            const points = Number(document.getElementById("correct-points").value);
            const corrected = { type: "penalty", seat: entry.seat, points };
            if (entry.reason) corrected.reason = entry.reason;
            send(ctx, { type: "correct", seq, with: corrected });
          } } }, t("correct.send")))];
    case "remove":
      return [h("p", { class: "correct-ask", text: t("correct.ask_remove", { seq }) }),
        h("div", { class: "correct-row" },
          h("button", { type: "button", class: "danger", id: "correct-remove-yes", on: { click: () => send(ctx, { type: "correct", seq, remove: true }) } },
            t("correct.remove_yes", { seq })))];
    case "insert": {
      const seat = open.seat ?? seatBefore(ctx, entry.seat ?? 0);
      return [h("p", { class: "correct-ask", text: t("correct.ask_insert", { seq, name: names[seat] }) }),
        seatButtons(ctx, { chosen: seat, label: t("correct.insert_who"), onPick: (picked) => mode(ctx, "insert", { seat: picked }) }),
        cardPad(ctx, (card) => send(ctx, { type: "correct", before: seq, insert: { type: "play", seat, card } }),
          t("correct.ask_insert", { seq, name: names[seat] }))];
    }
    case "sent":
      return [];
    default: {
      const changeable = entry.type === "play" || entry.type === "penalty";
      const insertable = ctx.state.rules.keypad !== "attack_beat"; // a forgotten card: a play (Dureń has none)
      return [h("div", { class: "correct-choices" },
        h("button", { type: "button", class: "secondary", id: "correct-change", disabled: !changeable, on: { click: () => mode(ctx, "change") } }, t("correct.change")),
        h("button", { type: "button", class: "secondary", id: "correct-remove", on: { click: () => mode(ctx, "remove") } }, t("correct.remove")),
        h("button", { type: "button", class: "secondary", id: "correct-insert", disabled: !insertable, on: { click: () => mode(ctx, "insert") } }, t("correct.insert")))];
    }
  }
}

/** The sheet, when an entry is open: the entry, what may be done with it, and the referee's answer, at the bottom. */
export function correctionSheet(ctx, describe) {
  if (!open || !ctx.canScore) return null;
  const waiting = ctx.pending().some((e) => e.body.type === "correct");
  const answer = refusal ? refusal.text : waiting || open.mode === "sent" ? ctx.lastWord : "";
  const force = refusal && refusal.force;
  return h("section", { class: "fixed-bar correction-sheet", id: "correction", role: "dialog", "data-area": "correction",
                        "aria-label": t("correct.title", { seq: open.seq }) },
  h("p", { class: "correct-entry", text: `#${open.seq} · ${describe(open.entry, ctx.names)}` }),
  ...body(ctx),
  h("p", { class: ["correct-answer", refusal && "refused"], id: "correction-answer", role: "status", text: answer || "" }),
  h("div", { class: "correct-row" },
    h("button", { type: "button", class: "secondary", id: "correct-close", on: { click: () => close(ctx) } }, t("correct.close")),
    h("button", { type: "button", class: ["danger", !force && "unseen"], id: "correct-force", disabled: !force,
                  on: { click: () => { const again = refusal.force; refusal = null; open = { ...open, mode: "sent" }; again(); } } },
    t("referee.let_it_stand"))));
}
