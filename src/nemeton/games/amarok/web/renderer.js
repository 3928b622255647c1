// Amarok in the browser: a round table drawn from the seat's view alone.
//
// Every seat sits around the table with its two hand slots, the cards in front of it and its
// level (round wins); the viewer sits at the bottom. The objective card, the river and the deck
// (its size and the cards claws put at its bottom) are in the middle. A move is one click on
// the card it concerns: a slot of your hand, a river card, the deck, a card of another hand
// (a card you see is named; a back is "an unseen card of that hand"); a claw then highlights
// every card it may send to the bottom of the deck. Nothing here knows a rule: what is legal
// comes from ctx.legal, what is shown from ctx.view, what just happened from ctx.fresh/ctx.log.
// It returns virtual nodes (js/kit.js): the page updates only what changed, so a focused card
// keeps the focus when the next view arrives.
//
// Every word is a message of the game's catalogue (games/amarok/locale, ids amarok.web.* and
// the terms the event log uses: amarok.card*, amarok.symbol.*, amarok.colour.*, amarok.team*),
// rendered in the page's language by js/i18n.js. The viewer's own seat has its own ids
// (".you"), so no sentence is put together here; seats in sentences are badges (msgParts).

import { fmtNumber, msgParts, t, tMessage, tNodes } from "/static/js/i18n.js";
import { aboveTheBar, h, hintFor, parts, seatBadge, textOf, withHint } from "/static/js/kit.js";
import { seatColour, seatNameOf } from "/static/js/text.js";

const svg = h;  // preact draws <svg> and what is inside it in the SVG namespace

/** A message ({id, args}), as nemeton.i18n.msg builds one. */
function msg(id, args) {
  return args ? { id, args } : { id };
}

/** A message as another message's argument. */
const nested = (m) => (typeof m === "string" ? m : { msg: m });

// The card's symbol (the event log's term), its short word on the card, the forest of its colour.
function symbolTerm(symbol) {
  switch (symbol) {
    case "heart": return nested(msg("amarok.symbol.heart"));
    case "claw": return nested(msg("amarok.symbol.claw"));
    case "season": return nested(msg("amarok.symbol.season"));
    case "trap": return nested(msg("amarok.symbol.trap"));
    default: return String(symbol);
  }
}

function symbolShort(symbol) {
  switch (symbol) {
    case "heart": return t("amarok.web.symbol_short.heart");
    case "claw": return t("amarok.web.symbol_short.claw");
    case "season": return t("amarok.web.symbol_short.season");
    case "trap": return t("amarok.web.symbol_short.trap");
    default: return String(symbol);
  }
}

const FORESTS = new Set(["red", "blue"]);
function forestName(colour) {
  if (colour === "red") return t("amarok.web.forest.red");
  if (colour === "blue") return t("amarok.web.forest.blue");
  return String(colour ?? "");
}

// A card's colour: the standard deck's translated, a custom deck's text as written (events.py).
function colourTerm(colour) {
  if (colour === "red") return nested(msg("amarok.colour.red"));
  if (colour === "blue") return nested(msg("amarok.colour.blue"));
  return String(colour ?? "").trimStart();
}

// The objective card's sides: a title and its rule.
function objectiveTitle(objective) {
  if (objective === "wolf_pack") return msg("amarok.web.objective.wolf_pack");
  if (objective === "lone_wolf") return msg("amarok.web.objective.lone_wolf");
  return String(objective);
}

function objectiveRule(objective) {
  if (objective === "wolf_pack") return msg("amarok.web.objective.wolf_pack.rule");
  if (objective === "lone_wolf") return msg("amarok.web.objective.lone_wolf.rule");
  return "";
}

const plain = (m) => (typeof m === "string" ? m : tMessage(m));

const TEAM_MARKS = [
  { letter: "A", symbol: "◆" },
  { letter: "B", symbol: "✦" },
  { letter: "C", symbol: "⬟" },
];

// UI-only memory of the last drawing: the objective side (to flip the card visibly when it
// turns), the cards already ringed as new and the round result already announced (each
// animates once, not again at every redraw).
let shown = { key: null, objective: null, recent: new Set(), banner: null };

// ----- the game module -------------------------------------------------------------------
export function draw(ctx) {
  const view = ctx.view;
  const table = new Table(ctx);
  const flipped = shown.key === table.key && shown.objective !== null && shown.objective !== view.objective;
  table.arrived = shown.recent;
  table.announced = shown.banner;

  const seats = table.order();
  const me = seats[0];
  const others = seats.slice(1);
  const spots = { left: [], top: [], right: [] };
  const where = positions(others.length);
  others.forEach((s, k) => spots[where[k]].push(table.seatPanel(s, false)));
  const board = h("div", {
    class: `amarok players-${view.players}${view.teams ? " teams" : ""}`,
    dataset: { phase: view.phase }, ref: (node) => aboveTheBar(node),
  },
  h("div", { class: "amk-ring" },
    ["top", "left", "right"].map((side) => h("div", { key: side, class: `amk-spot amk-${side}` }, spots[side])),
    table.centre(flipped)),
  table.roundBanner(),
  table.seatPanel(me, table.you === me, "amk-own"));
  const bar = table.fallbackButtons();
  shown = { key: table.key, objective: view.objective, recent: table.recent,
    banner: view.last_round ? view.last_round.round : null };
  return { board, bar };
}

