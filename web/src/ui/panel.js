// SPDX-License-Identifier: GPL-3.0-or-later
// The draw panel: renders the bridge's facts as they come (rule texts,
// thresholds, articles, one answer per side to "can it still checkmate?").
// It parses nothing. Claims: a button per claim now, a button per intended
// move when few moves allow the claim, one picker when many do.
import { $, el, focusFirst, setText } from "./dom.js";

/** @typedef {import("../ctrl.js").Controller} Controller */
/** @typedef {import("../contract.js").Facts} Facts */

const ANSWER_WORD = { yes: "Yes", no: "No", unknown: "Not decided yet" };

/** @param {Controller} ctrl */
export function mountPanel(ctrl) {
  const panel = $("draw-panel");
  const claims = $("claims");

  function render() {
    const f = ctrl.shown();
    if (!f) return;
    const live = ctrl.isLive();
    panel.dataset.ply = String(ctrl.shownPly());
    setText($("dp-where"), live ? "(current position)" : `(${f.where}, not the current position)`);
    setText($("halfmove-clock"), f.halfmove.text);
    const bar = $("clock-bar");
    bar.style.width = `${Math.min(100, (f.halfmove.value / f.halfmove.auto_at) * 100)}%`;
    bar.className = `bar ${f.halfmove.level}`;
    setText($("repetition-count"), f.repetition.text);
    const links = $("repetition-links");
    links.replaceChildren();
    if (f.repetition.earlier.length) {
      links.append("Earlier occurrences: ");
      for (const o of f.repetition.earlier) {
        links.append(el("button", { class: "link", dataset: { goto: String(o.ply) }, attrs: { type: "button", title: `Show the position ${o.label}` } }, o.label), " ");
      }
    }
    // a claim button pressed from the keyboard is redrawn away: keep the
    // keyboard on the next claim, else on Undo (the claim ended the game)
    const hadFocus = claims.contains(document.activeElement);
    renderClaims(f, live);
    if (hadFocus && document.activeElement === document.body) {
      const next = claims.querySelector("button, select");
      if (next instanceof HTMLElement) next.focus();
      else focusFirst("undo", "move-input");
    }
    setText($("auto-75"), f.halfmove.auto_text);
    setText($("auto-5"), f.repetition.auto_text);
    setText($("auto-material"), f.dead_text);
    const winnable = $("winnable");
    winnable.replaceChildren();
    for (const c of /** @type {const} */ (["white", "black"])) {
      const w = f.winnable[c];
      const cell = $(`mat-${c}`);
      setText(cell, w.word || ANSWER_WORD[w.answer]);
      cell.className = `answer ${w.answer}`;
      const flag = $(`flag-${c}`);
      setText(flag, f.flag_fall ? f.flag_fall[c].text : "game over");
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
    const hints = $("hints");
    hints.replaceChildren();
    for (const h of f.hints) hints.append(el("li", {}, h));
    if (!f.hints.length) hints.append(el("li", { class: "muted" }, f.outcome ? "The game is over." : "No hints for this position."));
    const cr = $("claim-result");
    const verdict = ctrl.state.claim;
    if (verdict && live) {
      cr.hidden = false;
      cr.className = `claim-result ${verdict.accepted ? "ok" : "refused"}`;
      cr.dataset.accepted = String(verdict.accepted);
      cr.replaceChildren(el("strong", {}, `${verdict.headline}. `), verdict.text);
    } else cr.hidden = true;
  }

  /** @param {Facts} f @param {boolean} live */
  function renderClaims(f, live) {
    claims.replaceChildren();
    setText($("claims-none"), f.claims_text);
    // the computer's claims are its own: no buttons to make them for it
    if (!live || !ctrl.mayAct(f.turn)) return;
    for (const g of f.claims) {
      if (g.now) {
        claims.append(el("button", { class: "claim", dataset: { rule: g.rule, move: "" }, attrs: { type: "button" } },
          `Claim now: ${g.rule_label} (FIDE ${g.article})`));
        continue;
      }
      if (g.arrows) {
        for (const m of g.moves) {
          claims.append(el("button", { class: "claim", dataset: { rule: g.rule, move: m.uci }, attrs: { type: "button", title: m.question } },
            `Play ${m.san} and claim (${g.rule_label}, FIDE ${g.article})`));
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
      const go = el("button", { class: "claim claim-go", attrs: { type: "button" } }, "Play it and claim");
      go.addEventListener("click", () => void ctrl.claim(/** @type {HTMLSelectElement} */ (select).value));
      claims.append(el("div", { class: "claim-group" },
        el("label", { attrs: { for: id }, class: "claim-group-text" }, g.text),
        el("div", { class: "row" }, select, go)));
    }
  }

  claims.addEventListener("click", (ev) => {
    const b = /** @type {HTMLElement} */ (ev.target).closest("button.claim[data-rule]");
    if (b instanceof HTMLElement) void ctrl.claim(b.dataset.move || null);
  });
  $("repetition-links").addEventListener("click", (ev) => {
    const b = /** @type {HTMLElement} */ (ev.target).closest("button[data-goto]");
    if (b instanceof HTMLElement) ctrl.goto(Number(b.dataset.goto));
  });
  ctrl.on("change", (/** @type {any} */ _s, /** @type {Set<string>} */ parts) => {
    if (parts.has("panel") || parts.has("browse")) render();
  });
  // A claim's verdict is what the player asked for: on a phone the buttons
  // sit below the panel, so bring the verdict into view once it is drawn.
  ctrl.on("reply", (/** @type {string} */ op) => {
    if (op !== "claim") return;
    requestAnimationFrame(() => {
      const cr = $("claim-result");
      if (!cr.hidden) cr.scrollIntoView({ block: "nearest" });
    });
  });
}
