// An evening at one table (`?e=<id>`): its standings over every match, the fewest transfers that settle the
// night, its matches and the figures, followed live; it shows no card. `?e=new` starts one. The phone that
// started it keeps the evening's key and starts its next matches from the start form (setup.js), prefilled.

import { request } from "./api.js";
import { h, s } from "./dom.js";
import { has, language, moneyText, t, tn } from "./i18n.js";
import { local, randomKey } from "./local.js";

const POLL_MS = 3000;
const FIGURES = ["matches", "won", "places", "minus_points", "lives_lost", "exact_bids_pct", "illegal_found",
                 "illegal_let_stand"];

const CURRENCY = { pl: "PLN", ru: "RUB", en: "EUR" };

const evenings = (id) => `api/evenings/${encodeURIComponent(id)}`;
const eveningKey = (id) => local.get(`evening_key.${id}`);

function problem(error) {
  return has(`code.${error.code}`) ? t(`code.${error.code}`) : error.message;
}

/** The start page's way to an evening: start one, or open one this phone started or followed. */
export function eveningEntry() {
  const known = local.get("evenings") || [];
  return h("section", { class: "evening-entry" },
    h("h2", { text: t("evening.several") }),
    h("a", { class: "secondary wide", id: "evening-new", href: "?e=new", text: t("evening.start") }),
    known.length ? h("ul", {}, known.map((e) => h("li", {},
      h("a", { href: `?e=${encodeURIComponent(e.id)}`, text: e.name })))) : null);
}

function newEveningForm(root) {
  const name = h("input", { id: "evening-name", type: "text", maxlength: 80, autocomplete: "off" });
  const currency = h("input", { id: "evening-currency", type: "text", maxlength: 3, autocomplete: "off",
                                value: CURRENCY[language()] || "EUR" });
  const said = h("p", { class: "hint", role: "alert" });
  const button = h("button", { type: "submit", class: "primary wide", id: "evening-start", text: t("evening.start") });
  let creation = null; // a retry of the same form retries the same creation: one evening, never two
  const submit = async (event) => {
    event.preventDefault();
    button.disabled = true;
    const body = { name: name.value, currency: currency.value };
    if (!creation || JSON.stringify(creation.body) !== JSON.stringify(body)) creation = { body, key: randomKey() };
    try {
      const { data } = await request("POST", "api/evenings", { body, idempotencyKey: creation.key });
      local.set(`evening_key.${data.id}`, data.key);
      location.href = `?e=${encodeURIComponent(data.id)}&next`; // straight to its first match's form
    } catch (error) {
      said.textContent = problem(error);
      button.disabled = false;
    }
  };
  root.replaceChildren(h("form", { class: "setup evening-new", novalidate: true, on: { submit } },
    h("h1", { text: t("evening.start") }),
    h("label", { for: "evening-name", text: t("evening.name") }), name,
    h("label", { for: "evening-currency", text: t("evening.currency") }), currency,
    said, button));
}

/** The way to the evening's next match: the start form, prefilled for it (setup.js), on the phone with the key. */
function nextMatchLink(evening) {
  return h("a", { class: "primary wide next-match", id: "next-match", href: `?e=${encodeURIComponent(evening.id)}&next`,
                  text: t("evening.next") });
}

/** Where the evening stands, as its standings' heading says it: a match being played, or after how many. */
export function standingHeading(evening) {
  const playing = evening.matches.findIndex((m) => !m.final);
  if (playing >= 0) return t("evening.standing_playing", { n: playing + 1 });
  if (evening.matches.length) return tn("evening.standing_after", evening.matches.length);
  return t("evening.none");
}

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
                           class: value < 0 ? "net-owes" : "net-gets" }));
    const label = `${p.name} ${moneyText(p.net, currency)}`;
    svg.append(s("text", { class: "axis", x: value < 0 ? middle + 6 : middle - 6, y: y + row / 2,
                           "text-anchor": value < 0 ? "start" : "end", text: label }));
  });
  return svg;
}

/**
 * The figures per person. On a phone a person's figures are a block of label and value pairs (each cell
 * carries its figure's name in data-label), as no phone is wide enough for nine columns of them; the table's
 * roles are spelled out, so that it stays a table for a screen reader whatever its display.
 */
function figuresTable(people) {
  return h("div", { class: "table-scroll" }, h("table", { class: "figures-table", role: "table" },
    h("caption", { class: "visually-hidden", text: t("evening.figures") }),
    h("thead", { role: "rowgroup" }, h("tr", { role: "row" }, h("th", { scope: "col", role: "columnheader", text: t("score.player") }),
      FIGURES.map((name) => h("th", { scope: "col", role: "columnheader", class: "num", text: t(`figure.${name}`) })))),
    h("tbody", { role: "rowgroup" }, people.map((p) => h("tr", { role: "row" },
      h("th", { scope: "row", role: "rowheader", text: p.name }),
      FIGURES.map((name) => h("td", { class: "num", role: "cell", "data-label": t(`figure.${name}`),
                                      text: figureText(name, p.figures[name]) })))))));
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
    h("h2", { text: standingHeading(evening) }),
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
    h("p", {}, h("a", { href: `?e=${encodeURIComponent(evening.id)}&screen`, text: t("evening.big_screen") })),
    h("h2", { text: t("evening.follow") }),
    h("img", { class: "qr", src: `${evenings(evening.id)}/qr.svg`, alt: t("evening.follow"), width: 220, height: 220 }));
}

let redraw = null; // the evening page shown (the evening, its big screen, or the form of a new one), drawn again

/** Draws the evening page shown again, in the language just chosen, from what it last read; false if none is. */
export function drawEveningAgain() {
  if (!redraw) return false;
  redraw();
  return true;
}

/** The big screen's own drawing again (bigscreen.js), for `drawEveningAgain`. */
export function redrawWith(again) {
  redraw = again;
}

/**
 * Shows the evening in `root` and keeps it up to date, redrawn only when something changed; the next match's
 * form (on the phone with the evening's key) is drawn once, so that nothing changes under a finger.
 */
export async function openEvening(root, id, games) {
  if (id === "new") {
    newEveningForm(root);
    redraw = () => { // what was typed stays
      const typed = [...root.querySelectorAll("input")].map((input) => [input.id, input.value]);
      newEveningForm(root);
      for (const [field, value] of typed) document.getElementById(field).value = value;
    };
    return;
  }
  let shown = "";
  let last = null;
  const view = h("div");
  const next = h("div", { class: "evening-next" });
  redraw = () => {
    if (!last) return;
    if (eveningKey(id)) next.replaceChildren(nextMatchLink(last));
    view.replaceChildren(eveningView(last, games));
  };
  const draw = async () => {
    try {
      const { data } = await request("GET", evenings(id));
      const text = JSON.stringify(data);
      last = data;
      if (!shown) {
        root.replaceChildren(next, view); // the next match first: one tap from the top
        if (eveningKey(id)) next.replaceChildren(nextMatchLink(data));
      }
      if (text !== shown) {
        shown = text;
        view.replaceChildren(eveningView(data, games));
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