export function score(ctx) {
  return new Table(ctx).scoreSheet();
}

export function label(action, ctx) {
  return new Table(ctx).describe(action);
}

// Where the other seats sit, clockwise from the viewer's left (seat + 1 plays next after you).
function positions(count) {
  return {
    1: ["top"],
    2: ["left", "right"],
    3: ["left", "top", "right"],
    4: ["left", "top", "top", "right"],
    5: ["left", "top", "top", "top", "right"],
  }[count] || Array(count).fill("top");
}

// ----- one drawing of the table ----------------------------------------------------------
class Table {
  constructor(ctx) {
    this.ctx = ctx;
    this.view = ctx.view;
    this.cards = new Map((this.view.cards || []).map((c) => [c.id, c]));
    this.legal = ctx.legal || [];
    this.used = new Set();  // indexes into legal that some element acts
    this.key = `${this.view.game}:${this.view.round}`;
    this.recent = recentCards(ctx);
    this.arrived = new Set();  // the cards the previous drawing already ringed as new
    this.announced = null;     // the round whose result the previous drawing showed
    this.viewer = ctx.seat ?? this.view.seat ?? null;
    // "you" for the person at this seat; a replay seen by a seat names it like the others
    this.you = ctx.mode === "replay" ? null : this.viewer;
  }

  order() {
    const n = this.view.players;
    const base = this.viewer ?? 0;
    return Array.from({ length: n }, (_, k) => (base + k) % n);
  }

  isYou(seat) {
    return seat === this.you && seat !== null && seat !== undefined;
  }

  // A seat's name (a proper noun: a message's literal argument).
  name(seat) {
    return this.ctx.seatName ? this.ctx.seatName(seat) : seatNameOf(this.ctx.seats, seat);
  }

  // ----- legal actions: find the ones an element acts, and wire it --------------------------
  find(test) {
    const out = [];
    this.legal.forEach((a, i) => { if (test(a)) out.push(i); });
    return out;
  }

  // The props that make an element act the legal action matched by `test` (the first one):
  // null when none is legal (or in a replay).
  bind(test, what) {
    const found = this.find(test);
    if (!found.length || this.ctx.mode === "replay") return null;
    found.forEach((i) => this.used.add(i));
    const action = this.legal[found[0]];
    return withHint({
      "data-action": JSON.stringify(action),  // one of ctx.legal, as sent: tests read which move it makes
      "aria-label": what || this.describe(action),
      title: this.describe(action),
      onclick: (event) => { event.preventDefault(); this.ctx.act(action); },
    }, hintFor(this.ctx, found.map((i) => this.legal[i])));
  }

  // Any legal action the table could not show (never expected): plain buttons for the bar.
  fallbackButtons() {
    if (this.ctx.mode === "replay") return null;
    const out = [];
    this.legal.forEach((action, i) => {
      if (this.used.has(i)) return;
      const text = this.describe(action);
      out.push(h("button", withHint({
        key: JSON.stringify(action), type: "button", class: "legal", "aria-label": text, onclick: () => this.ctx.act(action),
      }, hintFor(this.ctx, [action])), text));
    });
    return out.length ? out : null;
  }

  // ----- cards ---------------------------------------------------------------------------
  // A card as the event log names it: "R6 (red 6, heart)" (amarok.card*), a message.
  cardMessage(id) {
    const c = this.cards.get(id);
    if (!c) return String(id);
    const args = { code: String(id), value: String(c.value) };
    const coloured = String(c.colour ?? "").trim() !== "";
    if (coloured) args.colour = colourTerm(c.colour);
    if (c.symbol) args.symbol = symbolTerm(c.symbol);
    if (coloured) return c.symbol ? msg("amarok.card.symbol", args) : msg("amarok.card", args);
    return c.symbol ? msg("amarok.card.colourless.symbol", args) : msg("amarok.card.colourless", args);
  }

  cardText(id) {
    return plain(this.cardMessage(id));
  }

  cardArg(id) {
    return nested(this.cardMessage(id));
  }

