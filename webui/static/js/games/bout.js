// Bouts (the catalogue's keypad "bout"): two to six players, a talon and a turned trump; each bout a lead,
// throw-ins from any seat but the defender's, beats one by one, "I take", transfers and "done".
//
// One step for the whole bout, drawn alike from the lead to "done" so that nothing moves under the thumb: the bout's
// six places (each attacking card with what beat it), the row of seats whose cards the keypad enters (the attacker
// for the lead; the defender, to beat or pass on; any seat that may throw in), one line saying what the keypad does,
// the keypad of every card, and under it the row of buttons (record, take, pass on, bout over).

import { rankKeys } from "../cards.js";
import { dealPanel } from "../deal.js";
import { h } from "../dom.js";
import { SUIT_SYMBOLS, cardText, cardsText, rankLetter, splitCard, t, tParts, tn } from "../i18n.js";
import { suitedPad } from "../keypad.js";
import { beats, trumpBig } from "./attack_beat.js";
import { cardChip, expectedSeat, nameCut, seatButtons } from "../table.js";

const PLACES = 6; // a bout holds at most six attacking cards: their places are kept from the lead on

function figures(ctx, player) {
  const parts = [t("seat.lost_deals", { n: player.score })];
  const deal = ctx.state.deal;
  if (deal && !deal.over && deal.out.includes(player.seat)) parts.push(t("seat.no_cards"));
  else if (player.hand_size !== null && player.hand_size !== undefined) parts.push(tn("seat.cards", player.hand_size));
  return parts;
}

function dealInfo(ctx) {
  const deal = ctx.state.deal;
  if (!deal) return [];
  return [t("info.deal", { n: deal.number }), t("info.trump_suit", { suit: SUIT_SYMBOLS[deal.trump_suit] }),
    t("info.stock", { n: deal.stock }), t("info.discards", { n: deal.discards })];
}

/** The last bout, in words, while the next has not begun: who led what, what was beaten, who took. */
function lastTrick(ctx) {
  const deal = ctx.state.deal;
  if (!deal || deal.bout || !deal.last_bout) return null;
  const bout = deal.last_bout;
  const led = bout.attacks.map((a) => a.card);
  const beaten = bout.attacks.filter((a) => a.beaten_by);
  const parts = [t("round.attack", { name: ctx.names[bout.leader], cards: cardsText(led) })];
  if (beaten.length) {
    parts.push(t("round.beat", { name: ctx.names[bout.defender],
                                 beats: beaten.map((a) => `${cardText(a.card)}/${cardText(a.beaten_by)}`).join(", ") }));
  }
  if (bout.taken) parts.push(t("round.took", { name: ctx.names[bout.defender], cards: cardsText([...led, ...beaten.map((a) => a.beaten_by)]) }));
  return h("p", { class: "last-trick" }, parts.join(" · "));
}

/** The trump, big, beside the table: the turned card while it lies under the talon, else its suit. */
function trump(ctx) {
  const deal = ctx.state.deal;
  return deal ? trumpBig(deal.stock > 0 ? deal.trump : null, deal.trump_suit) : null;
}

function result(ctx) {
  const deal = ctx.state.deal;
  if (!deal || !deal.over || !deal.result) return null;
  const [loser] = Object.values(deal.result); // the result names one seat, the deal's loser; null for a draw
  return h("p", { class: "result", role: "status" },
    loser === null ? t(`result.${ctx.state.game}_draw`) : t(`result.${ctx.state.game}`, { loser: ctx.names[loser] }));
}

/** Cards `seat` cannot hold: discarded, on the table, under the talon, or known to be in another hand. */
function gone(deal, seat) {
  const cards = new Set(deal.discarded);
  for (const attack of deal.bout ? deal.bout.attacks : []) {
    cards.add(attack.card);
    if (attack.beaten_by) cards.add(attack.beaten_by);
  }
  if (deal.stock > 0) cards.add(deal.trump);
  for (const [held, known] of Object.entries(deal.known)) if (Number(held) !== seat) known.forEach((card) => cards.add(card));
  return cards;
}

