// exactodds tracker: a thin page over the JSON API. Every figure shown comes from the server
// exactly as the API gives it (decimal strings rounded by the library); the page only lays it out.
"use strict";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const page = { shoeId: null, formShoe: null, view: null, mode: "card", suit: "S", options: null };
const $ = (selector) => document.querySelector(selector);

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = response.status === 204 ? null : await response.json();
  if (!response.ok) throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
  return data;
}

function say(text) { $("#message").textContent = text || ""; }

// "-0.010579" -> "-1.0579%": the decimal point moved in the text, so no float rounding.
function percentOf(decimal) {
  if (decimal === null || decimal === undefined) return "";
  const negative = decimal.startsWith("-");
  let [whole, fraction = ""] = (negative ? decimal.slice(1) : decimal).split(".");
  fraction = fraction.padEnd(2, "0");
  let integer = (whole + fraction.slice(0, 2)).replace(/^0+(?=\d)/, "");
  const rest = fraction.slice(2);
  return `${negative ? "-" : ""}${integer}${rest ? "." + rest : ""}%`;
}

function isPositive(exact) { return exact !== null && !exact.startsWith("-") && exact !== "0"; }

function buildPad() {
  const pad = $("#pad");
  pad.textContent = "";
  for (const rank of RANKS) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `rank-${rank}`;
    button.dataset.rank = rank;
    button.innerHTML = `${rank === "T" ? "10" : rank}<small id="left-${rank}"></small>`;
    button.addEventListener("click", () => record(rank));
    pad.appendChild(button);
  }
}

function setMode(mode) {
  page.mode = mode;
  for (const button of document.querySelectorAll(".mode")) {
    button.setAttribute("aria-pressed", String(button.dataset.mode === mode));
  }
}

function setSuit(suit) {
  page.suit = suit;
  for (const button of document.querySelectorAll(".suit")) {
    button.setAttribute("aria-pressed", String(button.dataset.suit === suit));
  }
}

// Taps are queued, not dropped: each request starts when the one before has answered, so a
// quick double tap records two cards, in order.
let queue = Promise.resolve();
let pending = 0;

function act(method, path, body) {
  pending += 1;
  window.__busy = true;
  const job = queue.then(() => send(method, typeof path === "function" ? path() : path, body));
  queue = job.catch(() => undefined).finally(() => {
    pending -= 1;
    window.__busy = pending > 0;
  });
  return job;
}

async function send(method, path, body) {
  const started = performance.now();
  try {
    const view = await api(method, path, body);
    say("");
    if (view) show(view);
    const elapsed = performance.now() - started;
    // Tap to screen, kept for the browser tests.
    (window.__timings = window.__timings || []).push(elapsed);
    $("#timing").textContent = `updated in ${elapsed.toFixed(0)} ms (server ${view ? view.odds_ms : 0} ms)`;
    return view;
  } catch (error) {
    say(error.message);
    return null;
  }
}

function record(rank) {
  const suited = page.view && page.view.shoe.settings.suits;
  const card = suited ? rank + page.suit : rank;
  const side = page.mode;
  const done = act("POST", () => `/api/shoes/${page.shoeId}/cards`, { cards: card, as: side });
  if (side === "player" || side === "banker") {
    // The first four cards of a round go Player, Banker, Player, Banker: follow that order.
    done.then((view) => {
      const hand = view && view.state.pending;
      if (hand && hand.player.length + hand.banker.length < 4 && page.mode === side) {
        setMode(side === "player" ? "banker" : "player");
      }
    });
  }
  return done;
}

