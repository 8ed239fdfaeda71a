// A club (`?c=<id>#key=<key>`, or its read link `?club=<id>#read=<read key>`): the season's table by the club's
// rule, its members and the ledger of what is still owed across evenings, each debt with "mark paid" on the phone
// that holds the club's key. Club data is read only with the club's key or read key: the key comes in the link's
// fragment (which no browser sends to a server), is kept on this phone and taken out of the address; without one
// the page says so and shows nothing of the club. A member's page (`&member=<id>`) is in club_member.js.

import { request } from "./api.js";
import { h } from "./dom.js";
import { moneyText, ordinal, t } from "./i18n.js";
import { local, randomKey } from "./local.js";
import { stylesheet } from "./bigscreen.js";
import { memberView } from "./club_member.js";
import { HISTORY_PAGE } from "./club_history.js";
import { forgetKeeping, keepingBar, keepingView } from "./club_keeping.js";
import { clubScreenView } from "./club_screen.js";
import { clubs, decimal, gameTitle, namesOf, problem, ruleText, valueText } from "./club_words.js";


/** The club this address opens (`?c=` or the read link's `?club=`), or null. */
export function clubOf(params) {
  return params.get("c") || params.get("club");
}

/**
 * The club's key (or read key) from the link's fragment, taken out of the address; kept on this phone once the
 * server has read the club with it (`draw`), so that a crafted link never takes a working key away. The read key
 * is kept apart from the key: opening the read link never takes the club's key away either.
 */
function keyFromLink() {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const key = fragment.get("key");
  const read = fragment.get("read");
  if (key || read) history.replaceState(null, "", location.pathname + location.search);
  if (key) return { name: "club_key", key };
  return read ? { name: "club_read", key: read } : null;
}

/** The key this phone reads the club with: its own key, else its read key; null when it holds neither. */
export function clubKey(id) {
  return local.get(`club_key.${id}`) || local.get(`club_read.${id}`);
}

const SCREEN_POLL_MS = 10000;
const page = { root: null, id: null, member: null, screen: false, games: null, data: null, said: "", link: null };
const marking = new Map(); // a transfer being marked paid -> its Idempotency-Key: a retry marks it once

/** Whether a club's page is shown: its "mark paid" buttons are checked for double taps (taps.js). */
export function clubShown() {
  return Boolean(page.id && page.data);
}

function placeText(place) {
  return ordinal(place);
}


function netClass(net) {
  return ["num", String(net).startsWith("-") ? "negative" : Number(net) > 0 && "positive"];
}

/** A link to a member's page; `where` tells it from the same member's other links (taps.js knows a link by its id). */
function memberLink(id, member, names, where) {
  return h("a", { href: `?c=${encodeURIComponent(id)}&member=${encodeURIComponent(member)}`, id: `${where}-${member}`,
                  text: names[member] });
}

function seasonTable(club, rows, names, game = "all") {
  const heading = t(`club.value_${club.rule.by}`);
  return h("div", { class: "table-scroll" }, h("table", { class: "standings club-table" },
    h("caption", { class: "visually-hidden", text: t("club.table") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num" }, h("span", { "aria-hidden": "true", text: "#" }),
        h("span", { class: "visually-hidden", text: t("money.place") })),
      h("th", { scope: "col", text: t("club.member") }),
      h("th", { scope: "col", class: "num", text: heading }),
      h("th", { scope: "col", class: "num", text: t("club.won_of_played") }),
      h("th", { scope: "col", class: "num", text: t("club.average_place_short") }))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-member": row.member },
      h("td", { class: "num", text: placeText(row.place) }),
      h("th", { scope: "row" }, memberLink(club.id, row.member, names, `table-${game}`)),
      h("td", { class: club.rule.by === "money" ? netClass(row.value) : "num", text: valueText(club.rule, row, club.currency) }),
      h("td", { class: "num", text: t("club.won_of", { won: row.wins, played: row.matches }) }),
      h("td", { class: "num", text: decimal(row.average_place, 2) }))))));
}

function tables(club, names) {
  if (club.table) return club.table.length ? seasonTable(club, club.table, names) : h("p", { class: "hint", text: t("club.no_matches") });
  const games = Object.keys(club.tables);
  if (!games.length) return h("p", { class: "hint", text: t("club.no_matches") });
  return games.map((game) => [h("h3", { text: gameTitle(game, page.games) }), seasonTable(club, club.tables[game], names, game)]);
}

function membersList(club) {
  if (!club.members.length) return h("p", { class: "hint", text: t("club.no_members") });
  return h("ul", { class: "club-members" }, club.members.map((m) => h("li", {},
    memberLink(club.id, m.id, { [m.id]: m.name }, "member"),
    m.aliases.length ? h("span", { class: "hint", text: ` · ${t("club.aliases", { names: m.aliases.join(", ") })}` }) : null)));
}

function transferKey(club, transfer) {
  return `${transfer.from}>${transfer.to}>${transfer.amount}>${club.ledger.history.length}`;
}

async function markPaid(button, club, transfer) {
  if (button.disabled) return;
  button.disabled = true;
  const once = transferKey(club, transfer);
  if (!marking.has(once)) marking.set(once, randomKey());
  try {
    await request("POST", `${clubs(club.id)}/payments`, {
      body: { from: transfer.from, to: transfer.to, by: transfer.from },
      key: local.get(`club_key.${club.id}`), idempotencyKey: marking.get(once),
    });
    marking.delete(once);
    page.said = t("club.marked");
  } catch (error) {
    page.said = problem(error);
  }
  await draw();
}

