// SPDX-License-Identifier: GPL-3.0-or-later
// pychessdraw web UI. Holds no chess logic: every legal move, SAN, FEN, draw
// state and result comes from pychessdraw.bridge in the worker; the UI shows it
// and forwards what the players do. User-provided text is only ever inserted
// with textContent.
import { Chessground } from "@lichess-org/chessground";

const T0 = performance.now();
const $ = (id) => document.getElementById(id);
const STORE = "pychessdraw.game.v1";
const PREFS = "pychessdraw.prefs.v1";
const STD_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

window.__perf = []; // {op, ply, ms: action -> panel updated, paint_ms, worker_ms}
window.__boot = { board_ms: null, ready_ms: null, worker: null };

// ------------------------------------------------------------------ state
let game = null; // last STATE from the bridge
let view = null; // ply being browsed, null = live position
let viewStatus = null; // STATUS of the browsed ply
let ending = null; // {op, args} of a declared ending (agree/resign/flag/claim), for save/restore
let offer = null; // color offering a draw
let orientation = "white";
let engine = "loading";

const prefs = loadJSON(PREFS) || {};
if (prefs.orientation === "black") orientation = "black";

function loadJSON(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}
function saveJSON(key, v) {
  try {
    localStorage.setItem(key, JSON.stringify(v));
  } catch {
    /* private mode / quota: the URL hash still holds the game */
  }
}

// ------------------------------------------------------------------ board
const saved = readHash() || loadJSON(STORE);
const cg = Chessground($("board"), {
  fen: (saved && saved.fen) || STD_FEN,
  orientation,
  viewOnly: false,
  coordinates: true,
  movable: { free: false, color: undefined, dests: new Map(), showDests: true, events: { after: onBoardMove } },
  premovable: { enabled: false },
  draggable: { enabled: true, showGhost: true },
  animation: { enabled: true, duration: 150 },
  highlight: { lastMove: true, check: true },
  drawable: { enabled: true, visible: true },
});
// chessground caches the board's screen position and refreshes it only on
// scroll/resize; the result banner or a wrapped header can move the board
// without either, so refresh it at the start of every pointer interaction.
for (const type of ["mousedown", "touchstart"]) {
  $("board").addEventListener(type, () => cg.state.dom.bounds.clear(), { capture: true, passive: true });
}
window.__boot.board_ms = performance.now();
performance.mark("board-drawn");

// ------------------------------------------------------------------ worker
const pending = new Map();
let nextId = 1;
let worker;
let bootTimer;

const elapsedTimer = setInterval(() => {
  if (engine === "loading") $("engine-elapsed").textContent = `${Math.round(performance.now() / 1000)} s`;
}, 1000);

function engineState(s, text) {
  engine = s;
  if (s !== "loading") {
    clearInterval(elapsedTimer);
    $("engine-elapsed").textContent = "";
  }
  document.body.dataset.engine = s;
  if (text != null) $("engine-text").textContent = text;
  if (s !== "loading") $("engine-progress").hidden = true;
}

function failEngine(msg) {
  if (engine === "failed") return;
  clearTimeout(bootTimer);
  engineState("failed", `The Python referee could not start: ${msg}. The board cannot take moves; reload the page to try again.`);
  $("engine-status").classList.add("failed");
  for (const [, p] of pending) p.reject(new Error(msg));
  pending.clear();
}

function startWorker() {
  // boot.js normally started the worker already; fall back to starting it here.
  const boot = window.__pcdBoot || (window.__pcdBoot = { events: [] });
  if (boot.error) return failEngine(boot.error);
  if (boot.worker) {
    worker = boot.worker;
  } else if (typeof WebAssembly !== "object") {
    return failEngine("this browser has no WebAssembly support");
  } else {
    try {
      worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
    } catch (e) {
      return failEngine(`could not start the worker (${e.message})`);
    }
  }
  bootTimer = setTimeout(() => failEngine("timed out after 120 s"), 120000);
  worker.onerror = (ev) => {
    ev.preventDefault();
    failEngine(`worker error: ${ev.message || "worker.js or pyodide.mjs could not be loaded"}`);
  };
  worker.onmessage = onWorkerMessage;
  for (const ev of boot.events || []) {
    if (ev.type === "error") worker.onerror(ev);
    else onWorkerMessage(ev);
  }
  if (boot.events) boot.events.length = 0;
}

