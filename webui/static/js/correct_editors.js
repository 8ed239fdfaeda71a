// What an entry may become, in the sheet of a correction (corrections.js): an editor for each kind of entry, with
// the question it asks, the seats and keys it offers, and the event it makes. The editor's choices so far are kept
// in its draft, so that the sheet is drawn again the same after every redraw of the page.
//
// Every field of an event the referee reads may be corrected: a play's seat and card, a penalty's seat and points,
// a bid's seat and number, a deal's dealer and the card turned up, the seat that swapped the nine of trumps, an
// attack's seat and cards, a defence's beats, and on a phone that shows the hands entered with a deal, those hands
// (elsewhere they are kept as they were); the end of the match has nothing to correct, and the sheet says so.

import { rankKeys } from "./cards.js";
import { h } from "./dom.js";
import { cardText, t, tn } from "./i18n.js";
import { handsToSend, incompleteHands, knownHandsField } from "./hands.js";
import { rankPad, suitedPad } from "./keypad.js";
import { cardChip, nameCut } from "./table.js";

/** The kinds of entry the sheet can correct an entry into (its own kind) or insert, by event type. */
export const EDITABLE = new Set(["play", "penalty", "bid", "deal", "exchange", "attack", "defend", "transfer", "take"]);

/** The kinds of entry a table may have forgotten to type, of those the game has: never a deal or the end. */
export function insertable(state) {
  return INSERT_ORDER.filter((type) => state.rules.events.includes(type));
}

const INSERT_ORDER = ["play", "penalty", "bid", "attack", "defend", "exchange", "transfer", "take", "done"];

/** The seat after `seat` at the table (two players: the other one). */
function seatAfter(state, seat) {
  return (seat + 1) % state.players.length;
}

/** The seat before `seat` at the table (the one that played just before it, the players out skipped). */
function seatBefore(state, seat) {
  const players = state.players;
  for (let step = 1; step <= players.length; step += 1) {
    const before = (seat - step + players.length) % players.length;
    if (!players[before].out) return before;
  }
  return seat;
}

/**
 * The draft an editor starts from: the entry as it stands (to correct it), or, to insert before it, an entry of
 * `kind` by the player the table most likely forgot (the one before the entry's). `where` holds what the page read
 * of the log around it: the attack a defence answers.
 */
export function startDraft(ctx, kind, entry, insert, where) {
  const draft = firstDraft(ctx, kind, entry, insert, where);
  const card = insert ? null : entry.card || entry.trump || (entry.cards || [])[0];
  if (card && ctx.state.rules.suited) draft.suit = card.slice(-1); // the keys of the card's suit shown first
  return draft;
}

function firstDraft(ctx, kind, entry, insert, where) {
  const { state } = ctx;
  const seat = entry.seat ?? 0;
  if (!insert) {
    switch (kind) {
      case "penalty": return { seat, points: entry.points, reason: entry.reason };
      case "deal": return { dealer: entry.dealer, trump: entry.trump, hands: entry.hands, attacker: entry.attacker };
      case "attack": case "transfer": return { seat, cards: [...entry.cards] };
      case "defend": return { seat, beats: Object.fromEntries(entry.beats.map((b) => [b.card, b.with])) };
      default: return { seat };
    }
  }
  switch (kind) {
    case "penalty": return { seat: entry.type === "penalty" ? seat : seatBefore(state, seat), points: state.options.cut_penalty ?? 1 };
    case "attack": return { seat, cards: [] };
    case "transfer": case "take": return { seat: seatAfter(state, seat), cards: [] }; // the defender, likely
    case "defend": return { seat: seatAfter(state, where.attack ? where.attack.seat : seat), beats: {} }; // the defender
    default: return { seat: seatBefore(state, seat) };
  }
}

