// What every game's table shows: cards, the seats with the cards in front of them (the deal step is deal.js).

import { isRed, trickTaker } from "./cards.js";
import { h } from "./dom.js";
import { SUIT_SYMBOLS, cardName, cardText, ordinal, rankLetter, splitCard, t } from "./i18n.js";

/** A card face, small: the rank letter of the language and the suit symbol. */
export function cardChip(card, { pending = false } = {}) {
  const { rank, suit } = splitCard(card);
  const name = cardName(card) + (pending ? ` (${t("table.pending")})` : "");
  return h("span", { class: ["card", suit && (isRed(suit) ? "red" : "black"), pending && "pending"],
                     role: "img", "aria-label": name, title: name, "data-card": card },
  rankLetter(rank) + (suit ? SUIT_SYMBOLS[suit] : ""));
}

/** The plays of the current trick that are still waiting to be sent from this phone. */
export function pendingPlays(ctx) {
  return ctx.pending().filter((e) => e.body.type === "play").map((e) => ({ seat: e.body.seat, card: e.body.card }));
}

/**
 * The trick as it will stand once the plays waiting here are recorded: its cards ({seat, card, pending}), its
 * number, and who plays next. A trick the waiting plays complete is taken by the rule's player (who then leads), so
 * that a phone without network goes on into the next trick; `next` is null when the page cannot tell.
 */
export function provisionalTrick(ctx) {
  const deal = ctx.state.deal;
  const waiting = ctx.pending();
  const plays = pendingPlays(ctx);
  let trick = (deal && deal.table ? deal.table : []).map((p) => ({ seat: p.seat, card: p.card, pending: false }));
  let number = deal ? deal.trick : null;
  if (!deal || !deal.seats || plays.length !== waiting.length) return { trick, number, next: null };
  let next = deal.turn ?? null;
  for (const play of plays) {
    trick.push({ ...play, pending: true });
    if (trick.length >= deal.seats.length) {
      next = trickTaker(ctx.state.rules, trick, deal.trump);
      trick = [];
      number += 1;
    } else {
      next = deal.seats[(deal.seats.indexOf(play.seat) + 1) % deal.seats.length];
    }
  }
  return { trick, number, next };
}

/** The number of the trick being played, counting the tricks that plays waiting here complete; never past the last. */
export function trickNumber(ctx, last) {
  return Math.min(provisionalTrick(ctx).number, last);
}

/** The seat that plays next once the plays waiting here are recorded; null when the page cannot tell. */
export function provisionalSeat(ctx) {
  if (!ctx.pending().length) return undefined;
  return provisionalTrick(ctx).next;
}

/** Who the next entry is for: the seat tapped, else who the referee expects (after what waits to be sent). */
export function actingSeat(ctx) {
  if (ctx.ui.seat !== null && ctx.ui.seat !== undefined) return ctx.ui.seat;
  const provisional = provisionalSeat(ctx);
  if (provisional !== undefined) return provisional;
  return expectedSeat(ctx);
}

/** Who the referee expects to act, by the state as the server last sent it (entries waiting here aside). */
export function expectedSeat(ctx) {
  const expected = ctx.state.expected;
  if (!expected) return null;
  return expected.seat ?? (expected.seats ? expected.seats[0] : null); // bids in any order: the first still to bid
}

/** The seats, clockwise, as at the table: the one to act highlighted, each with what lies in front of them. */
export function seatList(ctx, rules) {
  const { state } = ctx;
  const acting = (rules.actingSeat || actingSeat)(ctx);
  const dealer = state.deal ? state.deal.dealer : state.dealer;
  const selectable = ctx.canScore && state.status === "playing" && rules.seatsSelectable(ctx);
  return h("ol", { class: ["seats", state.players.length > 4 && "many"], "aria-label": t("table.seats") }, state.players.map((player) => {
    const turn = player.seat === acting && state.status === "playing";
    const content = [
      h("span", { class: "seat-name" },
        h("span", { class: "name", text: player.name, title: player.name }),
        player.seat === dealer ? h("span", { class: "badge dealer", title: t("table.dealer"), text: t("table.dealer_short") }) : null,
        turn ? h("span", { class: "badge turn", text: rules.turnLabel(ctx) }) : null,
        standingBadge(player, state)),
      seatFigures(rules.figures(ctx, player)),
      h("span", { class: "in-front" }, rules.inFront(ctx, player.seat)),
    ];
    const props = { class: ["seat", turn && "to-act", player.out && state.status === "playing" && "is-out"], "data-seat": player.seat };
    if (!selectable || player.out) return h("li", { ...props, "aria-current": turn ? "true" : null }, h("div", { class: "seat-body" }, content));
    return h("li", props, h("button", {
      type: "button", class: "seat-body", "data-seat": player.seat, "aria-pressed": String(turn),
      on: { click: () => { ctx.ui.seat = player.seat; ctx.redraw(); } },
    }, content));
  }));
}

/**
 * A seat's figures (the game's list of them, an empty one a line kept for it): one line with " · " between them; where
 * the seats are many (two columns), a line each, never wrapped, so that a seat takes as many lines in every language.
 */
