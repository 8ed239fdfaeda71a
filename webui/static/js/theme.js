// The page's colours: as the phone says (prefers-color-scheme), or light, or dark, as the switch in the bar
// (`#theme`) was last set on this phone. The choice is the root's `data-theme` (none: the phone's), which
// kibic.css reads; a tap goes on to the next choice: the phone's, light, dark, the phone's again.

import { t } from "./i18n.js";
import { local } from "./local.js";

export const THEMES = ["auto", "light", "dark"];
const SIGNS = { auto: "◐", light: "☀", dark: "☾" };

/** The choice kept on this phone: "auto" (the phone's), "light" or "dark". */
export function theme() {
  const kept = local.get("theme");
  return THEMES.includes(kept) ? kept : "auto";
}

/** The root's colours as `chosen` says. */
export function applyTheme(chosen = theme()) {
  if (chosen === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = chosen;
}

/** The switch in the bar says the choice in use, in the page's language; a tap keeps and applies the next. */
export function bindThemeButton() {
  const button = document.getElementById("theme");
  if (!button) return;
  const chosen = theme();
  const said = t(`theme.${chosen}`);
  button.setAttribute("aria-label", said);
  button.title = said;
  button.dataset.theme = chosen;
  button.replaceChildren(Object.assign(document.createElement("span"), { textContent: SIGNS[chosen] }));
  button.firstChild.setAttribute("aria-hidden", "true");
  button.onclick = () => {
    const next = THEMES[(THEMES.indexOf(theme()) + 1) % THEMES.length];
    local.set("theme", next === "auto" ? null : next);
    applyTheme(next);
    bindThemeButton();
  };
}

applyTheme();
