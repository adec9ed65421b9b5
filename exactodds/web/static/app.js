// exactodds tracker: a thin page over the JSON API. Every figure shown comes from the server
// exactly as the API gives it (decimal strings rounded by the library); the page only lays it
// out. Each tap is given its place in the round (P1, B1, P2, B2, third cards) when it is tapped,
// from the events the server confirmed and every tap still queued (undos and redos included),
// carries an idempotency key, and waits in a queue until the server confirms it, so slow or
// lost answers neither misplace a card nor count one twice; a busy server (503) is sent the
// same tap again, with the same key.
"use strict";

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];
const RANK_NAMES = {
  A: "Ace", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King",
};
const POINTS = { A: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 0, J: 0, Q: 0, K: 0 };
const SIDE_NAMES = { player: "Player", banker: "Banker", dragon: "Dragon", tiger: "Tiger" };
// A Dragon Tiger table (settings.game "dragon-tiger"): one card to the Dragon, one to the Tiger;
// the round ends by itself with its second card. Its bet groups, as the buttons choose them.
const DT = "dragon-tiger";
const DT_GROUPS = { all: "all", main: "dragon,tiger,tie", side: "suited_tie,big,small" };
const page = { shoeId: null, formShoe: null, view: null, options: null, burnNext: false };
const $ = (selector) => document.querySelector(selector);

// The start-up token (only when serve printed one): read once from ?token=, kept for this tab.
const params = new URLSearchParams(location.search);
if (params.get("token")) sessionStorage.setItem("exactodds.token", params.get("token"));
const token = sessionStorage.getItem("exactodds.token");

