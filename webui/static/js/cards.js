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