function onWorkerMessage(ev) {
  const m = ev.data;
  if (m.type === "progress") {
    $("engine-text").textContent = m.stage;
    $("engine-progress").value = m.step;
  } else if (m.type === "ready") {
    clearTimeout(bootTimer);
    window.__boot.worker = m.timings;
    window.__boot.engine_ms = performance.now();
    onEngineReady();
  } else if (m.type === "failed") {
    failEngine(m.message);
  } else if (m.id != null && pending.has(m.id)) {
    const p = pending.get(m.id);
    pending.delete(m.id);
    m.recv_at = performance.now();
    m.t_main_sent = p.sent;
    m.t_main_recv = performance.timeOrigin + m.recv_at;
    p.resolve(m);
  }
}

function send(op, args = {}) {
  if (engine === "failed") return Promise.reject(new Error("the referee is not running"));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject, sent: performance.timeOrigin + performance.now() });
    worker.postMessage({ id, op, args });
  });
}

// The worker is closed on pagehide; a page restored from the back/forward
// cache would have none, so load it afresh.
window.addEventListener("pageshow", (ev) => {
  if (ev.persisted) location.reload();
});
window.addEventListener("pagehide", () => {
  if (worker && engine === "ready") worker.postMessage({ id: 0, op: "__shutdown", args: {} });
});

// ------------------------------------------------------------------ actions
let busy = Promise.resolve();
let userPending = 0; // user actions sent and not yet applied
let analysing = 0; // analyse requests in flight
let analyseGen = 0;
// body[data-idle="1"]: no request of the UI is outstanding (a test hook).
function setIdle() {
  document.body.dataset.idle = userPending === 0 && analysing === 0 ? "1" : "0";
}
setIdle();

// Serialize user actions so that responses apply in order.
function act(op, args = {}, opts = {}) {
  const t0 = opts.t0 ?? performance.now();
  if (engine !== "ready") {
    showError(engine === "failed" ? "The referee is not running (see the message at the top)." : "The referee is still starting; try again in a moment.");
    return Promise.resolve(null);
  }
  userPending++;
  setIdle();
  const run = async () => {
    let r;
    try {
      r = await send(op, args);
    } catch (e) {
      userPending--;
      showError(String(e.message || e));
      bumpSeq();
      setIdle();
      return null;
    }
    userPending--;
    applyResponse(op, args, r, t0);
    setIdle();
    return r;
  };
  busy = busy.then(run, run);
  return busy;
}

function applyResponse(op, args, r, t0) {
  if (r.state) {
    const before = game;
    game = r.state;
    view = null;
    viewStatus = null;
    trackEnding(op, args, r, before);
  }
  if (!r.ok && r.error) {
    showError(r.error.message || r.error.code);
  } else {
    clearError();
  }
  if (op === "claim" && r.claim) showClaimResult(r.claim);
  else if (op !== "claim") hideClaimResult();
  if (op === "play" || op === "undo" || op === "new" || op === "load_pgn" || op === "batch") offer = null;
  if (r.state) {
    if (r.ok) $("pgn-output").value = ""; // an export of an older state would mislead
    render();
    bumpSeq();
    const ms = performance.now() - t0;
    window.__perf.push({ op, ply: game.status.ply, ms, worker_ms: r.worker_ms, recv_ms: r.recv_at - t0,
      to_worker_ms: r.t_worker_recv - r.t_main_sent, from_worker_ms: r.t_main_recv - r.t_worker_sent,
      before_send_ms: r.t_main_sent - (performance.timeOrigin + t0) });
    requestAnimationFrame(() => {
      const rec = window.__perf[window.__perf.length - 1];
      if (rec) rec.paint_ms = performance.now() - t0;
    });
    setTimeout(() => {
      save();
      announce(op, r);
    }, 0);
    if (r.ok && ANALYSE_AFTER.has(op)) analyse();
  } else bumpSeq();
}