function newKey() {
  return (crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`).slice(0, 64);
}

// One request: {ok, status, data}; a network failure throws (the queue retries it).
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (token) init.headers["X-Exactodds-Token"] = token;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const data = response.status === 204 ? null : await response.json();
  return { ok: response.ok, status: response.status, data };
}

async function get(path) {
  const answer = await api("GET", path);
  if (!answer.ok) throw new Error(answer.data.error);
  return answer.data;
}

// "1 round", "2 rounds": a count and its noun, the plural when the count is not one.
function plural(count, noun) { return `${count} ${noun}${count === 1 ? "" : "s"}`; }

function say(text) { $("#message").textContent = text || ""; }
function announce(text) { $("#live").textContent = text; }

// --- The queue: every write waits here, in order, until the server has answered ----------

const queue = [];
let pumping = false;

function busy() { window.__busy = pumping || queue.length > 0; }

function enqueue(job) {
  job.key = job.key || newKey();
  job.tries = 0;
  queue.push(job);
  renderQueue();
  busy();
  pump();
  return job;
}

function renderQueue() {
  const list = $("#queue");
  list.textContent = "";
  for (const job of queue) {
    const item = document.createElement("li");
    item.textContent = job.label + (job.tries ? (job.busy ? " (retrying)" : " (waiting to resend)") : "");
    list.appendChild(item);
  }
}

const pause = (tries) => new Promise((done) => setTimeout(done, Math.min(4000, 250 * 2 ** tries)));

async function pump() {
  if (pumping) return;
  pumping = true;
  busy();
  while (queue.length) {
    const job = queue[0];
    const path = typeof job.path === "function" ? job.path() : job.path;
    const started = performance.now();
    let answer;
    try {
      answer = await api("POST", path, { ...job.body, key: job.key });
    } catch (error) {
      // The server is out of reach: keep the tap and its key, and send it again.
      job.tries += 1;
      job.busy = false;
      renderQueue();
      say(`The tracker is out of reach; ${plural(queue.length, "tap")} will be sent when it answers.`);
      await pause(job.tries);
      continue;
    }
    if (answer.status === 503) {
      // Busy (too many requests, or the database locked): nothing was done; send it again.
      job.tries += 1;
      job.busy = true;
      renderQueue();
      say(`The tracker is busy; retrying ${plural(queue.length, "tap")} with the same ${queue.length === 1 ? "key" : "keys"}.`);
      await pause(job.tries);
      continue;
    }
    queue.shift();
    if (answer.ok) {
      if (!queue.length || !queue.some((other) => other.tries)) say("");
      show(answer.data);
      const elapsed = performance.now() - started;
      (window.__timings = window.__timings || []).push(elapsed);
      $("#timing").textContent = `updated in ${elapsed.toFixed(0)} ms (server ${answer.data.odds_ms} ms)`;
      if (job.label) announceView(job.label);
    } else {
      // Refused: say why, drop the taps placed after it (their places assumed this one), and
      // take the shoe as the server has it.
      const dropped = queue.splice(0).length;
      const later = dropped === 1 ? "1 later tap was not sent; enter it again." : `${dropped} later taps were not sent; enter them again.`;
      say(answer.data.error + (dropped ? ` (${later})` : ""));
      if (page.shoeId !== null && answer.status !== 404) await resync();
    }
    renderQueue();
  }
  pumping = false;
  busy();
}

async function resync() {
  try { show(await get(`/api/shoes/${page.shoeId}`)); } catch (error) { say(error.message); }
}

// --- Places: the page's twin of exactodds.rules.next_draw ----------------------------------

function nextDraw(tableau, player, banker) {
  if (player.length < 2 || banker.length < 2) return player.length <= banker.length ? "player" : "banker";
  const playerTotal = (player[0] + player[1]) % 10;
  const bankerTotal = (banker[0] + banker[1]) % 10;
  if (tableau.natural_totals.includes(playerTotal) || tableau.natural_totals.includes(bankerTotal)) return null;
  let bankerDraws;
  if (tableau.player_draws[playerTotal]) {
    if (player.length < 3) return "player";
    bankerDraws = tableau.banker_draws[bankerTotal][player[2] % 10];
  } else {
    bankerDraws = tableau.banker_draws_when_player_stood[bankerTotal];
  }
  return bankerDraws && banker.length < 3 ? "banker" : null;
}

// The shoe's events and what redo would bring back (next first) as they will be once every
// queued write is done: the server's, then each queued tap, undo and redo in order.
function projected() {
  const events = page.view ? page.view.events.slice() : [];
  const undone = page.view ? page.view.shoe.undone.slice() : [];
  for (const job of queue) {
    if (job.resets) { events.length = 0; undone.length = 0; }
    else if (job.undo) { if (events.length) undone.unshift(events.pop()); }
    else if (job.redo) { if (undone.length) events.push(undone.shift()); }
    else if (job.events) { events.push(...job.events); undone.length = 0; }
  }
  return { events, undone };
}

// The round as it will be once every queued write is done: points by side, by place.
function hands() {
  const places = { player: [], banker: [] };
  for (const event of projected().events) {
    if (event.kind === "end" || event.kind === "misdeal") { places.player = []; places.banker = []; }
    if (event.kind === "player" || event.kind === "banker") {
      const taken = places[event.kind];
      const position = event.position || taken.length + 1;
      taken[position - 1] = POINTS[event.cards[0]];
    }
  }
  return places;
}

// The Dragon Tiger round being dealt once every queued write is done: the card of each side.
function dragonTigerHands() {
  let places = {};
  for (const event of projected().events) {
    if (event.kind === "misdeal") places = {};
    if (event.kind === "dragon" || event.kind === "tiger") {
      places[event.kind] = event.cards;
      if (places.dragon && places.tiger) places = {};
    }
  }
  return places;
}

function game() { return page.view ? page.view.shoe.settings.game || "baccarat" : "baccarat"; }

function mode() { return document.querySelector("input[name=mode]:checked").value; }
function suit() { return document.querySelector("input[name=suit]:checked").value; }

function placeFor(chosen, places) {
  if (game() === DT) {
    const side = chosen === "dragon" || chosen === "tiger" ? chosen : places.dragon ? "tiger" : "dragon";
    return { side, position: 1 };
  }
  if (chosen === "round") {
    const side = nextDraw(page.view.tableau, places.player, places.banker);
    return side ? { side, position: places[side].length + 1 } : null;
  }
  return { side: chosen, position: Math.min(places[chosen].length + 1, 3) };
}

function showNextPlace() {
  if (!page.view) return;
  const chosen = mode();
  let text = "";
  if (game() === DT && chosen !== "burn" && chosen !== "card") {
    text = `Next card: ${SIDE_NAMES[placeFor(chosen, dragonTigerHands()).side]}`;
  } else if (chosen === "round" || chosen === "player" || chosen === "banker") {
    const place = placeFor(chosen, hands());
    text = place ? `Next card: ${SIDE_NAMES[place.side]} ${place.position}` : "Round complete: Enter ends it (or the next card starts the next round)";
  } else {
    text = chosen === "burn" ? "Next card: burn" : "Next card: not in a hand";
  }
  if (page.burnNext) text = "Next card: burn (B)";
  $("#next-place").textContent = text;
}

// --- Taps ------------------------------------------------------------------------------------

function shoePath(action) { return () => `/api/shoes/${page.shoeId}/${action}`; }

function record(rank) {
  if (!page.view) return;
  if (page.view.shoe.finished_at) { say("This shoe is finished; reopen it to record cards."); return; }
  const card = page.view.shoe.settings.suits ? rank + suit() : rank;
  const chosen = page.burnNext ? "burn" : mode();
  page.burnNext = false;
  if (chosen === "burn" || chosen === "card") {
    enqueue({
      path: shoePath("cards"), body: { cards: card, as: chosen }, events: [{ kind: chosen, cards: card }],
      label: `${card} ${chosen === "burn" ? "burnt" : "dealt"}`,
    });
  } else if (game() === DT) {
    const { side } = placeFor(chosen, dragonTigerHands());
    enqueue({
      path: shoePath("cards"), body: { cards: card, as: side }, events: [{ kind: side, cards: card }],
      label: `${card} to the ${SIDE_NAMES[side]}`,
    });
  } else {
    let place = placeFor(chosen, hands());
    if (place === null) {  // the round is complete: this card starts the next one
      endRound(false);
      place = { side: "player", position: 1 };
    }
    enqueue({
      path: shoePath("cards"),
      body: { cards: card, as: place.side, position: place.position },
      events: [{ kind: place.side, cards: card, position: place.position }],
      label: `${card} to ${SIDE_NAMES[place.side]} ${place.position}`,
    });
  }
  showNextPlace();
}

function endRound(misdeal) {
  if (game() === DT && !misdeal) { say("A Dragon Tiger round ends by itself with its second card."); return; }
  const kind = misdeal ? "misdeal" : "end";
  enqueue({ path: shoePath("rounds"), body: misdeal ? { misdeal: true } : {}, events: [{ kind }], label: misdeal ? "Misdeal" : "Round ended" });
  showNextPlace();
}

function undo() { enqueue({ path: shoePath("undo"), body: {}, undo: true, label: "Undone" }); showNextPlace(); }

function redo() {
  if (!projected().undone.length) { say("Nothing to redo: no entry was undone since the last one."); return; }
  enqueue({ path: shoePath("redo"), body: {}, redo: true, label: "Redone" });
  showNextPlace();
}

// --- Showing a shoe --------------------------------------------------------------------------

function isPositive(exact) { return exact !== null && !exact.startsWith("-") && exact !== "0"; }

function buildPad() {
  const pad = $("#pad");
  pad.textContent = "";
  for (const rank of RANKS) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = `rank-${rank}`;
    button.dataset.rank = rank;
    button.setAttribute("aria-keyshortcuts", rank === "T" ? "T 0" : rank);
    const face = document.createElement("span");
    face.textContent = rank === "T" ? "10" : rank;
    face.setAttribute("aria-hidden", "true");
    const left = document.createElement("small");
    left.id = `left-${rank}`;
    left.setAttribute("aria-hidden", "true");
    button.append(face, left);
    button.setAttribute("aria-label", `${face.textContent}, ${RANK_NAMES[rank]}`);
    button.addEventListener("click", () => record(rank));
    pad.appendChild(button);
  }
}

function show(view) {
  page.view = window.__lastView = view;
  // The form shows the shoe's settings whenever they change (a bet-group button, Apply, another
  // tab), so Apply always starts from what the shoe has.
  const settingsText = JSON.stringify([view.shoe.name, view.shoe.settings]);
  if (page.formShoe !== view.shoe.id || page.formSettings !== settingsText) {
    formFromSettings(view.shoe.name, view.shoe.settings);
    page.formShoe = view.shoe.id;
    page.formSettings = settingsText;
  }
  page.shoeId = view.shoe.id;
  sessionStorage.setItem("exactodds.shoe", String(view.shoe.id));
  if (location.pathname !== `/shoes/${view.shoe.id}`) history.replaceState(null, "", `/shoes/${view.shoe.id}`);
  const state = view.state;
  const settings = view.shoe.settings;
  const finished = Boolean(view.shoe.finished_at);
  $("#finished-banner").hidden = !finished;
  for (const button of document.querySelectorAll("#pad button, .actions button, #record-round")) button.disabled = finished;
  showGame(game());
  $("#suits").hidden = !settings.suits;
  $("#suit-keys").hidden = !settings.suits;
  $("#redo").disabled = finished || !view.shoe.undone.length;
  for (const rank of RANKS) {
    const left = state.cards_left[rank];
    $(`#left-${rank}`).textContent = left;
    $(`#rank-${rank}`).setAttribute("aria-label", `${rank === "T" ? "10" : rank}, ${RANK_NAMES[rank]}, ${left} left`);
  }
  $("#shoe-summary").textContent =
    `${plural(state.cards_in_shoe, "card")} left of ${settings.decks * 52}` +
    (state.unseen_burns ? ` (${state.unseen_burns} unseen)` : "") +
    ` · ${plural(state.rounds.length, "round")}` + (finished ? " · finished" : "");
  showLastRound(state.rounds);
  const sides = Object.keys(state.pending);
  $("#pending").textContent = sides.some((side) => state.pending[side].length)
    ? "This round: " + sides.map((side) => `${SIDE_NAMES[side]} ${state.pending[side].join(" ") || "-"}`).join(" · ")
    : "";
  const marks = {
    card: "", player: "P:", banker: "B:", dragon: "D:", tiger: "T:", burn: "burn ", unseen: "unseen burn",
    end: "|", misdeal: "| misdeal",
  };
  const recent = view.events.slice(-16).map((event) => marks[event.kind] + event.cards);
  $("#history").textContent = recent.length
    ? `Last entries: ${view.events.length > 16 ? "... " : ""}${recent.join(" ")}` : "";
  showOdds(view.odds, view.odds_error, settings);
  showPositive(view.odds);
  showCounts(view.counts);
  showSuitsLeft(state, settings);
  showRoads(state);
  showNextPlace();
  const select = $("#table-select");
  if (select.value !== String(view.shoe.id) || select.dataset.finished !== String(finished)) refreshTables(view.shoe.id);
}