/** Seat buttons for the editor: every player of the match (an earlier entry may be of a player out since). */
function seats(ctx, draft, field, label, redraw) {
  const players = ctx.state.players;
  return h("div", { class: ["seat-buttons", players.length > 4 && "many"], role: "group", "aria-label": label },
    players.map((p) => h("button", {
      type: "button", class: "choice", "aria-pressed": String(draft[field] === p.seat), "data-seat": p.seat, title: p.name,
      on: { click: () => { draft[field] = p.seat; redraw(); } },
    }, nameCut(p.name))));
}

/** The card keys of the match; a full deck shows one suit at a time, the draft's (that of the card it corrects). */
function cardPad(ctx, draft, { onPick, label, chosen, gone }) {
  const { state } = ctx;
  const ranks = rankKeys(state);
  if (state.rules.keypad === "ranks") return rankPad({ ranks, onPick, label, gone });
  return suitedPad({ ranks, ui: draft, onPick, label, chosen, gone });
}

function sendButton(label, disabled, onClick) {
  return h("div", { class: "correct-row" },
    h("button", { type: "button", class: "primary", id: "correct-send", disabled, on: { click: onClick } }, label));
}

function ask(text, id) {
  return h("p", { class: "correct-ask", id, text });
}

// --- the editors: each gives the question and what answers it; `e` is {seq, insert, draft, where, redraw, done} --

function play(ctx, e) {
  const { draft, seq } = e;
  const name = ctx.names[draft.seat];
  const question = e.insert ? t("correct.ask_insert", { seq, name }) : t("correct.ask_card", { seq, name });
  return [ask(question),
    seats(ctx, draft, "seat", e.insert ? t("correct.insert_who") : t("correct.who_played"), e.redraw),
    cardPad(ctx, draft, { label: question, onPick: (card) => e.done({ type: "play", seat: draft.seat, card }) })];
}

function penalty(ctx, e) {
  const { draft, seq } = e;
  const name = ctx.names[draft.seat];
  const question = e.insert ? t("correct.ask_insert_penalty", { seq, name }) : t("correct.ask_points", { seq, name });
  return [h("label", { for: "correct-points", class: "correct-ask", text: question }),
    seats(ctx, draft, "seat", t("penalty.who"), e.redraw),
    h("div", { class: "correct-row" },
      h("input", { id: "correct-points", type: "number", inputmode: "numeric", min: 1, max: 1000, value: String(draft.points),
                   on: { input: (event) => { draft.points = event.target.value; } } }),
      h("button", { type: "button", class: "primary", id: "correct-points-send", on: { click: () => {
        const points = Number(document.getElementById("correct-points").value);
        e.done({ type: "penalty", seat: draft.seat, points, ...(draft.reason ? { reason: draft.reason } : {}) });
      } } }, e.insert ? t("correct.insert_send") : t("correct.send")))];
}

function bid(ctx, e) {
  const { draft, seq } = e;
  const name = ctx.names[draft.seat];
  const question = e.insert ? t("correct.ask_insert_bid", { seq, name }) : t("correct.ask_bid", { seq, name });
  const sizes = Array.from({ length: (e.where.size ?? 0) + 1 }, (_, n) => n);
  return [ask(question),
    seats(ctx, draft, "seat", t("correct.who_bid"), e.redraw),
    h("div", { class: "keypad bids", role: "group", "aria-label": question }, sizes.map((n) => h("button", {
      type: "button", class: "key", "data-bid": n, on: { click: () => e.done({ type: "bid", seat: draft.seat, bid: n }) },
    }, String(n))))];
}

/**
 * The hands entered with a deal, to correct, where this phone shows them (Show hands): the deal step's field of known
 * hands, on the draft's own copy of them; a hand begun and not complete holds the correction back. Elsewhere the
 * hands stay as they were (the correction reads them with the key and sends them back, corrections.js).
 */