// The bridge answers moves with the cheap dead-position proofs; "analyse" then
// runs the longer search (it may find a dead position, or who can still win)
// after the answer is on screen, so that the board never waits for it.
const ANALYSE_AFTER = new Set(["new", "play", "undo", "load_pgn", "claim", "flag", "batch", "state"]);
function analyse() {
  if (!game || game.status.outcome || userPending > 0) return;
  const gen = ++analyseGen;
  const t0 = performance.now();
  analysing++;
  setIdle();
  send("analyse").then(
    (r) => {
      analysing--;
      // a newer action (or its pending answer) makes this result stale
      if (gen === analyseGen && userPending === 0 && r.ok && r.state) {
        const ended = !game.status.outcome && r.state.status.outcome;
        game = r.state;
        render();
        window.__perf.push({ op: "analyse", ply: game.status.ply, ms: performance.now() - t0, worker_ms: r.worker_ms });
        setTimeout(() => {
          save();
          if (ended) announce("analyse", r);
        }, 0);
      } else if (!r.ok) console.warn("analyse:", r.error);
      setIdle();
    },
    () => {
      analysing--;
      setIdle();
    },
  );
}

function trackEnding(op, args, r, before) {
  const out = game.status.outcome;
  if (!out) {
    ending = null;
    return;
  }
  if (!r.ok) return;
  if (op === "agree") ending = { op: "agree", args: {} };
  else if (op === "resign" || op === "flag") ending = { op, args: { color: args.color } };
  else if (op === "claim" && r.claim && r.claim.accepted) ending = { op: "claim", args: { move: null } };
  else if (op === "undo" || op === "batch") {
    /* keep what restore() / undo left */
  } else ending = null; // automatic ending, re-created by replaying the moves
}

// data-seq counts applied responses: a test hook to wait for "the UI has caught up".
let seq = 0;
function bumpSeq() {
  document.body.dataset.seq = String(++seq);
}

// ------------------------------------------------------------------ render
function liveStatus() {
  return game.status;
}
function shownStatus() {
  return view == null ? game.status : viewStatus || game.status;
}
function shownPly() {
  return view == null ? game.status.ply : view;
}
function colorName(c) {
  return c === "white" ? "White" : "Black";
}
function el(tag, props = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "dataset") Object.assign(e.dataset, v);
    else if (k === "class") e.className = v;
    else if (k in e) e[k] = v;
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
}

function render() {
  if (!game) return;
  renderBoard();
  renderMoves();
  renderPanel();
  renderResult();
  renderTags();
  renderControls();
}

function renderBoard() {
  const live = view == null;
  const st = shownStatus();
  const ply = shownPly();
  const moves = game.moves;
  const fen = ply === 0 ? game.start_fen : moves[ply - 1].fen;
  const last = ply > 0 ? moves[ply - 1] : null;
  const canMove = live && engine === "ready" && !st.outcome;
  const dests = new Map();
  if (canMove) {
    for (const m of st.legal_moves) {
      const a = dests.get(m.from);
      if (a) {
        if (!a.includes(m.to)) a.push(m.to);
      } else dests.set(m.from, [m.to]);
    }
  }
  cg.set({
    fen,
    orientation,
    turnColor: st.turn,
    check: st.check ? st.turn : false,
    lastMove: last ? [last.uci.slice(0, 2), last.uci.slice(2, 4)] : undefined,
    movable: { color: canMove ? st.turn : undefined, dests },
  });
  const shapes = [];
  if (live && !st.outcome) {
    for (const c of st.claims) {
      if (c.move) shapes.push({ orig: c.move.slice(0, 2), dest: c.move.slice(2, 4), brush: "green" });
    }
  }
  cg.setAutoShapes(shapes);
  $("board").dataset.fen = fen;
  $("board").dataset.orientation = orientation;
  $("turn").textContent = st.outcome
    ? "Game over"
    : `${colorName(st.turn)} to move${st.check ? " (check)" : ""}`;
  $("viewing").textContent = live ? "" : `Viewing the position after ply ${ply} of ${game.status.ply} (End returns)`;
}

