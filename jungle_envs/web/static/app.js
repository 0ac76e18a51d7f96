// The browser table: a lobby, a table seen from the human seat to move, and a replay
// viewer. Everything shown comes from the server's per-seat views; the page keeps only the
// seat tokens the server handed to this browser (one per human seat: a hot seat).
"use strict";

const $ = (id) => document.getElementById(id);
const state = { table: null, tokens: {}, seat: null, view: null, replay: null, k: 0, total: 0 };

async function call(url, options = {}) {
  const response = await fetch(url, options);
  const body = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function show(section) {
  for (const id of ["lobby", "table", "replay"]) $(id).hidden = id !== section;
}

// --- lobby -------------------------------------------------------------------------------
let games = [];
let seatKinds = [];

async function lobby() {
  const info = await call("/api/games");
  games = info.games;
  seatKinds = info.seats.map((kind) => (kind === "mcts" ? "mcts:300" : kind));
  $("game").replaceChildren(...games.map((g) => new Option(g.name, g.name)));
  $("game").addEventListener("change", players);
  $("players").addEventListener("change", seats);
  players();
}

function options() {
  // one field per option of the game, holding its default as JSON; only changed ones are sent
  const game = games.find((g) => g.name === $("game").value);
  $("options").replaceChildren(
    ...game.options.map((option) => {
      const input = document.createElement("input");
      input.id = `option-${option.name}`;
      input.dataset.option = option.name;
      input.dataset.default = JSON.stringify(option.default);
      input.value = input.dataset.default;
      const label = document.createElement("label");
      label.title = option.doc;
      label.append(`${option.name} `, input);
      return label;
    }),
  );
}

function chosenOptions() {
  const chosen = {};
  for (const input of $("options").querySelectorAll("input")) {
    if (input.value === input.dataset.default) continue;
    try {
      chosen[input.dataset.option] = JSON.parse(input.value);
    } catch {
      chosen[input.dataset.option] = input.value; // text, as the terminal table reads it
    }
  }
  return chosen;
}

function players() {
  options();
  const game = games.find((g) => g.name === $("game").value);
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n++) counts.push(new Option(n, n));
  $("players").replaceChildren(...counts);
  $("players").value = game.default_players;
  seats();
}

function seats() {
  const legend = $("seats").querySelector("legend");
  const rows = [legend];
  for (let seat = 0; seat < Number($("players").value); seat++) {
    const select = document.createElement("select");
    select.id = `seat-${seat}`;
    select.replaceChildren(...seatKinds.map((kind) => new Option(kind, kind)));
    select.value = seat === 0 ? "human" : "heuristic";
    const label = document.createElement("label");
    label.append(`seat ${seat} `, select);
    rows.push(label);
  }
  $("seats").replaceChildren(...rows);
}

$("new-table").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("lobby-error").textContent = "";
  const seatList = [];
  for (let seat = 0; seat < Number($("players").value); seat++) {
    seatList.push($(`seat-${seat}`).value);
  }
  const seed = $("seed").value === "" ? null : Number($("seed").value);
  $("start").disabled = true;
  try {
    const made = await call("/api/tables", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ game: $("game").value, seats: seatList, seed, options: chosenOptions() }),
    });
    state.table = made.table;
    state.tokens = made.tokens;
    const humans = Object.keys(made.tokens).map(Number);
    state.seat = humans.length ? humans[0] : null;
    state.watch = made.watch;
    show("table");
    await refresh();
  } catch (error) {
    $("lobby-error").textContent = error.message;
  } finally {
    $("start").disabled = false;
  }
});

$("open-replay").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("lobby-error").textContent = "";
  const file = $("replay-file").files[0];
  if (!file) {
    $("lobby-error").textContent = "choose a replay or saved game file first";
    return;
  }
  try {
    await openReplay(await file.text());
  } catch (error) {
    $("lobby-error").textContent = error.message;
  }
});