function handsField(ctx, e) {
  const { draft } = e;
  if (!ctx.showHands) return { field: h("p", { class: "hint correct-hint", text: t("correct.hands_kept", { show: t("hands.show") }) }), waiting: [], hands: draft.hands };
  const size = e.where.size;
  const ui = draft.handsUi || (draft.handsUi = {
    hands: Object.fromEntries(Object.entries(draft.hands || {}).map(([seat, cards]) => [seat, [...cards]])) });
  // a card of rank and suit is one of its kind: held by one hand, or turned up (ranks alone come four times)
  const held = (card) => ctx.state.rules.suited && (Object.values(ui.hands).some((cards) => cards.includes(card)) || card === draft.trump);
  const pad = ({ gone, onPick }) => cardPad(ctx, ui, { label: t("hands.keypad"), gone: (card) => gone(card) || held(card), onPick });
  const waiting = incompleteHands(ui, size);
  const field = knownHandsField({ ...ctx, ui, redraw: e.redraw }, { size, pad, waiting });
  // opened or closed by a tap, drawn again at once: what it shows counts as new to the taps for a moment (taps.js),
  // as what any redraw brings, rather than moved under the finger unseen
  const toggle = (event) => {
    if (!event.target.closest("summary")) return;
    event.preventDefault();
    ui.handsOpen = !field.open;
    e.redraw();
  };
  // an area of its own: its seats and keys are other controls than the dealer's seats and the trump's keys (taps.js)
  return { field: h("div", { "data-area": "correction-hands", on: { click: toggle } }, field), waiting,
           hands: handsToSend(ui, size) };
}

function deal(ctx, e) {
  const { draft, seq } = e;
  const trumped = draft.trump !== undefined && draft.trump !== null;
  const question = trumped ? t("correct.ask_deal_trump", { seq }) : t("correct.ask_deal", { seq });
  const hands = handsField(ctx, e);
  // a deal that names who attacks first (Durak's first deal) keeps naming them, the seat to correct too
  const named = draft.attacker !== undefined && draft.attacker !== null;
  return [ask(question),
    seats(ctx, draft, "dealer", t("deal.dealer"), e.redraw),
    named ? h("div", { "data-area": "correction-attacker" }, h("p", { class: "label", text: t("deal.first_attacker") }),
                seats(ctx, draft, "attacker", t("deal.first_attacker"), e.redraw)) : null,
    trumped ? h("p", { class: "label correct-trump", text: t("correct.trump_is", { card: cardText(draft.trump) }) }) : null,
    trumped ? cardPad(ctx, draft, { label: t("correct.trump_pad"), chosen: (card) => card === draft.trump,
                                    onPick: (card) => { draft.trump = card; e.redraw(); } }) : null,
    sendButton(t("correct.send"), hands.waiting.length > 0, () => e.done({
      type: "deal", dealer: draft.dealer, ...(trumped ? { trump: draft.trump } : {}), ...(named ? { attacker: draft.attacker } : {}),
      ...(hands.hands ? { hands: hands.hands } : {}) })),
    hands.field];
}

function exchange(ctx, e) {
  const { draft, seq } = e;
  const question = e.insert ? t("correct.ask_insert_exchange", { seq }) : t("correct.ask_exchange", { seq });
  return [ask(question),
    seats(ctx, draft, "seat", question, e.redraw),
    sendButton(e.insert ? t("correct.insert_send") : t("correct.send"), false, () => e.done({ type: "exchange", seat: draft.seat }))];
}

function attack(ctx, e) {
  const { draft, seq } = e;
  const name = ctx.names[draft.seat];
  const question = e.insert ? t("correct.ask_insert_attack", { seq, name }) : t("correct.ask_attack", { seq, name });
  const chosen = draft.cards;
  return [ask(question),
    seats(ctx, draft, "seat", t("correct.who_attacked"), e.redraw),
    cardPad(ctx, draft, { label: question, chosen: (card) => chosen.includes(card), onPick: (card) => {
      draft.cards = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card];
      e.redraw();
    } }),
    sendButton(chosen.length ? tn("attack.log", chosen.length) : t("attack.pick"), !chosen.length,
      () => e.done({ type: "attack", seat: draft.seat, cards: chosen }))];
}