function seatFigures(parts) {
  return h("span", { class: "seat-figures" }, parts.map((part, i) => [
    i && part ? h("span", { class: "figure-gap", text: " · " }) : null,
    h("span", { class: "figure", text: part }),
  ]));
}

function standingBadge(player, state) {
  if (state.status === "finished") {
    const words = t("table.place", { place: ordinal(player.place) });
    if (state.players.length <= 4) return h("span", { class: "badge place", text: words });
    // two columns of seats: the place as its number alone, so that the name beside it stays whole on a 360 px phone
    return h("span", { class: "badge place", title: words },
      h("span", { "aria-hidden": "true", text: t("table.place_short", { place: ordinal(player.place) }) }),
      h("span", { class: "visually-hidden", text: words }));
  }
  return player.out ? h("span", { class: "badge out", text: t("table.out_place", { place: ordinal(player.place) }) }) : null;
}

/**
 * A player's name within a sentence of a step, cut with an ellipsis where it would outgrow the room kept for the
 * sentence (a name may have 40 characters; see `cutLongNames`); the whole name is its title.
 */
export function nameCut(name) {
  return h("span", { class: "name-cut", title: name, text: name });
}

/**
 * The long names in the sentences drawn in `root`, cut by the page: the letters that fit the name's room and "…", as
 * text, so that the words after the name follow the "…" as they follow any word ("Aleksandr…, 0 z 7"). The browser's
 * own cut (the style's ellipsis, which a name on a seat button keeps) leaves the rest of the room blank after the "…"
 * ("Aleksandr… , 0 z 7"). A cut never ends on a space. The whole name stays in the title, and for screen readers in
 * a copy they read instead of the letters shown. Run on the page as drawn.
 */
export function cutLongNames(root) {
  const long = [...root.querySelectorAll(".name-cut")].filter((el) => !el.closest("button")
    && el.childNodes.length === 1 && el.firstChild.nodeType === Node.TEXT_NODE && el.scrollWidth > el.clientWidth);
  if (!long.length) return;
  // everything is measured before anything is changed, so that the page is laid out again only once
  const probes = long.map((el) => { const dots = h("span", { text: "…" }); el.after(dots); return dots; }); // "…" in the name's font
  const ellipses = probes.map((dots) => dots.getBoundingClientRect().width);
  probes.forEach((dots) => dots.remove());
  const range = document.createRange();
  const widthTo = (text, end) => { range.setStart(text, 0); range.setEnd(text, end); return range.getBoundingClientRect().width; };
  const shown = long.map((el, i) => {
    const text = el.firstChild;
    const room = el.getBoundingClientRect().width - 0.5;
    let end = 0; // where the letters shown end
    for (const next of letterEnds(text.data)) {
      if (widthTo(text, next) + ellipses[i] > room) break;
      end = next;
    }
    return `${text.data.slice(0, end).trimEnd()}…`;
  });
  long.forEach((el, i) => el.replaceChildren(h("span", { "aria-hidden": "true", text: shown[i] }),
    h("span", { class: "visually-hidden", text: el.title })));
}

/** Where each letter of `text` ends (a letter with its accents is one, as the browser cuts). */
function letterEnds(text) {
  if (!Intl.Segmenter) return Array.from(text).reduce((ends, c) => [...ends, (ends.at(-1) || 0) + c.length], []);
  return [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.index + s.segment.length);
}

/**
 * Seat buttons for a choice of player (the dealer, a penalty, a known hand): `chosen` pressed; a long name cut as in a
 * sentence, whole in its title. Up to four in a row, more in a grid of four columns (`many`): the rows they take
 * depend on how many they are, never on their names.
 */
export function seatButtons(ctx, { chosen, onPick, label, only }) {
  const seats = ctx.state.players.filter((p) => !p.out && (!only || only.includes(p.seat)));
  return h("div", { class: ["seat-buttons", seats.length > 4 && "many"], role: "group", "aria-label": label },
    seats.map((p) => h("button", {
      type: "button", class: "choice", "aria-pressed": String(chosen === p.seat), "data-seat": p.seat, title: p.name,
      on: { click: () => onPick(p.seat) },
    }, nameCut(p.name))));
}

/** The cards a player has put down in the current trick, those still waiting to be sent included. */
export function trickInFront(ctx, seat) {
  if (!ctx.state.deal) return [];
  return provisionalTrick(ctx).trick.filter((p) => p.seat === seat).map((p) => cardChip(p.card, { pending: p.pending }));
}

/** The last complete trick, in words, while the next one has not begun (`phrase`: how to say it). */
export function lastTrick(ctx, phrase = "table.last_trick") {
  const deal = ctx.state.deal;
  if (!deal) return null;
  const done = deal.tricks.filter((trick) => trick.winner !== null);
  if (!done.length || (deal.table.length && !deal.over)) return null;
  const trick = done[done.length - 1];
  const plays = trick.plays.map((p) => `${ctx.names[p.seat]} ${cardText(p.card)}`).join(" · ");
  return h("p", { class: "last-trick" }, t(phrase, { n: trick.number, plays, name: ctx.names[trick.winner] }));
}