// --- the table ---------------------------------------------------------------------------
function token() {
  return state.seat === null ? state.watch : state.tokens[state.seat];
}

async function refresh() {
  const view = await call(`/api/tables/${state.table}?token=${encodeURIComponent(token())}`);
  render(view);
}

function render(view) {
  state.view = view;
  const who = view.seat === null ? "watching" : `you are seat ${view.seat}`;
  const next = view.over ? "game over" : `seat ${view.to_move} to move`;
  $("status").textContent = `${view.game}, ${view.players} players: ${who}; ${next}`;
  $("board-img").src =
    `/api/tables/${state.table}/image?token=${encodeURIComponent(token())}&v=${view.version}`;
  $("board-text").textContent = view.board;
  $("actions").replaceChildren(
    ...view.actions.map((action) => {
      const button = document.createElement("button");
      button.textContent = action.name;
      button.dataset.action = action.id;
      button.addEventListener("click", () => act(action.id));
      return button;
    }),
  );
  $("log").replaceChildren(
    ...view.log.map((event) => {
      const item = document.createElement("li");
      const seat = event.seat === null ? "chance" : `seat ${event.seat} (${state.view.seats[event.seat]})`;
      item.textContent = `${seat}: ${event.text}`;
      return item;
    }),
  );
  $("result").hidden = !view.over;
  if (view.over) {
    const winners = view.result.winners.map((w) => `seat ${w}`).join(", ") || "nobody";
    $("status").textContent += ` (won by ${winners}; scores ${view.result.scores.join(" / ")})`;
  }
  const handover = !view.over && view.to_move !== view.seat && String(view.to_move) in state.tokens;
  if (handover) {
    $("handover-text").textContent =
      `Seat ${view.to_move} to move: pass the screen to the player of seat ${view.to_move}.`;
  }
  $("handover").hidden = !handover;
}

async function act(action) {
  $("table-error").textContent = "";
  for (const button of $("actions").querySelectorAll("button")) button.disabled = true;
  try {
    const view = await call(`/api/tables/${state.table}/act`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ token: token(), action, version: state.view.version }),
    });
    render(view);
  } catch (error) {
    $("table-error").textContent = error.message;
    await refresh();
  }
}

$("take-seat").addEventListener("click", async () => {
  state.seat = state.view.to_move;
  await refresh();
});

$("watch-replay").addEventListener("click", async () => {
  const replay = await call(`/api/tables/${state.table}/replay?token=${encodeURIComponent(token())}`);
  await openReplay(JSON.stringify(replay));
});

// --- replays -----------------------------------------------------------------------------
async function openReplay(text) {
  const opened = await call("/api/replays", { method: "POST", body: text });
  state.replay = opened.replay;
  state.total = opened.total;
  $("scrub").max = opened.total;
  const blob = new Blob([text], { type: "application/json" });
  $("download-replay").href = URL.createObjectURL(blob);
  show("replay");
  await frame(0);
}

async function frame(k) {
  k = Math.max(0, Math.min(state.total, k));
  $("replay-error").textContent = "";
  try {
    const view = await call(`/api/replays/${state.replay}/${k}`);
    state.k = k;
    $("replay-status").textContent = `${view.game}, ${view.players} players: position ${k} of ${view.total}`;
    $("replay-step").textContent = view.step;
    $("replay-text").textContent = view.board;
    $("replay-img").src = `/api/replays/${state.replay}/${k}/image`;
    $("scrub").value = k;
  } catch (error) {
    $("replay-error").textContent = error.message;
  }
}

$("first").addEventListener("click", () => frame(0));
$("back").addEventListener("click", () => frame(state.k - 1));
$("forward").addEventListener("click", () => frame(state.k + 1));
$("last").addEventListener("click", () => frame(state.total));
$("scrub").addEventListener("change", () => frame(Number($("scrub").value)));

lobby().catch((error) => {
  $("lobby-error").textContent = error.message;
});
