// What the club's pages (club.js, club_member.js, club_screen.js) say alike: its routes, its numbers and rules in the
// table's language, its games' titles and its members' names.

import { has, language, moneyText, t } from "./i18n.js";

export const clubs = (id) => `api/clubs/${encodeURIComponent(id)}`;

export function problem(error) {
  return has(`code.${error.code}`) ? t(`code.${error.code}`) : error.message;
}

export function gameTitle(name, games) {
  const game = (games || []).find((g) => g.game === name);
  return has(`game.${name}.title`) ? t(`game.${name}.title`) : (game ? game.title : name);
}

/** A number with `decimals` places, as the language writes it (2,33 in Polish and Russian). */
export function decimal(value, decimals) {
  return Number(value).toLocaleString(language(), { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export function ruleText(rule) {
  if (rule.by === "money") return t("club.rule_money");
  if (rule.by === "rating") return t("club.rule_rating");
  return t("club.rule_points", { points: rule.points.join(" · ") });
}

export function valueText(rule, row, currency) {
  if (rule.by === "money") return moneyText(row.value, currency);
  if (rule.by === "rating") return decimal(row.value, 1);
  return String(row.value);
}

export function namesOf(club) {
  return Object.fromEntries(club.members.map((m) => [m.id, m.name]));
}
