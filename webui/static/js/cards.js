// The cards each game's keypad offers, in the order the table ranks them: the catalogue's `rules` of the match.

export const SUITS = ["S", "H", "D", "C"];

/** The ranks of the match's deck, lowest first in play (the keypad's keys). */
export function rankKeys(state) {
  return state.rules.ranks;
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

function suitOf(card) {
  const last = card.slice(-1);
  return SUITS.includes(last) && card.length > 1 ? last : null;
}

/**
 * Who takes (or leads after) a complete trick of `plays` ({seat, card} in the order played), for a page that
 * has not heard from the server yet, by the game's `rules.trick`: "climb", the highest card, the latest of equal
 * ones; "follow", the highest trump, else the highest card of the suit led. Null for a game the page cannot tell.
 */
export function trickTaker(rules, plays, trump) {
  if (!plays.length) return null;
  const order = rules.ranks;
  if (rules.trick === "climb") {
    return plays.reduce((best, p) => (order.indexOf(p.card) >= order.indexOf(best.card) ? p : best)).seat;
  }
  if (rules.trick === "follow") {
    const led = suitOf(plays[0].card);
    const strength = (card) => {
      const suit = suitOf(card);
      const rank = order.indexOf(card.slice(0, -1));
      return suit === trump ? 200 + rank : suit === led ? 100 + rank : rank - 100;
    };
    return plays.reduce((best, p) => (strength(p.card) > strength(best.card) ? p : best)).seat;
  }
  return null;
}
