// Languages: Polish, English and Russian. Every word the page shows comes from static/i18n/<lang>.json;
// card letters follow the language (Polish A K D W, Russian Т К Д В), the API always gets its own notation.

import { local } from "./local.js";

export const LANGUAGES = ["pl", "en", "ru"];
const FALLBACK = "en";

let current = FALLBACK;
let words = {};
let fallbackWords = {};

// each language's words, fetched once and kept: the table may switch language with the network gone, and on the
// club's plain-HTTP network no service worker keeps the files
const catalogues = new Map(); // lang -> the promise of its words

function fetchWords(lang) {
  if (!catalogues.has(lang)) {
    const loading = fetch(new URL(`../i18n/${lang}.json`, import.meta.url)).then((response) => {
      if (!response.ok) throw new Error(`no words for ${lang}`);
      return response.json();
    });
    loading.catch(() => catalogues.delete(lang)); // asked again next time
    catalogues.set(lang, loading);
  }
  return catalogues.get(lang);
}

/** The language stored on this phone, else the browser's first one we speak, else English. */
export function chooseLanguage() {
  const stored = local.get("lang");
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const code = String(tag).slice(0, 2).toLowerCase();
    if (LANGUAGES.includes(code)) return code;
  }
  return FALLBACK;
}

export async function setLanguage(lang) {
  if (!Object.keys(fallbackWords).length) fallbackWords = await fetchWords(FALLBACK);
  words = lang === FALLBACK ? fallbackWords : await fetchWords(lang);
  current = lang;
  document.documentElement.lang = lang;
  // the other languages while the network is here, for a switch without it
  for (const other of LANGUAGES) if (other !== lang) fetchWords(other).catch(() => {});
}

export function language() {
  return current;
}

export function has(key) {
  return key in words || key in fallbackWords;
}

/** The words for `key` in this language (English's where it has none), placeholders and all. */
function template(key) {
  return words[key] ?? fallbackWords[key] ?? key;
}

/** The key of the form of `key` for `count` in this language: `key.one`, `key.few`, `key.many` or `key.other`. */
function pluralKey(key, count) {
  const form = new Intl.PluralRules(current).select(count);
  return has(`${key}.${form}`) ? `${key}.${form}` : `${key}.other`;
}

/** The words for `key`, with {name} placeholders filled from `params`. */
export function t(key, params = {}) {
  return template(key).replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * The words for `key` as a list of strings and elements: a parameter that is an element (a player's name cut to
 * the room it has, see `nameCut` in table.js) is put in as it is, the others as text.
 */
export function tParts(key, params = {}) {
  return template(key).split(/(\{\w+\})/).filter((part) => part !== "").map((part) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (!name || !(name in params)) return part;
    return params[name] instanceof Node ? params[name].cloneNode(true) : String(params[name]);
  });
}

/** tParts() for words that depend on a number, as tn(). */
export function tnParts(key, count, params = {}) {
  return tParts(pluralKey(key, count), { n: count, ...params });
}

/** Words that depend on a number: `key.one`, `key.few`, `key.many` or `key.other`, chosen by the language. */
export function tn(key, count, params = {}) {
  return t(pluralKey(key, count), { n: count, ...params });
}

/** A card's rank as the table reads it in this language: D for the queen in Polish, Т for the ace in Russian. */
export function rankLetter(rank) {
  return has(`rank.${rank}`) ? t(`rank.${rank}`) : rank;
}

const ENGLISH_ORDINALS = { one: "st", two: "nd", few: "rd", other: "th" };

/** A place as the language writes it in {place}: "1st" in English; Polish and Russian add their own mark. */
export function ordinal(n) {
  if (current !== "en") return String(n);
  return `${n}${ENGLISH_ORDINALS[new Intl.PluralRules("en", { type: "ordinal" }).select(n)]}`;
}

export const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** Splits a card in the API's notation ("10H", "Q", "X") into its rank and suit. */
export function splitCard(card) {
  const text = String(card);
  const last = text.slice(-1);
  if (text.length > 1 && "SHDC".includes(last)) return { rank: text.slice(0, -1), suit: last };
  return { rank: text, suit: null };
}

/** A card as people read it here: the rank letter of the language and the suit's symbol. */
export function cardText(card) {
  const { rank, suit } = splitCard(card);
  return rankLetter(rank) + (suit ? SUIT_SYMBOLS[suit] : "");
}

/** A card in words, for screen readers: "queen of hearts", "dama kier". */
export function cardName(card) {
  const { rank, suit } = splitCard(card);
  const name = t(`rank_name.${rank}`);
  return suit ? t("card_of_suit", { rank: name, suit: t(`suit_of.${suit}`) }) : name;
}

export function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

/** Money as the language writes it, from the API's exact decimal text (no float is involved). */
export function moneyText(amount, currency) {
  const text = current === "en" ? String(amount) : String(amount).replace(".", ",");
  return currency ? `${text} ${currency}` : text;
}

/**
 * The language buttons of the top bar (`#langs`): each says whether it is the one in use; a tap sets its language,
 * keeps it for this phone, binds the buttons again and calls `changed()` (the page draws itself anew).
 */
export function bindLanguageButtons(changed) {
  const group = document.getElementById("langs");
  group.setAttribute("aria-label", t("lang.label"));
  for (const button of group.querySelectorAll("button")) {
    button.setAttribute("aria-pressed", String(button.dataset.lang === language()));
    button.title = t(`lang.${button.dataset.lang}`);
    button.onclick = async () => {
      if (!LANGUAGES.includes(button.dataset.lang)) return;
      local.set("lang", button.dataset.lang);
      await setLanguage(button.dataset.lang);
      bindLanguageButtons(changed);
      changed();
    };
  }
}
