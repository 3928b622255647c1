"""Information-set Monte Carlo tree search (single observer, SO-ISMCTS).

Cowling, Powley & Whitehouse (2012): each iteration samples one full state consistent
with the agent's view (the game's determinizer: the agent never sees the true state),
descends one shared tree whose edges are actions, restricted to the actions legal in that
sample, selects by UCT using *availability* counts (how often a child could have been
chosen) in place of the parent's visits, expands one untried action, plays out and backs up
each seat's return (a team's share for both partners). The move played is the root's most
visited action (equal visits: the best total reward; an exact tie of both: at random, never
by legal-action order). Search stops early once the rest of the budget could no longer change which
action is the most visited: with ``iterations=N`` each decision is the one all N iterations
would make (later decisions of a game may differ, as the random stream has moved on less);
with ``seconds=S`` the iterations left are estimated from the rate so far, with a margin.

Parameters (``ismcts:seconds=1:c=0.5:rollout=heuristic``; unset ones take the defaults):

``iterations=N`` / ``seconds=S``
    Budget per decision: a fixed number of iterations (reproducible) or a time limit. With
    neither, 1000 iterations. ``ismcts:seconds=1`` is the intended playing strength setting.
``c`` (default 0.7)
    UCT exploration constant; returns are shares of the win in [0, 1].
``rollout=random|heuristic``
    Playout policy: uniformly random, or the game heuristic's ``choose_in_state``.
``epsilon`` (default 0)
    With ``rollout=heuristic``, the chance of a random move instead of the heuristic's.
``cutoff=none|round|leaf`` and ``rounds`` (default 1)
    ``none`` plays out to the end of the game; ``round`` stops the playout at the end of
    the ``rounds``-th round from the decision (1: the end of the current round) and scores
    the state with the heuristic's ``evaluate``; ``leaf`` evaluates the
    newly expanded node at once, without a playout.
``prior=none|heuristic`` and ``bias`` (default 1)
    With ``heuristic``, a node's first expansion is the heuristic's choice there (the rest
    follow in random order) and that action keeps a progressive-bias bonus
    ``bias / (visits + 1)`` in selection, so search starts from the heuristic's line and
    leaves it only when the statistics say so.

``evaluation=heuristic|fitted`` (default heuristic)
    What scores a state at a cut-off: the heuristic's ``evaluate``, or a model fitted to
    self-play games (:mod:`nemeton.agents.fitted`; games without a fitted model refuse it).
``widen=K`` (default 0: off)
    Progressive widening: a node visited v times keeps at most ``max(1, ceil(K * sqrt(v)))``
    children, so a wide decision (Edora's turns) is searched deeper among the actions tried
    first (the heuristic's choice first with ``prior=heuristic``) before new ones are added.
    An iteration whose sample allows none of a node's children still adds one.

``root_actions`` (an attribute, not a spec parameter; default None)
    The teacher's hook (:mod:`nemeton.teacher`): when set to a collection of actions, the root
    considers only those of its legal actions, and the search spends its whole budget (no
    early stop: the move is not in question), so the value of one chosen action can be
    estimated with as many iterations as the best one had.

``workers=W`` (default 1, at most the machine's cores)
    Root-parallel search: W - 1 helper processes (kept alive across decisions, stopped by
    ``close()`` or when the agent is garbage collected) and this one search the same view
    with their own random streams, each for its share of ``iterations`` or until the same
    deadline, and the root children's visits and rewards are summed
    (:mod:`nemeton.agents.parallel`). ``iterations=N`` decisions stay reproducible for a seed.

Defaults: in a game with a registered :class:`GameHeuristic`, random rollouts cut off at
the end of the round (``cutoff=round``: many cheap iterations scored by the evaluation),
refined per game by the heuristic's ``search_settings()`` (Alarún: heuristic rollouts and
the heuristic prior, slightly ahead in short measurements at an equal time budget, and the
fitted cut-off evaluation, clearly ahead; Edora: heuristic rollouts and the heuristic prior
with ``bias=10``, clearly ahead of the unbiased search there, and ``widen=0.5``; docs/ai.md), and per game options by its optional ``search_settings_for(options)``, read at
the first decision (Amarok 4 players in teams: heuristic rollouts, docs/ai.md); without a heuristic, random rollouts to the end of
the game. In Amarok the heuristic prior measured weaker (fewer iterations) and heuristic
rollouts no better than 16 times as many random ones.
``str(agent)`` names the parameters that differ from the game's defaults, and those given
that the game's options may refine (e.g. ``widen=0.0`` in Edora, where 2 players widen).
"""

