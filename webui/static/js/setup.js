// Starting a match: the game, the players in clockwise order, the rules, the stake and the first dealer.

import { api, request } from "./api.js";
import { h } from "./dom.js";
import { has, t, tn } from "./i18n.js";
import { local, randomKey } from "./local.js";
import { showError } from "./referee.js";

const DEFAULT_CURRENCY = { pl: "PLN", ru: "RUB", en: "EUR" };

let draft = null;

function newDraft(games, lang) {
  const game = games[0];
  return { game: game.game, players: Array(Math.max(game.min_players, 4)).fill(""), spare: [], options: {}, stake: "",
           currency: DEFAULT_CURRENCY[lang] || "", dealer: "lot", evening: null };
}

/**
 * The start form for an evening's next match (`?e=<id>&next`), prefilled from its last match: the game, its
 * options and stake, and its people each moved one seat on (the first dealer by lot). People may be added or
 * removed, anything changed; the match is started in the evening with the evening's key. Null when the evening
 * cannot be read.
 */
export async function draftForEvening(id, games, lang) {
  const evening = (await request("GET", `api/evenings/${encodeURIComponent(id)}`)).data;
  const key = local.get(`evening_key.${id}`);
  const last = evening.matches[evening.matches.length - 1];
  draft = newDraft(games, lang);
  draft.evening = { id, name: evening.name, currency: evening.currency, key, sent: null };
  draft.currency = evening.currency;
  const others = (local.get("evenings") || []).filter((e) => e.id !== id); // the start page's way back to it
  local.set("evenings", [{ id, name: evening.name, at: Date.now() }, ...others].slice(0, 8));
  if (last) {
    const state = (await request("GET", `api/matches/${encodeURIComponent(last.id)}`)).data;
    const names = state.players.map((p) => p.name);
    draft.game = state.game;
    draft.players = [...names.slice(1), ...names.slice(0, 1)];
    draft.options = { ...state.options };
    draft.stake = Number(state.stake) ? state.stake : "";
  }
  return evening;
}

function gameOf(ctx) {
  return ctx.games.find((g) => g.game === draft.game);
}

export function gameDescription(game) {
  return has(`game.${game.game}.description`) ? t(`game.${game.game}.description`) : game.description;
}

export function gameTitle(name, games) {
  const game = games.find((g) => g.game === name);
  return has(`game.${name}.title`) ? t(`game.${name}.title`) : (game ? game.title : name);
}

function valueText(option, value) {
  if (typeof value === "boolean") return t(value ? "option.on" : "option.off");
  if (Array.isArray(value)) return value.join(", ");
  const key = `choice.${option.name}.${value}`;
  return has(key) ? t(key) : String(value);
}

/** The option's description and its default, in one or two sentences. */
export function optionSentence(game, option) {
  const key = `option.${game}.${option.name}`;
  const description = has(key) ? t(key) : option.description;
  return `${description} ${t("option.default", { value: valueText(option, option.default) })}`;
}

export function optionLabel(game, option) {
  const key = `option_label.${game}.${option.name}`;
  return has(key) ? t(key) : option.name.replace(/_/g, " ");
}

function fitPlayers(game) {
  // names a game cannot seat wait aside (a game tapped by mistake, then the right one, keeps every name)
  while (draft.players.length < game.max_players && draft.spare.length) draft.players.push(draft.spare.shift());
  while (draft.players.length < game.min_players) draft.players.push("");
  draft.spare = [...draft.players.slice(game.max_players), ...draft.spare].filter((name) => name.trim());
  draft.players = draft.players.slice(0, game.max_players);
  if (typeof draft.dealer === "number" && draft.dealer >= draft.players.length) draft.dealer = "lot";
}

