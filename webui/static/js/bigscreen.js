// The big screen by the table (`?e=<id>&screen`): a tablet or TV in landscape shows, large enough to read from
// the other side of the table, the current match's seats, the cards on the table and the scoresheet, the
// evening's standings and transfers, and the referee's last word; read-only and followed live. It reads as a
// phone without a key does, so it never shows a card of a hand before it is played.

import { request } from "./api.js";
import { follow } from "./follow.js";
import { h } from "./dom.js";
import { moneyText, ordinal, t } from "./i18n.js";
import { redrawWith, standingHeading } from "./evening.js";
import { rulesOf } from "./play.js";
import { renderSheet } from "./scoresheet.js";
import { cardChip } from "./table.js";
import { verdictText } from "./words.js";

const POLL_MS = 2000; // the match read this often only while its stream is broken
const EVENING_MS = 5000; // the evening read again this often: its standings, a new match begun

/** The big screen's own styles, loaded once; settled when they apply (or failed to load), so that the screen is
 * never drawn first in the phone's small type and then grown. */
export function stylesheet() {
  if (document.querySelector("link[data-big-screen]")) return Promise.resolve();
  const link = h("link", { rel: "stylesheet", href: new URL("../css/bigscreen.css", import.meta.url).href, "data-big-screen": "" });
  const loaded = new Promise((done) => {
    link.addEventListener("load", done, { once: true });
    link.addEventListener("error", done, { once: true });
  });
  document.head.append(link);
  return loaded;
}

/** The match now being played: the latest still playing, else the latest. */
export function currentMatch(evening) {
  const playing = evening.matches.filter((m) => !m.final);
  const all = playing.length ? playing : evening.matches;
  return all.length ? all[all.length - 1] : null;
}

/** What the phone's table would be drawn from: the state, the names, and nothing waiting to be sent. */
function tableOf(state) {
  return { state, names: state.players.map((p) => p.name), ui: {}, pending: () => [] };
}

/** The last trick taken while the next has not been led (null while one is being played, or none was taken). */
export function trickTaken(state) {
  const deal = state.deal;
  if (!deal || !Array.isArray(deal.tricks) || !Array.isArray(deal.table) || deal.table.length) return null;
  const done = deal.tricks.filter((trick) => trick.winner !== null && trick.winner !== undefined);
  return done.length ? done[done.length - 1] : null;
}

/** The cards of a bout being fought in front of a seat (where the state has one): those it attacked with, and those
 * it beat them with as the defender. */
function boutInFront(state, seat) {
  const bout = state.deal && state.deal.bout;
  if (!bout || !Array.isArray(bout.attacks)) return [];
  const cards = bout.attacks.filter((a) => a.seat === seat).map((a) => a.card);
  if (bout.defender === seat) cards.push(...bout.attacks.filter((a) => a.beaten_by).map((a) => a.beaten_by));
  return cards.map((card) => cardChip(card));
}

/** The seats, each with the cards in front of it as the game's phone table draws them (the trick being played, the
 * attack), or those of the trick last taken, until the next lead. */
function seats(state) {
  const rules = rulesOf(state);
  const ctx = tableOf(state);
  const taken = trickTaken(state);
  const inFront = (seat) => (taken ? taken.plays.filter((c) => c.seat === seat).map((c) => cardChip(c.card))
    : [...(rules && rules.inFront ? rules.inFront(ctx, seat) : []), ...boutInFront(state, seat)]);
  const turn = state.expected && typeof state.expected.seat === "number" ? state.expected.seat : null;
  const seat = (p) => h("li", {
    class: ["big-seat", p.seat === turn && "to-act", p.out && "is-out", taken && p.seat === taken.winner && "took-it"],
    "data-seat": p.seat },
  h("span", { class: "big-name", text: p.name }),
  h("span", { class: "big-score", text: String(p.score) }),
  p.bid === null || p.bid === undefined ? null
    : h("span", { class: "big-bid", text: t("seat.bid_took", { bid: p.bid, took: p.tricks }) }),
  p.lives === null ? null : h("span", { class: "big-lives", text: t("sheet.lives", { n: p.lives }) }),
  p.place ? h("span", { class: "big-place", text: ordinal(p.place) }) : null,
  h("span", { class: "big-cards" }, inFront(p.seat)));
  return h("ol", { class: ["big-seats", state.players.length > 4 && "many", taken && "last-trick-shown"] },
    state.players.map(seat));
}

/** The trump, where the game has one, and the last trick in words while the next has not been led. */
function trickLine(state) {
  const rules = rulesOf(state);
  const ctx = tableOf(state);
  const trump = rules && rules.trump ? rules.trump(ctx) : null;
  const last = rules && rules.lastTrick ? rules.lastTrick(ctx) : null;
  return trump || last ? h("div", { class: "big-trick" }, trump, last) : null;
}

function lastWord(state) {
  const findings = [...state.findings].sort((a, b) => a.proof_seq - b.proof_seq);
  const latest = findings[findings.length - 1];
  if (!latest) return null;
  const names = state.players.map((p) => p.name);
  return h("p", { class: "big-referee", role: "status" },
    verdictText(latest.code, latest.details, latest.seat, names) || latest.message);
}

