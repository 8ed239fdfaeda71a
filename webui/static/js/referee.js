// The referee speaks: refusals, findings and notices at the top of the page, read out by screen readers.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";

const area = () => document.getElementById("referee");

/** The rule or problem a code names, in this language; the server's own words when we have none. */
export function codeText(code, fallback) {
  return has(`code.${code}`) ? t(`code.${code}`) : fallback || t("code.unknown");
}

function message(kind, id, children, actions = []) {
  const dismiss = h("button", { type: "button", class: "secondary", on: { click: () => item.remove() } }, t("referee.ok"));
  const item = h("section", { class: ["verdict", kind], role: "alert", id },
    ...children,
    h("div", { class: "verdict-actions" }, ...actions, dismiss));
  return item;
}

function put(item, replaceKind) {
  const root = area();
  if (replaceKind) root.querySelectorAll(`.verdict.${replaceKind}`).forEach((el) => el.remove());
  root.prepend(item);
}

export function clearRefusals() {
  area().querySelectorAll(".verdict.refusal, .verdict.notice").forEach((el) => el.remove());
}

/**
 * A write the server refused, or could not take: the rule it breaks in plain words, the server's message
 * (names and cards), and, when the rule allows it, "let it stand".
 */
export function showError(error, { what, letItStand, sendAgain } = {}) {
  const actions = [];
  if (sendAgain) {
    actions.push(h("button", { type: "button", class: "secondary", id: "send-again", on: { click: () => { item.remove(); sendAgain(); } } },
      t("referee.send_again")));
  }
  if (letItStand && error.details && error.details.forceable) {
    actions.push(h("button", { type: "button", class: "danger", id: "let-it-stand", on: { click: () => { item.remove(); letItStand(); } } },
      t("referee.let_it_stand")));
  }
  const item = message("refusal", "refusal", [
    h("h2", { text: codeText(error.code, t("code.unknown")) }),
    what ? h("p", { class: "what", text: what }) : null,
    error.message && !error.network ? h("p", { class: "server-says", text: error.message }) : null,
    error.network ? null : h("p", { class: "hint", text: error.details && error.details.forceable ? t("referee.forceable_hint") : t("referee.nothing_recorded") }),
  ], actions);
  put(item, "refusal");
  return item;
}

/** A play that stands in the record but breaks a rule: who, where, which rule, and the proof. */
export function showFinding(finding, names, proofText) {
  const where = finding.trick
    ? t("finding.where_trick", { deal: finding.deal, trick: finding.trick })
    : t("finding.where_deal", { deal: finding.deal });
  const forced = finding.proof_seq === finding.seq;
  const item = message("finding", `finding-${finding.seq}-${finding.proof_seq}-${finding.code}`, [
    h("h2", { text: t("finding.title", { name: names[finding.seat] }) }),
    h("p", { class: "where", text: `${where} · ${codeText(finding.code)}` }),
    h("p", { class: "server-says", text: finding.message }),
    h("p", { class: "proof", text: forced ? t("finding.forced", { seq: finding.seq }) : t("finding.proof", { seq: finding.proof_seq, proof: proofText }) }),
  ]);
  put(item);
}

/** Something to know that is not a refusal: a play let stand, an undo, queued entries dropped. */
export function showNotice(text, { detail, actions = [] } = {}) {
  const item = message("notice", null, [h("p", { class: "notice-text", text }), detail ? h("p", { class: "hint", text: detail }) : null], actions);
  put(item, "notice");
  return item;
}

/** A short spoken confirmation for screen readers (the page shows it in place already). */
export function announce(text) {
  const live = document.getElementById("announce");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}