export function renderSetup(root, ctx) {
  if (!draft) draft = newDraft(ctx.games, ctx.lang);
  const game = gameOf(ctx);
  fitPlayers(game);
  const redraw = () => renderSetup(root, ctx);
  const evening = draft.evening;
  const form = h("form", { class: ["setup", evening && "for-evening"], novalidate: true, on: { submit: (e) => { e.preventDefault(); start(ctx); } } },
    h("h1", { text: evening ? t("setup.title_evening", { evening: evening.name }) : t("setup.title") }),
    evening ? h("p", {}, h("a", { href: `?e=${encodeURIComponent(evening.id)}`, id: "to-evening", text: t("setup.back_to_evening") })) : null,
    gamesField(ctx, redraw),
    playersField(game, redraw),
    optionsField(game),
    moneyField(game),
    dealerField(redraw),
    h("button", { type: "submit", class: "primary wide", id: "start" }, t("setup.start")),
    // the refusal's headline again under the thumb that tapped Start; the whole refusal is at the top
    h("p", { id: "start-said", class: "start-said", "aria-hidden": "true" }),
  );
  root.replaceChildren(form, evening ? h("div") : recentList(ctx));
}

function gamesField(ctx, redraw) {
  return h("fieldset", { class: "games" },
    h("legend", { text: t("setup.game") }),
    ctx.games.map((game) => h("label", { class: ["game-choice", draft.game === game.game && "chosen"] },
      h("input", { type: "radio", name: "game", value: game.game, checked: draft.game === game.game,
                   on: { change: () => { draft.game = game.game; draft.options = {}; redraw(); } } }),
      h("span", { class: "game-name", text: gameTitle(game.game, ctx.games) }),
      h("span", { class: "game-players", text: game.min_players === game.max_players
        ? tn("setup.players_exact", game.min_players) : t("setup.players_range", { min: game.min_players, max: game.max_players }) }),
      h("span", { class: "game-description", text: gameDescription(game) }),
    )),
  );
}

function playersField(game, redraw) {
  const rows = draft.players.map((name, index) => {
    const label = t("setup.player_n", { n: index + 1 });
    const who = () => draft.players[index].trim() || label;
    const up = h("button", { type: "button", class: "icon", disabled: index === 0,
                             on: { click: () => { move(index, -1); redraw(); } } }, "↑");
    const down = h("button", { type: "button", class: "icon", disabled: index === draft.players.length - 1,
                               on: { click: () => { move(index, 1); redraw(); } } }, "↓");
    const remove = h("button", { type: "button", class: "icon", disabled: draft.players.length <= game.min_players,
                                 on: { click: () => { draft.players.splice(index, 1); fixDealer(index); redraw(); } } }, "✕");
    const nameButtons = () => {
      up.setAttribute("aria-label", t("setup.move_up", { name: who() }));
      down.setAttribute("aria-label", t("setup.move_down", { name: who() }));
      remove.setAttribute("aria-label", t("setup.remove", { name: who() }));
    };
    nameButtons();
    return h("li", { class: "player-row" },
      h("label", { class: "seat-number", for: `player-${index}`, text: String(index + 1) }),
      h("input", { id: `player-${index}`, class: "player-name", type: "text", value: name, maxlength: 40,
                   autocomplete: "off", placeholder: label, "aria-label": label,
                   on: { input: (e) => {
                     draft.players[index] = e.target.value;
                     nameButtons();
                     const option = document.querySelector(`#dealer-seat option[value="${index}"]`);
                     if (option) option.textContent = who();
                   } } }),
      up, down, remove);
  });
  return h("fieldset", { class: "players" },
    h("legend", { text: t("setup.players") }),
    h("p", { class: "hint", text: t("setup.players_hint") }),
    h("ol", { class: "player-list" }, rows),
    h("button", { type: "button", class: "secondary", id: "add-player", disabled: draft.players.length >= game.max_players,
                  on: { click: () => { draft.players.push(""); redraw(); document.getElementById(`player-${draft.players.length - 1}`)?.focus(); } } },
      t("setup.add_player")),
  );
}

