"""Information-set Monte Carlo tree search (single-observer ISMCTS), game-agnostic.

Every iteration draws a full state from the bot's information set (``Observation.sample``: the
engine's determinisation, which depends only on the seat's view), descends the tree along actions
legal in that sample (UCB with availability counts, Cowling, Powley & Whitehouse 2012), expands one
action, plays on at random and backs up each seat's reward. If the game has a heuristic
(``games/<game>/heuristics.values``), the random playout stops after ``rollout_depth`` actions and
the heuristic's values give the rewards; otherwise it runs to the end of the game. By default the
depth is the game's own for the player count (``heuristics.PLAYOUT_DEPTHS``, else 8).

Simultaneous choices (several seats in ``seats_to_act()``) are handled with decoupled UCT: at such
a node every seat picks its action from its *own* statistics, without seeing the others' choices,
and the joint choice leads to the child.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from typing import Final, Literal

from spieltafel.core import Rng, State, get_game, kit_of

from . import Observation

Values = Callable[[State], list[float]]

Joint = tuple[tuple[int, int], ...]


class ActionValue:
    """One action at the root of a search: how often it was tried and the sum of the rewards of the
    seat that chose it; ``chance`` is their mean, the seat's estimated chance to finish first."""

    __slots__ = ("action", "reward", "visits")

    def __init__(self, action: int, visits: int, reward: float) -> None:
        self.action = action
        self.visits = visits
        self.reward = reward

    @property
    def chance(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def __repr__(self) -> str:
        return f"ActionValue({self.action}, visits={self.visits}, chance={self.chance:.3f})"


class Node:
    """A tree node: reached by an action (or a joint choice) from its parent."""

    __slots__ = ("available", "children", "reward", "simultaneous", "visits")

    def __init__(self) -> None:
        self.children: dict[int | Joint, Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        """Sum of the rewards of the seat that chose the action leading here."""
        self.simultaneous: dict[int, dict[int, list[float]]] = {}
        """Decoupled statistics at a simultaneous node: seat → action → [visits, reward]."""


def rewards(state: State) -> list[float]:
    """Reward per seat at the end of a game: a win (ties split) counts 0.75, the score relative to
    the best and worst score 0.25, so that a search also prefers better losses and bigger wins."""
    scores = state.scores()
    winners = state.winners()
    low, high = min(scores), max(scores)
    spread = (high - low) or 1
    return [
        (0.75 / len(winners) if seat in winners else 0.0) + 0.25 * (scores[seat] - low) / spread
        for seat in range(state.players)
    ]


def leaf_rewards(values: list[float], temperature: float) -> list[float]:
    """Rewards from a heuristic's per-seat values at a cut-off: a softmax, i.e. the chance of each
    seat to end up first if the values are points with some noise of size ``temperature``."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


def random_playout(state: State, rng: Rng, depth: int | None = None) -> None:
    """Play uniformly random legal actions: to the end, or ``depth`` actions at most."""
    seats_to_act, legal_actions, step, choice = state.seats_to_act, state.legal_actions, state.step, rng.choice
    left = -1 if depth is None else depth
    while left:
        seats = seats_to_act()
        if not seats:
            return
        seat = seats[0]
        step(seat, choice(legal_actions(seat)))
        left -= 1


GAME_DEPTH: Final = "game"
"""``rollout_depth`` that takes the game's own playout depth for the player count (``PLAYOUT_DEPTHS``)."""
PLAYOUT_DEPTH: Final = 8
"""Random actions before the heuristic judges the position, for a game whose heuristics module sets no
``PLAYOUT_DEPTHS`` for the player count."""


def game_heuristics(game: str, players: int) -> tuple[Values | None, float | None, int | None]:
    """From the game's heuristics module, one look-up: its per-seat values (``heuristics.values``), the
    noise of those values (``heuristics.TEMPERATURE``, in the values' own unit) and its playout depth with
    ``players`` players (``heuristics.PLAYOUT_DEPTHS``: random actions before the values judge, or None: to
    the end of the game, the values unused). A game without them: None, None and ``PLAYOUT_DEPTH``."""
    module = kit_of(get_game(game)).heuristics_module()
    if module is None:
        return None, None, PLAYOUT_DEPTH
    values: Values | None = getattr(module, "values", None)
    temperature: float | None = getattr(module, "TEMPERATURE", None)
    depths: dict[int, int | None] = getattr(module, "PLAYOUT_DEPTHS", {})
    return values, temperature, depths.get(players, PLAYOUT_DEPTH)


class IsmctsBot:
    """ISMCTS with a budget of ``iterations`` and/or ``seconds`` per move.

    With an iteration budget (and no time cap reached) the choice depends only on the seat's
    information and the bot's seed: reproducible. ``seconds`` caps the time per move.
    """

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | Literal["game"] | None = GAME_DEPTH,
        temperature: float | None = None,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTS needs a budget: iterations, seconds or both")
        self.name = "ismcts"
        self.rng = Rng(seed)
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        """Random actions before the heuristic judges; None: to the end; ``GAME_DEPTH``: the game's own."""
        self.temperature = temperature
        """Softmax temperature of the cut-off values; None: the game's own, else 4."""
        self.last_iterations = 0
        self._values: Values | None = None
        self._depth: int | None = None
        self._temperature = 4.0

    def choose(self, observation: Observation) -> int:
        start = time.perf_counter()
        if len(observation.legal) == 1:
            return observation.legal[0]
        root = Node()
        self._prepare(observation.sample(self.rng))
        deadline = start + self.seconds - self._reserve(self.seconds) if self.seconds is not None else math.inf
        collecting = gc.isenabled()
        gc.disable()  # search builds no reference cycles: the collector's passes over the tree are pure cost
        try:
            self.last_iterations = self._search(root, observation, deadline)
            best = self._best(root, observation)
            root.children.clear()  # the tree goes while the collector still waits: re-enabled with the tree
            # alive, its first pass would walk every node the search allocated (tens of ms, past the cap)
        finally:
            if collecting:
                gc.enable()
        return best

    def _prepare(self, first: State) -> None:
        """The game's heuristic, playout depth and temperature, for this search."""
        values, temperature, game_depth = game_heuristics(first.game.name, first.players)
        depth = self.rollout_depth
        self._depth = game_depth if depth == GAME_DEPTH else depth
        self._values = values if self._depth is not None else None
        self._temperature = self.temperature or temperature or 4.0

    def evaluate(self, observation: Observation, focus: int | None = None, focus_visits: int = 0) -> list[ActionValue]:
        """Search like :meth:`choose` and return the root's statistics for the observing seat: every
        legal action with its visits and mean reward (the seat's estimated chance to finish first),
        in the order of the search's visits, most visited first (the first is the action :meth:`choose`
        would play; the iterations for ``focus`` below count in its figures, not in this order).

        ``focus``: an action that must be judged too (the move a person played): when the search gave
        it or its most visited action fewer than ``focus_visits`` visits, more iterations that begin
        with it follow, so that neither estimate rests on a few random playouts and both rest on as
        many. Like :meth:`choose`, it sees only ``observation``.
        """
        root = Node()
        self._prepare(observation.sample(self.rng))
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        collecting = gc.isenabled()
        gc.disable()
        try:
            self.last_iterations = self._search(root, observation, deadline)
            stats = self._root_statistics(root, observation.seat)
            order = sorted(observation.legal, key=lambda a: (-stats.get(a, (0, 0.0))[0], a))
            judged = [order[0]] + ([focus] if focus is not None and focus in observation.legal else [])
            for action in dict.fromkeys(judged):
                done, total = stats.get(action, (0, 0.0))
                below = Node()  # a tree of its own below the action, grown over its extra iterations
                for _ in range(max(0, focus_visits - done)):
                    state = observation.sample(self.rng)
                    state.step(observation.seat, action)
                    total += self._iterate(below, state)[observation.seat]
                    done += 1
                stats[action] = (done, total)
            root.children.clear()
        finally:
            if collecting:
                gc.enable()
        return [ActionValue(a, *stats.get(a, (0, 0.0))) for a in order]

    @staticmethod
    def _root_statistics(root: Node, seat: int) -> dict[int, tuple[int, float]]:
        """Visits and summed reward of ``seat``'s actions at the root."""
        if root.simultaneous:
            return {a: (int(s[0]), s[1]) for a, s in root.simultaneous.get(seat, {}).items()}
        return {a: (c.visits, c.reward) for a, c in root.children.items() if isinstance(a, int)}

    @staticmethod
    def _reserve(seconds: float) -> float:
        """Time kept back from the budget: choosing the action and freeing the tree take about 2 ms
        after a 1 s search, but a process that shares its core can lose it for a scheduler slice
        (Linux gives each runnable task a few ms to tens of ms) in the middle of its last iteration;
        20 ms kept back still let a 1 s move end at 1.012 s with two games on two cores."""
        return min(0.05, seconds / 10)

    def _search(self, root: Node, observation: Observation, deadline: float) -> int:
        """Iterate until the iteration budget is spent or the next iteration could end past
        ``deadline``, judged by twice the longer of the mean iteration so far and the recent one (a
        moving average that gives the last iteration a quarter of the weight): a slow core makes
        every iteration slow, a process that gets starved in the middle of a search slows the recent
        ones, while one stall says little of the next. At least one iteration. Returns the number of
        iterations."""
        done = 0
        start = now = time.perf_counter()
        recent = 0.0
        while (self.iterations is None or done < self.iterations) and (
            done == 0 or now + 2 * max((now - start) / done, recent) < deadline
        ):
            before = now
            self._iterate(root, observation.sample(self.rng))
            done += 1
            now = time.perf_counter()
            recent += ((now - before) - recent) * (1.0 if done == 1 else 0.25)
        return done

    def _best(self, root: Node, observation: Observation) -> int:
        """The most visited action of the observing seat at the root."""
        seat = observation.seat
        if root.simultaneous:
            stats = root.simultaneous.get(seat, {})
            visits = {a: s[0] for a, s in stats.items()}
        else:
            visits = {a: c.visits for a, c in root.children.items() if isinstance(a, int)}
        return max(observation.legal, key=lambda a: (visits.get(a, 0), -a))

    def _iterate(self, root: Node, state: State) -> list[float]:
        path: list[tuple[Node, int | Joint, int | dict[int, int]]] = []
        node = root
        expanded = False
        while not expanded:
            seats = state.seats_to_act()
            if not seats:
                break
            if len(seats) > 1:
                joint = self._choose_jointly(node, state, seats)
                key: int | Joint = tuple(sorted(joint.items()))
                for seat, action in joint.items():
                    state.step(seat, action)
                path.append((node, key, joint))
            else:
                seat = seats[0]
                action, expanded = self._select(node, state, seat)
                state.step(seat, action)
                key = action
                path.append((node, key, seat))
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
                expanded = True
            node = child
        if self._values is None:
            random_playout(state, self.rng)
        else:
            random_playout(state, self.rng, self._depth)
        if state.is_over or self._values is None:
            reward = rewards(state)
        else:
            reward = leaf_rewards(self._values(state), self._temperature)
        for parent, key, chooser in path:
            child = parent.children[key]
            child.visits += 1
            if isinstance(chooser, dict):
                for seat, action in chooser.items():
                    stat = parent.simultaneous[seat][action]
                    stat[0] += 1
                    stat[1] += reward[seat]
            else:
                child.reward += reward[chooser]
        return reward

    def _select(self, node: Node, state: State, seat: int) -> tuple[int, bool]:
        """UCB over the children available in this sample; an untried action first."""
        legal = state.legal_actions(seat)
        children = node.children
        untried = [a for a in legal if a not in children]
        if untried:
            return self.rng.choice(untried), True
        best, best_value = legal[0], -math.inf
        exploration, log, sqrt = self.exploration, math.log, math.sqrt
        for action in legal:
            child = children[action]
            child.available += 1
            visits = child.visits
            value = child.reward / visits + exploration * sqrt(log(child.available) / visits)
            if value > best_value:
                best, best_value = action, value
        return best, False

    def _choose_jointly(self, node: Node, state: State, seats: tuple[int, ...]) -> dict[int, int]:
        """Decoupled UCT: each seat chooses from its own statistics, blind to the others' choices."""
        joint: dict[int, int] = {}
        for seat in seats:
            stats = node.simultaneous.setdefault(seat, {})
            legal = state.legal_actions(seat)
            untried = [a for a in legal if a not in stats]
            if untried:
                action = self.rng.choice(untried)
                stats[action] = [0, 0.0]
            else:
                total = math.log(sum(stats[a][0] for a in legal) or 1)
                action = max(
                    legal,
                    key=lambda a: stats[a][1] / stats[a][0] + self.exploration * math.sqrt(total / stats[a][0]),
                )
            joint[seat] = action
        return joint
