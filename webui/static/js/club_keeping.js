// What the phone with the club's key keeps on the club's page (club.js): the table's rule, a member's new name, two
// members merged who are one person, and the club exported as JSON or CSV. Each write is sent once per tap: its
// button waits for the answer, and a retry of the same action sends the same Idempotency-Key (the routes are
// idempotent too: a rule or a name set twice is set once, a merge done twice is done once). A merge, which cannot be
// undone, is asked first, in the bar at the bottom next to the thumb; what became of each action is said there too.

import { request } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { local, randomKey } from "./local.js";
import { DOUBLE_MS } from "./taps.js";
import { clubs, problem } from "./club_words.js";

// `said` and the question's words are functions making them in the language shown: the bar drawn again after a
// switch says them in the new words
const keeping = { ask: null, said: null, refused: false };
const once = new Map(); // an action (what it sends) -> its Idempotency-Key, until it is answered
const answered = new Map(); // an action -> when it was last answered
const renamed = { member: null, name: "" }; // the rename last answered: the form drawn again shows it
const ruled = { by: null, points: "" }; // the rule last sent and refused: the form drawn again shows it as typed
const refused = new Map(); // an action the server refused as it stands -> what it said (its words): said again, not sent

/** Said at once, nothing sent: the action would change nothing (the rule the club has, the name the member has), or
 * cannot be sent (no name typed). A second tap that comes late, to the form drawn again, finds the same form and
 * so sends nothing, however busy the phone was. */
function sayOnly(club, said, isRefusal) {
  Object.assign(keeping, { said, refused: isRefusal, ask: null });
  showBar(club, null);
}

async function send(button, club, method, path, body, redraw, said, done = () => {}) {
  const action = `${method} ${path} ${JSON.stringify(body)}`;
  // the second tap of a double tap comes to the button drawn again once the first was answered and the club read
  // again (slow on a busy phone): it sends nothing
  if (button.disabled || performance.now() - (answered.get(action) ?? -Infinity) < DOUBLE_MS) return;
  if (refused.has(action)) {
    sayOnly(club, refused.get(action), true);
    return;
  }
  button.disabled = true;
  if (!once.has(action)) once.set(action, randomKey());
  try {
    await request(method, `${clubs(club.id)}${path}`, { body, key: local.get(`club_key.${club.id}`), idempotencyKey: once.get(action) });
    once.delete(action);
    done();
    Object.assign(keeping, { said, refused: false, ask: null });
  } catch (error) {
    Object.assign(keeping, { said: () => problem(error), refused: true, ask: null });
    if (error.status === 422) refused.set(action, () => problem(error)); // the same body is refused the same way
  }
  answered.set(action, performance.now());
  await redraw();
  answered.set(action, performance.now()); // and from when the button drawn again is there to be tapped
}

function memberOptions(club, id, label, chosen = null) {
  return [h("label", { for: id, text: label }),
    h("select", { id }, club.members.map((m) => h("option", { value: m.id, text: m.name, selected: m.id === chosen || null })))];
}

function ruleForm(club, redraw) {
  const shown = ruled.by ? ruled : { by: club.rule.by, points: (club.rule.points || [3, 2, 1]).join(" ") };
  const by = h("select", { id: "club-rule-by" }, ["points", "money", "rating"].map((name) =>
    h("option", { value: name, text: t(`club.by_${name}`), selected: shown.by === name || null })));
  const points = h("input", { id: "club-rule-points", type: "text", inputmode: "numeric", class: "wide", value: shown.points });
  const save = h("button", { type: "button", class: "secondary", id: "club-rule-save", text: t("club.rule_save"), on: { click: () => {
    const rule = by.value === "points" ? { by: "points", points: points.value.trim().split(/[\s,;·]+/).filter(Boolean).map(Number) }
      : { by: by.value };
    Object.assign(ruled, { by: by.value, points: points.value });
    if (JSON.stringify(rule) === JSON.stringify(club.rule.by === "points" ? { by: "points", points: club.rule.points } : { by: club.rule.by })) {
      sayOnly(club, () => t("club.rule_saved"), false);
      return;
    }
    send(save, club, "PUT", "/rule", rule, redraw, () => t("club.rule_saved"), () => Object.assign(ruled, { by: null, points: "" }));
  } } });
  return [h("h3", { text: t("club.rule") }),
    h("label", { for: "club-rule-by", text: t("club.rule_by") }), by,
    h("label", { for: "club-rule-points", text: t("club.rule_points_label") }), points, save];
}

function renameForm(club, redraw) {
  const kept = club.members.some((m) => m.id === renamed.member);
  const name = h("input", { id: "rename-name", type: "text", class: "wide", maxlength: 40, autocomplete: "off",
                            value: kept ? renamed.name : "" });
  const save = h("button", { type: "button", class: "secondary", id: "rename-save", text: t("club.rename_save"), on: { click: () => {
    const member = document.getElementById("rename-member").value;
    const wanted = name.value.trim().normalize("NFC");
    if (!wanted) {
      sayOnly(club, () => t("club.name_needed"), true);
      return;
    }
    const said = () => t("club.renamed", { name: wanted });
    if (club.members.find((m) => m.id === member)?.name === wanted) {
      sayOnly(club, said, false);
      return;
    }
    send(save, club, "POST", `/members/${encodeURIComponent(member)}/rename`, { name: name.value }, redraw, said,
         () => Object.assign(renamed, { member, name: wanted }));
  } } });
  const options = memberOptions(club, "rename-member", t("club.member"), kept ? renamed.member : null);
  return [h("h3", { text: t("club.rename") }), ...options,
    h("label", { for: "rename-name", text: t("club.new_name") }), name, save];
}