// What the page shows of each game: its modes, keys and round form; the odds' labels.
function showGame(chosen) {
  for (const element of document.querySelectorAll("[data-game]")) element.hidden = element.dataset.game !== chosen;
  const checked = document.querySelector("input[name=mode]:checked");
  if (checked.closest("label").hidden) $("#mode-round").checked = true;
  const dragonTiger = chosen === DT;
  $("#round-first").textContent = dragonTiger ? "Dragon" : "Player";
  $("#round-second").textContent = dragonTiger ? "Tiger" : "Banker";
  $("#round-player").placeholder = dragonTiger ? "K" : "9K";
  $("#round-banker").placeholder = dragonTiger ? "5" : "55T";
  $("#roads-title").textContent = dragonTiger ? "Results: Dragon Tiger" : "Results";
}

// The round just entered, at the top of the pad: who won, and by what totals (Dragon Tiger:
// by which cards).
function showLastRound(rounds) {
  const shown = $("#last-round");
  const last = rounds[rounds.length - 1];
  shown.className = `last-round ${last ? last.winner : ""}`;
  if (!last) { shown.textContent = "No round ended yet in this shoe."; return; }
  if ("dragon" in last) {
    const cards = `${last.dragon} to ${last.tiger}`;
    shown.textContent = `Round ${rounds.length}: ` + (
      last.winner === "misdeal" ? "misdeal, no result"
        : last.winner === "tie" ? `${last.suited_tie ? "Suited tie" : "Tie"}, ${cards}`
          : last.winner === "dragon" ? `Dragon wins, ${cards}` : `Tiger wins, ${last.tiger} to ${last.dragon}`);
    return;
  }
  const totals = `${last.player_total} to ${last.banker_total}`;
  shown.textContent = `Round ${rounds.length}: ` + (
    last.winner === "misdeal" ? "misdeal, no result"
      : last.winner === "tie" ? `Tie, ${totals}`
        : last.winner === "player" ? `Player wins, ${totals}`
          : `Banker wins, ${last.banker_total} to ${last.player_total}`);
}