  // A face-up card: a <button> when `bound` (the props of bind(): it acts a legal move), else
  // an image with its name (or `label`). `props`: more attributes (data-slot, ...).
  face(id, { bound = null, extra = "", label = null, props = {} } = {}) {
    const c = this.cards.get(id) || { id, colour: "", value: "?", symbol: null };
    const colour = FORESTS.has(c.colour) ? c.colour : "other";
    const isRecent = this.recent.has(id);
    const recent = isRecent ? ` recent${this.arrived.has(id) ? "" : " amk-arrive"}` : "";
    return h(bound ? "button" : "div", {
      key: `card-${id}`,
      ...props,
      ...bound,
      class: `card face amk-${colour}${c.symbol ? ` amk-sym-${c.symbol}` : ""}${extra ? ` ${extra}` : ""}${recent}${bound ? " legal" : ""}`,
      dataset: { ...props.dataset, card: typeof id === "string" ? id : JSON.stringify(id) },
      type: bound ? "button" : null,
      role: bound ? null : "img",
      "aria-label": bound ? bound["aria-label"] : label || this.cardText(id),
      title: bound ? bound.title : this.cardText(id),
    },
    h("span", { class: "amk-value" }, String(c.value)),
    h("span", { class: "amk-kind", "aria-hidden": "true" }, colourIcon(c.colour),
      h("span", { class: "amk-colour-name" }, forestName(c.colour))),
    c.symbol ? h("span", { class: "amk-symbol", "aria-hidden": "true" },
      symbolIcon(c.symbol), h("span", {}, symbolShort(c.symbol))) : null,
    h("span", { class: "amk-id", "aria-hidden": "true" }, String(id)),
    isRecent ? h("span", { class: "amk-new", "aria-hidden": "true" }, t("amarok.web.new")) : null);
  }

  // A face-down card (no data-card); `lost` marks a card of your own you cannot see.
  back(text, { bound = null, lost = false, extra = "", props = {} } = {}) {
    return h(bound ? "button" : "div", {
      ...props,
      ...bound,
      class: `card back${lost ? " amk-lost" : ""}${extra ? ` ${extra}` : ""}${bound ? " legal" : ""}`,
      type: bound ? "button" : null,
      role: bound ? null : "img",
      "aria-label": bound ? bound["aria-label"] : text,
      title: bound ? bound.title : text,
    }, h("span", { class: "amk-back-mark", "aria-hidden": "true" }, lost ? "?" : pawIcon()));
  }

  emptySlot(text, key = null) {
    return h("div", { key, class: "card amk-empty", role: "img", "aria-label": text, title: text });
  }

  // ----- a seat: badge, level, hand, cards in front ------------------------------------------
  seatPanel(seat, mine, extra = "") {
    const view = this.view;
    const acting = (view.acting || []).includes(seat);
    const info = (this.ctx.seats || []).find((s) => s.seat === seat);
    const claw = view.phase === "claw";
    let turn = null;
    if (acting && !view.terminal && !this.ctx.waiting) {
      turn = mine ? (claw ? t("amarok.web.turn.claw.you") : t("amarok.web.turn.you"))
        : (claw ? t("amarok.web.turn.claw") : t("amarok.web.turn"));
    }
    return h("section", {
      key: `seat-${seat}`,
      class: `amk-seat${acting ? " acting" : ""}${mine ? " mine" : ""}${extra ? ` ${extra}` : ""}`,
      dataset: { seat: String(seat) },
      "aria-label": this.isYou(seat) ? t("amarok.web.place.you") : t("amarok.web.place", { player: this.name(seat) }),
      style: `--seat:${seatColour(seat).css}`,
    },
    h("header", { class: "amk-seat-head" },
      this.badge(seat),
      this.teamMark(seat),
      view.objective_holder === seat && !view.terminal
        ? h("span", { class: "amk-holder", title: t("amarok.web.holder.title") }, t("amarok.web.holder")) : null,
      turn !== null ? h("span", { class: "amk-turn" },
        info && info.kind === "ai" ? h("span", { class: "spinner", "aria-hidden": "true" }) : null, turn) : null,
      this.levelTrack(seat)),
    mine && acting && this.legal.length ? this.prompt() : null,
    h("div", { class: "amk-seat-body" }, this.hand(seat), this.front(seat)));
  }

  // A seat's badge, by the name the page knows it by.
  badge(seat) {
    return seatBadge(seat, this.name(seat));
  }

  prompt() {
    const claw = this.view.phase === "claw";
    return h("p", { class: "amk-prompt" },
      claw ? t("amarok.web.prompt.claw") : t("amarok.web.prompt.take"),
      h("span", { class: "amk-prompt-more" }, " ", claw ? t("amarok.web.prompt.claw.more") : t("amarok.web.prompt.take.more")));
  }

  teamIndex(seat) {
    return (this.view.teams || []).findIndex((team) => team.includes(seat));
  }

  teamMark(seat) {
    if (!this.view.teams) return null;
    const k = this.teamIndex(seat);
    if (k < 0) return null;
    const mark = TEAM_MARKS[k % TEAM_MARKS.length];
    const word = t("amarok.web.team_mark", { letter: mark.letter });
    return h("span", { class: `amk-team amk-team-${k}`, title: word },
      h("span", { "aria-hidden": "true" }, mark.symbol), ` ${word}`);
  }

  levelTrack(seat) {
    const wins = Math.round(Number((this.view.scores || [])[seat] || 0));
    const target = this.view.rounds_to_win || 3;
    const pips = [];
    for (let k = 0; k < Math.max(target, wins); k++) {
      pips.push(h("span", { class: `amk-pip${k < wins ? " won" : ""}`, "aria-hidden": "true" }, k < wins ? "★" : "☆"));
    }
    return h("span", { class: "amk-level", dataset: { level: String(wins) },
      title: t("amarok.web.level", { wins, count: target }) },
    ...pips, h("span", { class: "amk-level-text" }, `${fmtNumber(wins)}/${fmtNumber(target)}`));
  }

