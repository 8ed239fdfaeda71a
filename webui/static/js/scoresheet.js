// The scoresheet, as on paper: one row per deal, one column per player, with that deal's figure and the
// running total, as the game's `rules.figures.deal` says (gained: points gained and the total; deal_points_lives:
// points taken and lives left; bid_tricks: bid, tricks, score; won: who won), the dealer marked, and each penalty
// the deal's total counts marked as one ("+5" of its own, the reason in its title) beside the deal's own figure.
// The Scores tab and the big screen draw it; the CSV download has the same rows.

import { h } from "./dom.js";
import { t } from "./i18n.js";

/** What one player did in one deal: `figure` of the deal, `total` after it, and the fields of the CSV. */
function cell(kind, row, before, seat) {
  const total = row.scores[seat];
  if (kind === "deal_points_lives") {
    return { figure: String(row.scores[seat]), total: row.lives[seat] === null ? "–" : t("sheet.lives", { n: row.lives[seat] }),
             fields: [row.scores[seat], row.lives[seat]] };
  }
  const gained = total - (before ? before.scores[seat] : 0);
  if (kind === "bid_tricks") {
    const bid = row.bids ? row.bids[seat] : null;
    const took = row.taken ? row.taken[seat] : null;
    return { figure: t("sheet.bid_took", { bid: bid ?? "–", took: took ?? "–", points: gained }), total: String(total),
             fields: [bid, took, gained, total] };
  }
  if (kind === "won") {
    const won = row.winner === seat;
    const figure = row.winner === null || row.winner === undefined ? t("sheet.draw") : won ? t("sheet.won") : "";
    return { figure, total: String(total), fields: [won ? 1 : 0, total] };
  }
  const penalties = (row.penalties || []).filter((p) => p.seat === seat);
  const own = gained - penalties.reduce((sum, p) => sum + p.points, 0);
  return { figure: own ? `+${own}` : "0", total: String(total), fields: [gained, total], penalties };
}

/** A penalty's own mark in a cell: its points, the reason in its title (and said to a screen reader). */
function penaltyMark(penalty) {
  const said = penalty.reason ? t("sheet.penalty_for", { n: penalty.points, reason: penalty.reason })
    : t("sheet.penalty", { n: penalty.points });
  return h("span", { class: "penalty-mark", title: said, "data-seq": penalty.seq },
    h("span", { "aria-hidden": "true", text: `+${penalty.points}` }), h("span", { class: "visually-hidden", text: said }));
}

/** The rows of the sheet: {deal, dealer, cells: [{figure, total, fields}] per seat}. */
export function sheetRows(state) {
  return state.history.map((row, index) => ({
    deal: row.deal,
    dealer: row.dealer,
    cells: state.players.map((p) => cell(state.rules.figures.deal, row, index ? state.history[index - 1] : null, p.seat)),
  }));
}

const CSV_FIELDS = {
  gained: ["sheet.csv_minus", "sheet.csv_total"],
  deal_points_lives: ["sheet.csv_points", "sheet.csv_lives"],
  bid_tricks: ["sheet.csv_bid", "sheet.csv_took", "sheet.csv_score", "sheet.csv_total"],
  won: ["sheet.csv_won", "sheet.csv_total"],
};

/** The CSV's header: deal, dealer, then each player's fields. */
export function sheetHeader(state) {
  const fields = CSV_FIELDS[state.rules.figures.deal];
  return [t("csv.deal"), t("sheet.csv_dealer"),
    ...state.players.flatMap((p) => fields.map((key) => `${p.name}: ${t(key)}`))];
}

export function sheetLines(state) {
  const names = state.players.map((p) => p.name);
  return [sheetHeader(state), ...sheetRows(state).map((row) => [row.deal, names[row.dealer] ?? "",
    ...row.cells.flatMap((c) => c.fields.map((value) => (value === null || value === undefined ? "" : value)))])];
}

/** The sheet; `onDeal(n)`, where given (the scorer's phone), makes each deal's number a button that opens it. */
export function renderSheet(state, { onDeal = null } = {}) {
  const rows = sheetRows(state);
  if (!rows.length) return h("p", { class: "hint", text: t("chart.empty") });
  // five players or more: the compact sheet (names written upwards, narrow columns), as wide as a 360 px phone
  return h("div", { class: "table-scroll" }, h("table", { class: ["sheet", state.players.length > 4 && "compact"], id: "scoresheet" },
    h("caption", { text: t(`sheet.how.${state.game}`) }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", class: "num", text: t("sheet.deal") }),
      state.players.map((p) => h("th", { scope: "col", class: "num" }, h("span", { class: "sheet-name", title: p.name, text: p.name }))))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-deal": row.deal },
      h("th", { scope: "row", class: "num" }, onDeal ? h("button", { type: "button", class: "sheet-deal", "data-deal": row.deal,
        "aria-label": t("correct.open_deal", { n: row.deal }), on: { click: () => onDeal(row.deal) } }, String(row.deal)) : String(row.deal)),
      row.cells.map((c, seat) => h("td", { class: ["num", seat === row.dealer && "dealt"], "data-seat": seat },
        seat === row.dealer ? h("span", { class: "badge dealer", title: t("table.dealer"), text: t("table.dealer_short") }) : null,
        h("span", { class: "figure", text: c.figure }),
        (c.penalties || []).map(penaltyMark),
        h("span", { class: "total", text: c.total }))))))));
}
