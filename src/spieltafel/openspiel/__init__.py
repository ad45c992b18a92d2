"""Every registered Spieltafel game as an OpenSpiel game (``pip install 'spieltafel[openspiel]'``).

Importing this package registers each game of :func:`spieltafel.core.all_games` with
``pyspiel.register_game`` under ``spieltafel_<name>``; then, in the same process::

    import pyspiel
    import spieltafel.openspiel  # registers the games

    game = pyspiel.load_game("spieltafel_niagara(players=4,ending=finish-round)")
    state = game.new_initial_state()

The adapter knows no game by name: everything comes from the engine contract (``Game`` and
``State``) and the RL encoding (``spieltafel.rl.encoding``), so a game registered from outside the
project becomes an OpenSpiel game the same way (``register_all()`` again registers games added later;
``load`` calls it).

**Parameters** (OpenSpiel's ``GameParameter``): ``players`` (default: the game's smallest count; at
least 2, since the returns are zero-sum),
one per game option under its name with ``-`` written ``_`` (``second_canoe=launch-only``; an
option whose every value is a number is an int parameter: ``round_limit=100``), and for games with
simultaneous choices ``turn_based`` (see below).

**Game type, declared honestly.**

- *Information*: ``IMPERFECT_INFORMATION`` (hidden cards, deck order, secret choices).
- *Chance*: ``EXPLICIT_STOCHASTIC``, with one chance node: the root, whose outcome is the engine's
  seed, uniform over ``range(65536)`` (``DEALS``; ``deal N`` as a string). The seed sets up the game
  (shuffles, face-down pieces) and seeds the state's own generator, from which the engine draws
  every later chance event inside ``apply`` (draws, refills). So after the root a state and an action
  determine the next state: the future draws are *hidden information* (the generator is in the full
  state, in no view), not chance nodes. Chance nodes for every draw would need every engine to stop
  at each one. ``SAMPLED_STOCHASTIC`` was the other honest choice, and the one the engines suggest;
  we did not take it because OpenSpiel cannot serialise a sampled-stochastic *Python* game
  (``serialize_game_and_state`` asks the game for an RNG state that Python games cannot provide),
  so ``random_sim_test`` with serialisation could not run. ``resample_from_infostate`` draws the
  hidden cards and a new generator from the engine's ``determinise`` (any 64-bit generator state,
  not only the 65,536 of the root), so a search never learns the real future draws.
- *Dynamics*: ``SEQUENTIAL``, or ``SIMULTANEOUS`` for games whose ``Game.simultaneous`` is true
  (Niagara's secret paddle cards). At a node where several seats must choose,
  ``current_player()`` is ``PlayerId.SIMULTANEOUS`` and ``apply_actions`` takes one action per
  player: the seats that choose get their engine actions applied in seat order; a seat with
  nothing to choose has no legal actions (``[]``) and its entry (OpenSpiel passes 0) is ignored.
  Where one seat acts (Niagara's canoe moves), the node is an ordinary decision node. Such a game
  works with ``pyspiel.convert_to_turn_based`` and ``turn_based_simultaneous_game(game=...)``.
  With ``turn_based=true`` the same game is ``SEQUENTIAL``: the choosing seats act one after the
  other in seat order, each blind to the earlier secret choices, as the engine runs them anyway;
  this is what OpenSpiel's transformation gives, but it keeps ``resample_from_infostate``
  (OpenSpiel's transformation does not forward it), which OpenSpiel's ISMCTS needs.
- *Utility*: ``ZERO_SUM``, terminal rewards only. From the engine's winners (ties share the win):
  seat ``i`` with win share ``w_i`` (``1/k`` for each of ``k`` winners, else 0) gets
  ``n/(n-1) * (w_i - 1/n)``. Two players: +1 a win, -1 a loss, 0 a shared win. ``n`` players: +1 a
  sole win, ``-1/(n-1)`` a loss; the sum is always 0, ``min_utility = -1/(n-1)``,
  ``max_utility = 1``. Scores do not enter (the games rank by their own tie-breaks already).
- *Length*: ``max_game_length`` is the game's ``Game.max_game_length(players, options)`` (a
  generous bound), 100,000 for a game that declares none. A game still running after that many
  decisions ends there as a draw (every return 0): a safety net no game of ours reaches.
- ``num_distinct_actions`` is ``Game.action_space_size(players)``: OpenSpiel's action ids are our
  action indexes; action strings are our notation (``State.action_text``).

**Observations.** Strings are the seat's ``State.view(seat)`` as canonical JSON; tensors are the
game's RL encoding of that view (``spieltafel.rl.encoding``: the same vector the PettingZoo and
Gymnasium environments observe). Nothing else enters, so neither ever depends on what the seat
cannot see. ``information_state_string`` / ``_tensor`` and ``observation_string`` / ``_tensor`` are
the same: the engine's information set *is* the view (``determinise`` depends on it alone), and a
view carries what a player is allowed to remember. That is not OpenSpiel's perfect recall of
every past observation; tabular algorithms that need perfect recall (CFR) are out of reach for
these games anyway. A public observer (``private_info=NONE``) gives the spectator view as a string.

**Search.** ``resample_from_infostate(player, sampler)`` is ``State.determinise(seat, rng)`` with a
generator seeded from two draws of OpenSpiel's ``sampler``. ``serialize`` is OpenSpiel's Python-game
format, whose pickled state is our full-state document (``State.to_json``), so
``pyspiel.serialize_game_and_state`` / ``deserialize_game_and_state`` round-trip exactly.

Bots for the arena: :mod:`spieltafel.openspiel.bots` (``openspiel-ismcts``, ``openspiel-mcts``,
``openspiel-random``).
"""

from __future__ import annotations

from .games import (
    SpieltafelGame,
    SpieltafelState,
    game_string,
    load,
    register_all,
    short_name,
    wrap,
)

register_all()

__all__ = ["SpieltafelGame", "SpieltafelState", "game_string", "load", "register_all", "short_name", "wrap"]