  hand(seat) {
    const slots = (this.view.hands || [])[seat] || [];
    return h("div", { class: "amk-hand",
      "aria-label": this.isYou(seat) ? t("amarok.web.hand.you") : t("amarok.web.hand", { player: this.name(seat) }) },
    h("span", { class: "amk-zone-label" }, t("amarok.web.zone.hand")),
    h("div", { class: "amk-cards" }, [0, 1].map((k) => this.handSlot(seat, k, slots[k]))));
  }

  handSlot(seat, k, slot) {
    const own = seat === this.viewer;
    const where = nested(this.isYou(seat) ? msg("amarok.web.slot.you", { slot: k + 1 })
      : msg("amarok.web.slot", { player: this.name(seat), slot: k + 1 }));
    if (!slot) return this.emptySlot(t("amarok.web.slot.empty", { where }), `slot-${k}`);
    const claw = this.view.phase === "claw";
    const target = (a) => (claw
      ? a.type === "claw_hand" && a.seat === seat && a.slot === k
      : own ? a.type === "take_own" && a.slot === k
        : slot.card !== null ? a.type === "take_seen" && a.seat === seat && a.card === slot.card
          : a.type === "take_unseen" && a.seat === seat);
    const bound = this.bind(target);
    const props = { dataset: { slot: String(k), facing: slot.facing } };
    let el;
    if (slot.card !== null && slot.card !== undefined) {
      el = this.face(slot.card, { bound, extra: own ? "" : "amk-shown",
        label: t("amarok.web.slot.card", { where, card: this.cardArg(slot.card) }), props });
    } else if (own) {
      el = this.back(t("amarok.web.slot.lost", { where }), { bound, lost: true, props });
    } else {
      el = this.back(t("amarok.web.slot.back", { where, player: this.name(seat) }), { bound, props });
    }
    // From a seat, a card shows how it is held (face up: it faces you); the spectator sees
    // only backs, so it reads the way each card is held under it.
    return h("div", { key: `slot-${k}`, class: "amk-slot" }, el, this.viewer === null
      ? h("span", { class: "amk-facing" }, slot.facing === "owner" ? t("amarok.web.facing.owner") : t("amarok.web.facing.others"))
      : null);
  }

  front(seat) {
    const view = this.view;
    const cards = (view.fronts || [])[seat] || [];
    const you = this.isYou(seat);
    const player = this.name(seat);
    const empty = [];
    for (let k = cards.length; k < 2; k++) {
      empty.push(this.emptySlot(you ? t("amarok.web.front.empty.you") : t("amarok.web.front.empty", { player }), `empty-${k}`));
    }
    return h("div", { class: "amk-front", "aria-label": you ? t("amarok.web.front.you") : t("amarok.web.front", { player }) },
      h("span", { class: "amk-zone-label" }, t("amarok.web.zone.front")),
      h("div", { class: "amk-cards" }, cards.map((id, k) => {
        const target = (a) => a.type === "claw_front" && a.seat === seat && a.card === id;
        const pendingClaw = view.phase === "claw" && (view.acting || []).includes(seat) && k === cards.length - 1;
        return this.face(id, { bound: this.bind(target), extra: pendingClaw ? "amk-claw-pending" : "" });
      }), empty),
      this.totalLine(seat, cards));
  }

  totalLine(seat, cards) {
    const values = cards.map((id) => Number((this.cards.get(id) || {}).value || 0));
    const total = values.reduce((a, b) => a + b, 0);
    const symbols = cards.map((id) => (this.cards.get(id) || {}).symbol);
    const bits = [h("span", { class: "amk-total", dataset: { total: String(total) } }, t("amarok.web.total", { total }))];
    if (symbols.includes("trap")) bits.push(h("span", { class: "amk-flag trap" }, t("amarok.web.flag.trapped")));
    const hearts = symbols.filter((s) => s === "heart").length;
    if (hearts === 1 && cards.length < 2) bits.push(h("span", { class: "amk-flag heart" }, t("amarok.web.flag.one_heart")));
    return h("div", { class: "amk-total-line" }, ...bits);
  }

  // ----- the middle of the table: objective, river, deck ------------------------------------
  centre(flipped) {
    return h("section", { class: "amk-centre", "aria-label": t("amarok.web.centre") },
      this.objectiveCard(flipped),
      h("div", { class: "amk-middle" }, this.river(), this.deck()),
      this.view.teams ? this.teamTotals() : null);
  }