// The move list is updated incrementally (a move appends one button), so that
// a move costs the same at ply 10 and ply 400.
const ml = { start: null, keys: [], buttons: [], lis: [], current: null };
function moveKey(m) {
  return `${m.uci} ${m.san} ${m.repetition_count}`;
}
function renderMoves() {
  const list = $("move-list");
  const moves = game.moves;
  const startBlack = game.start_fen.split(" ")[1] === "b";
  if (ml.start !== game.start_fen || !ml.buttons[0]) {
    list.replaceChildren();
    const b0 = plyButton(0, "Start", game.start_fen !== STD_FEN ? "Start position (set up)" : "Start position");
    list.append(el("li", { class: "start" }, b0));
    Object.assign(ml, { start: game.start_fen, keys: [], buttons: [b0], lis: [], current: null });
  }
  let k = 0;
  while (k < ml.keys.length && k < moves.length && ml.keys[k] === moveKey(moves[k])) k++;
  // drop plies after the common prefix
  for (let p = ml.keys.length; p > k; p--) {
    const b = ml.buttons.pop();
    const li = b.parentNode;
    b.remove();
    if (li && !li.querySelector("button")) {
      li.remove();
      ml.lis.pop();
    }
  }
  ml.keys.length = k;
  // append the new ones
  for (let i = k; i < moves.length; i++) {
    const m = moves[i];
    const whiteMove = (m.ply + (startBlack ? 1 : 0)) % 2 === 1;
    let li = ml.lis[ml.lis.length - 1];
    if (whiteMove || !li || li.querySelectorAll("button").length >= (li.dataset.white === "1" ? 2 : 1)) {
      li = el("li", { class: "pair", dataset: { white: whiteMove ? "1" : "0" } },
        el("span", { class: "num" }, `${moveNumber(m.ply, startBlack)}.${whiteMove ? "" : ".."}`));
      list.append(li);
      ml.lis.push(li);
    }
    const b = plyButton(m.ply, m.san);
    if (m.repetition_count >= 2) {
      b.classList.add("rep");
      b.title = `This position has now occurred ${m.repetition_count} times (rules: 3 = claim, 5 = automatic draw)`;
      b.append(el("span", { class: "rep-mark", "aria-label": `, position occurred ${m.repetition_count} times` }, ` ↻${m.repetition_count}`));
    }
    li.append(b);
    ml.buttons.push(b);
    ml.keys.push(moveKey(m));
  }
  const cur = ml.buttons[shownPly()];
  if (cur !== ml.current) {
    if (ml.current) ml.current.removeAttribute("aria-current");
    if (cur) cur.setAttribute("aria-current", "step");
    ml.current = cur;
  }
  if (cur && list.scrollHeight > list.clientHeight) {
    // keep the current move visible inside the list without scrolling the page
    const top = cur.offsetTop - list.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top - 4;
    else if (top + cur.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + cur.offsetHeight - list.clientHeight + 4;
  }
}

function moveNumber(ply, startBlack) {
  const startNo = Number(game.start_fen.split(" ")[5] || 1);
  return startNo + Math.floor((ply - 1 + (startBlack ? 1 : 0)) / 2);
}

function plyButton(ply, text, title) {
  const b = el("button", { type: "button", class: "ply", dataset: { ply: String(ply) } }, text);
  if (title) b.title = title;
  return b;
}

function plyLabel(ply) {
  if (ply === 0) return "start";
  const m = game.moves[ply - 1];
  const startBlack = game.start_fen.split(" ")[1] === "b";
  const white = (ply + (startBlack ? 1 : 0)) % 2 === 1;
  return `${moveNumber(ply, startBlack)}.${white ? "" : ".."} ${m.san}`;
}

function renderPanel() {
  const st = shownStatus();
  const live = view == null;
  const panel = $("draw-panel");
  panel.dataset.ply = String(shownPly());
  $("dp-where").textContent = live ? "(current position)" : `(after ${plyLabel(shownPly())}, not the current position)`;

  const hc = st.halfmove_clock;
  $("halfmove-clock").textContent =
    `${hc} plies without a capture or pawn move: a claim is possible at 100 (fifty-move rule, 9.3), the game ends at 150 (75-move rule, 9.6.2)`;
  const bar = $("clock-bar");
  bar.style.width = `${Math.min(100, (hc / 150) * 100)}%`;
  bar.className = "bar" + (hc >= 150 ? " over" : hc >= 100 ? " claim" : hc >= 90 ? " near" : "");

  const n = st.repetition_count;
  $("repetition-count").textContent =
    `${n} occurrence${n === 1 ? "" : "s"} of this position so far (3 allow a claim, 9.2; 5 end the game, 9.6.1)`;
  const links = $("repetition-links");
  links.replaceChildren();
  if (st.repetitions && st.repetitions.length) {
    links.append("Earlier occurrences: ");
    for (const p of st.repetitions) {
      const b = el("button", { type: "button", class: "link", dataset: { goto: String(p) } }, p === 0 ? "start" : `after ${plyLabel(p)}`);
      b.title = `Show the position after ply ${p}`;
      links.append(b, " ");
    }
  }

  // claims: only for the live position
  const claims = $("claims");
  claims.replaceChildren();
  const none = $("claims-none");
  if (!live) {
    none.textContent = "Go to the current position (End) to claim.";
  } else if (st.outcome) {
    none.textContent = "The game is over: nothing to claim.";
  } else if (!st.claims.length) {
    none.textContent = `${colorName(st.turn)} has no draw claim now.`;
  } else {
    none.textContent = `${colorName(st.turn)} may claim a draw:`;
    for (const c of st.claims) {
      const rule = c.rule === "fifty_moves" ? "fifty-move rule" : "threefold repetition";
      const text = c.move ? `Play ${c.san} and claim (${rule}, FIDE ${c.article})` : `Claim now (${rule}, FIDE ${c.article})`;
      const b = el("button", { type: "button", class: "claim", dataset: { rule: c.rule, move: c.move || "" } }, text);
      claims.append(b);
    }
  }

  // automatic
  $("auto-75").textContent = `75-move rule: ${hc} of 150 plies${hc >= 150 ? " (reached: game over)" : ""} (9.6.2)`;
  $("auto-5").textContent = `Fivefold repetition: ${n} of 5${n >= 5 ? " (reached: game over)" : ""} (9.6.1)`;
  const im = st.insufficient_material;
  $("auto-material").textContent =
    im.white && im.black
      ? "Neither side can mate: dead position (5.2.2)"
      : "Mate still possible on the board (dead position rule 5.2.2 not met)";

  // material / flag fall
  for (const c of ["white", "black"]) {
    $(`mat-${c}`).textContent = im[c] ? "No (insufficient material)" : "Yes";
    $(`mat-${c}`).className = im[c] ? "no" : "yes";
    const r = st.flag_fall ? st.flag_fall[c] : null;
    $(`flag-${c}`).textContent =
      r == null ? "game over" : `${r}${r === "1/2-1/2" ? " (draw: the opponent cannot mate, 6.9)" : ` (${c === "white" ? "Black" : "White"} wins)`}`;
  }

  // Proven facts of FIDE 5.2.2 and 6.9 (the dead-position search), shown
  // with the rules, not the hints; an undecided side says nothing.
  const winnable = $("winnable");
  winnable.replaceChildren();
  for (const c of ["white", "black"]) {
    const w = st.winnable ? st.winnable[c] : null;
    if (w == null) continue;
    const txt = w ? "can still checkmate (a mating line exists)" : "cannot checkmate by any series of legal moves (proven)";
    winnable.append(el("li", {}, `${colorName(c)} ${txt}`));
  }

  // hints
  const hints = $("hints");
  hints.replaceChildren();
  const h = st.hints || {};
  const cfm = h.can_force_mate || {};
  const notes = h.notes || [];
  for (const c of ["white", "black"]) {
    const said = notes.some((n) => n.startsWith(colorName(c)) && n.includes("force mate"));
    if (cfm[c] === false && !said) hints.append(el("li", {}, `${colorName(c)} cannot force mate`));
  }
  if (h.practical_draw) hints.append(el("li", {}, `Practically drawn: ${h.practical_draw}`));
  for (const note of notes) hints.append(el("li", {}, note));
  if (!hints.children.length) hints.append(el("li", { class: "muted" }, "Nothing to add: both sides can still play for a win."));
}

function renderResult() {
  const box = $("result");
  const out = game.status.outcome;
  if (!out) {
    box.hidden = true;
    box.replaceChildren();
    delete box.dataset.termination;
    return;
  }
  box.hidden = false;
  box.dataset.termination = out.termination;
  box.dataset.result = out.result;
  const head = out.winner ? `${colorName(out.winner)} wins` : "Draw";
  const how = ["agreement", "resignation", "time_forfeit"].includes(out.termination)
    ? "declared"
    : out.claimed
      ? "claimed by the player to move"
      : "automatic";
  box.className = `result ${out.winner ? "win" : "draw"}`;
  box.replaceChildren(
    el("strong", { class: "r-head" }, `${head}: ${out.result}`),
    el("span", { class: "r-reason" }, ` — ${out.reason}`),
    el("span", { class: "r-meta" }, ` (FIDE article ${out.article}, ${how})`),
  );
}

function renderTags() {
  // PGN tags are untrusted text: textContent only.
  const h = game.headers || {};
  const parts = [];
  for (const k of ["White", "Black", "Event", "Site", "Date", "Round"]) {
    const v = h[k];
    if (v && v !== "?" && v !== "????.??.??") parts.push(`${k}: ${v}`);
  }
  const p = $("game-tags");
  p.textContent = parts.join(" · ");
  p.hidden = !parts.length;
  $("board").dataset.chess960 = game.chess960 ? "1" : "0";
}

function renderControls() {
  const live = view == null;
  const st = game.status;
  const over = !!st.outcome;
  const ready = engine === "ready";
  for (const id of ["claim-any", "claim-typed", "offer", "resign-white", "resign-black", "flag-btn-white", "flag-btn-black"]) {
    $(id).disabled = !ready || over;
  }
  $("undo").disabled = !ready || (st.ply === 0 && !over);
  $("nav-first").disabled = shownPly() === 0;
  $("nav-prev").disabled = shownPly() === 0;
  $("nav-next").disabled = live;
  $("nav-last").disabled = live;
  $("offer-box").hidden = !offer || over;
  $("offer").hidden = !!offer && !over;
  if (offer) $("offer-text").textContent = `${colorName(offer)} offers a draw. ${colorName(offer === "white" ? "black" : "white")}:`;
  $("fen-input").placeholder = shownStatus().fen;
}

// ------------------------------------------------------------------ messages
// Errors show in a bar fixed at the bottom of the window, so that they are seen
// next to whatever control caused them (FEN box, PGN box, move box) on any screen.
function showError(msg) {
  const e = $("error");
  e.textContent = msg;
  e.hidden = false;
  $("error-wrap").hidden = false;
}
function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
  $("error-wrap").hidden = true;
}
$("error-close").addEventListener("click", clearError);
function showClaimResult(c) {
  const p = $("claim-result");
  p.hidden = false;
  p.className = `claim-result ${c.accepted ? "ok" : "refused"}`;
  p.dataset.accepted = String(c.accepted);
  // the referee's reason is complete human text; add only what it lacks
  const word = c.accepted ? "accepted" : "refused";
  p.textContent = new RegExp(word, "i").test(c.reason) ? c.reason : `Claim ${word}: ${c.reason}`;
}
function hideClaimResult() {
  $("claim-result").hidden = true;
}

