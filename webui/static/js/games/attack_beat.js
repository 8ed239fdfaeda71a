// Attack and beat (the catalogue's keypad "attack_beat"): two players, a trump card under the stock, attacks of 1, 3 or 5 cards, beat or take.

import { rankKeys } from "../cards.js";
import { dealPanel } from "../deal.js";
import { h } from "../dom.js";
import { SUIT_SYMBOLS, cardText, cardsText, splitCard, t, tParts, tn } from "../i18n.js";
import { suitedPad } from "../keypad.js";
import { cardChip, expectedSeat } from "../table.js";

function figures(ctx, player) {
  const parts = [tn("seat.points", player.score)];
  if (player.hand_size !== null && player.hand_size !== undefined) parts.push(tn("seat.cards", player.hand_size));
  return parts;
}

function inFront(ctx, seat) {
  const deal = ctx.state.deal;
  if (!deal || deal.over || !deal.table.length) return [];
  return deal.attacker === seat ? deal.table.map((card) => cardChip(card)) : [];
}

function dealInfo(ctx) {
  const deal = ctx.state.deal;
  if (!deal) return [];
  const parts = [t("info.deal", { n: deal.number }), t("info.trump_suit", { suit: SUIT_SYMBOLS[deal.trump_suit] })];
  if (deal.face_up) parts.push(t("info.face_up", { card: cardText(deal.face_up) }));
  parts.push(t("info.stock", { n: deal.stock }), t("info.discards", { n: deal.discards }));
  return parts;
}

function lastTrick(ctx) {
  const deal = ctx.state.deal;
  if (!deal) return null;
  const done = deal.rounds.filter((round) => round.defended);
  if (!done.length || deal.table.length) return null;
  const round = done[done.length - 1];
  const defender = ctx.names[1 - round.attacker];
  const parts = [t("round.attack", { name: ctx.names[round.attacker], cards: cardsText(round.attack) })];
  if (round.beats.length) parts.push(t("round.beat", { name: defender, beats: round.beats.map((b) => `${cardText(b.card)}/${cardText(b.with)}`).join(", ") }));
  if (round.taken.length) parts.push(t("round.took", { name: defender, cards: cardsText(round.taken) }));
  return h("p", { class: "last-trick" }, parts.join(" · "));
}

/** The trump, big, beside the table: `shown`, the card while it lies face up under the stock, else the suit. */
export function trumpBig(shown, suit) {
  return h("div", { class: "trump-big", id: "trump" },
    h("span", { class: "label", text: t("table.trump") }),
    shown ? cardChip(shown)
      : h("span", { class: ["card", "suit-only", ["H", "D"].includes(suit) ? "red" : "black"], role: "img",
                    "aria-label": t(`suit_name.${suit}`), text: SUIT_SYMBOLS[suit] }));
}

function trump(ctx) {
  const deal = ctx.state.deal;
  return deal ? trumpBig(deal.face_up, deal.trump_suit) : null;
}

function result(ctx) {
  const deal = ctx.state.deal;
  if (!deal || !deal.over || !deal.result) return null;
  const r = deal.result;
  return h("p", { class: "result", role: "status" },
    r.draw ? t(`result.${ctx.state.game}_draw`) : t(`result.${ctx.state.game}`, { winner: ctx.names[r.winner], loser: ctx.names[r.loser] }));
}

/** Cards the seat cannot hold: discarded, on the table, under the stock, or known to be in the other hand. */
function gone(deal, seat) {
  const cards = new Set([...deal.discarded, ...deal.table, ...(deal.known[String(1 - seat)] || [])]);
  if (deal.face_up) cards.add(deal.face_up);
  return cards;
}

/** Whether `other` beats `card`: higher of its suit, or a trump on a plain card. */
export function beats(card, other, trump, order) {
  const a = splitCard(card);
  const b = splitCard(other);
  if (a.suit === b.suit) return order.indexOf(b.rank) > order.indexOf(a.rank);
  return b.suit === trump;
}

/**
 * Right after the deal, the swap of the nine of trumps, at the end of the attack step (under the thumb, above the
 * bottom bar): a button for each seat that may hold the nine; once swapped, who swapped, in a slot of the same
 * height until the first attack, so that neither the swap nor its undo moves a key. Null when there is no swap.
 */
