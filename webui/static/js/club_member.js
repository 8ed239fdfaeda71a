// A member of a club (`?c=<id>&member=<member id>`): their figures per game, their rating with its uncertainty,
// their places and rating match after match (club_history.js), their balance in the club's ledger after each evening
// and payment (a chart), and the head to head with another member. Read with the key this phone holds for the club, as the club's page is (club.js).

import { request } from "./api.js";
import { h, s } from "./dom.js";
import { has, moneyText, ordinal, t } from "./i18n.js";
import { clubs, decimal as number, gameTitle, namesOf, problem } from "./club_words.js";
import { dayText, historyView } from "./club_history.js";

// the game's own figures, in the order the club's figures give them (referee.club.TALLIES and RATIOS)
const OWN = ["deals", "minus_points", "minus_points_per_deal", "lives_lost", "bids", "exact_bids", "exact_bids_pct",
             "deals_lost", "illegal_found", "illegal_let_stand"];

function placesText(places) {
  const shown = Object.entries(places || {}).sort((a, b) => Number(a[0]) - Number(b[0]));
  // each place with its count on one line: "3rd ×2" never broken after "3rd"
  const each = shown.map(([place, count]) => t("club.place_times", { place: ordinal(Number(place)), n: count }).replace(/ /g, "\u00a0"));
  return each.join(" · ") || "–";
}

function figureValue(name, value) {
  if (value === null || value === undefined) return null;
  if (name === "exact_bids_pct") return `${value}%`;
  return String(value);
}

function figureRows(figure) {
  const rows = [
    ["matches", t("figure.matches"), String(figure.matches)],
    ["wins", t("figure.won"), String(figure.wins)],
    ["average_place", t("club.average_place"), number(figure.average_place, 2)],
    ["places", t("figure.places"), placesText(figure.places)],
  ];
  for (const name of OWN) {
    const value = figureValue(name, figure[name]);
    if (value !== null && has(`figure.${name}`)) rows.push([name, t(`figure.${name}`), value]);
  }
  return rows;
}

function ratingText(rating) {
  return t("club.rating_is", { mu: number(rating.mu, 1), sigma: number(rating.sigma, 1), ordinal: number(rating.ordinal, 1) });
}

function gameCard(game, figure, rating, games) {
  return h("section", { class: "club-game", "data-game": game },
    h("h2", { text: gameTitle(game, games) }),
    h("table", { class: "standings member-figures" },
      h("caption", { class: "visually-hidden", text: t("club.figures_in", { game: gameTitle(game, games) }) }),
      h("tbody", {}, figureRows(figure).map(([name, label, value]) => h("tr", { "data-figure": name },
        h("th", { scope: "row", text: label }), h("td", { class: "num", text: value }))))),
    rating ? h("p", { class: "rating", text: ratingText(rating) }) : null);
}

/** The member's balance in the ledger after each evening they played and each payment of theirs, from zero. */
export function balanceSteps(ledger, member) {
  let balance = 0;
  const steps = [{ date: null, balance: 0 }];
  for (const entry of ledger.history) {
    let change = null;
    if (entry.type === "evening" && member in entry.nets) change = Number(entry.nets[member]);
    else if (entry.type === "paid" && entry.from === member) change = Number(entry.amount);
    else if (entry.type === "paid" && entry.to === member) change = -Number(entry.amount);
    if (change === null) continue;
    balance = Math.round((balance + change) * 100) / 100;
    steps.push({ date: entry.date || (entry.at || "").slice(0, 10), balance, type: entry.type });
  }
  return steps;
}

