// The big screen by the table (`?e=<id>&screen`): a tablet or TV in landscape shows, large enough to read from
// the other side of the table, the current match's seats, the cards on the table and the scoresheet, the
// evening's standings and transfers, and the referee's last word; read-only and followed live. It reads as a
// phone without a key does, so it never shows a card of a hand before it is played.

import { request } from "./api.js";
import { h } from "./dom.js";
import { cardText, moneyText, ordinal, t } from "./i18n.js";
import { standingHeading } from "./evening.js";
import { renderSheet } from "./scoresheet.js";
import { verdictText } from "./words.js";

const POLL_MS = 2000;

/** The big screen's own styles, loaded once; settled when they apply (or failed to load), so that the screen is
 * never drawn first in the phone's small type and then grown. */
export function stylesheet() {
  if (document.querySelector("link[data-big-screen]")) return Promise.resolve();
  const link = h("link", { rel: "stylesheet", href: "static/css/bigscreen.css", "data-big-screen": "" });
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

function seats(state) {
  const onTable = state.deal && Array.isArray(state.deal.table)
    ? state.deal.table.filter((p) => p && typeof p.card === "string") : [];
  const turn = state.expected && typeof state.expected.seat === "number" ? state.expected.seat : null;
  return h("ol", { class: "big-seats" }, state.players.map((p) => h("li", {
    class: ["big-seat", p.seat === turn && "to-act", p.out && "is-out"], "data-seat": p.seat },
  h("span", { class: "big-name", text: p.name }),
  h("span", { class: "big-score", text: String(p.score) }),
  p.lives === null ? null : h("span", { class: "big-lives", text: t("sheet.lives", { n: p.lives }) }),
  p.place ? h("span", { class: "big-place", text: ordinal(p.place) }) : null,
  h("span", { class: "big-cards" }, onTable.filter((c) => c.seat === p.seat).map((c) =>
    h("span", { class: "card", text: cardText(c.card) }))))));
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

export function bigScreenView(evening, state, games) {
  const game = state && (games || []).find((g) => g.game === state.game);
  return h("div", { class: "big-screen" },
    h("header", { class: "big-title" }, h("h1", { text: evening.name }),
      state ? h("span", { text: game ? game.title : state.game }) : null),
    h("section", { class: "big-match" }, state ? [seats(state), lastWord(state), renderSheet(state)]
      : h("p", { class: "hint", text: t("evening.none") })),
    standings(evening));
}

/** Shows the big screen in `root`, read again every two seconds and redrawn when something changed. */
export async function openBigScreen(root, id, games) {
  await stylesheet();
  document.body.classList.add("big");
  let shown = "";
  const draw = async () => {
    try {
      const evening = (await request("GET", `api/evenings/${encodeURIComponent(id)}`)).data;
      const match = currentMatch(evening);
      const state = match ? (await request("GET", `api/matches/${encodeURIComponent(match.id)}`)).data : null;
      const text = JSON.stringify([evening, state]);
      if (text !== shown) {
        shown = text;
        root.replaceChildren(bigScreenView(evening, state, games));
      }
    } catch (error) {
      if (!shown) root.replaceChildren(h("p", { class: "loading", text: t(`code.${error.code}`) }));
    }
    setTimeout(draw, POLL_MS);
  };
  await draw();
}