function ledgerView(club, names, writable) {
  const ledger = club.ledger;
  const owed = ledger.transfers.length
    ? h("ul", { class: "transfers club-transfers" }, ledger.transfers.map((tr) => h("li", { class: "transfer" },
      h("span", { text: t("money.pays", { from: names[tr.from], to: names[tr.to], amount: moneyText(tr.amount, club.currency) }) }),
      writable ? h("button", {
        type: "button", class: "secondary mark-paid", id: `paid-${tr.from}-${tr.to}`, "data-records": "payment",
        text: t("club.mark_paid"), "aria-label": t("club.mark_paid_who", { from: names[tr.from], to: names[tr.to] }),
        on: { click: (event) => markPaid(event.currentTarget, club, tr) },
      }) : null)))
    : h("p", { class: "hint", text: t("money.nobody_pays") });
  const balances = Object.entries(ledger.balances).sort((a, b) => Number(b[1]) - Number(a[1]));
  return [
    h("p", { class: "hint", text: t("club.ledger_hint") }),
    owed,
    page.said ? h("p", { class: "hint", role: "status", id: "club-said", text: page.said }) : null,
    balances.length ? h("div", { class: "table-scroll" }, h("table", { class: "standings club-balances" },
      h("caption", { class: "visually-hidden", text: t("club.balances") }),
      h("thead", {}, h("tr", {}, h("th", { scope: "col", text: t("club.member") }),
        h("th", { scope: "col", class: "num", text: t("club.balance") }))),
      h("tbody", {}, balances.map(([member, balance]) => h("tr", {}, h("th", { scope: "row", text: names[member] }),
        h("td", { class: netClass(balance), text: moneyText(balance, club.currency) })))))) : null,
    ledger.open.length ? h("p", { class: "hint", text: t("club.open_evenings", { n: ledger.open.length }) }) : null,
  ];
}

/** The read link with `&screen`: the season's table on a big screen, which the read key lets read and not change. */
function screenLink(readLink) {
  const url = new URL(readLink, location.href);
  url.searchParams.set("screen", "");
  return url.href;
}


export function clubView(club) {
  const names = namesOf(club);
  const writable = Boolean(club.read_link);
  return h("section", { class: "panel club" },
    h("h1", { text: club.name }),
    h("h2", { text: t("club.table") }),
    h("p", { class: "hint", text: ruleText(club.rule) }),
    tables(club, names),
    h("h2", { text: t("club.members") }),
    membersList(club),
    h("h2", { text: t("club.ledger") }),
    ledgerView(club, names, writable),
    writable ? [h("h2", { text: t("club.share") }),
      h("label", { for: "club-read-link", class: "hint", text: t("club.read_link") }),
      h("input", { id: "club-read-link", class: "wide", type: "text", readonly: true,
                   value: new URL(club.read_link, location.href).href }),
      h("p", {}, h("a", { id: "club-big-screen", href: screenLink(club.read_link), text: t("club.big_screen") })),
      keepingView(club, draw), keepingBar(club, draw)] : null);
}

/** The club's page as this phone may show it: nothing of the club without its key or read key. */
function needsKey() {
  return h("section", { class: "panel club-locked" },
    h("h1", { text: t("club.title") }),
    h("p", { id: "club-needs-key", text: t("club.needs_key") }));
}

/** Draws the club (or the member's page) again, read anew: after a payment, and in another language. */
export async function draw() {
  const { root, id, member, link } = page;
  const key = link ? link.key : clubKey(id);
  if (!key) {
    page.data = null;
    root.replaceChildren(needsKey());
    return;
  }
  try {
    const club = (await request("GET", clubs(id), { key })).data;
    if (link) local.set(`${link.name}.${id}`, link.key); // the server read the club with it: it is the club's
    page.link = null;
    page.data = club;
    if (page.screen) {
      root.replaceChildren(clubScreenView(club, page.games));
      return;
    }
    if (!member) {
      root.replaceChildren(clubView(club));
      return;
    }
    const path = `${clubs(id)}/members/${encodeURIComponent(member)}`;
    const [shown, history] = await Promise.all([request("GET", path, { key }),
      request("GET", `${path}/matches?limit=${HISTORY_PAGE}`, { key })]);
    root.replaceChildren(memberView(club, shown.data, page.games, key, history.data));
  } catch (error) {
    page.data = null;
    if (link && error.status === 403 && clubKey(id)) {
      page.link = null; // not the club's key: this phone reads with the one it holds
      await draw();
      return;
    }
    page.link = null;
    if (error.status === 401 || error.status === 403) root.replaceChildren(needsKey());
    else root.replaceChildren(h("p", { class: "loading", text: problem(error) }));
  }
}

/** Opens the club's page (or, with `&member=`, a member's) in `root`. */
export async function openClub(root, id, params, games) {
  let link = keyFromLink();
  if (link && link.name === "club_read" && local.get(`club_key.${id}`)) link = null; // the key reads it all
  Object.assign(page, { root, id, member: params.get("member"), screen: params.has("screen"), games, said: "", link });
  forgetKeeping();
  document.title = `Kibic · ${t("club.title")}`;
  if (page.screen) {
    await stylesheet();
    document.body.classList.add("big");
    setInterval(() => { if (page.data) draw(); }, SCREEN_POLL_MS); // the table after each evening, by itself
  }
  await draw();
}