  objectiveCard(flipped) {
    const view = this.view;
    const title = objectiveTitle(view.objective);
    const rule = objectiveRule(view.objective);
    const recent = this.recent.has("@objective");
    const holder = view.objective_holder;
    let round;
    if (holder === null || holder === undefined) round = t("amarok.web.objective.round", { round: view.round });
    else if (this.isYou(holder)) round = t("amarok.web.objective.round.held.you", { round: view.round });
    else round = t("amarok.web.objective.round.held", { round: view.round, player: this.name(holder) });
    return h("div", {
      class: `amk-objective amk-${view.objective}${flipped ? " flip" : ""}${recent ? " recent" : ""}`,
      dataset: { objective: view.objective },
      role: "img",
      "aria-label": t("amarok.web.objective", { title: nested(title), rule: nested(rule) }),
    },
    objectiveArt(view.objective),
    h("div", { class: "amk-objective-text" },
      h("strong", {}, plain(title)),
      h("span", {}, plain(rule)),
      h("span", { class: "amk-objective-round" }, round)));
  }

  river() {
    const river = this.view.river || [];
    return h("div", { class: "amk-river", "aria-label": t("amarok.web.river") },
      h("span", { class: "amk-zone-label" }, t("amarok.web.zone.river")),
      h("div", { class: "amk-cards" },
        river.map((id) => this.face(id, { bound: this.bind((a) => (a.type === "take_river" || a.type === "claw_river") && a.card === id) })),
        river.length ? null : this.emptySlot(t("amarok.river.empty"), "empty")));
  }

  deck() {
    const view = this.view;
    const count = view.deck_size || 0;
    const bound = count ? this.bind((a) => a.type === "take_deck" || a.type === "claw_deck") : null;
    const top = count ? this.back(t("amarok.web.deck.top", { count }), { bound, extra: "amk-deck-top" })
      : this.emptySlot(t("amarok.web.deck.empty"));
    const bottom = view.deck_bottom || [];
    return h("div", { class: "amk-deck", "aria-label": t("amarok.web.deck") },
      h("span", { class: "amk-zone-label" }, t("amarok.web.zone.deck")),
      h("div", { class: "amk-stack" }, top,
        h("span", { class: "amk-count", dataset: { count: String(count) } }, t("amarok.web.deck.count", { count }))),
      bottom.length ? h("div", { class: "amk-bottom", "aria-label": t("amarok.web.bottom") },
        h("span", { class: "amk-zone-label" }, t("amarok.web.zone.bottom")),
        h("div", { class: "amk-cards mini" }, bottom.map((id) => this.face(id, { extra: "mini" })))) : null);
  }

  teamTotals() {
    const view = this.view;
    const rows = view.teams.map((team, k) => {
      const total = team.reduce((sum, s) => sum + ((view.fronts || [])[s] || [])
        .reduce((acc, id) => acc + Number((this.cards.get(id) || {}).value || 0), 0), 0);
      const trapped = team.some((s) => ((view.fronts || [])[s] || []).some((id) => (this.cards.get(id) || {}).symbol === "trap"));
      const mark = TEAM_MARKS[k % TEAM_MARKS.length];
      const line = tNodes("amarok.web.team_total", { letter: mark.letter, total },
        { a: this.badge(team[0]), b: this.badge(team[1]) });
      return h("li", { class: `amk-team-total amk-team-${k}`, dataset: { team: String(k), total: String(total) } },
        h("span", { "aria-hidden": "true" }, mark.symbol), " ", ...line,
        trapped ? ` ${t("amarok.web.flag.trapped")}` : "");
    });
    return h("div", { class: "amk-teams" },
      h("span", { class: "amk-zone-label" }, t("amarok.web.team_totals")), h("ul", {}, ...rows));
  }

  // ----- the last round's result ------------------------------------------------------------
  roundBanner() {
    const view = this.view;
    const last = view.last_round;
    if (!last || view.terminal) return h("div", { class: "amk-round-banner", hidden: true });
    const entry = lastEntry(this.ctx.log, "round_end");
    const fresh = (this.ctx.fresh || []).some((e) => e.kind === "round_end")
      || (entry && entry.i > lastOwnIndex(this.ctx.log, this.viewer));
    const winners = last.winners || [];
    const round = last.round;
    let why;
    if (last.reason === "mating") {
      why = this.isYou(last.mating_seat) ? msg("amarok.web.banner.why.mating.you")
        : msg("amarok.web.banner.why.mating", { seat: { seat: last.mating_seat } });
    } else if (last.reason === "all_trapped") {
      why = msg("amarok.web.banner.why.all_trapped");
    } else {
      why = msg("amarok.web.banner.why.totals", { objective: nested(objectiveTitle(last.objective)),
        rule: nested(objectiveRule(last.objective)), totals: { list: this.unitTotals(last, entry) } });
    }
    const units = this.units(winners);
    let won;
    if (!units.length) won = msg("amarok.web.banner.nobody", { round });
    else if (units.length === 1 && !view.teams && this.isYou(winners[0])) won = msg("amarok.web.banner.win.you", { round });
    else if (units.length === 1) won = msg("amarok.web.banner.win", { winner: units[0], round });
    else if (!view.teams && winners.some((w) => this.isYou(w))) won = msg("amarok.web.banner.share.you", { winners: { list: units }, round });
    else won = msg("amarok.web.banner.share", { winners: { list: units }, round });
    const said = tNodes("amarok.web.banner", {}, {
      won: h("strong", {}, this.words(msgParts(won), true)),
      why: h("span", {}, this.words(msgParts(why))),
    });
    return h("div", {
      class: `amk-round-banner${fresh ? " fresh" : ""}${fresh && this.announced !== last.round ? " amk-arrive" : ""}`,
      role: "status",
      title: textOf(said),
      dataset: { round: String(last.round), winners: JSON.stringify(winners) },
    }, said);
  }

