// The recorded snapshots (fixtures/<game>.json, written by record_fixtures.py) as a
// renderer's ctx, the way the room page builds it (src/nemeton/web/js/room.js drawBoard).
import { readFileSync } from "node:fs";

export function plays(game) {
  return JSON.parse(readFileSync(new URL(`./fixtures/${game}.json`, import.meta.url), "utf-8"));
}

/** Every (play, snapshot) of a game. */
export function snapshots(game) {
  return plays(game).flatMap((play) => play.snapshots.map((snap) => ({ play, snap })));
}

/** The ctx a room page gives the renderer for `snap`; `acted` collects the moves it makes. */
export function ctxFor(play, snap, acted = [], mode = null) {
  const seats = snap.seats;
  return {
    view: snap.view, legal: snap.seat === null ? [] : snap.legal_actions, log: snap.log, fresh: [],
    seat: snap.seat, mode: mode || (snap.seat === null ? "watch" : "play"), seats,
    act: (action) => acted.push(action), seatName: (s) => (seats[s] ? seats[s].name : `Seat ${s + 1}`),
    components: play.components || {},
  };
}

export const key = (action) => JSON.stringify(action);

/** Every finished snapshot's final sheet, as the room's score screen ("score") and the replay
 *  draw it: [{play, snap, mode, sheet}]; asserts there is one. */
export function finalSheets(game, renderer) {
  const out = snapshots(game).filter(({ snap }) => snap.terminal).flatMap(({ play, snap }) =>
    ["score", "replay"].map((mode) => ({ play, snap, mode, sheet: renderer.score({ ...ctxFor(play, snap), mode }) })));
  if (!out.length) throw new Error(`no finished ${game} game in the fixtures`);
  return out;
}
