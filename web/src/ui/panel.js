// SPDX-License-Identifier: GPL-3.0-or-later
// The draw panel, read at a glance: the claim first (a button per claim now,
// a button per intended move when few moves allow the claim, one picker when
// many do; "Claim a draw" as the main action), then one line per rule with
// its count against its threshold ("50-move: 12/100", "Repetition: 2 of 3",
// "Can mate: ..."), then the details (the rules in words, articles, proofs,
// mating lines, hints) behind one click. The facts are the bridge's, shown
// as they come: the panel parses nothing and counts nothing, it only chooses
// what to show. Once the game is over it says how it ended instead of the
// counters. The details open by themselves only when they matter (a flag
// fall would be a draw, a side cannot mate; never once the game is over); the
// player's opening or closing them is remembered on this device, for
// positions where they matter and for the others apart.
import { t } from "../i18n.js";
import { $, closestTo, el, focusFirst, setText } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").Facts} Facts */
/** @typedef {import("../contract.js").Counter} Counter */

export const DETAILS_KEY = "pychessdraw.panel.v1";

/** @typedef {"open"|"closed"} Shown */
/**
 * The player's choices for the details on this device, one for positions
 * where they matter and one for the others ("calm"); a missing one is the
 * default: open where they matter, closed elsewhere.
 * @typedef {{calm?: Shown, matters?: Shown}} DetailsChoice
 */

/**
 * @param {Pick<Storage, "getItem">} storage
 * @returns {DetailsChoice}
 */
export function loadDetailsChoice(storage) {
  try {
    const raw = JSON.parse(storage.getItem(DETAILS_KEY) || "null");
    /** @type {DetailsChoice} */
    const out = {};
    for (const k of /** @type {const} */ (["calm", "matters"])) {
      if (raw && (raw[k] === "open" || raw[k] === "closed")) out[k] = raw[k];
    }
    return out;
  } catch {
    return {}; // storage disabled, or not ours
  }
}

/**
 * Whether the details are shown: the player's choice for this kind of
 * position, else open only where they matter.
 * @param {DetailsChoice} choice @param {boolean} matters
 */
export function detailsOpen(choice, matters) {
  const mine = matters ? choice.matters : choice.calm;
  return mine ? mine === "open" : matters;
}

/**
 * Remember the player's choice for this kind of position.
 * @param {Storage} storage @param {boolean} matters @param {boolean} open
 */
function saveDetailsChoice(storage, matters, open) {
  try {
    const choice = { ...loadDetailsChoice(storage), [matters ? "matters" : "calm"]: open ? "open" : "closed" };
    storage.setItem(DETAILS_KEY, JSON.stringify(choice));
  } catch {
    /* not remembered */
  }
}

/**
 * Whether the details matter in these facts: a flag fall now would be a
 * draw, or a side cannot checkmate (a dead position, or insufficient
 * material on one side). Not once the game is over: the panel then says how
 * it ended, and the details wait for the player to open them.
 * @param {Facts} f @param {boolean} [timed]  a clock can fall (else flag falls do not apply)
 */
export function detailsMatter(f, timed = true) {
  if (f.outcome) return false;
  const sides = /** @type {const} */ (["white", "black"]);
  if (timed && f.flag_fall && sides.some((c) => f.flag_fall && f.flag_fall[c].result === "1/2-1/2")) return true;
  return sides.some((c) => f.winnable[c] && f.winnable[c].answer === "no");
}

/**
 * One counter line: the value against the claim threshold, its meter (the
 * claim threshold as "high", the automatic end as the maximum).
 * @param {string} id @param {Counter} c @param {string} text
 */
function paintCounter(id, c, text) {
  const value = $(id);
  setText(value, text);
  const li = /** @type {HTMLElement} */ (value.closest("li"));
  li.dataset.level = c.level;
  li.title = c.text;
  const m = /** @type {HTMLMeterElement} */ ($(`${id}-meter`));
  m.max = c.auto_at;
  m.high = c.claim_at;
  m.value = c.value;
}

