// The referee speaks: refusals, findings, notices and questions, read out by screen readers. At the table they
// lie over the seats (the keypad and Undo are never covered, and nothing moves when they come or go);
// elsewhere at the top of the page.

import { h } from "./dom.js";
import { has, t } from "./i18n.js";
import { verdictText } from "./words.js";

const root = document.getElementById("referee");
const TOLD_MS = 8000; // how long a finding or a notice is told at the table, when no entry comes first
const KEPT = 3; // the newest messages; older ones are in the log and the scores
let changed = () => {};
let desk = null; // the place next to the thumb, in the bottom bar, while the table is shown: {el, shown()}

/**
 * Where a question or a refusal waits for its answer: at the table, in the bottom bar just above its line and Undo
 * (in view whatever is scrolled, next to the thumb; the bar grows upwards over the page, which moves nothing); else
 * at the top of the page.
 */
export function useDesk(el, shown) {
  desk = { el, shown };
}

function answerPlace() {
  return desk && desk.shown() ? desk.el : root;
}

/** `callback()` runs whenever a message comes or goes. */
export function onMessagesChanged(callback) {
  changed = callback;
}

/** The rule or problem a code names, in this language; the server's own words when we have none. */
export function codeText(code, fallback) {
  return has(`code.${code}`) ? t(`code.${code}`) : fallback || t("code.unknown");
}

function message(kind, id, children, actions = []) {
  const dismiss = h("button", { type: "button", class: "secondary", on: { click: () => { item.remove(); changed(); } } }, t("referee.ok"));
  const item = h("section", { class: ["verdict", kind], role: "alert", id },
    ...children,
    h("div", { class: "verdict-actions" }, ...actions, dismiss));
  return item;
}

const ASKS = ".verdict.question, .verdict.refusal"; // what waits for an answer
const TELLS = ".verdict.finding, .verdict.notice"; // what is told once (a finding is kept in the scores and the log)

/**
 * At the table (the desk in the bottom bar) one thing asked and one thing told at a time, the newest, the question
 * nearest the thumb; elsewhere the newest few, at the top of the page.
 */
function put(item, replaceKind, place = answerPlace()) {
  for (const where of [root, desk && desk.el].filter(Boolean)) {
    if (replaceKind) where.querySelectorAll(`.verdict.${replaceKind}`).forEach((el) => el.remove());
  }
  if (place === root) {
    place.prepend(item);
    [...root.querySelectorAll(".verdict")].slice(KEPT).forEach((el) => el.remove());
  } else if (item.matches(ASKS)) {
    place.querySelectorAll(ASKS).forEach((el) => el.remove());
    place.append(item);
  } else {
    place.querySelectorAll(TELLS).forEach((el) => el.remove());
    place.prepend(item);
    // told once: it lies over the keys nearest the bar (taps go through it), until the next entry or a few seconds on
    setTimeout(() => { if (item.isConnected && item.closest(".desk")) { item.remove(); changed(); } }, TOLD_MS);
  }
  changed();
}

/** What waits in the desk when the table is left for another tab: the questions and refusals go on waiting. */
export function leaveDesk() {
  if (!desk) return;
  desk.el.querySelectorAll(TELLS).forEach((el) => el.remove());
  if (desk.el.children.length) root.prepend(...desk.el.children);
}

/** Back at the table: what still waits for an answer comes back by the thumb. */
export function backToDesk() {
  if (!desk) return;
  const waiting = [...root.querySelectorAll(ASKS)];
  if (waiting.length) desk.el.append(waiting[0]);
  waiting.slice(1).forEach((el) => el.remove());
}

const ANSWERED = ".verdict.refusal, .verdict.notice, .verdict.question, .desk .verdict.finding";

/** Takes away what answered the last entry: refusals, notices and open questions. */
export function clearRefusals() {
  const gone = [root, desk && desk.el].filter(Boolean).flatMap((where) => [...where.querySelectorAll(ANSWERED)])
    .filter((el) => !el.matches(".finding") || el.closest(".desk"));
  gone.forEach((el) => el.remove());
  if (gone.length) changed();
}

export function clearAll() {
  root.replaceChildren();
  if (desk) desk.el.replaceChildren();
  changed();
}

