// Known hands (optional, in the deal step): when the table shows the referee a player's dealt hand, every
// play of that player is checked exactly, at once, and a play the rules forbid is refused on the spot.

import { h } from "./dom.js";
import { cardName, cardsText, t } from "./i18n.js";
import { cardChip, seatButtons } from "./table.js";

/** The hands entered so far: {seat: [cards]}; complete ones go with the deal. */
export function enteredHands(ui) {
  return ui.hands || (ui.hands = {});
}

/** Seats whose hand is begun but not complete: the deal waits for them. */
export function incompleteHands(ui, size) {
  return Object.entries(enteredHands(ui)).filter(([, cards]) => cards.length && cards.length < size).map(([seat]) => Number(seat));
}

/** The complete hands, as the API takes them: {"1": ["K", "K", ...]}. */
export function handsToSend(ui, size) {
  const hands = Object.entries(enteredHands(ui)).filter(([, cards]) => cards.length === size);
  return hands.length ? Object.fromEntries(hands) : null;
}

/** `pad({onPick, gone})` makes the game's keypad for picking the cards of a hand. */
export function knownHandsField(ctx, { size, pad }) {
  const { ui } = ctx;
  const hands = enteredHands(ui);
  const seat = ui.handSeat ?? null;
  const cards = seat === null ? [] : hands[seat] || [];
  const summary = Object.entries(hands).filter(([, held]) => held.length)
    .map(([s, held]) => `${ctx.names[s]} (${held.length}/${size}): ${cardsText(held)}`);
  return h("details", { class: "known-hands", open: ui.handsOpen || null,
                        on: { toggle: (e) => { ui.handsOpen = e.target.open; } } },
    h("summary", { text: t("hands.title") }),
    h("p", { class: "hint", text: t("hands.hint", { n: size }) }),
    seatButtons(ctx, { chosen: seat, label: t("hands.whose"), onPick: (s) => { ui.handSeat = s; ctx.redraw(); } }),
    summary.length ? h("ul", { class: "hand-summary" }, summary.map((line) => h("li", { text: line }))) : null,
    seat === null ? null : h("div", { class: "hand-entry" },
      h("p", { class: "label", text: t("hands.of", { name: ctx.names[seat], n: cards.length, size }) }),
      h("div", { class: "chosen-cards" }, cards.map((card, index) => h("button", {
        type: "button", class: "chip-button", "aria-label": t("hands.remove", { card: cardName(card) }),
        on: { click: () => { hands[seat] = cards.filter((_, i) => i !== index); ctx.redraw(); } },
      }, cardChip(card)))),
      pad({
        gone: () => cards.length >= size,
        onPick: (card) => { if (cards.length < size) { hands[seat] = [...cards, card]; ctx.redraw(); } },
      })));
}
