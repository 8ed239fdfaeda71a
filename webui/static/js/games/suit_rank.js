// Suit and rank (the catalogue's keypad "suit_rank"): a trump card at each deal, bids, follow suit.

import { rankKeys } from "../cards.js";
import { dealPanel } from "../deal.js";
import { h } from "../dom.js";
import { SUIT_SYMBOLS, cardText, t, tn, tnParts } from "../i18n.js";
import { suitedPad } from "../keypad.js";
import { actingSeat, cardChip, lastTrick, pendingPlays, trickInFront, trickNumber } from "../table.js";

/** A seat's figures, a part a line where the seats are many: the points, and the bid and tricks taken (a line kept
 * empty until the player bids, so that the seat takes the same lines before and after). */
function figures(ctx, player) {
  const bid = player.bid !== null && player.bid !== undefined;
  return [tn("seat.points", player.score), bid ? t("seat.bid_took", { bid: player.bid, took: player.tricks }) : ""];
}

/** How many hands the match has: the catalogue's hand sizes for the match's players and options. */
function handsInMatch(state) {
  return state.rules.hand_sizes.length;
}

function dealInfo(ctx) {
  const deal = ctx.state.deal;
  if (!deal) return [];
  const parts = [t("info.hand", { n: deal.number, of: deal.hands }), tn("info.cards", deal.cards),
                 t("info.dealer", { name: ctx.names[deal.dealer] })];
  parts.push(deal.trump_card ? t("info.trump", { card: cardText(deal.trump_card) }) : t("info.no_trump"));
  if (deal.phase === "playing") parts.push(t("info.trick", { n: trickNumber(ctx, deal.cards), of: deal.cards }));
  return parts;
}

/** The trump, big, beside the trick: the turned-up card, or none. */
function trump(ctx) {
  const deal = ctx.state.deal;
  if (!deal) return null;
  return h("div", { class: "trump-big", id: "trump" },
    h("span", { class: "label", text: t("table.trump") }),
    deal.trump_card ? cardChip(deal.trump_card) : h("span", { class: "no-trump", text: t("table.no_trump") }));
}

function result(ctx) {
  const deal = ctx.state.deal;
  if (!deal || !deal.over || !deal.result) return null;
  return h("div", { class: "result", role: "status", "aria-label": t("result.hand", { n: deal.number }) }, h("ul", {},
    deal.result.map((r) => h("li", { text: t(`result.${ctx.state.game}`, { name: ctx.names[r.seat], bid: r.bid, took: r.taken, points: r.points }) }))));
}

function played(deal) {
  const cards = new Set();
  for (const trick of deal.tricks) for (const play of trick.plays) cards.add(play.card);
  if (deal.trump_card) cards.add(deal.trump_card);
  return cards;
}

function bidPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const seat = actingSeat(ctx);
  const who = t("bid.who", { name: ctx.names[seat] });
  const sizes = Array.from({ length: state.deal.cards + 1 }, (_, n) => n);
  const waiting = expected.seats.map((s) => ctx.names[s]).join(", ");
  return h("section", { class: "action bid-step", "aria-label": who },
    h("h2", { text: who }),
    h("p", { class: "hint" }, state.options.simultaneous_bids ? t("bid.any_order", { names: waiting }) : t("bid.waiting", { names: waiting }),
      expected.forbidden !== null && expected.forbidden !== undefined
        ? [" ", h("span", { class: "warn", text: t("bid.hook", { name: ctx.names[seat], n: expected.forbidden }) })] : null),
    h("div", { class: "keypad bids", role: "group", "aria-label": t("bid.label") },
      sizes.map((n) => h("button", { type: "button", class: ["key", n === expected.forbidden && "dim"], "data-bid": n, "data-records": "bid", "data-who": ctx.names[seat],
                                     on: { click: () => ctx.send({ type: "bid", seat, bid: n }) } }, String(n)))));
}

function playPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  const seat = actingSeat(ctx);
  const gone = played(state.deal);
  for (const p of pendingPlays(ctx)) gone.add(p.card);
  // only on a phone that shows the hands: keys drawn apart would teach everyone who looks what is held
  const legal = ctx.showHands && expected.legal && seat === expected.seat ? new Set(expected.legal) : null;
  const who = seat === null ? t("play.who_next") : t("play.plays", { name: ctx.names[seat] });
  const led = expected.led ? t("play.led", { suit: SUIT_SYMBOLS[expected.led] }) : t("play.rule_any");
  // the suit tab goes to the suit led once in each trick, when the lead comes: the next cards most likely follow it;
  // another tab tapped in the trick (a player who cannot follow) is kept, and a new trick keeps the tab as it was
  const trick = `${state.deal.number}.${state.deal.trick}`;
  if (expected.led && ui.suitLedIn !== trick) { ui.suit = expected.led; ui.suitLedIn = trick; }
  return h("section", { class: "action play-step", "aria-label": who },
    h("h2", { text: who }),
    h("p", { class: "hint", text: ctx.pending().length ? t("play.queued") : led }),
    suitedPad({
      ranks: rankKeys(state), ui,
      gone: (card) => gone.has(card),
      dim: (card) => Boolean(legal) && !legal.has(card),
      label: t("keypad.label"),
      records: seat === null ? null : { who: ctx.names[seat] },
      onPick: (card) => {
        if (seat === null) ctx.say(() => t("play.tap_seat_first"));
        else ctx.send({ type: "play", seat, card });
      },
    }));
}

function actionPanel(ctx) {
  const { state, ui } = ctx;
  const expected = state.expected;
  if (expected.type === "deal") {
    const trumpPad = expected.turn_trump ? h("div", { class: "trump-pick" },
      h("p", { class: "label", text: ui.trump ? t("deal.trump_is", { card: cardText(ui.trump) }) : t("deal.pick_trump") }),
      suitedPad({ ranks: rankKeys(state), ui, label: t("deal.pick_trump"),
                  chosen: (card) => card === ui.trump, onPick: (card) => { ui.trump = card; ctx.redraw(); } })) : null;
    const cards = expected.cards;
    const handUi = ui.handUi || (ui.handUi = {});
    const handPad = ({ gone, onPick }) => suitedPad({ ranks: rankKeys(state), ui: handUi, label: t("hands.keypad"),
                                                      gone: (card) => gone(card) || card === ui.trump || Object.values(ui.hands || {}).some((held) => held.includes(card)), onPick });
    return dealPanel(ctx, {
      title: t("deal.title_hand", { n: expected.deal, of: handsInMatch(state) }),
      lotOnServer: false,
      trumpPad,
      handPad,
      instructions: (name) => tnParts(expected.turn_trump ? `deal.${ctx.state.game}` : `deal.${ctx.state.game}_no_trump`, cards, { name }),
    });
  }
  if (expected.type === "bid") return bidPanel(ctx);
  return playPanel(ctx);
}

export const suitRank = {
  figures,
  inFront: trickInFront,
  dealInfo,
  lastTrick,
  trump,
  result,
  actionPanel,
  extraControls: () => [],
  seatsSelectable: (ctx) => ctx.state.expected && ["play", "bid"].includes(ctx.state.expected.type),
  turnLabel: (ctx) => (ctx.state.expected && ctx.state.expected.type === "bid" ? t("table.to_bid") : t("table.to_play")),
};