/** A question before something is recorded ("S played 3 too?"): `yes` does it; nothing happens otherwise. */
export function showQuestion(text, { yes, yesLabel, yesId } = {}) {
  const no = h("button", { type: "button", class: "secondary", id: "question-no", on: { click: () => { item.remove(); changed(); } } }, t("question.no"));
  const ok = h("button", { type: "button", class: "primary", id: yesId || "question-yes", on: { click: () => { item.remove(); changed(); yes(); } } },
    yesLabel || t("question.yes"));
  const item = h("section", { class: ["verdict", "question"], role: "alertdialog", "aria-label": text },
    h("h2", { text }),
    h("div", { class: "verdict-actions" }, no, ok));
  put(item, "question");
  return item;
}

/**
 * A write the server refused, or could not take: the rule it breaks in plain words, then what is wrong in the
 * table's language (`error.said`, the page's own words, or the code's `say.` words with the names and cards of
 * its details; the server's English message only for a code the page has no words for), and, when the rule
 * allows it, "let it stand".
 */
export function showError(error, { what, letItStand, sendAgain, names = [], kind = null } = {}) {
  const actions = [];
  if (sendAgain) {
    actions.push(h("button", { type: "button", class: "secondary", id: "send-again", on: { click: () => { item.remove(); changed(); sendAgain(); } } },
      t("referee.send_again")));
  }
  if (letItStand && error.details && error.details.forceable) {
    actions.push(h("button", { type: "button", class: "danger", id: "let-it-stand", on: { click: () => { item.remove(); changed(); letItStand(); } } },
      t("referee.let_it_stand")));
  }
  const item = message("refusal", "refusal", [
    h("h2", { text: codeText(error.code, t("code.unknown")) }),
    what ? h("p", { class: "what", text: what }) : null,
    error.message && !error.network ? h("p", { class: "server-says",
      text: error.said || verdictText(error.code, error.details, error.details && error.details.seat, names) || error.message }) : null,
    // what is let stand: a deal against the rule is recorded as dealt, not as an illegal play
    error.network || !(error.details && error.details.forceable) ? null
      : h("p", { class: "hint", text: t(kind === "deal" ? "referee.forceable_hint_deal" : "referee.forceable_hint") }),
  ], actions);
  put(item, "refusal");
  return item;
}

/** A play that stands in the record but breaks a rule: who, where, which rule, and the proof. */
export function showFinding(finding, names, proofText) {
  const where = finding.trick
    ? t("finding.where_trick", { deal: finding.deal, trick: finding.trick })
    : t("finding.where_deal", { deal: finding.deal });
  if (answerPlace() === root && !root.classList.contains("at-bottom")) return; // not at the table: the scores list it
  const forced = finding.proof_seq === finding.seq;
  const item = message("finding", `finding-${finding.seq}-${finding.proof_seq}-${finding.code}`, [
    h("h2", { text: t("finding.title", { name: names[finding.seat] }) }),
    h("p", { class: "where", text: `${where} · ${codeText(finding.code)}` }),
    h("p", { class: "server-says", text: verdictText(finding.code, finding.details, finding.seat, names) || finding.message }),
    h("p", { class: "proof", text: forced ? t("finding.forced") : t("finding.proof", { proof: proofText }) }),
  ]);
  put(item);
}

/** Something to know that is not a refusal: a play let stand, an undo, queued entries dropped. */
export function showNotice(text, { detail, actions = [] } = {}) {
  const item = notice(text, detail, actions);
  put(item, "notice");
  return item;
}

/** A notice to read at leisure, with a link (what a plain address loses): told at the top of the page, above what
 * the page draws, neither in the bottom bar's desk nor among the referee's words; it stays until its OK. */
export function showNoticeOnPage(text, { detail, actions = [] } = {}) {
  const item = notice(text, detail, actions);
  item.classList.add("on-page");
  document.getElementById("app").before(item);
  return item;
}

function notice(text, detail, actions) {
  return message("notice", null, [h("p", { class: "notice-text", text }), detail ? h("p", { class: "hint", text: detail }) : null], actions);
}

/** A short spoken confirmation for screen readers (the page shows it in place already). */
export function announce(text) {
  const live = document.getElementById("announce");
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}