// A bet's name with a line break allowed after each underscore (dragon_bonus_<wbr>player), so
// a narrow screen wraps the name rather than widen the table; its text is unchanged.
function breakableName(name) {
  const parts = name.split("_");
  return parts.flatMap((part, index) =>
    index < parts.length - 1 ? [`${part}_`, document.createElement("wbr")] : [part]);
}

// A suited bet on a table that does not track suits: a short hint instead of the library's
// reason (which speaks of the command line's card notation).
function unpricedText(name, bet, settings) {
  const catalogue = page.options ? (settings.game === DT ? page.options.dragon_tiger_bets : page.options.bets) : [];
  const known = catalogue.find((each) => each.name === name);
  if (known && known.needs_suits && !settings.suits) return "needs suits: tick Track suits in the settings";
  return `not computable: ${bet.reason}`;
}

// Each chosen bet of the odds, in the table's order: baccarat's as odds gives them; Dragon
// Tiger's priced ones (odds --game dragon-tiger's bets) and those it cannot price (unavailable).
function betRows(odds) {
  if (!odds) return [];
  if (odds.game !== DT) return Object.entries(odds.bets);
  const described = Object.fromEntries((page.options ? page.options.dragon_tiger_bets : []).map((bet) => [bet.name, bet.description]));
  return Object.keys(odds.pays).map((name) => [name, name in odds.bets
    ? { ...odds.bets[name], computable: true, description: described[name] }
    : { computable: false, reason: odds.unavailable[name], description: described[name] }]);
}

