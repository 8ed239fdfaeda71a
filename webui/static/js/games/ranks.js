// Ranks only (the catalogue's keypad "ranks"): climb to the highest card of the trick, or play your lowest.
// What a seat shows, the result of a deal and the extra controls follow the game's `rules` in the state.

import { rankKeys } from "../cards.js";
import { dealPanel } from "../deal.js";
import { h } from "../dom.js";
import { ordinal, rankLetter, t, tParts, tn } from "../i18n.js";
import { rankPad } from "../keypad.js";
import { actingSeat, lastTrick, seatButtons, trickInFront, trickNumber } from "../table.js";

const SEAT_FIGURES = {
  minus_points: (p) => tn("seat.minus", p.score),
  points: (p) => tn("seat.points", p.score),
  lives: (p) => t("seat.lives", { n: p.lives }),
  deal_points: (p) => tn("seat.points", p.points),
};

/** A seat's figures, a part a line where the seats are many. */
function figures(ctx, player) {
  return ctx.state.rules.figures.player.map((figure) => SEAT_FIGURES[figure](player));
}

function dealInfo(ctx) {
  const deal = ctx.state.deal;
  if (!deal) return [];
  const parts = [t("info.deal", { n: deal.number }), t("info.dealer", { name: ctx.names[deal.dealer] })];
  const size = ctx.state.rules.hand_sizes[0];
  if (!deal.over) parts.push(t("info.trick", { n: trickNumber(ctx, size), of: size }));
  return parts;
}

function result(ctx) {
  const deal = ctx.state.deal;
  if (!deal || !deal.over || !deal.result) return null;
  const r = deal.result;
  const game = ctx.state.game;
  const names = (seats) => seats.map((seat) => ctx.names[seat]).join(", ");
  const lines = [];
  if (r.losers) lines.push(tn(`result.${game}`, r.points, { names: names(r.losers), card: rankLetter(r.card) }));
  else lines.push(t(`result.${game}_points`, { points: Object.entries(r.points).map(([seat, n]) => `${ctx.names[seat]} ${n}`).join(" · ") }));
  if (r.lost_life) lines.push(r.lost_life.length ? t(`result.${game}_lost`, { names: names(r.lost_life) }) : t(`result.${game}_nobody`));
  // who went out in this deal: out now, and still in when it was dealt
  const gone = ctx.state.players.filter((p) => p.out && (deal.seats || []).includes(p.seat));
  if (gone.length) lines.push(t("result.out", { names: gone.map((p) => t("result.out_who", { name: ctx.names[p.seat], place: ordinal(p.place) })).join(", ") }));
  if (lines.length === 1) return h("p", { class: "result", role: "status" }, lines[0]);
  return h("div", { class: "result", role: "status" }, lines.map((text) => h("p", { text })));
}

function instructions(ctx) {
  const options = ctx.state.options;
  return (name) => tParts(`deal.${ctx.state.game}`, { ...options, name });
}

function ruleHint(ctx, expected) {
  if (ctx.pending().length) return t("play.queued");
  if (expected.rule === "any") return t("play.rule_any");
  if (expected.rule === "lowest") return t("play.rule_lowest", { top: rankLetter(expected.top) });
  const ranks = ctx.state.rules.ranks;
  if (expected.top === ranks[ranks.length - 1]) return t("play.rule_match", { top: rankLetter(expected.top) }); // none higher
  return t("play.rule_reach", { top: rankLetter(expected.top) });
}

function playPanel(ctx) {
  const { state } = ctx;
  const expected = state.expected;
  const seat = actingSeat(ctx);
  const exhausted = new Set(expected.exhausted || []);
  // only on a phone that shows the hands: keys drawn apart would teach everyone who looks what is held
  const legal = ctx.showHands && expected.legal && seat === expected.seat ? new Set(expected.legal) : null;
  const who = seat === null ? t("play.who_next") : t("play.plays", { name: ctx.names[seat] });
  return h("section", { class: "action play-step", "aria-label": who },
    h("h2", { text: who }),
    h("p", { class: "hint", text: ruleHint(ctx, expected) }),
    rankPad({
      ranks: rankKeys(state),
      gone: (rank) => exhausted.has(rank),
      dim: (rank) => Boolean(legal) && !legal.has(rank),
      label: t("keypad.label"),
      records: seat === null ? null : { who: ctx.names[seat] },
      onPick: (card) => {
        if (seat === null) {
          ctx.say(() => t("play.tap_seat_first"));
          return;
        }
        ctx.send({ type: "play", seat, card });
      },
    }));
}