/** The balance after each step as a line over a zero line, as scores.js draws the scores. */
function balanceChart(steps, currency) {
  const width = 320;
  const height = 150;
  const pad = { left: 40, right: 10, top: 10, bottom: 22 };
  const values = steps.map((step) => step.balance);
  const top = Math.max(1, ...values);
  const bottom = Math.min(0, ...values);
  const x = (i) => pad.left + (i * (width - pad.left - pad.right)) / Math.max(1, steps.length - 1);
  const y = (v) => pad.top + ((top - v) * (height - pad.top - pad.bottom)) / Math.max(1, top - bottom);
  const title = t("club.chart", { currency });
  const grid = [...new Set([bottom, 0, top])];
  return s("svg", { class: "chart member-chart", viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": title },
    s("title", { text: title }),
    grid.map((v) => s("g", {},
      s("line", { x1: pad.left, x2: width - pad.right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: pad.left - 4, y: y(v) + 4, "text-anchor": "end", class: "axis", text: number(v, 0) }))),
    steps.map((step, i) => (i && step.type === "evening"
      ? s("text", { x: x(i), y: height - 5, "text-anchor": i === steps.length - 1 ? "end" : "middle", class: "axis",
                    text: dayText(step.date) }) : null)),
    s("polyline", { class: "line balance", fill: "none", "stroke-width": 2.5,
                    points: steps.map((step, i) => `${x(i).toFixed(1)},${y(step.balance).toFixed(1)}`).join(" ") }),
    steps.map((step, i) => s("circle", { cx: x(i), cy: y(step.balance), r: 3.5,
                                         class: `dot ${step.type === "paid" ? "paid" : "evening"}` })));
}

function headToHeadText(result, member, other, names) {
  const total = result.total;
  if (!total.matches) return [h("p", { class: "hint", text: t("club.never_together", { other: names[other] }) })];
  const line = (counted) => t("club.ahead", {
    name: names[member], other: names[other], won: counted.ahead[member], lost: counted.ahead[other], level: counted.level,
    n: counted.matches,
  });
  return [h("p", { class: "head-to-head-total", text: line(total) }),
    Object.keys(result.games).length > 1 ? h("ul", {}, Object.entries(result.games).map(([game, counted]) =>
      h("li", { text: `${gameTitle(game, null)}: ${line(counted)}` }))) : null];
}

function headToHead(club, member, key) {
  const names = namesOf(club);
  const others = club.members.filter((m) => m.id !== member);
  if (!others.length) return null;
  const said = h("div", { class: "head-to-head", "aria-live": "polite" });
  const choose = h("select", { id: "head-to-head-with", on: { change: async () => {
    if (!choose.value) { said.replaceChildren(); return; }
    const path = `${clubs(club.id)}/members/${encodeURIComponent(member)}?with=${encodeURIComponent(choose.value)}`;
    try {
      const shown = (await request("GET", path, { key })).data;
      said.replaceChildren(...headToHeadText(shown.head_to_head, member, choose.value, names).filter(Boolean));
    } catch (error) {
      said.replaceChildren(h("p", { class: "hint", text: problem(error) }));
    }
  } } }, h("option", { value: "", text: "–" }), others.map((m) => h("option", { value: m.id, text: m.name })));
  return [h("h2", { text: t("club.head_to_head") }),
    h("label", { for: "head-to-head-with", text: t("club.head_to_head_with") }), choose, said];
}

export function memberView(club, shown, games, key, history) {
  const member = shown.member;
  const steps = balanceSteps(club.ledger, member.id);
  const played = Object.keys(shown.figures);
  return h("section", { class: "panel club-member" },
    h("p", {}, h("a", { href: `?c=${encodeURIComponent(club.id)}`, id: "back-to-club", text: t("club.back", { club: club.name }) })),
    h("h1", { text: member.name }),
    member.aliases.length ? h("p", { class: "hint", text: t("club.aliases", { names: member.aliases.join(", ") }) }) : null,
    played.length ? played.map((game) => gameCard(game, shown.figures[game], shown.ratings[game], games))
      : h("p", { class: "hint", text: t("club.no_matches") }),
    historyView(history, games, club.currency),
    h("h2", { text: t("club.balance_over_time") }),
    steps.length > 1 ? balanceChart(steps, club.currency) : h("p", { class: "hint", text: t("club.no_evenings") }),
    h("p", { class: "hint", text: t("club.balance_now", { amount: moneyText(club.ledger.balances[member.id] || "0.00", club.currency) }) }),
    headToHead(club, member.id, key));
}
