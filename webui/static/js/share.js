// More phones: the follow link and its QR code, the scorer link (with the key, only in the fragment),
// and the downloads: the scoresheet (CSV) and the whole log (JSON).

import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { loadEvents } from "./log.js";
import { sheetLines } from "./scoresheet.js";

export function followLink(matchId) {
  return new URL(`?m=${encodeURIComponent(matchId)}`, document.baseURI).href;
}

export function scorerLink(matchId, key) {
  return `${followLink(matchId)}#key=${encodeURIComponent(key)}`;
}

function csvField(value) {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`; // a name is never a formula
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The scoresheet as on the Scores tab: one row per deal, each player's figures of the deal and totals. */
export function scoresheet(state) {
  return sheetLines(state).map((line) => line.map(csvField).join(",")).join("\r\n") + "\r\n";
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = h("a", { href: url, download: name, class: "visually-hidden" });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function copyButton(text, id) {
  const button = h("button", { type: "button", class: "secondary", id, on: { click: async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = t("share.copied");
    } catch {
      button.previousElementSibling?.select?.();
      button.textContent = t("share.select_copy");
    }
  } } }, t("share.copy"));
  return button;
}

function linkBox(id, label, link) {
  return h("div", { class: "link-box" },
    h("label", { for: id, text: label }),
    h("input", { id, type: "text", readonly: true, value: link, on: { focus: (e) => e.target.select() } }),
    copyButton(link, `${id}-copy`));
}

export function renderShare(root, ctx) {
  const base = `kibic-${ctx.state.game}-${ctx.matchId.slice(0, 8)}`;
  const follow = followLink(ctx.matchId);
  const sections = [
    h("section", { class: "panel" },
      h("h2", { text: t("share.follow_title") }),
      h("p", { class: "hint", text: t("share.follow_hint") }),
      h("img", { class: "qr", src: api.qrUrl(ctx.matchId), alt: t("share.qr_alt"), width: 220, height: 220 }),
      linkBox("follow-link", t("share.follow_link"), follow)),
  ];
  if (ctx.key) {
    const reveal = h("details", { class: "scorer" },
      h("summary", { text: t("share.scorer_title") }),
      h("p", { class: "hint warn", text: t("share.scorer_hint") }),
      linkBox("scorer-link", t("share.scorer_link"), scorerLink(ctx.matchId, ctx.key)));
    sections.push(h("section", { class: "panel" }, reveal));
  }
  sections.push(h("section", { class: "panel" },
    h("h2", { text: t("share.download_title") }),
    h("div", { class: "row" },
      h("button", { type: "button", class: "secondary", id: "download-csv",
                    on: { click: () => download(`${base}.csv`, "text/csv;charset=utf-8", `\ufeff${scoresheet(ctx.state)}`) } },
      t("share.download_csv")),
      h("button", { type: "button", class: "secondary", id: "download-json", on: { click: async () => {
        const events = await loadEvents(ctx.matchId);
        download(`${base}.json`, "application/json", `${JSON.stringify({ match: ctx.state, events }, null, 2)}\n`);
      } } }, t("share.download_json")))));
  root.replaceChildren(...sections);
}