function move(index, step) {
  const other = index + step;
  [draft.players[index], draft.players[other]] = [draft.players[other], draft.players[index]];
  if (draft.dealer === index) draft.dealer = other;
  else if (draft.dealer === other) draft.dealer = index;
}

function fixDealer(removed) {
  if (draft.dealer === removed) draft.dealer = "lot";
  else if (typeof draft.dealer === "number" && draft.dealer > removed) draft.dealer -= 1;
}

function optionsField(game) {
  if (!game.options.length) return null;
  return h("fieldset", { class: "options" },
    h("legend", { text: t("setup.rules") }),
    game.options.map((option) => optionControl(game.game, option)),
  );
}

function optionControl(gameName, option) {
  const id = `option-${option.name}`;
  const current = option.name in draft.options ? draft.options[option.name] : option.default;
  const set = (value) => { draft.options[option.name] = value; };
  const describedBy = `${id}-about`;
  const about = h("p", { class: "hint", id: describedBy, text: optionSentence(gameName, option) });
  const label = optionLabel(gameName, option);
  if (option.type === "boolean") {
    return h("div", { class: "option" },
      h("label", { class: "check" },
        h("input", { type: "checkbox", id, checked: current, "aria-describedby": describedBy,
                     on: { change: (e) => set(e.target.checked) } }),
        h("span", { text: label })),
      about);
  }
  let control;
  if (option.choices) {
    const custom = option.type === "sequence" && Array.isArray(current);
    control = h("select", { id, "aria-describedby": describedBy, on: { change: (e) => {
      if (e.target.value === "__list") { set([]); listInput.hidden = false; listInput.focus(); return; }
      listInput.hidden = true;
      set(option.type === "integer" ? Number(e.target.value) : e.target.value);
    } } },
    option.choices.map((choice) => h("option", { value: String(choice), selected: !custom && choice === current },
      valueText(option, choice))),
    option.type === "sequence" ? h("option", { value: "__list", selected: custom }, t("setup.sequence_list")) : null);
    const listInput = h("input", { type: "text", inputmode: "numeric", class: "sequence-list", hidden: !custom,
                                   "aria-label": t("setup.sequence_list"), placeholder: "1, 2, 3, 2, 1",
                                   value: custom ? current.join(", ") : "",
                                   on: { input: (e) => set(e.target.value.split(/[^0-9]+/).filter(Boolean).map(Number)) } });
    return h("div", { class: "option" }, h("label", { for: id, text: label }), control, listInput, about);
  }
  control = h("input", { id, type: "number", inputmode: "numeric", value: String(current), min: option.minimum,
                         max: option.maximum, "aria-describedby": describedBy,
                         on: { input: (e) => set(e.target.value === "" ? option.default : Number(e.target.value)) } });
  return h("div", { class: "option" }, h("label", { for: id, text: label }), control, about);
}

function moneyField(game) {
  return h("fieldset", { class: "money" },
    h("legend", { text: t("setup.money") }),
    h("div", { class: "row" },
      h("div", { class: "grow" },
        h("label", { for: "stake", text: t("setup.stake") }),
        h("input", { id: "stake", type: "text", inputmode: "decimal", value: draft.stake, placeholder: "0.50",
                     autocomplete: "off", on: { input: (e) => { draft.stake = e.target.value; } } })),
      h("div", { class: "narrow" },
        h("label", { for: "currency", text: t("setup.currency") }),
        h("input", { id: "currency", type: "text", value: draft.currency, maxlength: 3, autocapitalize: "characters",
                     readonly: Boolean(draft.evening), "aria-describedby": draft.evening ? "currency-evening" : null,
                     autocomplete: "off", on: { input: (e) => { draft.currency = e.target.value; } } }))),
    draft.evening ? h("p", { class: "hint", id: "currency-evening", text: t("setup.evening_currency") }) : null,
    h("p", { class: "hint", id: "stake-hint", text: t(`stake_hint.${game.game}`) }),
  );
}

