// Who pays whom: per player paid, received and net, and the fewest transfers; final, or "if we stopped now".

import { api } from "./api.js";
import { h } from "./dom.js";
import { moneyText, t } from "./i18n.js";

export function settlementView(money, names) {
  const currency = money.currency;
  const title = money.final ? t("money.final") : t("money.if_now");
  // a pool and places only where the game settles by them; Dureń and Durak pay the stake for each deal lost
  const byPool = money.by !== "deals";
  const stake = moneyText(money.stake, currency);
  const transfers = money.transfers.length
    ? h("ul", { class: "transfers" }, money.transfers.map((tr) => h("li", { class: "transfer" },
      t("money.pays", { from: names[tr.from], to: names[tr.to], amount: moneyText(tr.amount, currency) }))))
    : h("p", { class: "hint", text: t("money.nobody_pays") });
  return h("div", { class: "settlement" },
    h("h2", { text: title }),
    h("p", { class: "hint", text: byPool ? t("money.stake_pool", { stake, pool: moneyText(money.pool, currency) })
      : t("money.stake_deal", { stake }) }),
    transfers,
    h("div", { class: "table-scroll" }, h("table", { class: "money-table" },
      h("caption", { class: "visually-hidden", text: title }),
      h("thead", {}, h("tr", {},
        h("th", { scope: "col", text: t("score.player") }),
        byPool ? h("th", { scope: "col", class: "num", text: t("money.place") }) : null,
        h("th", { scope: "col", class: "num", text: t("money.paid") }),
        h("th", { scope: "col", class: "num", text: t("money.received") }),
        h("th", { scope: "col", class: "num", text: t("money.net") }))),
      h("tbody", {}, money.players.map((p) => h("tr", { "data-seat": p.seat },
        h("th", { scope: "row", text: names[p.seat] }),
        byPool ? h("td", { class: "num", text: String(p.place) }) : null,
        h("td", { class: "num", text: moneyText(p.paid) }),
        h("td", { class: "num", text: moneyText(p.received) }),
        h("td", { class: ["num", p.net.startsWith("-") ? "negative" : Number(p.net) > 0 && "positive"], text: moneyText(p.net) })))))));
}

export function renderMoney(root, ctx) {
  const holder = h("section", { class: "panel", "aria-live": "polite" }, h("p", { class: "hint", text: t("common.loading") }));
  root.replaceChildren(holder);
  const shown = ctx.state.settlement;
  const fill = (money) => {
    if (Number(money.stake) === 0) holder.replaceChildren(h("h2", { text: t("money.title") }), h("p", { class: "hint", text: t("money.no_stake") }));
    else holder.replaceChildren(settlementView(money, ctx.names));
  };
  if (shown) fill(shown);
  else api.settlement(ctx.matchId).then(({ data }) => fill(data)).catch(() => holder.replaceChildren(h("p", { class: "hint", text: t("common.unavailable") })));
}