function exchangeSlot(ctx) {
  const { state } = ctx;
  const open = state.expected.exchange;
  const done = state.deal.exchange;
  if (open) {
    return h("div", { class: "exchange", role: "group", "aria-labelledby": "exchange-what" },
      h("p", { class: "exchange-what", id: "exchange-what",
               text: t("attack.exchange_what", { nine: cardText(open.nine), card: cardText(open.face_up) }) }),
      h("div", { class: "exchange-seats" }, open.seats.map((s) => h("button", {
        type: "button", class: "secondary", "data-exchange": s, "data-records": "exchange",
        "aria-pressed": ctx.ui.exchange === undefined ? null : String(ctx.ui.exchange === s), // the swap waiting to be sent
        on: { click: () => ctx.send({ type: "exchange", seat: s }, null, { keep: ["attack"] }) }, // the cards picked stay
      }, t("attack.exchange_seat", { name: ctx.names[s] })))));
  }
  if (!done || state.deal.rounds.length) return null;
  return h("div", { class: "exchange" }, h("p", { class: "exchange-done",
    text: `✓ ${t("event.exchange", { name: ctx.names[done.seat], nine: cardText(done.nine), card: cardText(done.face_up) })}` }));
}

/**
 * The cards picked for the attack that the attacker can no longer lay (after the swap of the nine of trumps the nine
 * lies face up under the stock) are taken out of the picks, and the table is told which and why, in its language.
 */
function dropGonePicks(ctx, out) {
  const { ui, state } = ctx;
  const lost = (ui.attack || []).filter((card) => out.has(card));
  if (!lost.length) return;
  ui.attack = ui.attack.filter((card) => !out.has(card));
  const faceUp = lost.length === 1 && lost[0] === state.deal.face_up;
  const words = (short) => (faceUp ? t(`attack.unpicked_face_up${short}`, { card: cardText(lost[0]) })
    : t(`attack.unpicked${short}`, { cards: cardsText(lost) }));
  ctx.notice(words(""));
  ctx.say(() => words("_short")); // at the bottom too, where the finger is: the notice may lie above the screen
}

function attackPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const seat = expected.seat;
  const out = gone(state.deal, seat);
  dropGonePicks(ctx, out);
  const chosen = ui.attack || (ui.attack = []);
  const who = t("attack.who", { name: ctx.names[seat] });
  // the cards chosen take the place of the hint (one slot, of one height): the keypad and its log button stay put
  return h("section", { class: "action attack-step", "aria-label": who, "data-in-view": "attack" },
    h("h2", { text: who }),
    h("p", { class: "chosen-cards", "aria-live": "polite" }, chosen.length ? chosen.map((card) => cardChip(card))
      : h("span", { class: "hint", text: t("attack.sizes", { sizes: expected.sizes.join(", ") }) })),
    suitedPad({
      ranks: rankKeys(state), ui, label: t("keypad.label"),
      gone: (card) => out.has(card) && !chosen.includes(card),
      chosen: (card) => chosen.includes(card),
      onPick: (card) => {
        ui.attack = chosen.includes(card) ? chosen.filter((c) => c !== card) : [...chosen, card];
        ctx.redraw();
      },
    }),
    h("button", { type: "button", class: "primary wide", id: "log-attack", "data-records": "attack", disabled: !chosen.length,
                  on: { click: () => ctx.send({ type: "attack", seat, cards: chosen }) } },
    chosen.length ? tn("attack.log", chosen.length) : t("attack.pick")),
    exchangeSlot(ctx));
}

function defendPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const seat = expected.seat;
  const trump = expected.trump;
  const assigned = ui.beats || (ui.beats = {});
  const attack = expected.cards;
  if (!attack.includes(ui.active)) ui.active = attack.find((card) => !assigned[card]) || attack[0];
  const used = new Set(Object.values(assigned));
  const out = gone(state.deal, seat);
  const who = t("defend.who", { name: ctx.names[seat] });
  const rows = attack.map((card) => h("li", { class: ["beat-row", ui.active === card && "active"] },
    h("button", { type: "button", class: "beat-target", "aria-pressed": String(ui.active === card), "data-attack": card,
                  on: { click: () => { ui.active = card; ctx.redraw(); } } },
    cardChip(card), h("span", { class: "arrow", "aria-hidden": "true", text: "→" }),
    assigned[card] ? cardChip(assigned[card]) : h("span", { class: "takes", text: t("defend.takes") })),
    assigned[card] ? h("button", { type: "button", class: "secondary", "data-take": card,
                                   on: { click: () => { delete assigned[card]; ui.active = card; ctx.redraw(); } } }, t("defend.take")) : null));
  const beaten = Object.keys(assigned).length;
  return h("section", { class: "action defend-step", "aria-label": who, "data-in-view": "defend" },
    h("h2", { text: who }),
    h("p", { class: "hint", text: t("defend.hint", { card: cardText(ui.active), suit: SUIT_SYMBOLS[trump] }) }),
    h("ul", { class: "beats" }, rows),
    suitedPad({
      ranks: rankKeys(state), ui, label: t("defend.pad", { card: cardText(ui.active) }),
      gone: (card) => out.has(card) || attack.includes(card) || (used.has(card) && assigned[ui.active] !== card),
      dim: (card) => !beats(ui.active, card, trump, state.rules.ranks),
      chosen: (card) => assigned[ui.active] === card,
      onPick: (card) => {
        assigned[ui.active] = card;
        ui.active = attack.find((c) => !assigned[c]) || ui.active;
        ctx.redraw();
      },
    }),
    h("button", { type: "button", class: "primary wide", id: "log-defence", "data-records": "defend",
                  on: { click: () => ctx.send({ type: "defend", seat, beats: attack.filter((c) => assigned[c]).map((c) => ({ card: c, with: assigned[c] })) },
                                                { active: ui.active }) } },
    t("defend.log", { beaten, taken: attack.length - beaten })));
}

