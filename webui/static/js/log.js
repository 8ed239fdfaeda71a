// The log of a match in words, newest first, with the undone events struck through.

import { api } from "./api.js";
import { bringEntryInView, correctable, correctionSheet, openCorrection, sheetKey } from "./corrections.js";
import { h } from "./dom.js";
import { cardText, cardsText, t, tn } from "./i18n.js";

/** One event as people say it: "W played K", "N beat 9♠ with 10♠". */
export function describeEvent(event, names) {
  const name = names[event.seat];
  let text;
  switch (event.type) {
    case "deal":
      text = event.dealer === undefined || event.dealer === null ? t("event.deal_by_lot") : t("event.deal", { name: names[event.dealer] });
      if (event.trump) text += ` · ${t("event.trump", { card: cardText(event.trump) })}`;
      if (event.attacker !== undefined && event.attacker !== null) text += ` · ${t("event.first_attacker", { name: names[event.attacker] })}`;
      break;
    case "play":
      text = t("event.play", { name, card: cardText(event.card) });
      break;
    case "bid":
      text = t("event.bid", { name, bid: event.bid });
      break;
    case "exchange":
      text = event.nine ? t("event.exchange", { name, nine: cardText(event.nine), card: cardText(event.face_up) })
        : t("event.exchange_request", { name });
      break;
    case "attack":
      text = t("event.attack", { name, cards: cardsText(event.cards) });
      break;
    case "defend":
      text = event.beats.length
        ? t("event.defend", { name, beats: event.beats.map((b) => `${cardText(b.card)}/${cardText(b.with)}`).join(", ") })
        : t("event.defend_none", { name });
      break;
    case "transfer":
      text = t("event.transfer", { name, cards: cardsText(event.cards) });
      break;
    case "take":
      text = t("event.take", { name });
      break;
    case "done":
      text = t("event.done");
      break;
    case "penalty":
      text = tn(event.reason ? "event.penalty_for" : "event.penalty", event.points ?? 0, { name, reason: event.reason });
      break;
    case "end":
      text = t("event.end");
      break;
    case "undo":
      text = t("event.undo", { seq: event.undoes });
      break;
    case "correct": {
      // recorded, it names the entry in `corrects`; as sent (still waiting), in `seq`
      const target = "corrects" in event ? event.corrects : event.seq;
      if (event.insert) text = t("event.correct_insert", { seq: event.before, what: describeEvent(event.insert, names) });
      else if (event.remove) text = t("event.correct_remove", { seq: target });
      else text = t("event.correct_with", { seq: target, what: event.with ? describeEvent(event.with, names) : "?" });
      break;
    }
    default:
      text = event.type;
  }
  return event.illegal ? `${text} (${t("event.let_stand")})` : text;
}

/** The whole log, read a page at a time (the server sends at most 1,000 events an answer). */
export async function loadEvents(matchId) {
  const events = [];
  let after = 0;
  for (;;) {
    const { data } = await api.events(matchId, after);
    events.push(...data.events);
    if (data.next === null || data.next === undefined) return events;
    after = data.next;
  }
}

/**
 * The log, newest first. On the scorer's phone an entry that still stands is a button: tapped, it opens the sheet
 * of its correction (corrections.js), fixed at the bottom of the screen, over nothing the log needs to move. The
 * sheet is drawn at once from the log as last read, and again when the log read just now changes what it shows.
 */
export function renderLog(root, ctx) {
  const list = h("ol", { class: "log", reversed: true });
  const section = h("section", { class: "panel" }, h("h2", { text: t("log.title") }), list);
  root.replaceChildren(section);
  let sheet = null;
  let shown = null;
  const drawSheet = (entries, fresh) => {
    const key = sheetKey(ctx, entries);
    if (key === shown) return;
    shown = key;
    const focused = sheet && sheet.contains(document.activeElement) ? document.activeElement.id : null;
    const next = correctionSheet(ctx, describeEvent, entries, fresh);
    if (sheet && next) sheet.replaceWith(next);
    else if (sheet) sheet.remove();
    else if (next) root.append(next);
    sheet = next;
    document.body.classList.toggle("correcting", Boolean(sheet));
    if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  };
  const draw = (events, fresh) => {
    const names = ctx.names;
    const entries = ctx.canScore ? correctable(events) : new Map();
    drawSheet(entries, fresh);
    list.replaceChildren(...events.slice().reverse().map((event) => {
      const parts = [
        h("span", { class: "seq", text: `#${event.seq}` }),
        " ", // the words read as they show: "#2 W played K", within the button's name
        h("span", { class: "what", text: describeEvent(event, names) }),
      ];
      const entry = entries.get(event.seq);
      return h("li", {
        class: ["log-entry", event.undone_by && "undone", event.corrected_by && "corrected", event.illegal && "illegal"],
        value: event.seq, "data-seq": event.seq },
      entry ? h("button", { type: "button", class: "correct-open", "data-seq": event.seq,
                            "aria-label": `${t("correct.open")}: #${event.seq} ${describeEvent(event, names)}`,
                            on: { click: () => openCorrection(ctx, entry) } }, parts) : parts,
      event.undone_by ? h("span", { class: "undone-by", text: t("log.undone_by", { seq: event.undone_by }) }) : null,
      event.corrected_by ? h("span", { class: "corrected-by", text: t("log.corrected_by", { seq: event.corrected_by }) }) : null,
      );
    }));
    if (!events.length) list.replaceChildren(h("li", { class: "hint", text: t("log.empty") }));
    bringEntryInView(list, entries);
  };
  const known = ctx.log ? ctx.log() : [];
  if (known.length) draw(known, false); // the log as last read, at once: the page keeps its length while it is read again
  else drawSheet(new Map(), false);
  loadEvents(ctx.matchId).then((events) => { if (ctx.keepLog) ctx.keepLog(events); draw(events, true); })
    .catch(() => list.replaceChildren(h("li", { class: "hint", text: t("log.unavailable") })));
}