  // Parts (strings and {seat: n}) as nodes: seats as their badges (name, colour, symbol);
  // `capital` starts it with a capital letter (a sentence starting with a nested term).
  words(list, capital = false) {
    const out = list.slice();
    if (capital && typeof out[0] === "string") out[0] = cap(out[0]);
    return parts(out, this.ctx.seats, "", { names: (s) => this.name(s), capital });
  }

  // The winners as units (message arguments): each team (amarok.team*, the reader's as "your
  // team") or each seat (the reader as amarok.you).
  units(seats) {
    const view = this.view;
    if (view.teams) {
      const teams = [...new Set(seats.map((s) => this.teamIndex(s)))].filter((k) => k >= 0).sort((a, b) => a - b);
      return teams.map((k) => this.teamArg(k));
    }
    return seats.map((s) => (this.isYou(s) ? nested(msg("amarok.you")) : { seat: s }));
  }

  teamArg(k) {
    const team = this.view.teams[k];
    const mine = team.findIndex((s) => this.isYou(s));
    if (mine >= 0) return nested(msg("amarok.team.yours", { partner: { seat: team[1 - mine] } }));
    return nested(msg("amarok.team", { a: { seat: team[0] }, b: { seat: team[1] } }));
  }

  // One total per seat or team: "Ann: 12", "the team of Ann and Cleo: 7 (trapped)".
  unitTotals(last, entry) {
    const view = this.view;
    const trapped = last.trapped || [];
    const item = (unit, total, isTrapped) => nested(isTrapped
      ? msg("amarok.web.unit_total.trapped", { unit, total }) : msg("amarok.web.unit_total", { unit, total }));
    if (view.teams) {
      const totals = entry && entry.team_totals;
      return view.teams.map((team, k) => item(this.teamArg(k),
        totals ? totals[k] : (last.totals || [])[team[0]], team.some((s) => trapped[s])));
    }
    return (last.totals || []).map((v, s) => item(this.isYou(s) ? nested(msg("amarok.you")) : { seat: s }, v, trapped[s]));
  }

  // ----- moves as text ------------------------------------------------------------------------
  describe(action) {
    const view = this.view;
    const hands = view.hands || [];
    const you = this.isYou(action.seat);
    const player = action.seat === undefined ? "" : this.name(action.seat);
    switch (action.type) {
      case "take_own": {
        const slot = ((hands[this.viewer] || [])[action.slot]) || {};
        return slot.card ? t("amarok.web.move.take_own", { card: this.cardArg(slot.card), slot: action.slot + 1 })
          : t("amarok.web.move.take_own.unseen", { slot: action.slot + 1 });
      }
      case "take_river": return t("amarok.web.move.take_river", { card: this.cardArg(action.card) });
      case "take_deck": return t("amarok.web.move.take_deck", { count: view.deck_size || 0 });
      case "take_seen": return t("amarok.web.move.take_seen", { card: this.cardArg(action.card), player });
      case "take_unseen": return t("amarok.web.move.take_unseen", { player });
      case "claw_front": return you ? t("amarok.web.move.claw_front.you", { card: this.cardArg(action.card) })
        : t("amarok.web.move.claw_front", { card: this.cardArg(action.card), player });
      case "claw_hand": {
        const slot = ((hands[action.seat] || [])[action.slot]) || {};
        const n = action.slot + 1;
        if (slot.card) {
          return you ? t("amarok.web.move.claw_hand.you", { card: this.cardArg(slot.card), slot: n })
            : t("amarok.web.move.claw_hand", { card: this.cardArg(slot.card), player, slot: n });
        }
        return you ? t("amarok.web.move.claw_hand.unseen.you", { slot: n })
          : t("amarok.web.move.claw_hand.unseen", { player, slot: n });
      }
      case "claw_river": return t("amarok.web.move.claw_river", { card: this.cardArg(action.card) });
      case "claw_deck": return t("amarok.web.move.claw_deck");
      default: return JSON.stringify(action);
    }
  }