let lastAnnounced = "";
function announce(op, r) {
  const st = game.status;
  const parts = [];
  if (op === "play" && game.moves.length) parts.push(`${game.moves[game.moves.length - 1].san}.`);
  if (st.outcome) parts.push(`Game over: ${st.outcome.reason}, ${st.outcome.result}.`);
  else {
    if (st.check) parts.push("Check.");
    for (const c of st.claims) {
      const rule = c.rule === "fifty_moves" ? "fifty-move rule" : "threefold repetition";
      parts.push(c.move ? `${colorName(st.turn)} may play ${c.san} and claim a draw by ${rule}.` : `${colorName(st.turn)} may claim a draw now by ${rule}.`);
    }
    if (st.halfmove_clock >= 90 && st.halfmove_clock < 100) parts.push(`${st.halfmove_clock} plies toward the fifty-move rule.`);
  }
  if (op === "claim" && r.claim && !r.claim.accepted) parts.unshift(`Claim refused: ${r.claim.reason}`);
  if (!r.ok && r.error) parts.unshift(`Error: ${r.error.message}`);
  const text = parts.join(" ");
  if (text && text !== lastAnnounced) {
    $("live").textContent = text;
    lastAnnounced = text;
  }
}

// ------------------------------------------------------------------ save / share
function currentRecord() {
  return {
    start_fen: game.start_fen,
    chess960: !!game.chess960,
    moves: game.moves.map((m) => m.uci),
    ending,
    fen: game.status.fen,
  };
}
function save() {
  const rec = currentRecord();
  saveJSON(STORE, rec);
  const p = new URLSearchParams();
  if (rec.start_fen !== STD_FEN) p.set("fen", rec.start_fen);
  if (rec.chess960) p.set("c960", "1");
  if (rec.moves.length) p.set("m", rec.moves.join(","));
  if (rec.ending) p.set("end", rec.ending.op + (rec.ending.args.color ? `:${rec.ending.args.color}` : ""));
  const hash = p.toString();
  const url = location.pathname + location.search + (hash ? `#${hash}` : "");
  if (location.hash.slice(1) !== hash) history.replaceState(null, "", url);
}
function readHash() {
  if (!location.hash || location.hash.length < 2) return null;
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has("m") && !p.has("fen") && !p.has("end")) return null;
  const rec = {
    start_fen: p.get("fen") || STD_FEN,
    chess960: p.get("c960") === "1",
    moves: (p.get("m") || "").split(",").filter(Boolean),
    ending: null,
  };
  const end = p.get("end");
  if (end) {
    const [op, color] = end.split(":");
    if (["agree", "resign", "flag", "claim"].includes(op)) rec.ending = { op, args: op === "claim" ? { move: null } : color ? { color } : {} };
  }
  return rec;
}
function restoreRequests(rec) {
  const reqs = [{ op: "new", args: { fen: rec.start_fen === STD_FEN ? null : rec.start_fen, chess960: !!rec.chess960 } }];
  for (const u of rec.moves || []) reqs.push({ op: "play", args: { move: String(u) } });
  if (rec.ending && rec.ending.op) reqs.push({ op: rec.ending.op, args: rec.ending.args || {} });
  return reqs;
}
async function restore(rec) {
  const r = await act("batch", { requests: restoreRequests(rec) });
  if (r && r.ok && rec.ending && game.status.outcome) ending = rec.ending;
  if (r && !r.ok) showError(`The saved game could not be fully restored (${r.error.message}); what could be replayed is shown.`);
  if (r) save();
}