function show(view) {
  page.view = window.__lastView = view;
  if (page.formShoe !== view.shoe.id) {
    formFromSettings(view.shoe.name, view.shoe.settings);
    page.formShoe = view.shoe.id;
  }
  page.shoeId = view.shoe.id;
  localStorage.setItem("exactodds.shoe", String(view.shoe.id));
  const state = view.state;
  const settings = view.shoe.settings;
  $("#suits").hidden = !settings.suits;
  for (const rank of RANKS) $(`#left-${rank}`).textContent = state.cards_left[rank];
  $("#shoe-summary").textContent =
    `${state.cards_in_shoe} cards left of ${settings.decks * 52}` +
    (state.unseen_burns ? ` (${state.unseen_burns} unseen)` : "") +
    ` · ${state.rounds.length} rounds`;
  const pending = state.pending;
  $("#pending").textContent = pending.player.length || pending.banker.length
    ? `This round: Player ${pending.player.join(" ") || "-"} · Banker ${pending.banker.join(" ") || "-"}`
    : "";
  const marks = { card: "", player: "P:", banker: "B:", burn: "burn ", unseen: "unseen burn", end: "|" };
  const recent = view.events.slice(-16).map((event) => marks[event.kind] + event.cards);
  $("#history").textContent = recent.length
    ? `Last entries: ${view.events.length > 16 ? "... " : ""}${recent.join(" ")}` : "";
  showOdds(view.odds, view.odds_error);
  showRoads(state);
  const select = $("#table-select");
  if (select.value !== String(view.shoe.id)) refreshTables(view.shoe.id);
}

function showOdds(odds, error) {
  const body = $("#odds tbody");
  body.textContent = "";
  $("#odds-error").textContent = error || "";
  if (!odds) { $("#outcomes").textContent = ""; return; }
  for (const [name, bet] of Object.entries(odds.bets)) {
    const row = document.createElement("tr");
    row.id = `bet-${name}`;
    if (!bet.computable) {
      row.className = "unavailable";
      row.innerHTML = `<td></td><td colspan="2"></td>`;
      row.cells[0].textContent = name;
      row.cells[1].textContent = "not computable";
      row.title = bet.reason;
    } else {
      if (isPositive(bet.ev)) row.className = "positive";
      row.innerHTML = `<td></td><td class="ev"></td><td class="edge"></td>`;
      row.cells[0].textContent = name;
      row.cells[0].title = bet.description;
      row.cells[1].textContent = bet.ev_decimal;
      row.cells[1].title = `exact EV ${bet.ev}`;
      row.cells[2].textContent = bet.house_edge_percent;
    }
    body.appendChild(row);
  }
  const outcomes = odds.outcomes;
  $("#outcomes").textContent = ["banker", "player", "tie"]
    .map((name) => `${name} ${percentOf(outcomes[name].decimal)}`).join(" · ");
}

function cell(winner, text, column, row) {
  const span = document.createElement("span");
  span.className = winner;
  span.textContent = text;
  if (column !== undefined) {
    span.style.gridColumn = String(column + 1);
    span.style.gridRow = String(row + 1);
  }
  return span;
}

function showRoads(state) {
  const bead = $("#bead-plate");
  bead.textContent = "";
  state.bead_plate.forEach((winner, index) => {
    bead.appendChild(cell(winner, winner[0].toUpperCase(), Math.floor(index / 6), index % 6));
  });
  const road = $("#big-road");
  road.textContent = "";
  for (const item of state.big_road) {
    road.appendChild(cell(item.winner, item.ties ? String(item.ties) : "", item.column, item.row));
  }
}

async function refreshTables(selected) {
  const { shoes } = await api("GET", "/api/shoes");
  const select = $("#table-select");
  select.textContent = "";
  for (const shoe of shoes) {
    const option = document.createElement("option");
    option.value = String(shoe.id);
    option.textContent = `${shoe.name} (#${shoe.id})`;
    select.appendChild(option);
  }
  if (selected !== undefined) select.value = String(selected);
  return shoes;
}