/** Who the keypad enters for, and what: the lead, a throw-in, the defender's beats or transfer. */
function modeOf(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  if (expected.type === "attack") return { seat: expected.seat, what: "lead" };
  const throwers = expected.throw_in;
  let seat = ui.by;
  const defending = expected.type === "defend" && !expected.taking;
  // the defender's until another seat is tapped: what is due (a beat), or what the bout waits for (the throw-ins
  // after "takes", or every card beaten: the bout over unless someone throws in)
  if (seat === undefined || (seat !== expected.defender && !throwers.includes(seat))) seat = expected.defender;
  if (seat === expected.defender) return { seat, what: ui.transfer && expected.transfer ? "transfer" : defending ? "beat" : "none" };
  return { seat, what: "throw" };
}

/** The bout's six places, from the lead on: each attacking card with what beat it below it, as the cards lie on the
 * table; a tap on an unbeaten one picks it to be beaten (the defender's keypad then enters what beats it). The cards
 * picked for a lead or a throw-in wait, dashed, in the places they will take. */
function places(ctx, mode, assigned) {
  const deal = ctx.state.deal;
  const attacks = deal.bout ? deal.bout.attacks : [];
  const picked = mode.what === "lead" || mode.what === "throw" || mode.what === "transfer" ? ctx.ui.picks || [] : [];
  const slots = [];
  for (let i = 0; i < PLACES; i += 1) {
    const attack = attacks[i];
    if (attack) {
      const beat = attack.beaten_by || assigned[attack.card];
      const open = !attack.beaten_by && mode.what === "beat";
      slots.push(h("li", { class: "place" }, h("button", {
        type: "button", class: "bout-card", "data-attack": attack.card, disabled: !open,
        "aria-pressed": open ? String(ctx.ui.active === attack.card) : null,
        "aria-label": beat ? `${cardText(attack.card)} / ${cardText(beat)}` : cardText(attack.card),
        on: { click: () => { ctx.ui.active = attack.card; ctx.redraw(); } },
      }, cardChip(attack.card), beat ? placed(beat, !attack.beaten_by) : h("span", { class: "unbeaten", "aria-hidden": "true", text: "?" }))));
    } else {
      const card = picked[i - attacks.length];
      slots.push(h("li", { class: ["place", "empty"] }, card ? h("span", { class: "bout-card" }, placed(card, true)) : null));
    }
  }
  return h("ol", { class: "bout-places", "aria-label": t("bout.table") }, slots);
}

/** A card on the bout's places; `waiting`, picked here and not yet recorded (dashed, in full contrast). */
function placed(card, waiting) {
  const chip = cardChip(card);
  if (waiting) chip.classList.add("picked");
  return chip;
}

/** The seats of the deal, in one place each from the lead to "done": pressed, the seat whose cards the keypad
 * enters; those who cannot lay a card now (out of the deal, or not allowed to throw in) greyed and disabled. */
function seatRow(ctx, mode, who) {
  const { state, ui } = ctx;
  const seats = state.players.filter((p) => !p.out);
  return h("div", { class: ["bout-seats", seats.length > 4 && "many"], role: "group", "aria-label": t("bout.by") },
    seats.map((p) => h("button", {
      type: "button", class: ["choice", p.seat === state.expected.defender && "defender"], "data-seat": p.seat,
      title: p.name, disabled: !who.includes(p.seat), "aria-pressed": String(mode.seat === p.seat),
      on: { click: () => { if (p.seat !== ui.by) { ui.by = p.seat; ui.picks = []; ui.transfer = false; } ctx.redraw(); } },
    }, nameCut(p.name))));
}

function hint(ctx, mode) {
  const expected = ctx.state.expected;
  const name = nameCut(ctx.names[mode.seat]);
  const ranks = (expected.ranks || []).map(rankLetter).join(" ");
  switch (mode.what) {
    case "lead": return tParts("bout.hint_lead", { name });
    case "throw": return tParts("bout.hint_throw", { name, ranks, room: expected.room });
    case "beat": return tParts("bout.hint_beat", { card: cardText(ctx.ui.active), suit: SUIT_SYMBOLS[expected.trump] });
    case "transfer": return tParts("bout.hint_transfer", { name, rank: rankLetter(splitCard(expected.cards[0]).rank) });
    default: return tParts(expected.taking ? "bout.hint_taking" : "bout.hint_beaten", { name, room: expected.room });
  }
}

function boutPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const deal = state.deal;
  const order = state.rules.ranks;
  const mode = modeOf(ctx);
  const out = gone(deal, mode.seat);
  const assigned = ui.beats || (ui.beats = {});
  const picks = ui.picks || (ui.picks = []);
  const unbeaten = expected.type === "attack" ? [] : expected.cards;
  if (mode.what === "beat" && !unbeaten.includes(ui.active)) ui.active = unbeaten.find((card) => !assigned[card]) || unbeaten[0];
  const defender = expected.defender;
  const title = tParts("bout.title", { n: expected.bout, attacker: nameCut(ctx.names[deal.attacker ?? expected.seat]),
                                       defender: nameCut(ctx.names[defender]) });
  const who = expected.type === "attack" ? [expected.seat] : [defender, ...expected.throw_in];
  const pick = (card) => {
    if (mode.what === "beat") {
      if (assigned[ui.active] === card) delete assigned[ui.active];
      else {
        for (const [target, with_] of Object.entries(assigned)) if (with_ === card) delete assigned[target];
        assigned[ui.active] = card;
        ui.active = unbeaten.find((c) => !assigned[c]) || ui.active;
      }
    } else if (mode.what !== "none") {
      ui.picks = picks.includes(card) ? picks.filter((c) => c !== card) : [...picks, card];
    }
    ctx.redraw();
  };
  const pad = suitedPad({
    ranks: rankKeys(state), ui, label: t("bout.pad", { name: ctx.names[mode.seat] }),
    gone: (card) => out.has(card) && !picks.includes(card),
    dim: (card) => {
      if (mode.what === "beat") return !beats(ui.active, card, expected.trump, order);
      if (mode.what === "throw") return !expected.ranks.includes(splitCard(card).rank);
      if (mode.what === "transfer") return splitCard(card).rank !== splitCard(expected.cards[0]).rank;
      if (mode.what === "lead" && picks.length) return splitCard(card).rank !== splitCard(picks[0]).rank;
      return mode.what === "none";
    },
    chosen: (card) => (mode.what === "beat" ? assigned[ui.active] === card : picks.includes(card)),
    onPick: pick,
  });
  const record = recordButton(ctx, mode, picks, assigned);
  const takeOn = expected.type !== "attack" && !expected.taking;
  const buttons = [
    h("button", { type: "button", class: "secondary", id: "log-take", "data-records": "take", disabled: !takeOn,
                  on: { click: () => ctx.send({ type: "take", seat: defender }) } }, t("bout.take"))];
  if (state.options.transfer) {
    buttons.push(h("button", { type: "button", class: "secondary", id: "pass-on", disabled: !expected.transfer,
                               "aria-pressed": String(mode.what === "transfer"),
                               on: { click: () => { ui.by = defender; ui.transfer = !ui.transfer; ui.picks = []; ctx.redraw(); } } },
    t("bout.transfer")));
  }
  buttons.push(h("button", { type: "button", class: "secondary", id: "log-done", "data-records": "done",
                             disabled: expected.type !== "done", on: { click: () => ctx.send({ type: "done" }) } }, t("bout.done")));
  return h("section", { class: "action bout-step", "aria-label": t("bout.title_plain", { n: expected.bout }), "data-in-view": "bout" },
    h("h2", {}, title),
    places(ctx, mode, assigned),
    seatRow(ctx, mode, who),
    h("p", { class: "hint bout-hint", id: "bout-hint" }, hint(ctx, mode)),
    pad,
    record,
    h("div", { class: ["bout-buttons", state.options.transfer && "with-transfer"] }, buttons));
}

function recordButton(ctx, mode, picks, assigned) {
  const expected = ctx.state.expected;
  const seat = mode.seat;
  const beaten = Object.keys(assigned).filter((card) => (expected.cards || []).includes(card));
  const [label, body, count] = {
    lead: ["bout.lead", { type: "attack", seat, cards: picks }, picks.length],
    throw: ["bout.throw", { type: "attack", seat, cards: picks }, picks.length],
    transfer: ["bout.pass_on", { type: "transfer", seat, cards: picks }, picks.length],
    beat: ["bout.beat", { type: "defend", seat, beats: beaten.map((card) => ({ card, with: assigned[card] })) }, beaten.length],
    none: ["bout.beat", null, 0],
  }[mode.what];
  return h("button", {
    // its id says what it records (a lead, a beat...): the next step's button is not this one tapped twice
    type: "button", class: "primary wide record", id: `log-${mode.what}`, "data-records": body ? body.type : null, disabled: !count,
    on: { click: () => ctx.send(body, { by: seat, transfer: mode.what === "transfer", active: ctx.ui.active }) },
  }, count ? tn(label, count) : t("bout.pick"));
}