function positives(odds) {
  if (!odds) return [];
  return betRows(odds)
    .filter(([, bet]) => bet.computable && isPositive(bet.ev))
    .sort((a, b) => Number(b[1].ev_decimal) - Number(a[1].ev_decimal));  // display order only
}

function announceView(label) {
  const found = positives(page.view.odds).map(([name]) => name);
  announce(`${label}. ${found.length ? `Positive now: ${found.join(", ")}.` : "No bet is positive now."}`);
}

function showPositive(odds) {
  const list = $("#positive");
  list.textContent = "";
  const found = positives(odds);
  for (const [name, bet] of found) {
    const item = document.createElement("li");
    item.className = "positive";
    item.id = `positive-${name}`;
    item.textContent = `${name} +${bet.ev_decimal.replace(/^\+/, "")} (edge ${bet.house_edge_percent})`;
    list.appendChild(item);
  }
  if (!found.length) {
    const item = document.createElement("li");
    item.textContent = "No chosen bet has a positive EV now.";
    list.appendChild(item);
  }
}

function showOdds(odds, error, settings) {
  const body = $("#odds tbody");
  body.textContent = "";
  $("#odds-error").textContent = error || "";
  if (!odds) { $("#outcomes").textContent = ""; return; }
  for (const [name, bet] of betRows(odds)) {
    const row = document.createElement("tr");
    row.id = `bet-${name}`;
    const label = document.createElement("th");
    label.scope = "row";
    label.append(...breakableName(name));
    label.title = bet.description;
    row.appendChild(label);
    if (!bet.computable) {
      row.className = "unavailable";
      const cell = document.createElement("td");
      cell.colSpan = 2;
      cell.textContent = unpricedText(name, bet, settings);
      row.appendChild(cell);
    } else {
      if (isPositive(bet.ev)) row.className = "positive";
      const ev = document.createElement("td");
      ev.className = "ev";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "ev-button";
      button.textContent = bet.ev_decimal;
      button.setAttribute("aria-label", `${name} EV ${bet.ev_decimal}; show the exact fraction`);
      button.addEventListener("click", () => { $("#exact").textContent = `${name}: exact EV ${bet.ev}`; });
      ev.appendChild(button);
      const edge = document.createElement("td");
      edge.className = "edge";
      edge.textContent = bet.house_edge_percent;
      row.append(ev, edge);
    }
    body.appendChild(row);
  }
  const outcomes = odds.outcomes;
  $("#outcomes").textContent = odds.game === DT
    ? ["dragon", "tiger", "tie"].map((name) => `${name} ${outcomes[name].probability_decimal}`).join(" · ")
    : ["banker", "player", "tie"].map((name) => `${name} ${outcomes[name].decimal}`).join(" · ");
}

function showCounts(counts) {
  const body = $("#counts tbody");
  body.textContent = "";
  for (const [name, count] of Object.entries(counts || {})) {
    const row = document.createElement("tr");
    row.id = `count-${name}`;
    const label = document.createElement("th");
    label.scope = "row";
    label.append(...breakableName(name));
    label.title = "Tags: " + RANKS.map((rank) => `${rank} ${count.tags[rank]}`).join(", ");
    const running = document.createElement("td");
    running.textContent = String(count.running);
    const perDeck = document.createElement("td");
    perDeck.textContent = count.true_decimal;
    row.append(label, running, perDeck);
    body.appendChild(row);
  }
}