function mergeForm(club, redraw) {
  const ask = h("button", { type: "button", class: "secondary", id: "merge-ask", text: t("club.merge_save"), on: { click: () => {
    const kept = document.getElementById("merge-keep").value;
    const other = document.getElementById("merge-other").value;
    const names = Object.fromEntries(club.members.map((m) => [m.id, m.name]));
    Object.assign(keeping, { said: null, refused: false,
                             ask: { kept, other, text: () => t("club.merge_ask", { other: names[other], name: names[kept] }),
                                    said: () => t("club.merged", { other: names[other], name: names[kept] }) } });
    showBar(club, redraw);
  } } });
  const members = club.members;
  return [h("h3", { text: t("club.merge") }), h("p", { class: "hint", text: t("club.merge_hint") }),
    ...memberOptions(club, "merge-keep", t("club.merge_keep")), ...memberOptions(club, "merge-other", t("club.merge_other")),
    members.length > 1 ? ask : null];
}

async function download(button, club, kind) {
  if (button.disabled) return;
  button.disabled = true;
  try {
    const response = await fetch(`${clubs(club.id)}/export.${kind}`, { cache: "no-store",
      headers: { Authorization: `Bearer ${local.get(`club_key.${club.id}`)}` } });
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      throw Object.assign(new Error((data && data.error && data.error.message) || String(response.status)),
                          { code: data && data.error && data.error.code });
    }
    const link = h("a", { href: URL.createObjectURL(await response.blob()), download: `kibic-club-${club.id}.${kind}` });
    link.click(); // never put on the page: a control just appeared there takes no tap (taps.js)
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    Object.assign(keeping, { said: () => t("club.exported", { kind: kind.toUpperCase() }), refused: false });
  } catch (error) {
    Object.assign(keeping, { said: () => (error.code ? problem(error) : t("club.export_failed")), refused: true });
  }
  button.disabled = false;
  showBar(club, null);
}

/** The bar drawn again by itself, the page above it as it is (nothing read again, nothing moved). */
function showBar(club, redraw) {
  const bar = keepingBar(club, redraw);
  const shown = document.getElementById("club-bar");
  if (shown && bar) shown.replaceWith(bar);
  else if (shown) shown.remove();
  else if (bar) document.querySelector(".club")?.append(bar);
}

function exportButtons(club) {
  const each = (kind) => h("button", { type: "button", class: "secondary", id: `club-export-${kind}`,
    text: t(`club.export_${kind}`), on: { click: (event) => download(event.currentTarget, club, kind) } });
  return [h("h3", { text: t("club.export") }), h("div", { class: "club-export" }, each("json"), each("csv"))];
}

/** The bar at the bottom: the merge asked, or what became of the last action; null when there is neither. */
export function keepingBar(club, redraw) {
  const { ask, said, refused } = keeping;
  if (!ask && !said) return null;
  if (!ask) {
    return h("section", { class: "fixed-bar club-bar", id: "club-bar" },
      h("p", { class: ["club-said", refused && "refused"], id: "club-keeping-said", role: "status", text: said() }));
  }
  const no = h("button", { type: "button", class: "secondary", id: "merge-no", text: t("question.no"), on: { click: () => {
    keeping.ask = null;
    showBar(club, redraw);
  } } });
  const yes = h("button", { type: "button", class: "primary", id: "merge-yes", text: t("club.merge_yes"), on: { click: () =>
    send(yes, club, "POST", `/members/${encodeURIComponent(ask.kept)}/merge`, { other: ask.other }, redraw, ask.said) } });
  return h("section", { class: "fixed-bar club-bar verdict question", id: "club-bar", role: "alertdialog", "aria-label": ask.text() },
    h("h2", { text: ask.text() }), h("div", { class: "verdict-actions" }, no, yes));
}

/** The keeping of the club, for the phone with its key. */
export function keepingView(club, redraw) {
  return h("section", { class: "club-keeping", "aria-labelledby": "club-keeping-title" },
    h("h2", { id: "club-keeping-title", text: t("club.keeping") }),
    ruleForm(club, redraw),
    club.members.length ? renameForm(club, redraw) : null,
    club.members.length ? mergeForm(club, redraw) : null,
    exportButtons(club),
    h("div", { class: "club-bar-room", "aria-hidden": "true" })); // the page ends above the bar
}

/** Forgets what was asked and said (another club, another page). */
export function forgetKeeping() {
  Object.assign(keeping, { ask: null, said: null, refused: false });
  Object.assign(renamed, { member: null, name: "" });
  Object.assign(ruled, { by: null, points: "" });
  refused.clear();
}