// ------------------------------------------------------------------ board and input handlers
function onBoardMove(orig, dest) {
  const t0 = performance.now();
  const st = game && game.status;
  if (!st || view != null) return render();
  const cands = st.legal_moves.filter((m) => m.from === orig && m.to === dest);
  if (!cands.length) return render();
  if (cands.length === 1 && !cands[0].promotion) return act("play", { move: cands[0].uci }, { t0 });
  choosePromotion(cands, dest);
}

function choosePromotion(cands, dest) {
  const box = $("promotion");
  const names = { q: "Queen", r: "Rook", b: "Bishop", n: "Knight" };
  const buttons = box.querySelector(".promo-buttons");
  buttons.replaceChildren();
  for (const m of cands) {
    const b = el("button", { type: "button", class: `promo promo-${m.promotion}`, dataset: { promotion: m.promotion || "" } }, names[m.promotion] || m.san);
    b.addEventListener("click", () => {
      box.hidden = true;
      act("play", { move: m.uci });
    });
    buttons.append(b);
  }
  box.hidden = false;
  buttons.firstChild.focus();
}
$("promotion").querySelector(".promo-cancel").addEventListener("click", () => {
  $("promotion").hidden = true;
  render();
});

$("move-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const input = $("move-input");
  const mv = input.value.trim();
  if (!mv) return;
  if (view != null) view = null;
  act("play", { move: mv }).then((r) => {
    if (r && r.ok) input.value = "";
  });
});

