// A member's matches over time on their page (club_member.js): their place in each match and the rating each
// match left them with, as two charts, and the latest matches as a table, which says in words what the charts
// draw. Read from `GET /api/clubs/{id}/members/{member}/matches`, the latest page (the newest first).

import { h, s } from "./dom.js";
import { language, ordinal, t } from "./i18n.js";
import { decimal as number, gameTitle } from "./club_words.js";
import { COLOURS } from "./scores.js";

const WIDTH = 320;
const HEIGHT = 150;
const PAD = { left: 34, right: 10, top: 10, bottom: 22 };
export const HISTORY_PAGE = 100; // the member's latest matches drawn: one page of the API's

/** A day (2025-03-07) as the language writes it short: 7.03, 3/7. */
export function dayText(day) {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date)).toLocaleDateString(language(), { day: "numeric", month: "numeric", timeZone: "UTC" });
}

const x = (i, n) => PAD.left + (n > 1 ? (i * (WIDTH - PAD.left - PAD.right)) / (n - 1) : (WIDTH - PAD.left - PAD.right) / 2);

/** The first and the last day under the chart. */
function days(played) {
  const last = played.length - 1;
  const shown = last ? [0, last] : [0];
  return shown.map((i) => s("text", { x: x(i, played.length), y: HEIGHT - 5, class: "axis",
                                      "text-anchor": !last ? "middle" : i ? "end" : "start", text: dayText(played[i].date) }));
}

/** Each match's place, 1st at the top, down to the most players the member sat with. */
function placesChart(played) {
  const most = Math.max(2, ...played.map((m) => m.players));
  const y = (place) => PAD.top + ((place - 1) * (HEIGHT - PAD.top - PAD.bottom)) / (most - 1);
  const title = t("club.places_chart", { n: played.length });
  const lines = [...new Set([1, Math.ceil(most / 2), most])];
  return s("svg", { class: "chart history-chart places-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title },
    s("title", { text: title }),
    lines.map((place) => s("g", {},
      s("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(place), y2: y(place), class: "grid" }),
      s("text", { x: PAD.left - 4, y: y(place) + 4, "text-anchor": "end", class: "axis", text: ordinal(place) }))),
    days(played),
    played.length > 1 ? s("polyline", { class: "line", fill: "none", "data-colour": 0, "stroke-width": 2,
      points: played.map((m, i) => `${x(i, played.length).toFixed(1)},${y(m.place).toFixed(1)}`).join(" ") }) : null,
    played.map((m, i) => s("circle", { cx: x(i, played.length), cy: y(m.place), r: 3.5,
                                       class: "dot", "data-colour": 0 })));
}

/** The rating's ordinal after each match, a line per game. */
function ratingChart(played, games) {
  const rated = played.map((m, i) => ({ ...m, i })).filter((m) => m.rating);
  if (!rated.length) return null;
  const values = rated.map((m) => m.rating.ordinal);
  const top = Math.max(1, ...values);
  const bottom = Math.min(0, ...values);
  const y = (v) => PAD.top + ((top - v) * (HEIGHT - PAD.top - PAD.bottom)) / Math.max(1, top - bottom);
  const names = [...new Set(rated.map((m) => m.game))];
  const title = t("club.rating_chart", { n: rated.length });
  return [s("svg", { class: "chart history-chart rating-chart", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", "aria-label": title },
    s("title", { text: title }),
    [...new Set([bottom, 0, top])].map((v) => s("g", {},
      s("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(v), y2: y(v), class: "grid" }),
      s("text", { x: PAD.left - 4, y: y(v) + 4, "text-anchor": "end", class: "axis", text: number(v, 0) }))),
    days(played),
    names.map((game, g) => {
      const own = rated.filter((m) => m.game === game);
      const colour = g % COLOURS.length;
      return s("g", { "data-game": game },
        own.length > 1 ? s("polyline", { class: "line", fill: "none", "data-colour": colour, "stroke-width": 2,
          points: own.map((m) => `${x(m.i, played.length).toFixed(1)},${y(m.rating.ordinal).toFixed(1)}`).join(" ") }) : null,
        own.map((m) => s("circle", { cx: x(m.i, played.length), cy: y(m.rating.ordinal), r: 3, class: "dot", "data-colour": colour })));
    })),
  names.length > 1 ? h("ul", { class: "legend" }, names.map((game, g) => h("li", {},
    h("span", { class: "swatch", "data-colour": g % COLOURS.length, "aria-hidden": "true" }),
    h("span", { text: gameTitle(game, games) })))) : null];
}

const unbroken = (text) => text.replace(/ /g, "\u00a0").replace(/-/g, "\u2011"); // "3rd of 3", "3-е из 3" on one line

/** The latest matches in words: day, game, place of how many, the rating after, money (in the club's currency). */
function matchesTable(latest, games, currency) {
  return h("div", { class: "table-scroll" }, h("table", { class: "standings member-matches" },
    h("caption", { class: "visually-hidden", text: t("club.latest_matches") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", text: t("club.day") }),
      h("th", { scope: "col", text: t("club.game") }),
      h("th", { scope: "col", class: "num", text: t("money.place") }),
      h("th", { scope: "col", class: "num", text: t("club.value_rating") }),
      h("th", { scope: "col", class: "num", text: `${t("club.value_money")}, ${currency}` }))),
    h("tbody", {}, latest.map((m) => h("tr", { "data-match": m.match },
      h("td", { text: dayText(m.date) }),
      h("td", { text: gameTitle(m.game, games) }),
      h("td", { class: "num", text: unbroken(t("club.place_of", { place: ordinal(m.place), n: m.players })) }),
      h("td", { class: "num", text: m.rating ? number(m.rating.ordinal, 1) : "–" }),
      h("td", { class: "num", text: number(m.net, 2) }))))));
}

/** The member's matches over time, from a page of the API's (the newest first), or null when they have none. */
export function historyView(page, games, currency) {
  if (!page || !page.matches.length) return null;
  const played = [...page.matches].reverse(); // in time, the latest on the right
  return h("section", { class: "member-history" },
    h("h2", { text: t("club.places_over_time") }),
    page.total > page.matches.length ? h("p", { class: "hint", text: t("club.latest_of", { n: page.matches.length, total: page.total }) }) : null,
    placesChart(played),
    h("h2", { text: t("club.rating_over_time") }),
    ratingChart(played, games),
    h("h3", { text: t("club.latest_matches") }),
    matchesTable(page.matches.slice(0, 10), games, currency));
}