function defend(ctx, e) {
  const { draft, seq } = e;
  const name = ctx.names[draft.seat];
  const question = e.insert ? t("correct.ask_insert_defend", { seq, name }) : t("correct.ask_defend", { seq, name });
  const cards = e.where.attack ? e.where.attack.cards : Object.keys(draft.beats);
  if (!cards.length) return [ask(question), h("p", { class: "hint correct-hint", text: t("correct.defend_unknown") })];
  if (!cards.includes(draft.active)) draft.active = cards.find((card) => !draft.beats[card]) || cards[0];
  const beaten = cards.filter((card) => draft.beats[card]);
  const targets = h("div", { class: "correct-beats", role: "group", "aria-label": question }, cards.map((card) => h("button", {
    type: "button", class: "beat-target", "aria-pressed": String(draft.active === card), "data-attack": card,
    on: { click: () => {
      if (draft.active === card && draft.beats[card]) delete draft.beats[card]; // tapped again: taken, not beaten
      draft.active = card;
      e.redraw();
    } },
  }, cardChip(card), h("span", { class: "arrow", "aria-hidden": "true", text: "→" }),
  draft.beats[card] ? cardChip(draft.beats[card]) : h("span", { class: "takes", text: t("defend.takes") }))));
  return [ask(question), targets,
    h("p", { class: "hint correct-hint", text: t("correct.defend_hint", { card: cardText(draft.active) }) }),
    cardPad(ctx, draft, { label: t("defend.pad", { card: cardText(draft.active) }), chosen: (card) => draft.beats[draft.active] === card,
                   onPick: (card) => {
                     draft.beats[draft.active] = card;
                     draft.active = cards.find((c) => !draft.beats[c]) || draft.active;
                     e.redraw();
                   } }),
    sendButton(t("defend.log", { beaten: beaten.length, taken: cards.length - beaten.length }), false,
      () => e.done({ type: "defend", seat: draft.seat, beats: beaten.map((card) => ({ card, with: draft.beats[card] })) }))];
}

/** A transfer (the defender passes the bout on): who, and with which cards. */
function transfer(ctx, e) {
  const { draft, seq } = e;
  const name = ctx.names[draft.seat];
  const question = e.insert ? t("correct.ask_insert_transfer", { seq, name }) : t("correct.ask_transfer", { seq, name });
  const chosen = draft.cards;
  return [ask(question),
    seats(ctx, draft, "seat", t("correct.who_transferred"), e.redraw),
    cardPad(ctx, draft, { label: question, chosen: (card) => chosen.includes(card), onPick: (card) => {
      draft.cards = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card];
      e.redraw();
    } }),
    sendButton(chosen.length ? tn("bout.pass_on", chosen.length) : t("bout.pick"), !chosen.length,
      () => e.done({ type: "transfer", seat: draft.seat, cards: chosen }))];
}

/** "Takes": who took the bout. */
function take(ctx, e) {
  const { draft, seq } = e;
  const question = e.insert ? t("correct.ask_insert_take", { seq }) : t("correct.ask_take", { seq });
  return [ask(question),
    seats(ctx, draft, "seat", question, e.redraw),
    sendButton(e.insert ? t("correct.insert_send") : t("correct.send"), false, () => e.done({ type: "take", seat: draft.seat }))];
}

/** A bout's end forgotten: nothing to choose, only to insert. */
function done(ctx, e) {
  return [ask(t("correct.ask_insert_done", { seq: e.seq })),
    sendButton(t("correct.insert_send"), false, () => e.done({ type: "done" }))];
}

const EDITORS = { play, penalty, bid, deal, exchange, attack, defend, transfer, take, done };

/** The editor of `kind`: the question, the seats and keys that answer it. */
export function editor(ctx, kind, e) {
  return EDITORS[kind](ctx, e);
}