$("claims").addEventListener("click", (ev) => {
  const b = ev.target.closest("button.claim");
  if (!b) return;
  act("claim", { move: b.dataset.move || null });
});
$("claim-any").addEventListener("click", () => act("claim", { move: null }));
$("claim-typed").addEventListener("click", () => {
  const mv = $("move-input").value.trim();
  if (!mv) return showError("Type the move you intend to play in the move box, then press “Claim with typed move”.");
  act("claim", { move: mv }).then((r) => {
    if (r && r.ok) $("move-input").value = "";
  });
});
$("offer").addEventListener("click", () => {
  offer = game.status.turn;
  renderControls();
  $("live").textContent = `${colorName(offer)} offers a draw.`;
});
$("agree").addEventListener("click", () => {
  offer = null;
  act("agree");
});
$("decline").addEventListener("click", () => {
  offer = null;
  renderControls();
});
$("resign-white").addEventListener("click", () => act("resign", { color: "white" }));
$("resign-black").addEventListener("click", () => act("resign", { color: "black" }));
$("flag-btn-white").addEventListener("click", () => act("flag", { color: "white" }));
$("flag-btn-black").addEventListener("click", () => act("flag", { color: "black" }));
$("undo").addEventListener("click", () => act("undo"));
$("flip").addEventListener("click", () => {
  orientation = orientation === "white" ? "black" : "white";
  saveJSON(PREFS, { ...prefs, orientation });
  cg.set({ orientation });
  $("board").dataset.orientation = orientation;
});
$("new-game").addEventListener("click", () => act("new", { fen: null, chess960: false }));
$("load-fen").addEventListener("click", () => {
  const fen = $("fen-input").value.trim();
  if (!fen) return showError("Paste a FEN in the position box first.");
  act("new", { fen, chess960: $("fen-960").checked });
});
$("load-pgn").addEventListener("click", () => {
  const pgn = $("pgn-input").value;
  if (!pgn.trim()) return showError("Paste a PGN in the import box first.");
  act("load_pgn", { pgn });
});
$("export-pgn").addEventListener("click", exportPgn);
async function exportPgn() {
  try {
    const r = await send("export_pgn");
    if (r.ok) {
      $("pgn-output").value = r.pgn;
      clearError();
    } else showError(r.error.message);
    return r;
  } catch (e) {
    showError(String(e.message || e));
  } finally {
    bumpSeq();
  }
}
$("copy-pgn").addEventListener("click", async () => {
  const r = await exportPgn();
  if (r && r.ok) copyText(r.pgn, "PGN copied");
});
$("copy-fen").addEventListener("click", () => {
  const fen = shownStatus().fen;
  $("fen-input").value = fen;
  copyText(fen, "FEN copied");
});
$("copy-link").addEventListener("click", () => copyText(location.href, "Link to this game copied"));
async function copyText(text, done) {
  try {
    await navigator.clipboard.writeText(text);
    $("live").textContent = done;
  } catch {
    $("live").textContent = `${done.replace(" copied", "")} is in the box; copy it from there`;
  }
}

