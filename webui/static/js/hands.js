// Known hands (optional, in the deal step): when the table shows the referee a player's dealt hand, every
// play of that player is checked exactly, at once, and a play the rules forbid is refused on the spot.

import { h } from "./dom.js";
import { cardName, cardsText, t, tParts } from "./i18n.js";
import { cardChip, nameCut, seatButtons } from "./table.js";

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

/** "Finish the hands of …": the seats whose hand is begun and not complete, their names cut where long. */
export function handsWaiting(ctx, waiting, size) {
  return tParts("hands.incomplete", { n: size, names: h("span", {}, waiting.map((s, i) => [i ? ", " : "", nameCut(ctx.names[s])])) });
}

/**
 * `pad({onPick, gone})` makes the game's keypad for picking the cards of a hand; `waiting`, the seats whose hand is
 * begun, not complete: the deal waits for them, and the hint's place says so instead of the hint (the keys below
 * stay where they are when it comes).
 */
export function knownHandsField(ctx, { size, pad, waiting = [] }) {
  const { ui } = ctx;
  const hands = enteredHands(ui);
  const seat = ui.handSeat ?? null;
  const cards = seat === null ? [] : hands[seat] || [];
  const summary = Object.entries(hands).filter(([, held]) => held.length)
    .map(([s, held]) => `${ctx.names[s]} (${held.length}/${size}): ${cardsText(held)}`);
  return h("details", { class: "known-hands", open: ui.handsOpen || null,
                        // closed, the hands still waited for are said in the deal's note instead: drawn again then only
                        on: { toggle: (e) => {
                          if (Boolean(ui.handsOpen) === e.target.open) return;
                          ui.handsOpen = e.target.open;
                          if (waiting.length) ctx.redraw();
                        } } },
    h("summary", { text: t("hands.title") }),
    waiting.length
      ? h("p", { class: "hint warn", id: "hands-waiting", role: "status" }, handsWaiting(ctx, waiting, size))
      : h("p", { class: "hint", text: t("hands.hint", { n: size }) }),
    seatButtons(ctx, { chosen: seat, label: t("hands.whose"), onPick: (s) => { ui.handSeat = s; ctx.redraw(); } }),
    seat === null ? null : h("div", { class: "hand-entry" },
      h("p", { class: "label" }, tParts("hands.of", { name: nameCut(ctx.names[seat]), n: cards.length, size })),
      h("div", { class: "chosen-cards" }, cards.map((card, index) => h("button", {
        type: "button", class: "chip-button", "aria-label": t("hands.remove", { card: cardName(card) }),
        on: { click: () => { hands[seat] = cards.filter((_, i) => i !== index); ctx.redraw(); } },
      }, cardChip(card)))),
      pad({
        gone: () => cards.length >= size,
        onPick: (card) => { if (cards.length < size) { hands[seat] = [...cards, card]; ctx.redraw(); } },
      })),
    // the hands entered so far, below the keypad: a line that comes with a hand begun moves no key
    summary.length ? h("ul", { class: "hand-summary" }, summary.map((line) => h("li", { text: line }))) : null);
}

/** The cards of each entered hand of the current deal not yet played: {seat: [cards]}, from the log read with the key. */
export function handsLeft(log) {
  const live = log.filter((e) => e.type !== "undo" && !e.undone_by);
  const start = live.map((e) => e.type).lastIndexOf("deal");
  if (start < 0 || !live[start].hands) return {};
  const left = Object.fromEntries(Object.entries(live[start].hands).map(([seat, cards]) => [seat, [...cards]]));
  const remove = (seat, card) => {
    const cards = left[String(seat)];
    const index = cards ? cards.indexOf(card) : -1;
    if (index >= 0) cards.splice(index, 1);
  };
  for (const event of live.slice(start + 1)) {
    if (event.type === "play") remove(event.seat, event.card);
    if (event.type === "attack") event.cards.forEach((card) => remove(event.seat, card));
    if (event.type === "defend") event.beats.forEach((beat) => remove(event.seat, beat.with));
  }
  return left;
}

/** "Show hands": off by default, per match, remembered on this phone; with it on, the hands not yet played. */
export function handsControl(ctx) {
  return h("button", { type: "button", class: "secondary", id: "show-hands", "aria-pressed": String(ctx.showHands),
                       on: { click: () => ctx.toggleHands() } }, ctx.showHands ? t("hands.hide") : t("hands.show"));
}

export function shownHands(ctx) {
  if (!ctx.showHands) return null;
  const left = Object.entries(handsLeft(ctx.log())).filter(([, cards]) => cards.length);
  return h("section", { class: "panel shown-hands", id: "shown-hands", "aria-label": t("hands.shown") },
    h("h2", { text: t("hands.shown") }),
    left.length ? h("ul", { class: "hand-summary" }, left.map(([seat, cards]) => h("li", {},
      h("strong", { text: `${ctx.names[seat]}: ` }), cards.map((card) => cardChip(card)))))
      : h("p", { class: "hint", text: t("hands.none") }));
}