  // ----- the final breakdown ------------------------------------------------------------------
  scoreSheet() {
    const view = this.view;
    this.recent = new Set();  // the sheet shows whole rounds: nothing in it is "just happened"
    const n = view.players;
    const seats = Array.from({ length: n }, (_, s) => s);
    const levels = view.scores || [];
    const target = view.rounds_to_win || 3;
    const winners = view.winners || [];
    const head = h("tr", {}, h("th", { scope: "col" }, t("amarok.web.sheet.seat")),
      h("th", { scope: "col" }, t("amarok.web.sheet.round_wins")),
      view.teams ? h("th", { scope: "col" }, t("amarok.web.sheet.team")) : null);
    const body = seats.map((s) => h("tr", {
      class: winners.includes(s) ? "winner" : "", dataset: { seat: String(s), level: String(Math.round(Number(levels[s] || 0))) },
    },
    h("th", { scope: "row" }, this.badge(s),
      winners.includes(s) ? h("span", { class: "amk-flag win" }, ` ${t("amarok.web.flag.winner")}`) : null),
    h("td", { class: "amk-final-level" }, String(Math.round(Number(levels[s] || 0)))),
    view.teams ? h("td", {}, this.teamMark(s)) : null));
    const levelTable = [h("h3", { class: "amk-caption" }, t("amarok.web.sheet.levels", { target })),
      h("div", { class: "amk-table-scroll" }, h("table", { class: "amk-levels" },
        h("thead", {}, head), h("tbody", {}, ...body)))];

    const rounds = (this.ctx.log || []).filter((e) => e.kind === "round_end");
    const rhead = h("tr", {}, h("th", { scope: "col" }, t("amarok.web.sheet.round")),
      h("th", { scope: "col" }, t("amarok.web.sheet.objective")), h("th", { scope: "col" }, t("amarok.web.sheet.ended_by")),
      ...seats.map((s) => h("th", { scope: "col" }, this.badge(s))),
      view.teams ? h("th", { scope: "col" }, t("amarok.web.team_totals")) : null,
      h("th", { scope: "col" }, t("amarok.web.sheet.winners")));
    const rrows = rounds.map((e) => {
      const trapped = new Set(e.trapped || []);
      const objective = t("amarok.web.sheet.objective_cell", { title: nested(objectiveTitle(e.objective)), rule: nested(objectiveRule(e.objective)) });
      return h("tr", { class: "amk-round-row", dataset: { round: String(e.round), winners: JSON.stringify(e.winners || []) } },
        h("th", { scope: "row" }, String(e.round)),
        h("td", {}, objective),
        h("td", {}, this.reason(e)),
        ...seats.map((s) => h("td", {
          class: `amk-round-cell${(e.winners || []).includes(s) ? " winner" : ""}${trapped.has(s) ? " trapped" : ""}`,
          dataset: { seat: String(s), total: String((e.totals || [])[s]) },
        },
        h("div", { class: "amk-cards mini" }, ...((e.fronts || [])[s] || []).map((id) => this.face(id, { extra: "mini" }))),
        h("span", {}, t("amarok.web.total", { total: (e.totals || [])[s] })),
        trapped.has(s) ? h("span", { class: "amk-flag trap" }, ` ${t("amarok.web.flag.trapped")}`) : null,
        (e.winners || []).includes(s) ? h("span", { class: "amk-flag win" }, ` ${t("amarok.web.flag.wins")}`) : null,
        h("span", { class: "amk-after" }, ` → ${(e.levels || [])[s]}`))),
        view.teams ? h("td", {}, (e.team_totals || []).map((v, k) => `${TEAM_MARKS[k % 3].symbol} ${TEAM_MARKS[k % 3].letter}: ${v}`).join(", ")) : null,
        h("td", { class: "amk-winners" }, (e.winners || []).length
          ? this.words(msgParts(msg("amarok.web.sheet.winners_cell", { winners: { list: this.units(e.winners) } })), true)
          : t("amarok.web.sheet.nobody")));
    });
    return h("div", { class: "amarok amk-score" }, levelTable,
      h("h3", { class: "amk-caption" }, t("amarok.web.sheet.rounds")),
      h("div", { class: "amk-table-scroll" }, h("table", { class: "amk-rounds" },
        h("thead", {}, rhead), h("tbody", {}, ...rrows))));
  }

  // How a round ended (the sheet's "Ended by" column).
  reason(e) {
    if (e.reason === "mating") {
      if (e.player === null || e.player === undefined) return t("amarok.web.sheet.reason.mating");
      if (this.isYou(e.player)) return t("amarok.web.sheet.reason.mating.you");
      return this.words(msgParts(msg("amarok.web.sheet.reason.mating.by", { seat: { seat: e.player } })));
    }
    if (e.reason === "all_trapped") return t("amarok.web.sheet.reason.all_trapped");
    if (e.reason === "totals") return t("amarok.web.sheet.reason.totals");
    return String(e.reason);
  }
}

// ----- what just happened ------------------------------------------------------------------
// Cards moved by other seats since the viewer's last move: taken cards (now in front) and
// clawed cards (now at the bottom of the deck); "@objective" when a season card turned it.
function recentCards(ctx) {
  const out = new Set();
  const viewer = ctx.mode === "play" ? ctx.seat ?? null : null;  // a replay rings every last move
  for (const e of ctx.fresh || []) {
    if (e.kind === "take" || e.kind === "claw") {
      if (e.seat !== null && e.seat !== viewer && e.card) out.add(e.card);
    } else if (e.kind === "season" && e.player !== viewer) {
      out.add("@objective");
    }
  }
  return out;
}