/** Whether each side can mate, and what a flag fall would give. @param {Facts} f */
function renderWinnable(f) {
  const winnable = $("winnable");
  winnable.replaceChildren();
  for (const c of /** @type {const} */ (["white", "black"])) {
    const w = f.winnable[c];
    const cell = $(`mat-${c}`);
    setText(cell, w.word);
    cell.className = `answer ${w.answer}${w.searching ? " searching" : ""}`;
    const flag = $(`flag-${c}`);
    setText(flag, f.flag_fall ? f.flag_fall[c].text : t("game over"));
    // A win on time is a finding only where the opponent is shown able to
    // mate; otherwise it is the rule's default, shown as undecided.
    const opponent = f.winnable[c === "white" ? "black" : "white"].answer;
    flag.dataset.state = !f.flag_fall ? "over" : f.flag_fall[c].result === "1/2-1/2" ? "draw"
      : opponent === "yes" ? "win" : "undecided";
    winnable.dataset[c] = w.answer === "yes" ? "true" : w.answer === "no" ? "false" : "unknown";
    const li = el("li", { class: `proof ${w.answer}` }, el("span", { class: "w-text" }, w.text));
    if (w.proof) li.append(el("span", { class: "w-proof" }, ` (${w.proof})`));
    winnable.append(li);
  }
}

/** @param {Facts} f */
function renderHints(f) {
  const hints = $("hints");
  hints.replaceChildren();
  for (const h of f.hints) hints.append(el("li", {}, h));
  if (!f.hints.length) hints.append(el("li", { class: "muted" }, f.outcome ? t("The game is over.") : t("No hints for this position.")));
}

/**
 * The verdict on the last claim, on the live position only.
 * @param {import("../ctrl.js").CtrlState["claim"]} verdict @param {boolean} live
 */
function renderClaimResult(verdict, live) {
  const cr = $("claim-result");
  if (verdict && live) {
    cr.hidden = false;
    cr.className = `claim-result ${verdict.accepted ? "ok" : "refused"}`;
    cr.dataset.accepted = String(verdict.accepted);
    cr.replaceChildren(el("strong", {}, `${verdict.headline}. `), verdict.text);
  } else cr.hidden = true;
}

/** Buttons to the earlier occurrences of the position. @param {Facts} f */
function renderRepetitionLinks(f) {
  const links = $("repetition-links");
  links.replaceChildren();
  if (f.repetition.earlier.length) {
    links.append(t("Earlier occurrences: "));
    f.repetition.earlier.forEach((o, i) => {
      if (i) links.append(", "); // "the start, after 2...Ng8": each a link of its own
      links.append(el("button", { class: "link", dataset: { goto: String(o.ply) }, attrs: { type: "button", title: t("Show the position {label}", { label: o.label }) } }, o.label));
    });
  }
}

/**
 * The claims open to the side to move: a button each, or one picker when many moves allow it.
 * @param {Controller} ctrl @param {HTMLElement} claims @param {Facts} f @param {boolean} live
 */
function renderClaims(ctrl, claims, f, live) {
  claims.replaceChildren();
  setText($("claims-none"), f.claims_text);
  // the computer's claims are its own: no buttons to make them for it
  if (!live || !ctrl.mayAct(f.turn)) return;
  for (const g of f.claims) {
    if (g.now) {
      claims.append(el("button", { class: "claim", dataset: { rule: g.rule, move: "" }, attrs: { type: "button" } },
        t("Claim now: {rule} (FIDE {article})", { rule: g.rule_label, article: g.article })));
      continue;
    }
    if (g.arrows) {
      for (const m of g.moves) {
        claims.append(el("button", { class: "claim", dataset: { rule: g.rule, move: m.uci }, attrs: { type: "button", title: m.question } },
          t("Play {move} and claim ({rule}, FIDE {article})", { move: m.san, rule: g.rule_label, article: g.article })));
      }
      continue;
    }
    // many moves allow it: say it once, keep one way to pick the move
    const id = `claim-pick-${g.rule}`;
    const select = el("select", { class: "claim-pick", dataset: { testid: "claim-picker" }, attrs: { id } });
    for (const m of g.moves) {
      const o = el("option", { dataset: { rule: g.rule, move: m.uci } }, m.san);
      o.value = m.uci;
      select.append(o);
    }
    const go = el("button", { class: "claim claim-go", attrs: { type: "button" } }, t("Play it and claim"));
    go.addEventListener("click", () => void ctrl.claim(/** @type {HTMLSelectElement} */ (select).value));
    claims.append(el("div", { class: "claim-group" },
      el("label", { attrs: { for: id }, class: "claim-group-text" }, g.text),
      el("div", { class: "row" }, select, go)));
  }
}

/**
 * The counters: the fifty-move clock, repetitions, whether each side can mate.
 * @param {Facts} f
 */
