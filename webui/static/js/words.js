// The referee in the table's language: a refusal, warning or finding written by the page from its code and
// details (webui/static/i18n: `say.<code>`, or `say.<code>.<case>` where a code has several wordings), with
// the language's card letters and the players' names. The server's English message is the last resort.

import { SUIT_SYMBOLS, cardText, cardsText, has, t, tn } from "./i18n.js";

const SEATS = new Set(["seat", "turn", "holder", "dealer", "last_dealer", "loser", "defender", "attacker"]);
const CARDS = new Set(["card", "top", "later", "lead", "nine", "face_up", "with"]);
const CARD_LISTS = new Set(["cards", "laid"]);
const SUITS = new Set(["led", "trump", "suit"]);
const RANK_LISTS = new Set(["ranks"]);

/** One detail as the words say it: a seat by name, a card in the language's letters, a suit by its sign. */
function spoken(name, value, names) {
  if (value === null || value === undefined) return undefined;
  if (SEATS.has(name)) return names[value];
  if (CARDS.has(name)) return cardText(value);
  if (CARD_LISTS.has(name) && Array.isArray(value)) return cardsText(value); // a `laid` may be a count
  if (SUITS.has(name)) return SUIT_SYMBOLS[value];
  if (RANK_LISTS.has(name)) return value.map((rank) => (has(`rank.${rank}`) ? t(`rank.${rank}`) : rank)).join(" ");
  if (name === "seats") return value.map((seat) => names[seat]).join(", ");
  return String(value);
}

/**
 * Verdicts whose words put a noun after a number ("has 1 card", "ma 3 karty"): the detail whose number chooses the
 * form. Their words are `<key>.one`, `.few`, `.many`, `.other`, as the language's plural rules pick them (tn()).
 */
export const COUNTED = { "say.bid_out_of_range": "size", "say.card_not_held.too_many": "held" };

/** Whether the language has words for `key`, in one form or by number. */
function said(key) {
  return has(key) || has(`${key}.other`);
}

/** The words' key for a verdict; null when the page has none. */
export function verdictKey(code, details = {}) {
  if (details.case && said(`say.${code}.${details.case}`)) return `say.${code}.${details.case}`;
  return said(`say.${code}`) ? `say.${code}` : null;
}

/**
 * A verdict in the table's language, or null when the page cannot say it (no words, or a value missing):
 * `seat` is whose play it is about.
 */
export function verdictText(code, details, seat, names) {
  const key = verdictKey(code, details || {});
  if (!key) return null;
  const params = { name: names[seat] };
  for (const [name, value] of Object.entries(details || {})) {
    const text = spoken(name, value, names);
    if (text !== undefined) params[name] = text;
  }
  const counted = COUNTED[key];
  const text = counted && has(`${key}.other`) && typeof details?.[counted] === "number"
    ? tn(key, details[counted], params) : t(key, params);
  return /\{\w+\}|undefined/.test(text) ? null : text;
}
