// The deal step: who deals (by lot, drawn here, or the rule's dealer, which the table may override), the dealer's
// instructions, the trump turned up where the game has one, and the known hands that go with the deal.

import { h } from "./dom.js";
import { t, tParts } from "./i18n.js";
import { handsToSend, handsWaiting, incompleteHands, knownHandsField } from "./hands.js";
import { randomSeat } from "./local.js";
import { nameCut, seatButtons } from "./table.js";

/**
 * The deal step: who deals (by lot for the first deal, else the rule's dealer, which the table may
 * override), the instructions for the dealer, and, where the game turns up a trump card, that card.
 */
export function dealPanel(ctx, { instructions, trumpPad, lotOnServer, handPad, title: named, more, fields = () => ({}) }) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const first = expected.dealer === null;
  if (ui.dealer === undefined) {
    const stored = first ? ctx.firstDealer() : expected.dealer;
    ui.dealer = stored === "lot" || stored === null || stored === undefined ? (first ? "lot" : expected.dealer) : stored;
  }
  const names = ctx.names;
  const lot = ui.dealer === "lot";
  const title = named || t("deal.title", { n: expected.deal });
  const rows = [h("h2", { text: title })];
  let choice = null;
  if (first && lotOnServer) {
    choice = h("button", { type: "button", class: "choice", "aria-pressed": String(lot), id: "dealer-by-lot",
                           on: { click: () => { ui.dealer = "lot"; ctx.redraw(); } } }, t("deal.by_lot"));
  } else if (first) {
    choice = h("button", { type: "button", class: "choice", id: "draw-dealer",
                           on: { click: () => { ui.dealer = randomSeat(state.players.filter((p) => !p.out).map((p) => p.seat)); ui.drawn = true; ctx.redraw(); } } },
    t("deal.draw"));
  }
  // the lot beside the label, the seats in a row of their own: how the seats wrap depends on the players' names,
  // never on the length of the lot's words in the table's language
  rows.push(h("div", { class: "dealer-head" }, h("p", { class: "label", text: t("deal.dealer") }), choice));
  rows.push(h("div", { class: "dealer-choice" }, seatButtons(ctx, {
    chosen: ui.dealer, label: t("deal.dealer"), onPick: (seat) => { ui.dealer = seat; ui.drawn = false; ctx.redraw(); },
  })));
  // the note on the dealer (the lot's choice, a dealer other than the rule's; with the known hands closed, the hands
  // Deal waits for) has its place, empty until a tap brings it: Deal and everything below stay put when it comes
  const size = expected.cards;
  const waiting = incompleteHands(ui, size);
  let note = null;
  if (waiting.length && !ui.handsOpen) note = h("span", { class: "warn" }, handsWaiting(ctx, waiting, size)); // Deal waits for them
  else if (ui.drawn && !lot) note = h("span", { class: "drawn" }, tParts("deal.drawn", { name: nameCut(names[ui.dealer]) }));
  else if (!first && ui.dealer !== expected.dealer) note = h("span", { class: "warn" }, tParts("deal.not_rule", { name: nameCut(names[expected.dealer]) }));
  rows.push(h("p", { class: "deal-note", id: "deal-note", role: "status" }, note));
  const dealerName = lot ? t("deal.the_dealer") : nameCut(names[ui.dealer]);
  rows.push(h("p", { class: "instructions" }, instructions(dealerName)));
  if (trumpPad) rows.push(trumpPad);
  if (more) rows.push(more); // the game's own choice for the deal (who attacks first): `fields` sends it
  const extra = fields(); // null while the game's own choice is still to be made
  const ready = (!trumpPad || ui.trump) && !(lot && !lotOnServer) && !waiting.length && extra !== null;
  rows.push(h("button", {
    type: "button", class: "primary wide", id: "log-deal", "data-records": "deal", "data-in-view-end": "", disabled: !ready,
    on: { click: () => {
      const body = { type: "deal" };
      if (!lot) body.dealer = ui.dealer;
      if (trumpPad) body.trump = ui.trump;
      Object.assign(body, extra);
      const hands = handsToSend(ui, size);
      if (hands) body.hands = hands;
      ctx.send(body);
    } },
  }, trumpPad ? t("deal.log_with_trump") : t("deal.log")));
  if (handPad) rows.push(knownHandsField(ctx, { size, pad: handPad, waiting }));
  return h("section", { class: ["action", "deal-step", more && "with-more"], "aria-label": title, "data-in-view": "deal" }, rows);
}
