// A club's big screen (`?c=<id>&screen`, on a tablet or TV that holds the club's key or read link): the season's
// table and what is still owed, large enough to read from across the room, read again every ten seconds. It shows
// only what the club's page shows to the same key (club.js), and no control.

import { h } from "./dom.js";
import { moneyText, ordinal, t } from "./i18n.js";
import { decimal, gameTitle, namesOf, ruleText, valueText } from "./club_words.js";

function bigTable(club, rows, names, caption) {
  return h("table", { class: "club-screen-table" },
    h("caption", { class: caption ? null : "visually-hidden", text: caption || t("club.table") }),
    h("thead", {}, h("tr", {},
      h("th", { scope: "col", class: "num", text: "#" }),
      h("th", { scope: "col", text: t("club.member") }),
      h("th", { scope: "col", class: "num", text: t(`club.value_${club.rule.by}`) }),
      h("th", { scope: "col", class: "num", text: t("club.won_of_played") }),
      h("th", { scope: "col", class: "num", text: t("club.average_place_short") }))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-member": row.member },
      h("td", { class: "num", text: ordinal(row.place) }),
      h("th", { scope: "row", text: names[row.member] }),
      h("td", { class: "num", text: valueText(club.rule, row, club.currency) }),
      h("td", { class: "num", text: t("club.won_of", { won: row.wins, played: row.matches }) }),
      h("td", { class: "num", text: decimal(row.average_place, 2) })))));
}

export function clubScreenView(club, games) {
  const names = namesOf(club);
  const tables = club.table ? [bigTable(club, club.table, names)]
    : Object.entries(club.tables).map(([game, rows]) => bigTable(club, rows, names, gameTitle(game, games)));
  const owed = club.ledger.transfers;
  return h("div", { class: "big-screen club-screen" },
    h("header", { class: "big-title" }, h("h1", { text: club.name }), h("span", { text: ruleText(club.rule) })),
    h("section", { class: "big-match" }, h("h2", { class: "visually-hidden", text: t("club.table") }),
      tables.length ? tables : h("p", { class: "hint", text: t("club.no_matches") })),
    h("section", { class: "big-standings" },
      h("h2", { text: t("club.ledger") }),
      owed.length ? h("ul", { class: "transfers" }, owed.map((tr) => h("li", { class: "transfer" },
        t("money.pays", { from: names[tr.from], to: names[tr.to], amount: moneyText(tr.amount, club.currency).replace(" ", "\u00a0") }))))
        : h("p", { class: "hint", text: t("money.nobody_pays") })));
}
