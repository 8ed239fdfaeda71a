// On an address that is not secure (plain HTTP to the club's box at its name or address on the Wi-Fi), the browser
// takes away the screen's Wake Lock and the service worker: the scorer is told so once on this phone, in the
// table's language, with the way to the box's secure address (/ca). Followers are not bothered.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { local } from "./local.js";
import { showNoticeOnPage } from "./referee.js";

export function tellWhatIsLost() {
  if (window.isSecureContext || local.get("insecure_told")) return;
  local.set("insecure_told", true);
  const notice = showNoticeOnPage(t("insecure.lost"), {
    detail: t("insecure.how"),
    actions: [h("a", { class: "secondary", id: "to-ca", href: "ca", text: t("insecure.link") })],
  });
  // A match opened at a step the page scrolled to (the deal step, by a scorer link) has the seats, where the
  // notice lies, partly under the top bar: the page opens scrolled back up to it instead, this once.
  const hidden = document.querySelector(".bar").getBoundingClientRect().bottom - notice.getBoundingClientRect().top;
  if (hidden > 0) window.scrollBy({ top: -hidden, behavior: "instant" });
}