function penaltyPanel(ctx) {
  const { ui, state } = ctx;
  if (!ui.penalty) return null;
  const points = ui.penaltyPoints ?? state.options.cut_penalty;
  const reason = h("input", { id: "penalty-reason", type: "text", maxlength: 200, value: ui.penaltyReason || "",
                              on: { input: (e) => { ui.penaltyReason = e.target.value; } } });
  return h("section", { class: "action penalty-step", "aria-label": t("penalty.title") },
    h("h2", { text: t("penalty.title") }),
    seatButtons(ctx, { chosen: ui.penaltySeat, label: t("penalty.who"), onPick: (seat) => { ui.penaltySeat = seat; ctx.redraw(); } }),
    h("div", { class: "row" },
      h("div", { class: "narrow" },
        h("label", { for: "penalty-points", text: t("penalty.points") }),
        h("input", { id: "penalty-points", type: "number", inputmode: "numeric", min: 1, max: 1000, value: String(points),
                     on: { input: (e) => { ui.penaltyPoints = Number(e.target.value) || state.options.cut_penalty; } } })),
      h("div", { class: "grow" },
        h("label", { for: "penalty-reason", text: t("penalty.reason") }),
        reason)),
    // the usual reason offered as a tap that writes it into the field: what the field shows is what is recorded
    h("p", { class: "reason-chips" }, h("button", {
      type: "button", class: "choice", id: "penalty-reason-cut",
      on: { click: () => { reason.value = ui.penaltyReason = t("penalty.cut"); } } }, t("penalty.cut"))),
    h("div", { class: "row" },
      h("button", { type: "button", class: "primary", id: "log-penalty", "data-records": "penalty", disabled: ui.penaltySeat === undefined,
                    on: { click: () => {
                      const body = { type: "penalty", seat: ui.penaltySeat, points: ui.penaltyPoints ?? state.options.cut_penalty };
                      if (ui.penaltyReason && ui.penaltyReason.trim()) body.reason = ui.penaltyReason.trim();
                      ctx.send(body);
                    } } }, t("penalty.log")),
      h("button", { type: "button", class: "secondary", on: { click: () => { ui.penalty = false; ctx.redraw(); } } }, t("common.cancel"))));
}

function actionPanel(ctx) {
  const expected = ctx.state.expected;
  if (ctx.ui.penalty) return penaltyPanel(ctx);
  if (expected.type === "deal") {
    const ranks = rankKeys(ctx.state);
    const handPad = ({ gone, onPick }) => rankPad({ ranks, gone, onPick, label: t("hands.keypad") });
    return dealPanel(ctx, { instructions: instructions(ctx), lotOnServer: true, handPad });
  }
  return playPanel(ctx);
}

function extraControls(ctx) {
  if (!ctx.state.rules.events.includes("penalty") || ctx.ui.penalty) return [];
  return [h("button", { type: "button", class: "secondary", id: "penalty", on: { click: () => { ctx.ui.penalty = true; ctx.redraw(); } } },
    t("penalty.open"))];
}

export const ranks = {
  figures,
  inFront: trickInFront,
  dealInfo,
  // Where the cards of a trick count for nobody, its highest card only leads the next one, and the last cards are shown.
  lastTrick: (ctx) => (ctx.state.rules.tricks_count ? lastTrick(ctx)
    : lastTrick(ctx, ctx.state.deal && ctx.state.deal.over ? "table.last_trick_shown" : "table.last_trick_leads")),
  result,
  actionPanel,
  extraControls,
  seatsSelectable: (ctx) => ctx.state.expected && ctx.state.expected.type === "play",
  turnLabel: (ctx) => (ctx.state.expected && ctx.state.expected.type === "deal" ? t("table.deals") : t("table.to_play")),
};