from __future__ import annotations

import math
import os
import random
import time
from typing import TYPE_CHECKING, Any, Callable, Collection, Mapping, Sequence, cast

from ..engine import Action, State
from .base import Agent, AgentSpecError, get_heuristic

NO_STOP = -1  # nemeton.engine.kernel.NO_STOP (that module needs NumPy: imported only with engine=fast)

if TYPE_CHECKING:
    from .parallel import HelperPool


def _choice(*allowed: str):
    def parse(value: str) -> str:
        if value not in allowed:
            raise ValueError(value)
        return value
    parse.__name__ = "|".join(allowed)
    return parse


CHECK_EVERY = 16  # iterations between checks whether the decision is already settled


def _no_evaluation(state: State) -> list[float]:
    """The cut-off evaluation of a search with neither a heuristic nor a fitted model: the
    playouts run to the end of the game (``cutoff=none``), so nothing calls it."""
    raise AgentSpecError("ismcts: a cut-off (cutoff=round or leaf) needs the game's heuristic or evaluation=fitted")


class Node:
    __slots__ = ("parent", "action", "player", "children", "visits", "avail", "reward", "hint")

    def __init__(self, parent: "Node | None", action: Action | None, player: int):
        self.parent = parent
        self.action = action
        self.player = player  # the seat that chose ``action``
        self.children: dict[Action, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.hint: Action | None = None  # the heuristic's choice here (progressive bias)


MAX_ITERATIONS = 10_000_000
MIN_SECONDS, MAX_SECONDS = 0.001, 3600.0
MAX_WORKERS = max(1, os.cpu_count() or 1)  # more processes than cores would only slow each down
DEFAULT_BATCH, MAX_BATCH = 8, 1024  # engine=fast: iterations whose playouts run in one kernel call


class ISMCTSAgent(Agent):
    """Information-set Monte Carlo tree search over determinized samples of the seat's view.

    ``ismcts:iterations=2000``, ``ismcts:seconds=1.0:c=0.7``, ``ismcts:rollout=heuristic:cutoff=round``.
    """

    name = "ismcts"
    params = {"iterations": int, "seconds": float, "c": float,
              "rollout": _choice("random", "heuristic"), "cutoff": _choice("none", "round", "leaf"),
              "epsilon": float, "prior": _choice("none", "heuristic"), "bias": float, "rounds": int,
              "evaluation": _choice("heuristic", "fitted"), "widen": float, "workers": int,
              "engine": _choice("reference", "fast"), "batch": int}
    # Defaults where the game has a heuristic (GameHeuristic.search_settings may refine them
    # per game) and where it has none (plain random rollouts to the end of the game).
    defaults = {"c": 0.7, "rollout": "random", "cutoff": "round", "epsilon": 0.0, "prior": "none", "bias": 1.0,
                "rounds": 1, "evaluation": "heuristic", "widen": 0.0}
    defaults_without_heuristic = {**defaults, "cutoff": "none"}

    def __init__(self, game, seat, rng, iterations: int | None = None, seconds: float | None = None,
                 c: float | None = None, rollout: str | None = None, cutoff: str | None = None,
                 epsilon: float | None = None, prior: str | None = None, bias: float | None = None,
                 rounds: int | None = None, evaluation: str | None = None, widen: float | None = None,
                 workers: int = 1, engine: str = "reference", batch: int = DEFAULT_BATCH):
        super().__init__(game, seat, rng)
        try:
            heuristic = get_heuristic(game.name)
        except AgentSpecError:
            heuristic = None
        d = self.resolved_defaults(heuristic)
        given = {"c": c, "rollout": rollout, "cutoff": cutoff, "epsilon": epsilon, "prior": prior, "bias": bias,
                 "rounds": rounds, "evaluation": evaluation, "widen": widen}
        self._given = {k for k, v in given.items() if v is not None}  # the rest may be refined per options
        self._refined = False
        c = d["c"] if c is None else c
        rollout = d["rollout"] if rollout is None else rollout
        cutoff = d["cutoff"] if cutoff is None else cutoff
        epsilon = d["epsilon"] if epsilon is None else epsilon
        prior = d["prior"] if prior is None else prior
        bias = d["bias"] if bias is None else bias
        rounds = d["rounds"] if rounds is None else rounds
        evaluation = d["evaluation"] if evaluation is None else evaluation
        widen = d["widen"] if widen is None else widen
        if heuristic is None and (rollout == "heuristic" or cutoff != "none" or prior == "heuristic"):
            get_heuristic(game.name)  # raises: no heuristic is written for this game
        if iterations is not None and seconds is not None:
            raise AgentSpecError("ismcts: give iterations=N or seconds=S, not both")
        if iterations is None and seconds is None:
            iterations = 1000
        # bounds keep a spec from a person or a client from hanging a process (nan, inf, 10**20)
        if iterations is not None and not 1 <= iterations <= MAX_ITERATIONS:
            raise AgentSpecError(f"ismcts: iterations must be from 1 to {MAX_ITERATIONS:,}")
        if seconds is not None and not MIN_SECONDS <= seconds <= MAX_SECONDS:
            raise AgentSpecError(f"ismcts: seconds must be from {MIN_SECONDS} to {MAX_SECONDS:g}")
        if not 0.0 <= c <= 100.0:
            raise AgentSpecError("ismcts: c must be from 0 to 100")
        if not 0.0 <= epsilon <= 1.0:
            raise AgentSpecError("ismcts: epsilon must be between 0 and 1")
        if not 0.0 <= bias <= 1000.0:
            raise AgentSpecError("ismcts: bias must be from 0 to 1000")
        if not 1 <= rounds <= 1000:
            raise AgentSpecError("ismcts: rounds must be from 1 to 1000")
        if not 0.0 <= widen <= 1000.0:
            raise AgentSpecError("ismcts: widen must be from 0 (off) to 1000")
        if not 1 <= workers <= MAX_WORKERS:
            raise AgentSpecError(f"ismcts: workers must be from 1 to {MAX_WORKERS} (this machine's cores)")
        if not 1 <= batch <= MAX_BATCH:
            raise AgentSpecError(f"ismcts: batch must be from 1 to {MAX_BATCH}")
        if engine == "fast":
            self._check_fast(game, epsilon)
        self.engine = engine
        self.batch = batch
        self._fast: _FastPlayouts | None = None  # the kernel of engine=fast (made at the first decision)
        self.iterations = iterations
        self.seconds = seconds
        self.c = c
        self.rollout = rollout
        self.cutoff = cutoff
        self.epsilon = epsilon
        self.prior = prior
        self.bias = bias
        self.rounds = rounds
        self.widen = widen
        self.evaluation = evaluation
        self._evaluate = self._evaluator(evaluation, heuristic)
        self.workers = workers
        self._helpers: HelperPool | None = None  # the helper processes of a parallel search (started at the first decision)
        self.heuristic = heuristic
        self.last_iterations = 0
        self.last_settled = False
        self.last_root: Node | None = None
        self.root_actions: Collection[Action] | None = None  # the teacher's hook (docstring)
        parts = [f"iterations={iterations}" if iterations is not None else f"seconds={seconds}"]
        refined: Collection[str] = getattr(heuristic, "refined_settings", frozenset())
        for key, value in (("c", c), ("rollout", rollout), ("cutoff", cutoff), ("epsilon", epsilon),
                           ("prior", prior), ("bias", bias), ("rounds", rounds), ("evaluation", evaluation),
                           ("widen", widen)):
            shown = value != d[key] or key in refined and key in self._given
            if shown and not (key == "bias" and prior == "none") and not (key == "rounds" and cutoff != "round"):
                parts.append(f"{key}={value}")
        if workers != 1:
            parts.append(f"workers={workers}")
        if engine != "reference":
            parts.append(f"engine={engine}")
        if batch != DEFAULT_BATCH:
            parts.append(f"batch={batch}")
        self._label = ":".join(["ismcts", *parts])

    def _evaluator(self, evaluation: str, heuristic) -> Callable[[State], list[float]] | None:
        """What scores a state at a cut-off (``evaluation=``): the game's fitted model
        (AgentSpecError where the game has none), or None for the heuristic's ``evaluate``
        (read from ``self.heuristic`` at each search)."""
        if evaluation == "fitted":
            try:
                from .fitted import fitted_evaluation
            except ImportError:
                raise AgentSpecError("ismcts: evaluation=fitted needs nemeton.agents.fitted") from None
            return fitted_evaluation(self.game)
        return None

    @classmethod
    def resolved_defaults(cls, heuristic) -> dict[str, Any]:
        """The parameter values used where a spec says nothing, for a game with ``heuristic``
        (or None)."""
        if heuristic is None:
            return dict(cls.defaults_without_heuristic)
        settings = {k: v for k, v in heuristic.search_settings().items() if k in cls.defaults}
        return {**cls.defaults, **settings}

    def __str__(self) -> str:
        return self._label

    def settings(self) -> dict[str, Any]:
        return {"iterations": self.iterations, "seconds": self.seconds, "c": self.c, "rollout": self.rollout,
                "cutoff": self.cutoff, "rounds": self.rounds, "epsilon": self.epsilon, "prior": self.prior,
                "bias": self.bias, "evaluation": self.evaluation, "widen": self.widen, "workers": self.workers,
                "engine": self.engine, "batch": self.batch}

    def settings_for(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """The settings in a game with ``options``: the defaults the game's heuristic refines
        per options (``search_settings_for``) applied, as at the first decision."""
        if not self._refined:
            self._refine_for({"options": options})
        if self.engine == "fast":
            from ..engine.kernel import kernel_refusal
            refusal = kernel_refusal(self.game, options)
            if refusal is not None:
                raise AgentSpecError(f"ismcts: engine=fast cannot play these options ({refusal}); "
                                     "use engine=reference")
        return self.settings()

    # ------------------------------------------------------------------------------------
    def act(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        root = self.search(view)
        best = self._most_visited([root.children[a] for a in legal if a in root.children])
        return cast(Action, best.action)  # a child's action (only the root has none)

    def _most_visited(self, children: list[Node]) -> Node:
        """The most visited child; among equally visited ones the best total reward (the best
        mean), and an exact tie of both at random (not the first in legal-action order). The
        random stream is drawn from only on a tie, so untied decisions replay as before."""
        top = max((n.visits, n.reward) for n in children)
        best = [n for n in children if (n.visits, n.reward) == top]
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def search(self, view: Mapping[str, Any]) -> Node:
        """Build the search tree for ``view`` (with ``workers`` > 1, the merged root of every
        process's tree); returns its root."""
        if not self._refined:
            self._refine_for(view)
        if self.engine == "fast" and self._fast is None:
            # the kernel is made (and, once per process, loaded from Numba's cache: about 2 s)
            # before the clock starts, as a program loads its model before playing
            self._fast_playouts(self.game.sampler(view)(random.Random(0)))
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        if self.workers == 1 or (self.iterations is not None and self.iterations < self.workers):
            return self.search_alone(view, self.iterations, deadline)
        return self._search_in_parallel(view, deadline)

    def search_alone(self, view: Mapping[str, Any], limit: int | None, deadline: float | None) -> Node:
        """Search ``view`` in this process for ``limit`` iterations or until ``deadline``
        (``time.perf_counter()``; the clock is shared by the processes of one machine)."""
        if self.engine == "fast":
            return self._search_fast(view, limit, deadline)
        sample = self.game.sampler(view)
        rng = self.rng
        root = Node(None, None, self.seat)
        started = time.perf_counter()
        done = 0
        settled = False
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:  # at least one (a move needs a child)
                break
            state = sample(rng)
            self._iterate(root, state)
            done += 1
            if (done % CHECK_EVERY == 0 and done != limit and self.root_actions is None
                    and self._settled(root, done, limit, started, deadline)):
                settled = True
                break
        self.last_iterations = done
        self.last_settled = settled
        self.last_root = root
        return root

    # ----- playouts in the compiled kernel (engine=fast) ---------------------------------
    @staticmethod
    def _check_fast(game, epsilon: float) -> None:
        """Refuse engine=fast where it cannot run: no kernel for the game, the ``fast`` extra
        missing, or a rollout the kernel does not play (epsilon-greedy)."""
        if game.kernel is None:
            raise AgentSpecError(f"ismcts: {game.name!r} has no compiled kernel; use engine=reference")
        try:
            import numba  # noqa: F401
        except ImportError:
            raise AgentSpecError("ismcts: engine=fast needs the fast extra (pip install 'nemeton[fast]')") from None
        if epsilon:
            raise AgentSpecError("ismcts: engine=fast plays rollouts without epsilon; use engine=reference")

    def _search_fast(self, view: Mapping[str, Any], limit: int | None, deadline: float | None) -> Node:
        """:meth:`search_alone` with the playouts in the game's kernel: each batch of
        ``batch`` iterations samples its states from the view in Python (the determinizer
        stays the gate: the kernel only ever holds sampled states), descends the tree in
        Python as the reference search does, loads each leaf's state into a kernel slot and
        plays all the batch's playouts (with their cut-off and evaluation) in one compiled call.
        The nodes on an iteration's path count its visit at once and its reward when the batch
        is played out, so later descents of the same batch spread out (a virtual loss); with
        ``batch=1`` the search is the reference's, with the kernel's random streams."""
        sample = self.game.sampler(view)
        rng = self.rng
        root = Node(None, None, self.seat)
        started = time.perf_counter()
        done = 0
        settled = False
        fast: _FastPlayouts | None = None
        leaf_cut = self.cutoff == "leaf"
        cut = self.cutoff != "none"
        rounds = self.rounds
        next_check = CHECK_EVERY
        while True:
            if limit is not None and done >= limit:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:  # at least one (a move needs a child)
                break
            n = self.batch if limit is None else min(self.batch, limit - done)
            pending: list[tuple[Node, int]] = []
            for _ in range(n):
                state = sample(rng)
                start_round = state.round
                node, expanded = self._descend(root, state)
                x = node
                while x.parent is not None:  # the visit counts now, the reward when played out
                    x.visits += 1
                    x = x.parent
                root.visits += 1
                if state.is_terminal():
                    _back_up(node, state.returns())
                    continue
                if fast is None:
                    fast = self._fast_playouts(state)
                slot = len(pending)
                fast.kernel.load(slot, state)
                fast.stop[slot] = (0 if leaf_cut and expanded else start_round + rounds) if cut else NO_STOP
                pending.append((node, slot))
            done += n
            if pending:
                assert fast is not None
                values = fast.play(len(pending), cut)
                for node, slot in pending:
                    _back_up(node, values[slot])
            if done >= next_check and done != limit and self.root_actions is None:
                next_check = done + CHECK_EVERY
                if self._settled(root, done, limit, started, deadline):
                    settled = True
                    break
        self.last_iterations = done
        self.last_settled = settled
        self.last_root = root
        return root

    def _fast_playouts(self, state: State) -> "_FastPlayouts":
        """The kernel and random streams of engine=fast for ``state``'s options (made once:
        an agent plays one game; its streams are seeded from the agent's)."""
        fast = self._fast
        if fast is None or fast.kernel.options != state.options:
            fast = self._fast = _FastPlayouts(self.game, state.options, self.batch, self.rng, self.rollout,
                                              self.evaluation if self.heuristic is not None
                                              or self.evaluation == "fitted" else None)
        return fast

    def _refine_for(self, view: Mapping[str, Any]) -> None:
        """Settings that suit the game's options (a heuristic's optional
        ``search_settings_for(options)``, e.g. Amarok in teams), for the parameters the spec
        left unset; read once, at the first decision (an agent plays one game)."""
        self._refined = True
        refine = getattr(self.heuristic, "search_settings_for", None)
        if refine is None:
            return
        for key, value in refine(view.get("options", {})).items():
            if key in self.defaults and key not in self._given:
                setattr(self, key, value)
        if "evaluation" not in self._given:
            self._evaluate = self._evaluator(self.evaluation, self.heuristic)

    # ----- root-parallel search (nemeton.agents.parallel) -------------------------------
    def _search_in_parallel(self, view: Mapping[str, Any], deadline: float | None) -> Node:
        """``workers - 1`` helper processes and this one search the same view, each with its
        own random stream (the helpers' seeds drawn from ours) and its share of an iteration
        budget, or all until the same deadline; the root children's visits and rewards are
        summed."""
        from .parallel import HelperPool
        helpers = self.workers - 1
        if self._helpers is None or self._helpers.closed:
            self._helpers = HelperPool(self, helpers)
        if self.iterations is None:
            shares: list[int | None] = [None] * self.workers
        else:
            shares = [self.iterations // self.workers + (i < self.iterations % self.workers)
                      for i in range(self.workers)]
        seeds = [self.rng.getrandbits(63) for _ in range(helpers)]
        futures = self._helpers.submit(self.game.name, self.seat, self._helper_settings(), seeds, view,
                                       shares[1:], deadline)
        root = self.search_alone(view, shares[0], deadline)
        iterations, settled = self.last_iterations, self.last_settled
        for future in futures:
            done, their_settled, stats = future.result()
            iterations += done
            settled = settled and their_settled
            for action, visits, reward in stats:
                child = root.children.get(action)
                if child is None:
                    child = root.children[action] = Node(root, action, self.seat)
                    child.visits = 0
                child.visits += visits
                child.reward += reward
        root.visits = sum(n.visits for n in root.children.values())
        self.last_iterations = iterations
        self.last_settled = settled
        return root

    def _helper_settings(self) -> dict[str, Any]:
        """The parameters a helper's own (single-process) search agent is built with."""
        return {"c": self.c, "rollout": self.rollout, "cutoff": self.cutoff, "epsilon": self.epsilon,
                "prior": self.prior, "bias": self.bias, "rounds": self.rounds, "evaluation": self.evaluation,
                "widen": self.widen, "engine": self.engine, "batch": self.batch}

    def close(self) -> None:
        """Stop the helper processes of a parallel search (if any were started)."""
        if self._helpers is not None:
            self._helpers.close()
            self._helpers = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_helpers"] = None  # processes do not travel; a copy starts its own
        return state

    @staticmethod
    def _settled(root: Node, done: int, limit: int | None, started: float, deadline: float | None) -> bool:
        """True when the rest of the budget cannot change the move: every iteration passes
        through one root child, so once the most visited child leads the runner-up by more
        visits than iterations remain, it stays the most visited. Exact for an iteration
        budget; for a time budget the remaining iterations are estimated from the rate so
        far (with a margin)."""
        remaining: float
        if limit is not None:
            remaining = limit - done
        else:  # a time budget: deadline is a time
            now = time.perf_counter()
            remaining = 1.5 * done * (deadline - now) / max(now - started, 1e-9) + CHECK_EVERY  # type: ignore[operator]
        first = second = 0
        for child in root.children.values():
            v = child.visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        return first - second > remaining

    def _expand_choice(self, node: Node, state: State, player: int, untried: list[Action], fresh: bool) -> Action:
        """Which untried action to add. With ``prior=heuristic`` a node's first child is the
        heuristic's choice (remembered as the node's hint for progressive bias); the others
        come in random order."""
        if len(untried) == 1:
            action = untried[0]
        elif fresh and self.prior == "heuristic":
            heuristic = self.heuristic
            if heuristic is None:
                raise AgentSpecError("ismcts: prior=heuristic needs the game's heuristic")
            # the kernel chooses for the state's current player: in a simultaneous phase the
            # root's seat may be another acting seat, which the Python heuristic chooses for
            fast = self._fast if self.engine == "fast" and player == state.current_player else None
            chosen = fast.heuristic_choice(state) if fast is not None else None
            # a fresh node has tried nothing: untried is every legal action, the kernel's
            # heuristic chooses among the same ones
            # (with root_actions the kernel's choice may be one the root leaves out)
            action = (chosen if chosen is not None and (self.root_actions is None or chosen in untried)
                      else heuristic.choose_in_state(state, player, untried, self.rng))
        else:
            return self.rng.choice(untried)
        if fresh:
            node.hint = action
        return action

    def _iterate(self, root: Node, state: State) -> None:
        start_round = state.round
        node, expanded = self._descend(root, state)
        if expanded and self.cutoff == "leaf" and not state.is_terminal():
            heuristic = self.heuristic
            values = (self._evaluate or (heuristic.evaluate if heuristic is not None else _no_evaluation))(state)
        else:
            values = self._playout(state, start_round)
        parent = node.parent  # None only at the root
        while parent is not None:
            node.visits += 1
            node.reward += values[node.player]
            node = parent
            parent = node.parent
        root.visits += 1

    def _descend(self, root: Node, state: State) -> tuple[Node, bool]:
        """The tree policy: from ``root`` down the children legal in ``state`` (applying
        their actions to it) to a node with an untried action, which it adds (``expanded``),
        or to the end of the game. Returns the last node and ``expanded``."""
        c = self.c
        bias = self.bias if self.prior == "heuristic" else 0.0
        widen = self.widen
        log = math.log
        sqrt = math.sqrt
        node = root
        player = self.seat  # the root decision is ours even where several seats act at once
        expanded = False
        restrict = self.root_actions  # at the root only
        while not state.is_terminal():
            legal = state._legal_actions(player)
            if restrict is not None:
                legal = [a for a in legal if a in restrict]
                restrict = None
                if not legal:
                    raise ValueError("ismcts: none of root_actions is legal in a state sampled from the view")
            children = node.children
            untried = []
            for a in legal:
                child = children.get(a)
                if child is None:
                    untried.append(a)
                else:
                    child.avail += 1
            if (widen and untried and len(untried) < len(legal)
                    and len(children) >= widen * sqrt(node.visits + 1)):
                # progressive widening: no new child yet, choose among the children legal here
                legal, untried = [a for a in legal if a in children], []
            if untried:
                action = self._expand_choice(node, state, player, untried, not children)
                child = Node(node, action, player)
                children[action] = child
                state.apply_unchecked(action, player)
                node = child
                expanded = True
                break
            # the child of the best value and its action: every value is above -1 (rewards and
            # evaluations are shares of a win), so the loop chooses one
            best = node
            best_action: Action | None = None
            best_value = -1.0
            hint = node.hint
            for a in legal:
                ch = children[a]
                v = ch.visits
                value = ch.reward / v + c * sqrt(log(ch.avail) / v)
                if hint is not None and a == hint:
                    value += bias / (v + 1)
                if value > best_value:
                    best, best_action, best_value = ch, a, value
            if best_action is None:
                raise ValueError(f"ismcts: no child valued above -1 (rewards must be shares of a win): {legal}")
            state.apply_unchecked(best_action, player)
            node = best
            player = state.current_player
        return node, expanded

    def _playout(self, state: State, start_round: int) -> list[float]:
        stop_round = start_round + self.rounds
        rng = self.rng
        heuristic = self.heuristic
        evaluate = self._evaluate or (heuristic.evaluate if heuristic is not None else _no_evaluation)
        cut = self.cutoff != "none"
        if self.rollout == "heuristic":
            if heuristic is None:
                raise AgentSpecError("ismcts: rollout=heuristic needs the game's heuristic")
            choose = heuristic.choose_in_state
            epsilon = self.epsilon
            rand = rng.random
            choice = rng.choice
            while not state.is_terminal():
                if cut and state.round >= stop_round:
                    return evaluate(state)
                p = state.current_player
                legal = state._legal_actions(p)
                if epsilon and rand() < epsilon:
                    state.apply_unchecked(choice(legal), p)
                else:
                    state.apply_unchecked(choose(state, p, legal, rng), p)
        else:
            choice = rng.choice
            while not state.is_terminal():
                if cut and state.round >= stop_round:
                    return evaluate(state)
                p = state.current_player
                state.apply_unchecked(choice(state._legal_actions(p)), p)
        return state.returns()


def _back_up(node: Node, values: Sequence[float]) -> None:
    """Add an iteration's returns to the nodes on its path (their visits already counted)."""
    parent = node.parent
    while parent is not None:
        node.reward += values[node.player]
        node = parent
        parent = node.parent


class _FastPlayouts:
    """A kernel of ``batch`` slots for one game's options, with a random stream per slot and
    seat (seeded from the agent's stream) and the playout policy and cut-off evaluation of the
    search's settings."""

    def __init__(self, game, options, batch: int, rng, rollout: str, evaluation: str | None):
        import numpy as np

        from ..engine import mt
        from ..engine.kernel import POLICIES, Kernel
        self.kernel = game.kernel()(options, batch)
        players = self.kernel.players
        self.streams = mt.new_streams(batch * players).reshape(batch, players, mt.STREAM_WORDS)
        for i in range(batch):
            for s in range(players):
                mt.seed(self.streams[i, s], rng.getrandbits(63))
        self.policies = np.full(players, POLICIES[rollout], dtype=np.int64)
        # the heuristic prior's choices, made in a kernel of one slot where the game's kernel
        # has the heuristic's choice apart from its playouts (Alarún, Edora)
        self.actions = game.action_space(options)
        self.prior: Any = None
        if type(self.kernel).heuristic_actions is not Kernel.heuristic_actions:  # the kernel has one
            self.prior = game.kernel()(options, 1)
            self.prior_streams = self.streams[:1].copy()
        self.stop = np.zeros(batch, dtype=np.int64)
        self.evaluation = evaluation
        self._out = np.zeros((batch, players), dtype=np.float64)

    def heuristic_choice(self, state: State) -> Action | None:
        """The game heuristic's action for ``state``'s seat to act, chosen in the kernel, or
        None where the kernel has no heuristic choice apart from its playouts."""
        kernel = self.prior
        if kernel is None:
            return None
        kernel.load(0, state)
        return self.actions[int(kernel.heuristic_actions(self.prior_streams)[0])]

    def play(self, used: int, cut: bool):
        """Play the first ``used`` slots on (the others stay as they are: stop at round 0);
        each slot's returns, or its evaluation where it was cut off."""
        self.stop[used:] = 0
        kernel = self.kernel
        kernel.playout(self.policies, self.streams, -1, self.stop)
        if cut and self.evaluation is not None:
            return kernel.evaluate(self.evaluation, self._out).tolist()
        return kernel.returns().tolist()