/**
 * The picks of the entry the step waits on, to draw the step as it was when the entry was sent: the first entry
 * waiting to be sent, when it was made from this step against this state (the attack's cards, the defence's beats
 * and the row it was on, the seat that swaps); none for an undo or an entry made against another state.
 */
function waitingPicks(ctx) {
  const expected = ctx.state.expected;
  const entry = ctx.pending()[0];
  if (!entry || entry.route !== "events" || entry.body.expect_seq !== ctx.state.seq) return {};
  const body = entry.body;
  if (body.type === "exchange" && expected.type === "attack" && expected.exchange) {
    return { exchange: body.seat, attack: [...(ctx.ui.attack || [])] }; // the cards picked before the swap stay
  }
  if (body.type !== expected.type || body.seat !== expected.seat) return {};
  if (body.type === "attack") return { attack: [...body.cards] };
  if (body.type !== "defend") return {};
  const beats = Object.fromEntries(body.beats.map((b) => [b.card, b.with]));
  const active = entry.step && expected.cards.includes(entry.step.active) ? entry.step.active
    : expected.cards.find((card) => !beats[card]) || expected.cards[expected.cards.length - 1];
  return { beats, active };
}

/**
 * While an entry made from the attack or the defence (or the swap) waits to be sent: that step as it was when the
 * entry was sent, drawn from the entry itself (the cards picked, the beats and what is taken, the swap tapped),
 * greyed and out of reach (inert). It keeps its height, so that nothing on the page moves under the finger until
 * the server's answer brings the next step; the entries picked on this phone stay cleared. Null for the deal.
 */
function waitingPanel(ctx) {
  const type = ctx.state.expected && ctx.state.expected.type;
  if (type !== "attack" && type !== "defend") return null;
  const drawn = { ...ctx, ui: { ...ctx.ui, attack: [], beats: {}, active: undefined, ...waitingPicks(ctx) } };
  const panel = type === "defend" ? defendPanel(drawn) : attackPanel(drawn);
  panel.inert = true;
  panel.classList.add("waiting-step");
  panel.setAttribute("aria-busy", "true");
  return panel;
}

function actionPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  if (expected.type === "deal") {
    const trumpPad = h("div", { class: "trump-pick" },
      h("p", { class: "label", text: ui.trump ? t("deal.face_up_is", { card: cardText(ui.trump) }) : t("deal.pick_face_up") }),
      suitedPad({ ranks: rankKeys(state), ui, label: t("deal.pick_face_up"),
                  chosen: (card) => card === ui.trump, onPick: (card) => { ui.trump = card; ctx.redraw(); } }));
    const handPad = ({ gone, onPick }) => suitedPad({ ranks: rankKeys(state), ui, label: t("hands.keypad"),
                                                      gone: (card) => gone(card) || card === ui.trump || Object.values(ui.hands || {}).some((held) => held.includes(card)), onPick });
    return dealPanel(ctx, { lotOnServer: false, trumpPad, handPad, instructions: (name) => tParts(`deal.${ctx.state.game}`, { name }) });
  }
  if (ctx.pending().length) return waitingPanel(ctx);
  if (expected.type === "defend") return defendPanel(ctx);
  return attackPanel(ctx);
}

export const attackBeat = {
  figures,
  inFront,
  dealInfo,
  lastTrick,
  trump,
  result,
  actionPanel,
  waitingPanel,
  extraControls: () => [],
  seatsSelectable: () => false,
  // while an attack, a defence or a swap waits to be sent its step stays as it was, and so does whose turn it is
  actingSeat: expectedSeat,
  turnLabel: (ctx) => (ctx.state.expected && ctx.state.expected.type === "defend" ? t("table.defends") : t("table.attacks")),
};