function showSuitsLeft(state, settings) {
  const table = $("#suits-left");
  const suited = page.options && [...page.options.bets, ...page.options.dragon_tiger_bets]
    .filter((bet) => bet.needs_suits).map((bet) => bet.name);
  const chosen = page.view && page.view.odds ? betRows(page.view.odds).map(([name]) => name) : [];
  table.hidden = !(settings.suits && state.suits_left && chosen.some((name) => suited.includes(name)));
  if (table.hidden) return;
  const body = table.querySelector("tbody");
  body.textContent = "";
  for (const rank of RANKS) {
    const row = document.createElement("tr");
    const label = document.createElement("th");
    label.scope = "row";
    label.textContent = RANK_NAMES[rank];
    row.appendChild(label);
    for (const code of ["S", "H", "D", "C"]) {
      const cell = document.createElement("td");
      cell.textContent = String(state.suits_left[rank][code]);
      row.appendChild(cell);
    }
    body.appendChild(row);
  }
}

function cell(winner, text, column, row) {
  const span = document.createElement("span");
  span.className = winner;
  span.textContent = text;
  span.setAttribute("role", "img");
  span.setAttribute("aria-label", winner + (text && winner !== text ? ` ${text}` : ""));
  if (column !== undefined) {
    span.style.gridColumn = String(column + 1);
    span.style.gridRow = String(row + 1);
  }
  return span;
}

function showRoads(state) {
  const bead = $("#bead-plate");
  bead.textContent = "";
  const letters = { player: "P", banker: "B", dragon: "D", tiger: "T", tie: game() === DT ? "=" : "T" };
  state.bead_plate.forEach((winner, index) => {
    bead.appendChild(cell(winner, letters[winner], Math.floor(index / 6), index % 6));
  });
  const road = $("#big-road");
  road.textContent = "";
  for (const item of state.big_road) {
    road.appendChild(cell(item.winner, item.ties ? String(item.ties) : "", item.column, item.row));
  }
}

async function refreshTables(selected) {
  const { shoes } = await get("/api/shoes?finished=1");
  const select = $("#table-select");
  select.textContent = "";
  for (const shoe of shoes) {
    const option = document.createElement("option");
    option.value = String(shoe.id);
    option.textContent = `${shoe.name} #${shoe.id}${shoe.game === DT ? " DT" : ""}${shoe.finished_at ? " (finished)" : ""}`;
    select.appendChild(option);
  }
  if (selected !== undefined) {
    select.value = String(selected);
    const chosen = shoes.find((shoe) => shoe.id === selected);
    select.dataset.finished = String(Boolean(chosen && chosen.finished_at));
  }
  return shoes;
}

// --- Settings, bets, lifecycle ---------------------------------------------------------------

