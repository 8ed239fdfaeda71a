// The /ca page: how a phone comes to trust the club's box, so that the page is served over HTTPS on the club's
// own network (the screen stays on, the page opens offline and can be installed). The server fills in whether
// the box has its certificate authority, the HTTPS address, this page's plain address and the fingerprint.

import { h } from "./dom.js";
import { bindLanguageButtons, chooseLanguage, setLanguage, t } from "./i18n.js";
import "./theme.js"; // the colours this phone chose on the page

const root = document.getElementById("ca");
const { ready, https, plain, fingerprint } = root.dataset;

function steps(id, title, keys) {
  return h("section", { class: "panel ca-steps", id },
    h("h2", { text: title }),
    h("ol", {}, keys.map((key) => h("li", { text: t(key) }))));
}

function draw() {
  document.getElementById("bar-title").textContent = t("ca.bar");
  document.title = `Kibic · ${t("ca.bar")}`;
  if (!ready) {
    root.replaceChildren(h("section", { class: "panel" },
      h("h1", { text: t("ca.title") }),
      h("p", { id: "ca-not-served", text: t("ca.not_served") })));
    return;
  }
  const secure = window.isSecureContext && location.protocol === "https:";
  root.replaceChildren(
    h("section", { class: "panel" },
      h("h1", { text: t("ca.title") }),
      h("p", { id: "ca-state", class: secure ? "ca-ok" : null, text: secure ? t("ca.trusted") : t("ca.why") }),
      h("div", { class: "ca-downloads" },
        h("a", { class: "primary", id: "ca-crt", href: "ca/kibic-ca.crt", download: "kibic-ca.crt", text: t("ca.get_android") }),
        h("a", { class: "primary", id: "ca-profile", href: "ca/kibic-ca.mobileconfig", download: "kibic-ca.mobileconfig",
          text: t("ca.get_ios") }),
        h("a", { class: "secondary", id: "ca-pem", href: "ca/kibic-ca.pem", download: "kibic-ca.pem", text: t("ca.get_pem") }))),
    steps("ca-android", t("ca.android"), ["ca.android.1", "ca.android.2", "ca.android.3", "ca.android.4"]),
    steps("ca-ios", t("ca.ios"), ["ca.ios.1", "ca.ios.2", "ca.ios.3", "ca.ios.4"]),
    h("section", { class: "panel" },
      h("h2", { text: t("ca.then") }),
      h("p", {}, h("a", { id: "ca-https", href: https, text: https })),
      h("img", { class: "qr", src: "ca/qr-https.svg", alt: t("ca.qr_https"), width: 220, height: 220 }),
      h("p", { class: "hint", text: t("ca.old_matches") })),
    h("section", { class: "panel" },
      h("h2", { text: t("ca.next_phone") }),
      h("p", {}, h("a", { id: "ca-plain", href: plain, text: plain })),
      h("img", { class: "qr", src: "ca/qr-page.svg", alt: t("ca.qr_page"), width: 220, height: 220 }),
      h("p", { class: "hint", text: t("ca.fingerprint") }),
      h("p", { class: "hint ca-fingerprint", id: "ca-fingerprint", text: fingerprint })));
}

await setLanguage(chooseLanguage());
bindLanguageButtons(draw);
draw();