function lastEntry(log, kind) {
  for (let k = (log || []).length - 1; k >= 0; k--) if (log[k].kind === kind) return log[k];
  return null;
}

function lastOwnIndex(log, seat) {
  if (seat === null || seat === undefined) return -1;
  for (let k = (log || []).length - 1; k >= 0; k--) if (log[k].seat === seat) return log[k].i;
  return -1;
}

function cap(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

// ----- drawings (our own) -------------------------------------------------------------------
function icon(viewBox, ...children) {
  return svg("svg", { viewBox, class: "amk-icon", "aria-hidden": "true", focusable: "false" }, ...children);
}

function symbolIcon(symbol) {
  switch (symbol) {
    case "heart":
      return icon("0 0 24 24", svg("path", { d: "M12 21s-7.5-4.6-9.6-9.3C.9 8.2 3.2 4.5 6.8 4.5c2.2 0 3.9 1.3 5.2 3.1 1.3-1.8 3-3.1 5.2-3.1 3.6 0 5.9 3.7 4.4 7.2C19.5 16.4 12 21 12 21z" }));
    case "claw":
      return icon("0 0 24 24",
        svg("path", { d: "M6 3c3 5 3 12-1 18", class: "stroke" }),
        svg("path", { d: "M12 2c3 6 3 13-1 20", class: "stroke" }),
        svg("path", { d: "M18 3c3 5 3 12-1 18", class: "stroke" }));
    case "season":
      return icon("0 0 24 24",
        svg("path", { d: "M19 8a8 8 0 0 0-14-1", class: "stroke" }),
        svg("path", { d: "M5 3v4h4" , class: "stroke" }),
        svg("path", { d: "M5 16a8 8 0 0 0 14 1", class: "stroke" }),
        svg("path", { d: "M19 21v-4h-4", class: "stroke" }));
    case "trap":
      return icon("0 0 24 24",
        svg("path", { d: "M2 13a10 10 0 0 0 20 0z" }),
        svg("path", { d: "M2 13l3-5 3 5 4-6 4 6 3-5 3 5", class: "stroke" }));
    default:
      return icon("0 0 24 24", svg("circle", { cx: 12, cy: 12, r: 4 }));
  }
}

function colourIcon(colour) {
  if (colour === "red") {  // Temperate: a broad leaf
    return icon("0 0 24 24",
      svg("path", { d: "M12 2C6 6 4 12 7 18c1.3 2.6 3 3.6 5 4 2-.4 3.7-1.4 5-4 3-6 1-12-5-16z" }),
      svg("path", { d: "M12 6v17", class: "vein" }));
  }
  if (colour === "blue") {  // Boreal: a pine
    return icon("0 0 24 24",
      svg("path", { d: "M12 1l5 7h-3l5 6h-3l5 6H3l5-6H5l5-6H7z" }),
      svg("rect", { x: 10.5, y: 20, width: 3, height: 3.5 }));
  }
  return icon("0 0 24 24", svg("rect", { x: 5, y: 5, width: 14, height: 14, rx: 3 }));
}

function pawIcon() {
  return icon("0 0 24 24",
    svg("ellipse", { cx: 12, cy: 16, rx: 5, ry: 4.2 }),
    svg("ellipse", { cx: 5.5, cy: 10, rx: 2, ry: 2.6 }),
    svg("ellipse", { cx: 9.5, cy: 6, rx: 2, ry: 2.6 }),
    svg("ellipse", { cx: 14.5, cy: 6, rx: 2, ry: 2.6 }),
    svg("ellipse", { cx: 18.5, cy: 10, rx: 2, ry: 2.6 }));
}

function wolfHead(x, y, scale) {
  return svg("g", { transform: `translate(${x} ${y}) scale(${scale})`, class: "wolf" },
    svg("path", { d: "M-10 -12 L-5 -4 L5 -4 L10 -12 L11 2 L6 9 L0 14 L-6 9 L-11 2 Z" }),
    svg("path", { d: "M-3 9 L0 14 L3 9 Z", class: "snout" }),
    svg("circle", { cx: -4.5, cy: 1.5, r: 1.4, class: "eye" }),
    svg("circle", { cx: 4.5, cy: 1.5, r: 1.4, class: "eye" }));
}

function objectiveArt(objective) {
  const scene = objective === "lone_wolf"
    ? [svg("circle", { cx: 88, cy: 22, r: 13, class: "moon" }),
      svg("path", { d: "M0 80 L30 52 L55 68 L80 46 L120 74 L120 80 Z", class: "hill" }),
      wolfHead(50, 40, 1.6)]
    : [svg("path", { d: "M0 80 L25 58 L60 70 L95 54 L120 66 L120 80 Z", class: "hill" }),
      wolfHead(28, 44, 1.05), wolfHead(92, 44, 1.05), wolfHead(60, 36, 1.35)];
  return svg("svg", { viewBox: "0 0 120 80", class: "amk-objective-art", "aria-hidden": "true", focusable: "false" }, scene);
}
