// Checks every game's renderer passes, on its recorded snapshots (the games' own tests call them).
import assert from "node:assert/strict";

import { ctxFor, snapshots } from "./fixtures.mjs";
import { attr, byClass, elements, text } from "./vnode.mjs";

/** A seat named by its number ("Seat 2", "player 1") rather than its name. */
export const BY_NUMBER = /\b(seat|player) \d/i;

/** What a person reads or hears of `node`: its text, and its elements' labels and titles. */
export function words(node) {
  return [text(node), ...elements(node).map((el) => `${attr(el, "aria-label") || ""} ${attr(el, "title") || ""}`)].join(" ");
}

/** A replay of any snapshot with moves to make highlights nothing and acts nothing. */
export function replayActsNothing(game, renderer) {
  const playable = snapshots(game).filter(({ snap }) => snap.legal_actions.length);
  assert.ok(playable.length);
  for (const { play, snap } of playable) {
    const { board, bar } = renderer.draw(ctxFor(play, snap, [], "replay"));
    assert.equal(byClass([board, bar], "legal").length, 0);
    assert.ok(elements([board, bar]).every((el) => !attr(el, "onclick") && !attr(el, "onkeydown")));
  }
}

/** Every legal move of every snapshot has words for the "Moves" list (not the action's JSON). */
export function everyMoveHasWords(game, renderer) {
  for (const { play, snap } of snapshots(game)) {
    for (const a of snap.legal_actions) {
      const said = renderer.label(a, ctxFor(play, snap));
      assert.ok(said && !said.startsWith("{") && !said.startsWith("type "), said);
    }
  }
}
