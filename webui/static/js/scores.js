// The scoreboard: each player's figures, who is out and in which place, the dealer, the findings, and a
// small chart of every player's total after each deal.

import { h, s } from "./dom.js";
import { ordinal, t, tn } from "./i18n.js";
import { describeEvent } from "./log.js";
import { openDeal } from "./corrections.js";
import { codeText } from "./referee.js";
import { renderSheet } from "./scoresheet.js";
import { verdictText } from "./words.js";

// the eight line colours: a seat's line, its dot and its swatch carry `data-colour`, and kibic.css gives each the
// theme's colour (--chart-0 to --chart-7), told apart on light and on dark
export const COLOURS = [0, 1, 2, 3, 4, 5, 6, 7];

const LABELS = { minus_points: "score.minus", points: "score.points", lives: "score.lives" };

/** What the chart counts, as the game's `rules.figures.chart` says: minus points, lives left, or points. */
export function tally(state) {
  const chart = state.rules.figures.chart;
  return { label: t(LABELS[chart.label]), values: (row) => row[chart.figure], start: chart.start, limit: chart.limit };
}

/** The scoreboard's columns for each figure a game keeps per player: its label and its value. */
const COLUMNS = {
  minus_points: () => [t("score.minus"), (p) => p.score],
  points: () => [t("score.points"), (p) => p.score],
  lives: () => [t("score.lives"), (p) => p.lives],
  deal_points: () => [t("score.points_deal"), (p) => p.points],
  bid_tricks: () => [t("score.bid_took"), (p) => (p.bid === null || p.bid === undefined ? "–" : `${p.bid} · ${p.tricks}`)],
};

function standingText(player, state) {
  if (state.status === "finished") return t("score.place", { place: ordinal(player.place) });
  if (player.out) return t("score.out_place", { place: ordinal(player.place) });
  return t("score.in");
}

function scoreTable(ctx) {
  const { state } = ctx;
  const columns = state.rules.figures.player.map((figure) => COLUMNS[figure]());
  const dealer = state.dealer;
  return h("div", { class: "table-scroll" }, h("table", { class: "scoreboard" },
    h("caption", { class: "visually-hidden", text: t("score.title") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("score.player") }),
      columns.map(([label]) => h("th", { scope: "col", class: "num", text: label })))),
    h("tbody", {}, state.players.map((player) => h("tr", { class: [player.out && state.status === "playing" && "is-out"], "data-seat": player.seat },
      h("th", { scope: "row" },
        h("span", { class: "swatch", "data-colour": player.seat % COLOURS.length }),
        h("span", { class: "player", text: player.name }),
        player.seat === dealer ? h("span", { class: "badge dealer", title: t("table.dealer"), text: t("table.dealer_short") }) : null,
        h("span", { class: "standing", text: standingText(player, state) })),
      columns.map(([, value]) => h("td", { class: "num", text: String(value(player)) })))))));
}