// navigation
function goto(ply) {
  if (!game) return;
  const last = game.status.ply;
  ply = Math.max(0, Math.min(last, ply));
  if (ply === last) {
    view = null;
    viewStatus = null;
    render();
    return;
  }
  view = ply;
  viewStatus = null;
  render(); // board at once; the panel follows when the status arrives
  const want = ply;
  send("status_at", { ply }).then((r) => {
    if (view !== want) return;
    if (r.ok) {
      viewStatus = r.status;
      render();
    } else showError(r.error.message);
    bumpSeq();
  });
}
$("nav-first").addEventListener("click", () => goto(0));
$("nav-prev").addEventListener("click", () => goto(shownPly() - 1));
$("nav-next").addEventListener("click", () => goto(shownPly() + 1));
$("nav-last").addEventListener("click", () => goto(Infinity));
$("move-list").addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-ply]");
  if (b) goto(Number(b.dataset.ply));
});
$("repetition-links").addEventListener("click", (ev) => {
  const b = ev.target.closest("button[data-goto]");
  if (b) goto(Number(b.dataset.goto));
});
document.addEventListener("keydown", (ev) => {
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable)) return;
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const k = { ArrowLeft: () => goto(shownPly() - 1), ArrowRight: () => goto(shownPly() + 1), Home: () => goto(0), End: () => goto(Infinity) }[ev.key];
  if (k && game) {
    ev.preventDefault();
    k();
  }
});
window.addEventListener("hashchange", () => {
  const rec = readHash();
  if (rec && engine === "ready") restore(rec);
});

// ------------------------------------------------------------------ boot
async function onEngineReady() {
  engine = "ready"; // data-engine flips once the first state is on screen
  window.__boot.ready_ms = performance.now();
  performance.mark("engine-ready");
  if (saved && (saved.moves?.length || saved.start_fen !== STD_FEN || saved.ending)) await restore(saved);
  else await act("state");
  engineState("ready", "Referee ready");
  render();
  window.__boot.restored_ms = performance.now();
}

startWorker();
void T0;
