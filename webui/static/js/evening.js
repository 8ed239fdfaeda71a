// An evening at one table (`?e=<id>`): its standings over every match, the fewest transfers that settle the
// night, its matches and the figures, followed live. Read-only: the evening shows no card.

import { request } from "./api.js";
import { h, s } from "./dom.js";
import { has, moneyText, t } from "./i18n.js";
import { local } from "./local.js";

const POLL_MS = 3000;
const FIGURES = ["matches", "won", "places", "minus_points", "lives_lost", "exact_bids_pct", "illegal_found",
                 "illegal_let_stand"];

const evenings = (id) => `api/evenings/${encodeURIComponent(id)}`;

function gameTitle(name, games) {
  const game = (games || []).find((g) => g.game === name);
  return has(`game.${name}.title`) ? t(`game.${name}.title`) : (game ? game.title : name);
}

function figureText(name, value) {
  if (value === null || value === undefined) return "–";
  if (name === "places") return value.join(" · ") || "–";
  if (name === "exact_bids_pct") return `${value}%`;
  return String(value);
}

function netClass(net) {
  return ["num", net.startsWith("-") ? "negative" : Number(net) > 0 && "positive"];
}

/** The nets as horizontal bars around zero, one per person, largest gain first. */
function netChart(people, currency) {
  const rows = [...people].sort((a, b) => Number(b.net) - Number(a.net));
  const widest = Math.max(...rows.map((p) => Math.abs(Number(p.net))), 1);
  const width = 320;
  const middle = width / 2;
  const row = 28;
  const svg = s("svg", { class: "chart evening-chart", viewBox: `0 0 ${width} ${rows.length * row + 4}`, role: "img",
                         "aria-label": t("evening.chart") },
    s("title", { text: t("evening.chart") }),
    s("line", { class: "grid", x1: middle, x2: middle, y1: 0, y2: rows.length * row + 4 }));
  rows.forEach((p, i) => {
    const value = Number(p.net);
    const length = (Math.abs(value) / widest) * (middle - 4);
    const y = i * row + 4;
    svg.append(s("rect", { x: value < 0 ? middle - length : middle, y, width: Math.max(length, 1), height: row - 8,
                           fill: value < 0 ? "#b3261e" : "#0b5d3b" }));
    const label = `${p.name} ${moneyText(p.net, currency)}`;
    svg.append(s("text", { class: "axis", x: value < 0 ? middle + 6 : middle - 6, y: y + row / 2,
                           "text-anchor": value < 0 ? "start" : "end", text: label }));
  });
  return svg;
}

function figuresTable(people) {
  return h("div", { class: "table-scroll" }, h("table", { class: "figures-table" },
    h("caption", { class: "visually-hidden", text: t("evening.figures") }),
    h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("score.player") }),
      FIGURES.map((name) => h("th", { scope: "col", class: "num", text: t(`figure.${name}`) })))),
    h("tbody", {}, people.map((p) => h("tr", {},
      h("th", { scope: "row", text: p.name }),
      FIGURES.map((name) => h("td", { class: "num", text: figureText(name, p.figures[name]) })))))));
}

export function eveningView(evening, games) {
  const currency = evening.currency;
  const standings = [...evening.people].sort((a, b) => Number(b.net) - Number(a.net));
  const transfers = evening.transfers.length
    ? h("ul", { class: "transfers" }, evening.transfers.map((tr) => h("li", { class: "transfer" },
      t("money.pays", { from: tr.from, to: tr.to, amount: moneyText(tr.amount, currency) }))))
    : h("p", { class: "hint", text: t("money.nobody_pays") });
  const matches = evening.matches.length
    ? h("ol", { class: "evening-matches" }, evening.matches.map((m) => h("li", {},
      h("a", { href: `?m=${encodeURIComponent(m.id)}`, text: gameTitle(m.game, games) }),
      ` · ${m.players.map((p) => p.name).join(", ")} · `,
      t(m.final ? "evening.finished" : "evening.playing"))))
    : h("p", { class: "hint", text: t("evening.none") });
  return h("section", { class: "panel evening" },
    h("h1", { text: evening.name }),
    h("h2", { text: evening.final ? t("money.final") : t("money.if_now") }),
    h("div", { class: "table-scroll" }, h("table", { class: "standings" },
      h("caption", { class: "visually-hidden", text: t("evening.standings") }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("score.player") }),
        h("th", { scope: "col", class: "num", text: t("money.net") }))),
      h("tbody", {}, standings.map((p) => h("tr", {}, h("th", { scope: "row", text: p.name }),
        h("td", { class: netClass(p.net), text: moneyText(p.net, currency) })))))),
    evening.people.length ? netChart(evening.people, currency) : null,
    transfers,
    h("h2", { text: t("evening.matches") }),
    matches,
    h("h2", { text: t("evening.figures") }),
    evening.people.length ? figuresTable(evening.people) : h("p", { class: "hint", text: t("evening.none") }),
    h("p", {}, h("a", { href: `${evenings(evening.id)}/figures.csv`, download: "", text: t("evening.csv") })),
    h("h2", { text: t("evening.follow") }),
    h("img", { class: "qr", src: `${evenings(evening.id)}/qr.svg`, alt: t("evening.follow"), width: 220, height: 220 }));
}

/** Shows the evening in `root` and keeps it up to date; redrawn only when something changed. */
export async function openEvening(root, id, games) {
  let shown = "";
  const draw = async () => {
    try {
      const { data } = await request("GET", evenings(id));
      const text = JSON.stringify(data);
      if (text !== shown) {
        shown = text;
        root.replaceChildren(eveningView(data, games));
        const others = (local.get("evenings") || []).filter((e) => e.id !== id);
        local.set("evenings", [{ id, name: data.name, at: Date.now() }, ...others].slice(0, 8));
      }
    } catch (error) {
      if (!shown) root.replaceChildren(h("p", { class: "loading", text: t(`code.${error.code}`) }));
    }
    setTimeout(draw, POLL_MS);
  };
  await draw();
}