/** Each player's total after every deal, as lines; the game's limit, if it has one, dashed. */
export function chart(state, names) {
  const { values, start, label, limit } = tally(state);
  const rows = state.history;
  const series = names.map((_, seat) => [start, ...rows.map((row) => values(row)[seat] ?? 0)]);
  const all = series.flat().concat(limit === null ? [] : [limit]);
  const top = Math.max(1, ...all);
  const bottom = Math.min(0, ...all);
  const width = 320;
  const height = 160;
  const pad = { left: 28, right: 8, top: 8, bottom: 20 };
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, rows.length);
  const y = (v) => pad.top + ((top - v) * (height - pad.top - pad.bottom)) / Math.max(1, top - bottom);
  const gridValues = [...new Set([bottom, Math.round((top + bottom) / 2), top])];
  const apart = (seat) => (seat - (names.length - 1) / 2) * 1.5; // equal totals: lines side by side, not hidden
  const title = t("chart.title", { what: label });
  return s("svg", { class: "chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title },
    s("title", { text: title }),
    gridValues.map((v) => s("g", {},
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.left - 4, y: y(v) + 4, "text-anchor": "end", class: "axis", text: String(v) }))),
    limit === null ? null : s("line", { x1: pad.left, x2: width - pad.right, y1: y(limit), y2: y(limit), class: "limit" }),
    rows.map((row, i) => s("text", { x: x(i + 1), y: height - 4, "text-anchor": "middle", class: "axis", text: String(row.deal) })),
    series.map((points, seat) => s("polyline", {
      class: "line", fill: "none", "data-colour": seat % COLOURS.length, "stroke-width": 2.5,
      "stroke-dasharray": seat >= COLOURS.length ? "6 3" : null,
      points: points.map((v, i) => `${x(i).toFixed(1)},${(y(v) + apart(seat)).toFixed(1)}`).join(" "),
      "data-seat": seat,
    })),
    series.map((points, seat) => s("circle", { cx: x(points.length - 1), cy: y(points[points.length - 1]) + apart(seat), r: 3.5,
                                               class: "dot", "data-colour": seat % COLOURS.length })));
}

/** The findings kept: each told once in short by the thumb, here whole (who, where, which rule, why, the proof). */
function findingsList(ctx) {
  const { state } = ctx;
  if (!state.findings.length) return h("p", { class: "hint", id: "no-findings", text: t("findings.none") });
  const known = new Map((ctx.log ? ctx.log() : []).map((event) => [event.seq, event]));
  const proof = (f) => {
    if (f.proof_seq === f.seq) return t("finding.forced");
    const event = known.get(f.proof_seq);
    return t("finding.proof", { proof: event ? describeEvent(event, ctx.names) : `#${f.proof_seq}` });
  };
  return h("ul", { class: "findings" }, state.findings.map((f) => h("li", {},
    h("strong", { text: t("finding.title", { name: ctx.names[f.seat] }) }), " ",
    h("span", { text: `${f.trick ? t("finding.where_trick", { deal: f.deal, trick: f.trick })
      : t("finding.where_deal", { deal: f.deal })} · ${codeText(f.code)}` }),
    h("p", { class: "server-says", text: verdictText(f.code, f.details, f.seat, ctx.names) || f.message }),
    h("p", { class: "proof", text: proof(f) }))));
}

/**
 * The scoresheet; on the scorer's phone a deal tapped (its number, or anywhere on its row, where the table sees the
 * figure it doubts) opens the sheet of a correction on that deal's entries.
 */
function sheetToCorrect(ctx) {
  if (!ctx.canScore) return renderSheet(ctx.state);
  const sheet = renderSheet(ctx.state, { onDeal: (n) => openDeal(ctx, n, "scores") });
  sheet.addEventListener("click", (event) => {
    const row = event.target.closest("tr[data-deal]");
    if (row && !event.target.closest("button")) row.querySelector("button.sheet-deal")?.click();
  });
  return sheet;
}

export function renderScores(root, ctx) {
  const { state } = ctx;
  root.replaceChildren(
    h("section", { class: "panel" }, h("h2", { text: t("score.title") }), scoreTable(ctx),
      h("p", { class: "hint", text: tn("score.deals_played", state.history.length) })),
    h("section", { class: "panel" }, h("h2", { text: t("sheet.title") }), sheetToCorrect(ctx)),
    h("section", { class: "panel" }, h("h2", { text: t("chart.heading") }),
      state.history.length ? chart(state, ctx.names) : h("p", { class: "hint", text: t("chart.empty") }),
      h("ul", { class: "legend" }, ctx.names.map((name, seat) => h("li", {},
        h("span", { class: "swatch", "data-colour": seat % COLOURS.length }), h("span", { text: name }))))),
    h("section", { class: "panel", id: "findings" }, h("h2", { text: t("findings.title") }), findingsList(ctx)),
  );
}