function dealerField(redraw) {
  const chosen = draft.dealer !== "lot";
  return h("fieldset", { class: "dealer" },
    h("legend", { text: t("setup.first_dealer") }),
    h("label", { class: "check" },
      h("input", { type: "radio", name: "dealer", id: "dealer-lot", checked: !chosen,
                   on: { change: () => { draft.dealer = "lot"; redraw(); } } }),
      h("span", { text: t("setup.dealer_lot") })),
    h("label", { class: "check" },
      h("input", { type: "radio", name: "dealer", id: "dealer-choose", checked: chosen,
                   on: { change: () => { draft.dealer = 0; redraw(); } } }),
      h("span", { text: t("setup.dealer_choose") })),
    chosen ? h("select", { id: "dealer-seat", "aria-label": t("setup.dealer_choose"),
                           on: { change: (e) => { draft.dealer = Number(e.target.value); } } },
      draft.players.map((name, index) => h("option", { value: String(index), selected: draft.dealer === index },
        name.trim() || t("setup.player_n", { n: index + 1 })))) : null,
  );
}

function recentList(ctx) {
  const recent = local.recent();
  if (!recent.length) return h("div");
  return h("section", { class: "recent" },
    h("h2", { text: t("setup.recent") }),
    h("ul", {}, recent.map((m) => h("li", {},
      h("a", { href: `?m=${encodeURIComponent(m.id)}` }, `${gameTitle(m.game, ctx.games)}: ${m.players.join(", ")}`)))),
  );
}

/** The names to start with: rows left empty are dropped while enough players remain; else which rows lack one. */
function namesToStart(game) {
  const named = draft.players.map((name, index) => ({ name: name.trim(), index }));
  const filled = named.filter((p) => p.name);
  if (filled.length >= game.min_players) return { names: filled.map((p) => p.name), dealer: filled.findIndex((p) => p.index === draft.dealer) };
  const rows = named.filter((p) => !p.name).map((p) => t("setup.player_n", { n: p.index + 1 })).join(", ");
  return { problem: filled.length + named.filter((p) => !p.name).length >= game.min_players
    ? t("setup.unnamed", { rows }) : t("setup.too_few", { game: gameTitle(game.game, []), n: game.min_players }) };
}

/** A refusal of the start: at the top of the page with the others, its headline also under the Start button. */
function refused(error) {
  const item = showError(error);
  const said = document.getElementById("start-said");
  if (said) said.textContent = item.querySelector("h2").textContent;
}

async function start(ctx) {
  const game = gameOf(ctx);
  const { names, dealer, problem } = namesToStart(game);
  const said = document.getElementById("start-said");
  if (said) said.textContent = "";
  if (problem) {
    refused({ code: "bad_players", message: problem, said: problem, details: {} });
    return;
  }
  if (typeof draft.dealer === "number") draft.dealer = dealer >= 0 ? dealer : "lot";
  const body = {
    game: draft.game,
    players: names,
    options: draft.options,
    stake: draft.stake.trim() ? draft.stake.trim().replace(",", ".") : null,
    currency: draft.currency.trim() ? draft.currency.trim().toUpperCase() : null,
  };
  const evening = draft.evening;
  if (evening) body.evening = evening.id;
  const button = document.getElementById("start");
  button.disabled = true;
  try {
    // in an evening, with its key; a second tap retries the same creation: one match, never two
    if (evening && (!evening.sent || JSON.stringify(evening.sent.body) !== JSON.stringify(body))) evening.sent = { body, key: randomKey() };
    const { data } = evening ? await request("POST", "api/matches", { body, key: evening.key, idempotencyKey: evening.sent.key })
      : await api.create(body);
    local.setKey(data.id, data.key);
    local.remember(data);
    local.set(`first_dealer.${data.id}`, draft.dealer);
    draft = null;
    ctx.open(data.id);
  } catch (error) {
    button.disabled = false;
    refused(error);
  }
}