function standings(evening) {
  const people = [...evening.people].sort((a, b) => Number(b.net) - Number(a.net));
  return h("section", { class: "big-standings" },
    h("h2", { text: standingHeading(evening) }),
    h("table", {}, h("tbody", {}, people.map((p) => h("tr", {},
      h("th", { scope: "row", text: p.name }),
      h("td", { class: ["num", p.net.startsWith("-") ? "negative" : Number(p.net) > 0 && "positive"],
                text: moneyText(p.net, evening.currency) }))))),
    evening.transfers.length ? h("ul", { class: "transfers" }, evening.transfers.map((tr) => h("li", { class: "transfer" },
      t("money.pays", { from: tr.from, to: tr.to, amount: moneyText(tr.amount, evening.currency) })))) : null);
}

/** The scoresheet with a row of totals under it; `fitSheet` then hides its earliest deals that do not fit. */
function sheet(state) {
  const drawn = renderSheet(state);
  const table = drawn.querySelector("table");
  if (!table) return drawn;
  if (state.players.length > 4) table.classList.add("many");
  table.append(h("tfoot", {}, h("tr", { class: "totals" }, h("th", { scope: "row", text: t("screen.total") }),
    state.players.map((p) => h("td", { class: "num total", "data-seat": p.seat,
                                       text: p.lives === null ? String(p.score) : t("sheet.lives", { n: p.lives }) })))));
  return drawn;
}

/**
 * Hides the sheet's earliest deals until the screen holds it whole (a TV cannot scroll), and says which; where even
 * its latest deal does not fit (many players, many transfers), the seats and the standings are drawn smaller first.
 */
export function fitSheet(root) {
  const screen = root.querySelector(".big-screen");
  const table = root.querySelector(".big-match #scoresheet");
  if (!screen) return;
  const fits = () => document.documentElement.scrollHeight <= window.innerHeight;
  for (const compact of [false, true]) {
    screen.classList.toggle("compact", compact);
    if (table) trimSheet(table, fits);
    if (fits()) return;
  }
}

function trimSheet(table, fits) {
  const rows = [...table.tBodies[0].rows];
  rows.forEach((row) => { row.hidden = false; });
  const caption = table.caption;
  const how = caption.dataset.how || (caption.dataset.how = caption.textContent);
  caption.textContent = how;
  let hidden = 0;
  while (!fits() && hidden < rows.length - 1) {
    rows[hidden].hidden = true;
    hidden += 1;
    caption.textContent = hidden === 1 ? t("screen.earlier_one", { n: rows[0].dataset.deal })
      : t("screen.earlier", { from: rows[0].dataset.deal, to: rows[hidden - 1].dataset.deal });
  }
  table.dataset.hidden = String(hidden);
}

export function bigScreenView(evening, state, games) {
  const game = state && (games || []).find((g) => g.game === state.game);
  return h("div", { class: "big-screen", "data-seq": state ? state.seq : "" },
    h("header", { class: "big-title" }, h("h1", { text: evening.name }),
      state ? h("span", { text: game ? game.title : state.game }) : null),
    h("section", { class: "big-match" }, state ? [seats(state), trickLine(state), lastWord(state), sheet(state)]
      : h("p", { class: "hint", text: t("evening.none") })),
    standings(evening));
}

/**
 * Shows the big screen in `root`. The current match's states come as the stream pushes them (the match read every
 * two seconds only while the stream is broken), each drawn at once; the evening (standings, and a new match begun)
 * is read again after each state and every few seconds.
 */
export async function openBigScreen(root, id, games) {
  await stylesheet();
  document.body.classList.add("big");
  let evening = null;
  let state = null;
  let followed = null; // the id of the match followed
  let stop = null;
  let shown = "";
  const draw = () => {
    const text = JSON.stringify([evening, state]);
    if (!evening || (followed && !state) || text === shown) return; // a match is drawn once its state has come
    shown = text;
    root.replaceChildren(bigScreenView(evening, state, games));
    fitSheet(root);
  };
  const followMatch = (matchId) => {
    if (stop) stop();
    stop = null;
    followed = matchId;
    state = null;
    if (!matchId) return;
    const path = `api/matches/${encodeURIComponent(matchId)}`;
    const shownState = (next) => {
      if (followed !== matchId || !next) return;
      state = next;
      draw();
      readEvening();
    };
    const poll = () => request("GET", path).then((answer) => shownState(answer.data), () => {});
    stop = follow({ url: `${path}/stream`, onState: shownState, poll, pollMs: POLL_MS });
  };
  let reading = null;
  let again = false;
  const readEvening = async () => {
    if (reading) { again = true; return reading; }
    reading = (async () => {
      try {
        evening = (await request("GET", `api/evenings/${encodeURIComponent(id)}`)).data;
        const match = currentMatch(evening);
        if ((match ? match.id : null) !== followed) followMatch(match ? match.id : null);
        draw();
      } catch (error) {
        if (!shown) root.replaceChildren(h("p", { class: "loading", text: t(`code.${error.code}`) }));
      }
    })();
    await reading;
    reading = null;
    if (again) { again = false; await readEvening(); }
  };
  const everyFewSeconds = async () => {
    await readEvening();
    setTimeout(everyFewSeconds, EVENING_MS);
  };
  window.addEventListener("resize", () => fitSheet(root));
  redrawWith(() => { shown = ""; draw(); }); // in the language just chosen
  await everyFewSeconds();
}
