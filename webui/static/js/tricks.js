// The trick history of the deal being played, on the scorer's table below its controls: each trick (Dureń: each
// round, an attack and its defence) as the table saw it, trick by trick. Folded away by default, one line; opened, it
// grows downwards, under everything else, so that nothing above it moves. A card tapped opens its correction
// (corrections.js): the sheet comes on the log, with that entry in view above it, and Close comes back here.

import { correctable, openEntry } from "./corrections.js";
import { h } from "./dom.js";
import { cardText, t } from "./i18n.js";
import { cardChip } from "./table.js";

/**
 * A button for the entry numbered `seq`: whose it is and its cards (`cards`, or the words instead of them), as the
 * table sees them; its name begins with those words, then says that it opens the correction.
 */
function entryButton(ctx, seq, seen, seat, cards, words = null) {
  const name = ctx.names[seat];
  const shown = words ? [words] : cards.map(cardText);
  const content = [h("span", { class: "trick-name", text: name }),
    words ? [" ", h("span", { class: "takes", text: words })] : cards.map((card) => [" ", cardChip(card)])];
  if (seq === null) return h("span", { class: "trick-play" }, content); // not in the log as last read: said, not tappable
  return h("button", { type: "button", class: "trick-play", "data-seq": seq,
                       "aria-label": `${name} ${shown.join(" ")} · ${t("correct.open")} #${seq}`,
                       on: { click: () => openEntry(ctx, seq, seen, "table") } }, content);
}

function trickRows(ctx, deal) {
  const counts = ctx.state.rules.tricks_count;
  return deal.tricks.filter((trick) => trick.plays.length).map((trick) => h("li", { class: "trick", "data-trick": trick.number },
    h("span", { class: "trick-number", text: `${trick.number}.` }),
    trick.plays.map((play) => entryButton(ctx, play.seq, { type: "play", seat: play.seat, card: play.card }, play.seat, [play.card])),
    trick.winner === null || trick.winner === undefined ? null
      : h("span", { class: "trick-winner", text: t(counts ? "tricks.took" : "tricks.leads", { name: ctx.names[trick.winner] }) })));
}

/** The defence that answered the attack entered as `seq`: the next entry of the log as last read, if a defence. */
function defenceAfter(ctx, seq) {
  const entries = [...correctable(ctx.log ? ctx.log() : []).values()];
  const at = entries.findIndex((e) => e.seq === seq);
  const next = at >= 0 ? entries[at + 1] : null;
  return next && next.type === "defend" ? next : null;
}

function roundRows(ctx, deal) {
  return deal.rounds.map((round) => {
    const defence = round.defended ? defenceAfter(ctx, round.seq) : null;
    return h("li", { class: "trick", "data-trick": round.number },
      h("span", { class: "trick-number", text: `${round.number}.` }),
      entryButton(ctx, round.seq, { type: "attack", seat: round.attacker, cards: round.attack }, round.attacker, round.attack),
      round.defended ? entryButton(ctx, defence ? defence.seq : null, defence,
        defence ? defence.seat : (round.attacker + 1) % ctx.state.players.length, round.beats.map((b) => b.with),
        round.beats.length ? null : t("defend.takes")) : null);
  });
}

/** The trick history of the deal being played (the scorer's phone only); null before its first card. */
export function trickHistory(ctx) {
  const deal = ctx.state.deal;
  if (!ctx.canScore || !deal) return null;
  const rows = deal.tricks ? trickRows(ctx, deal) : deal.rounds ? roundRows(ctx, deal) : [];
  if (!rows.length) return null;
  return h("details", { class: "trick-history", id: "trick-history", open: ctx.ui.tricksOpen || null,
                        on: { toggle: (e) => { ctx.ui.tricksOpen = e.target.open; } } },
    h("summary", { text: t(deal.rounds ? "tricks.rounds" : ctx.state.rules.tricks_count ? "tricks.title" : "tricks.turns", { n: deal.number }) }),
    h("p", { class: "hint", text: t("tricks.hint") }),
    h("ol", { class: "tricks" }, rows));
}
