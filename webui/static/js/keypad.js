// The card keypads: ranks alone (Ogórek, Ogurets), or rank and suit (Oh Hell, Dureń).
//
// A card that can no longer be played is greyed out and disabled; a card the referee would refuse but the
// table may still let stand is only dimmed. Every key carries the card in the API's notation in data-card; a key
// that records a play says so (data-records, and data-who: whose play it records), for the double-tap check.

import { SUITS, isRed } from "./cards.js";
import { h } from "./dom.js";
import { SUIT_SYMBOLS, cardName, rankLetter, splitCard, t } from "./i18n.js";

function key(card, label, { gone, dim, chosen, onPick, suit, records }) {
  // the name begins with what the key shows (K♥), then says it in words (king of hearts)
  const shown = rankLetter(splitCard(card).rank) + (suit ? SUIT_SYMBOLS[suit] : "");
  return h("button", {
    type: "button",
    class: ["key", suit && (isRed(suit) ? "red" : "black"), gone && "gone", dim && "dim", chosen && "chosen"],
    "data-card": card,
    "data-records": records ? "play" : null,
    "data-who": records ? records.who : null,
    "aria-label": `${shown}, ${cardName(card)}${gone ? ` (${t("keypad.gone")})` : ""}`,
    "aria-pressed": chosen === undefined ? null : String(Boolean(chosen)),
    disabled: gone,
    on: { click: () => onPick(card) },
  }, label);
}

/** Ranks only. `gone(card)`, `dim(card)` and `chosen(card)` say how each key looks. */
export function rankPad({ ranks, gone = () => false, dim = () => false, onPick, label, records }) {
  return h("div", { class: "keypad ranks", role: "group", "aria-label": label },
    ranks.map((rank) => key(rank, rank === "X" ? h("span", { class: "joker", text: rankLetter("X") }) : rankLetter(rank),
      { gone: gone(rank), dim: dim(rank), onPick, records })));
}

function suitedKey(card, rank, suit, opts) {
  return key(card, [h("span", { class: "rank", text: rankLetter(rank) }), h("span", { class: "suit", text: SUIT_SYMBOLS[suit] })],
    { gone: opts.gone(card), dim: opts.dim(card), chosen: opts.chosen ? opts.chosen(card) : undefined, onPick: opts.onPick, suit,
      records: opts.records });
}

/**
 * Rank and suit. A short deck (Dureń: 6 or 9 ranks) shows every card at once, a row per suit; a full
 * deck shows the ranks of one suit, chosen by the suit buttons above (the choice is kept in `ui.suit`).
 */
export function suitedPad({ ranks, ui, gone = () => false, dim = () => false, chosen, onPick, label, records }) {
  const opts = { gone, dim, chosen, onPick, records };
  if (ranks.length <= 9) {
    return h("div", { class: "keypad suited-grid", role: "group", "aria-label": label },
      SUITS.map((suit) => h("div", { class: "keyrow" },
        ranks.map((rank) => suitedKey(rank + suit, rank, suit, opts)))));
  }
  const suit = ui.suit || "S";
  const tabs = h("div", { class: "suit-tabs", role: "group", "aria-label": t("keypad.suit") },
    SUITS.map((s) => h("button", {
      type: "button", class: ["suit-tab", isRed(s) ? "red" : "black"], "aria-pressed": String(s === suit),
      "data-suit": s, "aria-label": t(`suit_name.${s}`),
      on: { click: () => { ui.suit = s; const pad = tabs.parentElement; pad.replaceWith(suitedPad({ ranks, ui, gone, dim, chosen, onPick, label, records })); } },
    }, SUIT_SYMBOLS[s])));
  return h("div", { class: "keypad suited", role: "group", "aria-label": label },
    tabs,
    h("div", { class: "ranks" }, ranks.map((rank) => suitedKey(rank + suit, rank, suit, opts))));
}