function settingsFromForm() {
  const bets = [...document.querySelectorAll("#bet-choices input:checked")].map((box) => box.value);
  const pay = $("#setting-pay").value.split(",").map((text) => text.trim()).filter(Boolean);
  const settings = {
    decks: Number($("#setting-decks").value),
    suits: $("#setting-suits").checked,
    variant: $("#setting-variant").value,
    tie_pays: $("#setting-tie-pays").value || "8",
    tie_loses: $("#setting-tie-loses").checked,
    bets: bets.length ? bets.join(",") : "main",
    pay,
  };
  if ($("#setting-commission").value.trim()) settings.commission = $("#setting-commission").value.trim();
  if ($("#setting-rules").value) settings.rules = $("#setting-rules").value;
  return settings;
}

function formFromSettings(name, settings) {
  $("#setting-name").value = name;
  $("#setting-decks").value = settings.decks;
  $("#setting-suits").checked = settings.suits;
  $("#setting-variant").value = settings.variant;
  $("#setting-tie-pays").value = settings.tie_pays;
  $("#setting-tie-loses").checked = settings.tie_loses;
  $("#setting-commission").value = settings.commission || "";
  $("#setting-rules").value = settings.rules || "";
  $("#setting-pay").value = settings.pay.join(", ");
  const chosen = new Set(settings.bets.split(","));
  for (const box of document.querySelectorAll("#bet-choices input")) {
    box.checked = chosen.has(box.value) ||
      (chosen.has("main") && box.dataset.group === "main") ||
      (chosen.has("side") && box.dataset.group === "side") ||
      chosen.has("all");
  }
}

function buildSettingsForm(options) {
  for (const variant of options.variants) {
    $("#setting-variant").appendChild(new Option(variant, variant));
  }
  for (const rules of options.rules) $("#setting-rules").appendChild(new Option(rules, rules));
  const choices = $("#bet-choices");
  for (const bet of options.bets) {
    const label = document.createElement("label");
    label.title = bet.description;
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = bet.name;
    box.id = `choose-${bet.name}`;
    box.dataset.group = bet.group;
    label.append(box, ` ${bet.name}`);
    choices.appendChild(label);
  }
}

function load(shoeId) { return act("GET", `/api/shoes/${shoeId}`); }

async function start() {
  buildPad();
  for (const button of document.querySelectorAll(".mode")) {
    button.addEventListener("click", () => setMode(button.dataset.mode));
  }
  for (const button of document.querySelectorAll(".suit")) {
    button.addEventListener("click", () => setSuit(button.dataset.suit));
  }
  $("#undo").addEventListener("click", () => act("POST", () => `/api/shoes/${page.shoeId}/undo`));
  $("#unseen").addEventListener("click", () =>
    act("POST", () => `/api/shoes/${page.shoeId}/cards`, { as: "unseen" }));
  $("#end-round").addEventListener("click", async () => {
    if (await act("POST", () => `/api/shoes/${page.shoeId}/rounds`, {})) setMode("player");
  });
  $("#round-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const round = { player: $("#round-player").value, banker: $("#round-banker").value };
    if (await act("POST", () => `/api/shoes/${page.shoeId}/rounds`, round)) {
      $("#round-player").value = "";
      $("#round-banker").value = "";
    }
  });
  $("#new-shoe").addEventListener("click", () => act("POST", () => `/api/shoes/${page.shoeId}/next`));
  $("#table-select").addEventListener("change", (event) => load(event.target.value));
  $("#apply-settings").addEventListener("click", () =>
    act("POST", () => `/api/shoes/${page.shoeId}/settings`, settingsFromForm()));
  $("#create-table").addEventListener("click", () =>
    act("POST", "/api/shoes", { name: $("#setting-name").value || "Table", settings: settingsFromForm() }));
  try {
    page.options = await api("GET", "/api/options");
    buildSettingsForm(page.options);
    const shoes = await refreshTables();
    const remembered = Number(localStorage.getItem("exactodds.shoe"));
    const known = shoes.find((shoe) => shoe.id === remembered) || shoes[shoes.length - 1];
    if (known) await load(known.id);
    else await act("POST", "/api/shoes", { name: "Table 1", settings: { decks: 8 } });
    document.body.dataset.ready = "true";
  } catch (error) {
    say(error.message);
  }
}

start();
