// The cards each game's keypad offers, in the order the table ranks them.

const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
export const SUITS = ["S", "H", "D", "C"];

/** The ranks of the keypad for a game where suits do not matter. */
export function rankKeys(game, options) {
  if (game === "ogurets") return ["A", ...RANKS.slice(0, -1), ...(options.jokers ? ["X"] : [])];
  return RANKS;
}

/** The ranks of a suited game's deck, lowest first. */
export function suitedRanks(game, options) {
  if (game === "duren") return RANKS.slice(RANKS.indexOf(options.deck === 36 ? "6" : "9"));
  return RANKS;
}

export function isRed(suit) {
  return suit === "H" || suit === "D";
}

function suitOf(card) {
  const last = card.slice(-1);
  return SUITS.includes(last) && card.length > 1 ? last : null;
}

/**
 * Who takes (or, in Ogórek, leads after) a complete trick of `plays` ({seat, card} in the order played), for a
 * page that has not heard from the server yet: the highest card, the latest of equal ones (Ogórek, Ogurets);
 * the highest trump, else the highest card of the suit led (Oh Hell). Null for a game the page cannot tell.
 */
export function trickTaker(game, options, plays, trump) {
  if (!plays.length) return null;
  if (game === "ogorek" || game === "ogurets") {
    const order = rankKeys(game, options);
    return plays.reduce((best, p) => (order.indexOf(p.card) >= order.indexOf(best.card) ? p : best)).seat;
  }
  if (game === "oh_hell") {
    const led = suitOf(plays[0].card);
    const strength = (card) => {
      const suit = suitOf(card);
      const rank = RANKS.indexOf(card.slice(0, -1));
      return suit === trump ? 200 + rank : suit === led ? 100 + rank : rank - 100;
    };
    return plays.reduce((best, p) => (strength(p.card) > strength(best.card) ? p : best)).seat;
  }
  return null;
}