function renderCounters(f) {
  // once the game is over the counters run no more: the panel says how it ended instead
  const ended = $("dp-ended");
  ended.hidden = !f.outcome;
  $("counters").hidden = !!f.outcome;
  if (f.outcome) ended.replaceChildren(el("strong", {}, f.outcome.headline), " ", f.outcome.detail);
  else ended.replaceChildren();
  paintCounter("c-fifty", f.halfmove, f.halfmove.short);
  paintCounter("c-rep", f.repetition, f.repetition.short);
  setText($("c-mate"), t("White: {white} · Black: {black}", { white: f.winnable.white.word, black: f.winnable.black.word }));
  setText($("halfmove-clock"), f.halfmove.text);
  const bar = $("clock-bar");
  bar.style.width = `${Math.min(100, (f.halfmove.value / f.halfmove.auto_at) * 100)}%`;
  bar.className = `bar ${f.halfmove.level}`;
  setText($("repetition-count"), f.repetition.text);
  renderRepetitionLinks(f);
}

/**
 * The claim buttons; a claim button pressed from the keyboard is redrawn
 * away, so the keyboard goes to the next claim, else to Undo (the claim ended the game).
 * @param {Controller} ctrl @param {HTMLElement} claims @param {Facts} f @param {boolean} live
 */
function renderClaimsKeepingFocus(ctrl, claims, f, live) {
  const hadFocus = claims.contains(document.activeElement);
  renderClaims(ctrl, claims, f, live);
  const now = document.activeElement;
  // a browser may leave the focus on the removed button until its next update
  if (hadFocus && (now === document.body || !now?.isConnected)) {
    const next = claims.querySelector("button, select");
    if (next instanceof HTMLElement) next.focus();
    else focusFirst("undo", "move-input");
  }
}

/** @param {Controller} ctrl */
export function mountPanel(ctrl) {
  const panel = $("draw-panel");
  const claims = $("claims");

  function render() {
    const f = ctrl.shown();
    if (!f) return;
    const live = ctrl.isLive();
    panel.dataset.ply = String(ctrl.shownPly());
    setText($("dp-where"), live ? t("(current position)") : t("({where}, not the current position)", { where: f.where }));
    renderCounters(f);
    showDetails(f);
    renderClaimsKeepingFocus(ctrl, claims, f, live);
    // once the game is over there is nothing to claim: no claim buttons
    /** @type {HTMLElement} */ ($("claim-any").parentElement).hidden = !!f.outcome;
    setText($("auto-75"), f.halfmove.auto_text);
    setText($("auto-5"), f.repetition.auto_text);
    setText($("auto-material"), f.dead_text);
    renderWinnable(f);
    renderHints(f);
    renderClaimResult(ctrl.state.claim, live);
  }

  const details = $("dp-details");
  const toggle = $("details-toggle");
  /** @param {boolean} open */
  function setDetails(open) {
    if (details.hidden === !open) return;
    details.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
  }
  let matters = false;
  /** @param {Facts} f */
  function showDetails(f) {
    // a flag fall matters only where a clock can fall (the page's, or an imported game's times)
    matters = detailsMatter(f, document.documentElement.dataset.clocks === "on");
    setDetails(detailsOpen(loadDetailsChoice(localStorage), matters));
  }
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    saveDetailsChoice(localStorage, matters, open);
    setDetails(open);
  });

  claims.addEventListener("click", (ev) => {
    const b = closestTo(ev, "button.claim[data-rule]");
    if (b instanceof HTMLElement) void ctrl.claim(b.dataset.move || null);
  });
  $("repetition-links").addEventListener("click", (ev) => {
    const b = closestTo(ev, "button[data-goto]");
    if (b instanceof HTMLElement) ctrl.goto(Number(b.dataset.goto));
  });
  ctrl.redraw.add("panel", { parts: ["panel", "browse"], render });
  // A claim's verdict is what the player asked for: on a phone the buttons
  // sit below the panel, so bring the verdict into view once it is drawn.
  ctrl.on("reply", (/** @type {string} */ op) => {
    if (op !== "claim") return;
    requestAnimationFrame(() => {
      const cr = $("claim-result");
      // a claim that ended the game: the result banner is what to see (ui/result.js)
      if (!cr.hidden && $("result").hidden) cr.scrollIntoView({ block: "nearest" });
    });
  });
}