/**
 * While an entry made from the bout waits to be sent: the bout as it was when the entry was sent (the seat, its
 * cards picked or the beats), greyed and out of reach (inert), of the same height; nothing moves until the answer.
 */
function waitingPanel(ctx) {
  const expected = ctx.state.expected;
  if (!expected || !["attack", "defend", "done"].includes(expected.type)) return null;
  const entry = ctx.pending()[0];
  const ui = { suit: ctx.ui.suit };
  if (entry && entry.route === "events" && entry.body.expect_seq === ctx.state.seq) {
    const body = entry.body;
    if (body.seat !== undefined) ui.by = body.seat;
    if (body.cards) ui.picks = [...body.cards];
    if (body.beats) ui.beats = Object.fromEntries(body.beats.map((b) => [b.card, b.with]));
    if (body.type === "transfer") ui.transfer = true;
    if (entry.step && entry.step.active) ui.active = entry.step.active;
  }
  const panel = boutPanel({ ...ctx, ui, redraw: () => {} });
  panel.inert = true;
  panel.classList.add("waiting-step");
  panel.setAttribute("aria-busy", "true");
  return panel;
}

/** Whether the deal uses the whole pack (six cards to each player): the last card dealt names the trump. */
function wholePack(state) {
  return 6 * state.players.length === 4 * state.rules.ranks.length;
}

/** The deal: the dealer, the turned card, and where the rule names nobody, who attacks first (the lowest trump). */
function dealStep(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const trumpPad = h("div", { class: "trump-pick" },
    h("p", { class: "label", text: ui.trump ? t("deal.face_up_is", { card: cardText(ui.trump) }) : t("deal.pick_face_up") }),
    suitedPad({ ranks: rankKeys(state), ui, label: t("deal.pick_face_up"),
                chosen: (card) => card === ui.trump, onPick: (card) => { ui.trump = card; ctx.redraw(); } }));
  const handPad = ({ gone: away, onPick }) => suitedPad({ ranks: rankKeys(state), ui, label: t("hands.keypad"),
                                                         gone: (card) => away(card) || card === ui.trump || Object.values(ui.hands || {}).some((held) => held.includes(card)), onPick });
  const named = expected.attacker === null;
  const attacker = named ? h("div", { class: "first-attacker", "data-area": "first-attacker" }, // its seats are not the dealer's
    h("p", { class: "label", id: "first-attacker", text: t("deal.first_attacker") }),
    seatButtons(ctx, { chosen: ui.firstAttacker, label: t("deal.first_attacker"),
                       onPick: (seat) => { ui.firstAttacker = seat; ctx.redraw(); } })) : null;
  return dealPanel(ctx, {
    lotOnServer: false, trumpPad, handPad, more: attacker,
    fields: () => (!named ? {} : ui.firstAttacker === undefined ? null : { attacker: ui.firstAttacker }),
    instructions: (name) => tParts(wholePack(state) ? `deal.${state.game}_whole` : `deal.${state.game}`, { name }),
  });
}

function actionPanel(ctx) {
  const expected = ctx.state.expected;
  if (expected.type === "deal") return dealStep(ctx);
  if (ctx.pending().length) return waitingPanel(ctx);
  return boutPanel(ctx);
}

/** Whose turn the seats show: who leads; in a bout, the defender (the others may throw in meanwhile). */
function turnLabel(ctx) {
  const expected = ctx.state.expected;
  return expected && expected.type !== "attack" ? t("table.defends") : t("table.attacks");
}

export const bout = {
  figures,
  inFront: () => [],
  dealInfo,
  lastTrick,
  trump,
  result,
  actionPanel,
  waitingPanel,
  extraControls: () => [],
  seatsSelectable: () => false,
  actingSeat: expectedSeat,
  turnLabel,
};