function settingsFromForm() {
  const chosenGame = $("#setting-game").value;
  const boxes = [...document.querySelectorAll(`#bet-choices label[data-form-game="${chosenGame}"] input`)];
  const bets = boxes.filter((box) => box.checked).map((box) => box.value);
  if (bets.length && bets.length === boxes.length) bets.splice(0, bets.length, "all");
  const pay = $("#setting-pay").value.split(",").map((text) => text.trim()).filter(Boolean);
  if (chosenGame === DT) {
    return {
      game: DT, decks: Number($("#setting-decks").value), suits: $("#setting-suits").checked,
      bets: bets.length ? bets.join(",") : "all", pay,
    };
  }
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

// A table's pays as the form writes them (dragon7=30, lucky6.three_card_win=23): the settings
// keep the object the API was sent ({"dragon7": 30, "lucky6": {"three_card_win": 23}}), or
// the texts themselves (the form's own, and tables stored before pays were kept as objects).
function payTexts(pay) {
  if (Array.isArray(pay)) return pay;
  return Object.entries(pay).flatMap(([bet, value]) =>
    value !== null && typeof value === "object"
      ? Object.entries(value).map(([outcome, each]) => `${bet}.${outcome}=${each}`)
      : [`${bet}=${value}`]);
}

// The settings form shows the fields of the game chosen in it (a baccarat table's rules, or
// none for Dragon Tiger) and that game's bets.
function showFormGame(chosen) {
  for (const element of document.querySelectorAll("[data-form-game]")) element.hidden = element.dataset.formGame !== chosen;
  $("#setting-pay").placeholder = chosen === DT ? "tie=11, suited_tie=50" : "dragon7=30, lucky6.three_card_win=23";
}

function formFromSettings(name, settings) {
  const chosenGame = settings.game || "baccarat";
  $("#setting-game").value = chosenGame;
  showFormGame(chosenGame);
  $("#setting-name").value = name;
  $("#setting-decks").value = settings.decks;
  $("#setting-suits").checked = settings.suits;
  $("#setting-pay").value = payTexts(settings.pay).join(", ");
  if (chosenGame === DT) {
    const chosen = new Set(settings.bets.split(","));
    for (const box of document.querySelectorAll('#bet-choices label[data-form-game="dragon-tiger"] input')) {
      box.checked = chosen.has("all") || chosen.has(box.value);
    }
    return;
  }
  $("#setting-variant").value = settings.variant;
  $("#setting-tie-pays").value = settings.tie_pays;
  $("#setting-tie-loses").checked = settings.tie_loses;
  $("#setting-commission").value = settings.commission || "";
  $("#setting-rules").value = settings.rules || "";
  $("#setting-pay").value = payTexts(settings.pay).join(", ");
  const chosen = new Set(settings.bets.split(","));
  for (const box of document.querySelectorAll('#bet-choices label[data-form-game="baccarat"] input')) {
    box.checked = chosen.has(box.value) || chosen.has("all") ||
      (chosen.has("main") && box.dataset.group === "main") ||
      (chosen.has("side") && box.dataset.group === "side") ||
      (chosen.has("custom") && box.dataset.group === "custom");
  }
}

function buildSettingsForm(options) {
  $("#setting-game").value = options.game;
  showFormGame(options.game);
  for (const variant of options.variants) $("#setting-variant").appendChild(new Option(variant, variant));
  for (const rules of options.rules) $("#setting-rules").appendChild(new Option(rules, rules));
  const choices = $("#bet-choices");
  const offered = [
    ...options.bets.map((bet) => [bet, "baccarat", `choose-${bet.name}`]),
    ...options.dragon_tiger_bets.map((bet) => [{ ...bet, group: DT }, DT, `choose-dt-${bet.name}`]),
  ];
  for (const [bet, each, id] of offered) {
    const label = document.createElement("label");
    label.title = bet.description;
    label.dataset.formGame = each;
    label.hidden = each !== "baccarat";
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = bet.name;
    box.id = id;
    box.dataset.group = bet.group;
    const name = document.createElement("span");
    name.append(...breakableName(bet.name));
    label.append(box, name);
    choices.appendChild(label);
  }
}

async function load(shoeId) {
  queue.splice(0);
  renderQueue();
  page.shoeId = Number(shoeId);
  await resync();
}

async function createTable(body) {
  const answer = await api("POST", "/api/shoes", body);
  if (!answer.ok) { say(answer.data.error); return; }
  say("");
  show(answer.data);
}

async function importShoe(file) {
  try {
    const text = await file.text();
    const data = file.name.toLowerCase().endsWith(".csv")
      ? { format: "csv", csv: text, name: $("#setting-name").value || "Imported", settings: settingsFromForm() }
      : JSON.parse(text);
    const answer = await api("POST", "/api/shoes/import", data);
    if (!answer.ok) { say(answer.data.error); return; }
    show(answer.data);
  } catch (error) {
    say(`The file is not a shoe exported as JSON or CSV (${error.message}).`);
  }
}

function hotkey(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target instanceof HTMLInputElement && target.type !== "radio" && target.type !== "checkbox") return;
  if (target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  if ($("#confirm-new-shoe").open) return;
  let key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
  if (/^Numpad[0-9]$/.test(event.code)) key = event.code.slice(6);  // with Num Lock off too
  const rank = key === "0" ? "T" : key === "1" ? "A" : key;
  const suited = Boolean(page.view && page.view.shoe.settings.suits);
  const action = RANKS.includes(rank) ? () => record(rank)
    : key === "Backspace" ? undo
    : key === "R" ? redo
    : key === "Enter" ? () => endRound(false)
    : key === "M" ? () => endRound(true)
    : key === "U" ? unseen
    : key === "B" ? () => { page.burnNext = true; showNextPlace(); }
    : suited && SUIT_KEYS.includes(key) ? () => { $(`input[name=suit][value=${key}]`).checked = true; }
    : null;
  if (action === null) return;
  event.preventDefault();
  if (event.repeat) return;  // a held key is one press: its auto-repeats enter nothing
  action();
}

const SUIT_KEYS = ["S", "H", "D", "C"];

function unseen() { enqueue({ path: shoePath("cards"), body: { as: "unseen" }, events: [{ kind: "unseen", cards: "" }], label: "Unseen burn" }); }

function wire() {
  buildPad();
  for (const radio of document.querySelectorAll("input[name=mode]")) radio.addEventListener("change", showNextPlace);
  $("#undo").addEventListener("click", undo);
  $("#redo").addEventListener("click", redo);
  $("#unseen").addEventListener("click", unseen);
  $("#end-round").addEventListener("click", () => endRound(false));
  $("#misdeal").addEventListener("click", () => endRound(true));
  $("#round-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const [first, second] = game() === DT ? ["dragon", "tiger"] : ["player", "banker"];
    const body = { [first]: $("#round-player").value, [second]: $("#round-banker").value };
    // A Dragon Tiger round's events are its two cards (the page's projection needs only that
    // the round closes); a baccarat round ends with an "end".
    const events = game() === DT
      ? [{ kind: "dragon", cards: body.dragon }, { kind: "tiger", cards: body.tiger }] : [{ kind: "end" }];
    enqueue({ path: shoePath("rounds"), body, events, label: "Round recorded" });
    $("#round-player").value = "";
    $("#round-banker").value = "";
  });
  const dialog = $("#confirm-new-shoe");
  $("#new-shoe").addEventListener("click", () => dialog.showModal());
  $("#confirm-new-shoe-no").addEventListener("click", () => dialog.close());
  $("#confirm-new-shoe-yes").addEventListener("click", () => {
    dialog.close();
    enqueue({ path: shoePath("next"), body: {}, resets: true, label: "New shoe started" });
  });
  $("#reopen").addEventListener("click", () => enqueue({ path: shoePath("reopen"), body: {}, label: "Shoe reopened (the table's other open shoe, if any, is finished)" }));
  $("#table-select").addEventListener("change", (event) => load(event.target.value));
  $("#apply-settings").addEventListener("click", () =>
    enqueue({ path: shoePath("settings"), body: settingsFromForm(), label: "Settings applied" }));
  for (const button of document.querySelectorAll(".bet-groups button")) {
    button.addEventListener("click", () => {
      const bets = game() === DT ? DT_GROUPS[button.dataset.bets] : button.dataset.bets;
      enqueue({ path: shoePath("settings"), body: { bets }, label: `Pricing ${button.textContent}` });
    });
  }
  $("#setting-game").addEventListener("change", (event) => showFormGame(event.target.value));
  $("#create-table").addEventListener("click", () =>
    createTable({ name: $("#setting-name").value || "Table", settings: settingsFromForm() }));
  $("#import-file").addEventListener("change", (event) => { if (event.target.files[0]) importShoe(event.target.files[0]); });
  for (const [id, kind] of [["#export-json", "json"], ["#export-csv", "csv"]]) {
    $(id).addEventListener("click", (event) => {
      $(id).href = `/api/shoes/${page.shoeId}/export?format=${kind}` + (token ? `&token=${encodeURIComponent(token)}` : "");
      if (!page.shoeId) event.preventDefault();
    });
  }
  document.addEventListener("keydown", hotkey);
}

async function start() {
  wire();
  try {
    page.options = await get("/api/options");
    buildSettingsForm(page.options);
    const shoes = await refreshTables();
    const fromPath = location.pathname.match(/^\/shoes\/(\d+)$/);
    const remembered = fromPath ? Number(fromPath[1]) : Number(sessionStorage.getItem("exactodds.shoe"));
    const open = shoes.filter((shoe) => !shoe.finished_at);
    const known = shoes.find((shoe) => shoe.id === remembered) || open[open.length - 1];
    if (known) await load(known.id);
    else await createTable({ name: "Table 1", settings: { decks: 8, ...(page.options.game === DT ? { game: DT } : {}) } });
    document.body.dataset.ready = "true";
  } catch (error) {
    say(error.message);
  }
}

start();
