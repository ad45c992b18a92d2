"""Niagara rules: the secret choice, the turn (buy-back, cloud, canoes, theft), the river, the end.

Quotes are from the player's summary (``niagara-rules-summary-de.txt``); every decision on an
unclear point is argued in ``docs/rules/niagara.md``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from spieltafel.core import Event, IllegalActionError

from .components import (
    ALL_CARDS,
    ARMS,
    CANOE_NAMES,
    CANOES,
    CARD_NAMES,
    CAVE_AT,
    CLOUD,
    COLOURS,
    DOWNSTREAM,
    FALLEN,
    GEM_COLOURS,
    GEM_VALUES,
    LOAD_COST,
    SHORE,
    SPACE_NAMES,
    UPSTREAM,
    WEATHER_MAX,
    WEATHER_MIN,
    WIN_EACH_COLOUR,
    WIN_SAME_COLOUR,
    WIN_TOTAL,
)
from .notation import (
    BUY,
    CANOE,
    CLOUD_DOWN,
    CLOUD_UP,
    DONE,
    DOWN,
    LEAVE,
    LOAD,
    PASS,
    PLAY,
    STEAL,
    STEP_KINDS,
    UNLOAD,
    UP,
    action_text,
    canoe_action,
)
from .river import (
    DOWNSTREAM_HEADING,
    ENDING,
    MOVING,
    NO_HEADING,
    START,
    UPSTREAM_HEADING,
    Leg,
    carried,
    choices,
    joint_choices,
    push_disc,
    transitions,
)

if TYPE_CHECKING:
    from .state import NiagaraState

SECRET: Final = 0
"""Phase: every seat that has not yet done so chooses a paddle card face down."""
BUYBACK: Final = 1
"""Phase: the seat on turn may buy back a canoe from below the falls."""
WEATHER: Final = 2
"""Phase: the seat on turn played the cloud and moves it on the weather track."""
MOVE: Final = 3
"""Phase: the seat on turn moves its canoes, one step or gem action at a time."""
THEFT: Final = 4
"""Phase: a canoe ended its move upstream beside another's loaded canoe and may take its gem."""
OVER: Final = 5
PHASE_NAMES: Final = ("secret", "buy-back", "weather", "move", "theft", "over")
NO_GEM: Final = -1


# -- legal actions --------------------------------------------------------------------------------
def legal_actions(s: NiagaraState, seat: int) -> list[int]:
    """Every legal action of ``seat``, ascending."""
    phase = s.phase
    if phase == SECRET:
        if s.choice[seat] >= 0:
            return []
        hand = s.hands[seat]
        return [PLAY + card for card in range(len(CARD_NAMES)) if hand >> card & 1]
    if seat != s.current or phase == OVER:
        return []
    if phase == MOVE:
        return move_actions(s)
    if phase == BUYBACK:
        banked = s.banked[seat]
        return [BUY + colour for colour in range(COLOURS) if banked[colour]] + [LEAVE]
    if phase == WEATHER:
        return [a for a, ok in ((CLOUD_UP, s.weather < WEATHER_MAX), (CLOUD_DOWN, s.weather > WEATHER_MIN)) if ok]
    return [*theft_victims(s), PASS]


def move_actions(s: NiagaraState) -> list[int]:
    """The steps open to the seat on turn: the moving canoe's, or the first step of any canoe that
    has still to move ("Steht ein Kanu auf dem Fluss, muss es auch bewegt werden"), a launch (one
    per turn), or ``done`` when only an optional launch is left."""
    seat = s.current
    if s.active >= 0:
        return canoe_steps(s, s.active, active_leg(s))
    actions: list[int] = []
    launchable = False
    levels = cave_levels(s)
    for canoe in range(CANOES):
        space = s.canoes[seat * CANOES + canoe]
        if s.moved >> canoe & 1 or space == FALLEN or (space == SHORE and s.launched):
            continue
        steps = canoe_steps(s, canoe, start_leg(s, canoe, levels))
        launchable = launchable or (space == SHORE and bool(steps))
        actions.extend(steps)
    if launchable and not s.must & ~s.moved and not launch_compulsory(s):
        actions.append(DONE)
    return actions


def launch_compulsory(s: NiagaraState) -> bool:
    """"In der ersten Runde muss man eines seiner Kanus ins Wasser stellen": only in the first round,
    and only with no canoe on the water, must a canoe be launched; afterwards a canoe ashore may
    stay ashore ("Ab der zweiten Runde darf man ...")."""
    return s.round == 1 and not s.must


def canoe_steps(s: NiagaraState, canoe: int, leg: Leg) -> list[int]:
    """The step actions of ``canoe`` that can still end in a complete move; a load names a colour
    present in the cave ("darf er sich aussuchen, welchen er einsammelt"). With ``direction=per-turn``
    the partner canoe that must still move has to be able to follow in the same direction."""
    partner = canoe ^ 1
    if s.options["direction"] == "per-turn" and s.must >> partner & 1 and not s.moved >> partner & 1:
        index = s.current * CANOES + partner
        kinds = joint_choices(leg, (s.canoes[index], s.choice[s.current] + 1, s.cargo[index] != NO_GEM))
    else:
        kinds = choices(leg)
    actions: list[int] = []
    for kind in kinds:
        if kind == LOAD:
            cave = s.caves[CAVE_AT[leg[0]]]
            actions.extend(canoe_action(canoe, LOAD + colour) for colour in range(COLOURS) if cave[colour])
        else:
            actions.append(canoe_action(canoe, kind))
    return actions


def cave_levels(s: NiagaraState) -> tuple[int, ...]:
    """Per cave: no gem, one gem, or two or more (all a move's legality depends on).

    Asked several times per step while the caves rarely change: the last answer is kept with a copy
    of the caves it was computed from, and given again while the caves are equal to that copy."""
    global _last_levels
    caves, levels = _last_levels
    if s.caves != caves:
        levels = tuple([min(sum(gems), 2) for gems in s.caves])
        _last_levels = ([gems[:] for gems in s.caves], levels)
    return levels


_last_levels: tuple[list[list[int]], tuple[int, ...]] = ([], ())


def start_leg(s: NiagaraState, canoe: int, levels: tuple[int, ...] | None = None) -> Leg:
    """A canoe's move before its first step: the card's full value ("jedes die komplette Zahl").
    ``levels``: :func:`cave_levels` of ``s`` where the caller has them already."""
    index = s.current * CANOES + canoe
    space = s.canoes[index]
    launch_only = space == SHORE and bool(s.must) and s.options["second-canoe"] == "launch-only"
    anywhere = s.options["loading"] == "anywhere"
    value = s.choice[s.current] + 1
    heading = s.turn_heading if s.options["direction"] == "per-turn" else NO_HEADING
    loaded = s.cargo[index] != NO_GEM
    gem_only = s.options.get("gem-only-move") == "allowed"
    return (space, value, heading, START, loaded, levels or cave_levels(s), launch_only, anywhere, False, gem_only)


def active_leg(s: NiagaraState) -> Leg:
    index = s.current * CANOES + s.active
    anywhere = s.options["loading"] == "anywhere"
    loaded = s.cargo[index] != NO_GEM
    gem_only = s.options.get("gem-only-move") == "allowed"
    handled = bool(s.handled)
    return (s.canoes[index], s.points, s.heading, s.stage, loaded, cave_levels(s), False, anywhere, handled, gem_only)


def theft_victims(s: NiagaraState) -> list[int]:
    """"Diebe!": the loaded canoes of other players on the thief's space."""
    space = s.canoes[s.current * CANOES + s.active]
    return [
        STEAL + index
        for index, where in enumerate(s.canoes)
        if where == space and index // CANOES != s.current and s.cargo[index] != NO_GEM
    ]


# -- apply ----------------------------------------------------------------------------------------
def apply(s: NiagaraState, seat: int, action: int, events: list[Event] | None) -> None:
    """Carry out a legal ``action`` of ``seat``."""
    if CANOE <= action < STEAL:
        canoe, kind = divmod(action - CANOE, STEP_KINDS)
        canoe_step(s, seat, canoe, kind, events)
    elif action < CLOUD_UP:
        commit_card(s, seat, action - PLAY, events)
    elif action < BUY:
        move_cloud(s, seat, 1 if action == CLOUD_UP else -1, events)
    elif action < LEAVE:
        buy_back(s, seat, action - BUY, events)
    elif action == LEAVE:
        leave_below_the_falls(s, seat, events)
    elif action < PASS:
        steal(s, seat, action - STEAL, events)
    elif action == PASS:
        spare_the_victim(s, events)
    else:
        end_turn(s, events)


def commit_card(s: NiagaraState, seat: int, card: int, events: list[Event] | None) -> None:
    """"Alle Spieler wählen verdeckt eine Paddelkarte": the card leaves the hand face down; the
    others learn only that this seat has chosen. The last choice starts the turns."""
    s.hands[seat] &= ~(1 << card)
    s.choice[seat] = card
    if events is not None:
        events.append(Event("choose", {"seat": seat}, {seat: {"card": CARD_NAMES[card]}}))
    if min(s.choice) >= 0:
        begin_turn(s, s.ring, events)


def begin_turn(s: NiagaraState, seat: int, events: list[Event] | None) -> None:
    """The seat reveals its card ("Der Startspieler ist der Erste, der seine Paddelkarte umdreht").
    A player without banked gems gets one canoe below the falls back for free (docs: buy-back)."""
    s.current = seat
    s.revealed[seat] = 1
    card = s.choice[seat]
    s.played[seat].append(card)
    if events is not None:
        events.append(Event("reveal", {"seat": seat, "card": CARD_NAMES[card]}))
    base = seat * CANOES
    s.rescue_declined = 0
    if not any(s.banked[seat]) and FALLEN in s.canoes[base : base + CANOES]:
        rescue_for_free(s, seat, events)
    s.must = sum(1 << c for c in range(CANOES) if SHORE < s.canoes[base + c] < FALLEN)
    s.moved = s.launched = s.handled = 0
    s.active = -1
    s.turn_heading = NO_HEADING
    settle_turn(s, events)


def rescue_for_free(s: NiagaraState, seat: int, events: list[Event] | None) -> None:
    """A player without banked gems gets one canoe back from below the falls, free; like a bought
    one it comes back one per turn ("you can only bring one boat back in at a time")."""
    base = seat * CANOES
    index = s.canoes.index(FALLEN, base, base + CANOES)
    s.canoes[index] = SHORE
    s.rescue_declined = 1
    if events is not None:
        events.append(Event("rescue", {"seat": seat, "canoe": CANOE_NAMES[index - base], "paid": None}))


def settle_turn(s: NiagaraState, events: list[Event] | None) -> None:
    """Buy-back first (on the owner's turn), then the card: the cloud or the canoes."""
    seat = s.current
    base = seat * CANOES
    if not s.rescue_declined and FALLEN in s.canoes[base : base + CANOES] and any(s.banked[seat]):
        s.phase = BUYBACK
    elif s.choice[seat] == CLOUD:
        s.phase = WEATHER
    else:
        s.phase = MOVE
        settle_move(s, events)


def settle_move(s: NiagaraState, events: list[Event] | None) -> None:
    """The turn ends when no canoe has a step left to take."""
    if not move_actions(s):
        end_turn(s, events)


def buy_back(s: NiagaraState, seat: int, colour: int, events: list[Event] | None) -> None:
    """"Absturz!!": the canoe is bought back with a banked gem, which returns to its cave; the canoe
    is ashore again. One canoe per turn ("Der Spieler darf es in seiner Runde dann ... zurückkaufen";
    Board Game Arena: "you can only bring one boat back in at a time")."""
    base = seat * CANOES
    index = s.canoes.index(FALLEN, base, base + CANOES)
    s.canoes[index] = SHORE
    s.rescue_declined = 1
    s.banked[seat][colour] -= 1
    s.caves[colour][colour] += 1
    if events is not None:
        events.append(
            Event("rescue", {"seat": seat, "canoe": CANOE_NAMES[index - base], "paid": GEM_COLOURS[colour]})
        )
    settle_turn(s, events)


def leave_below_the_falls(s: NiagaraState, seat: int, events: list[Event] | None) -> None:
    """The buy-back is optional ("darf"): the canoes stay below the falls this turn."""
    s.rescue_declined = 1
    if events is not None:
        events.append(Event("leave", {"seat": seat}))
    settle_turn(s, events)


def move_cloud(s: NiagaraState, seat: int, delta: int, events: list[Event] | None) -> None:
    """"2b) Wolke versetzen": the cloud moves one field up or down the weather track."""
    s.weather += delta
    if events is not None:
        events.append(Event("weather", {"seat": seat, "weather": s.weather}))
    end_turn(s, events)


def canoe_step(s: NiagaraState, seat: int, canoe: int, kind: int, events: list[Event] | None) -> None:
    """One step or gem action of ``canoe``; the first one starts its move."""
    index = seat * CANOES + canoe
    if s.active < 0:
        leg = start_leg(s, canoe)
        s.active = canoe
        s.heading = NO_HEADING
        s.stage = START
        s.handled = 0
        s.moved |= 1 << canoe
        if s.canoes[index] == SHORE:
            s.launched = 1
    else:
        leg = active_leg(s)
    base_kind = LOAD if kind >= LOAD else kind
    after, done = next((a, d) for k, a, d in transitions(leg) if k == base_kind)
    space = s.canoes[index]
    if kind < UNLOAD:
        target = UPSTREAM[space] if kind == UP else _downstream_target(space, kind)
        s.canoes[index] = target
        s.heading = s.turn_heading = UPSTREAM_HEADING if kind == UP else DOWNSTREAM_HEADING
        if events is not None:
            events.append(Event("paddle", {"seat": seat, "canoe": CANOE_NAMES[canoe], "to": SPACE_NAMES[target]}))
        if target == SHORE:
            land(s, seat, index, events)
            if s.phase == OVER:
                return
    else:
        handle_gem(s, seat, index, kind, events)
    if done:
        s.points = s.handled = 0
        finish_move(s, events)
    else:
        s.points, s.heading, s.stage, s.handled = after[1], after[2], after[3], int(after[8])


def _downstream_target(space: int, kind: int) -> int:
    targets: tuple[int, ...] = DOWNSTREAM[space]
    return targets[kind - DOWN - 1] if len(targets) == 2 else targets[0]


def handle_gem(s: NiagaraState, seat: int, index: int, kind: int, events: list[Event] | None) -> None:
    """"Das Einsammeln oder Ablegen eines Edelsteins kostet ... zwei Zugpunkte"; one gem per canoe;
    any gem in the cave may be taken; a gem may be unloaded into any cave."""
    cave = s.caves[CAVE_AT[s.canoes[index]]]
    if kind == UNLOAD:
        colour = s.cargo[index]
        cave[colour] += 1
        s.cargo[index] = NO_GEM
    else:
        colour = kind - LOAD
        cave[colour] -= 1
        s.cargo[index] = colour
    if events is not None:
        word = "unload" if kind == UNLOAD else "load"
        events.append(Event(word, {"seat": seat, "canoe": CANOE_NAMES[index % CANOES], "gem": GEM_COLOURS[colour]}))


def land(s: NiagaraState, seat: int, index: int, events: list[Event] | None) -> None:
    """"Edelsteine ausladen": over the rope onto the beach; a gem carried is banked for good."""
    colour = s.cargo[index]
    if colour == NO_GEM:
        return
    s.cargo[index] = NO_GEM
    s.banked[seat][colour] += 1
    if events is not None:
        events.append(Event("bank", {"seat": seat, "gem": GEM_COLOURS[colour]}))
    if has_won(s.banked[seat]):
        if s.options["ending"] == "immediate":
            finish_game(s, [seat], events)
        else:
            s.ending = 1


def finish_move(s: NiagaraState, events: list[Event] | None) -> None:
    """The canoe's points are used up (or it landed). A canoe that moved upstream and ended empty
    on another player's loaded canoe may steal ("Diebe!")."""
    index = s.current * CANOES + s.active
    space = s.canoes[index]
    if s.heading == UPSTREAM_HEADING and space != SHORE and s.cargo[index] == NO_GEM and theft_victims(s):
        s.phase = THEFT
        return
    s.active = -1
    settle_move(s, events)


def steal(s: NiagaraState, seat: int, victim: int, events: list[Event] | None) -> None:
    """"... diesem Spieler kostenlos seinen Edelstein klauen und in sein eigenes Kanu ... legen"."""
    thief = seat * CANOES + s.active
    colour = s.cargo[victim]
    s.cargo[thief] = colour
    s.cargo[victim] = NO_GEM
    if events is not None:
        events.append(Event("steal", {
            "seat": seat, "canoe": CANOE_NAMES[s.active], "victim": victim // CANOES,
            "victim_canoe": CANOE_NAMES[victim % CANOES], "gem": GEM_COLOURS[colour],
        }))
    s.phase = MOVE
    s.active = -1
    settle_move(s, events)


def spare_the_victim(s: NiagaraState, events: list[Event] | None) -> None:
    """Theft is optional ("darf man ... klauen")."""
    s.phase = MOVE
    s.active = -1
    settle_move(s, events)


def end_turn(s: NiagaraState, events: list[Event] | None) -> None:
    """The next seat clockwise acts; after the last one the round ends."""
    s.active = -1
    s.heading = NO_HEADING
    s.points = s.stage = s.handled = 0
    following = (s.current + 1) % s.players
    if following == s.ring:
        end_round(s, events)
    else:
        begin_turn(s, following, events)


def end_round(s: NiagaraState, events: list[Event] | None) -> None:
    """"3. Der Fluss bewegt sich", "4. Nächste Runde": the river flows, the life ring passes left."""
    if s.ending:
        finish_round_winners(s, events)
        return
    if s.round >= int(s.options["round-limit"]):
        finish_game(s, leaders(s, range(s.players)), events)
        return
    flow_river(s, events)
    s.ring = (s.ring + 1) % s.players
    s.round += 1
    if events is not None:
        events.append(Event("ring", {"seat": s.ring, "round": s.round}))
    new_round(s, events)


def new_round(s: NiagaraState, events: list[Event] | None) -> None:
    """Choices are cleared; a seat that has played all seven cards takes them back ("Erst wenn er
    alle sieben Paddelplättchen gespielt hat, bekommt er sie zurück")."""
    for seat in range(s.players):
        if not s.hands[seat]:
            s.hands[seat] = ALL_CARDS
            s.played[seat] = []
            if events is not None:
                events.append(Event("cards-back", {"seat": seat}))
        s.choice[seat] = -1
        s.revealed[seat] = 0
    s.current = s.ring
    s.phase = SECRET


def flow_amount(s: NiagaraState) -> int:
    """Lowest paddle value played (clouds have none) plus the weather, never below 0."""
    values = [card + 1 for card in s.choice if card != CLOUD]
    return max(0, (min(values) if values else 0) + s.weather)


def flow_river(s: NiagaraState, events: list[Event] | None) -> None:
    """Discs are pushed in at the rope one by one, alternately into the left and the right arm."""
    amount = flow_amount(s)
    if events is not None:
        events.append(Event("flow", {"discs": amount, "weather": s.weather}))
    for _ in range(amount):
        push_one(s, events)


def push_one(s: NiagaraState, events: list[Event] | None) -> None:
    """One disc in; the canoes ride on their discs; canoes on the arm's last disc go over the falls,
    and a gem they carry returns to its cave ("Absturz!!")."""
    arm = ARMS[s.next_arm]
    if events is not None:
        events.append(Event("push", {"disc": s.aside[0], "arm": "left" if s.next_arm == 0 else "right"}))
    s.next_arm ^= 1
    push_disc(s.river, s.aside, arm)
    canoes = s.canoes
    for index, space in enumerate(canoes):
        if SHORE < space < FALLEN:
            target = carried(space, arm)
            canoes[index] = target
            if target == FALLEN:
                over_the_falls(s, index, events)


def over_the_falls(s: NiagaraState, index: int, events: list[Event] | None) -> None:
    colour = s.cargo[index]
    if colour != NO_GEM:
        s.caves[colour][colour] += 1
        s.cargo[index] = NO_GEM
    if events is not None:
        gem = GEM_COLOURS[colour] if colour != NO_GEM else None
        events.append(Event("falls", {"seat": index // CANOES, "canoe": CANOE_NAMES[index % CANOES], "gem": gem}))


# -- the end --------------------------------------------------------------------------------------
GOALS: Final = ("each-colour", "same-colour", "seven")
"""The goals of "Spielende", in the order :func:`goals_met` lists them."""


def goals_met(banked: list[int]) -> list[str]:
    """ "Spielende": the goals ``banked`` meets, of one gem of each colour, four of one colour, seven in all."""
    met = [min(banked) >= WIN_EACH_COLOUR, max(banked) >= WIN_SAME_COLOUR, sum(banked) >= WIN_TOTAL]
    return [goal for goal, reached in zip(GOALS, met, strict=True) if reached]


def has_won(banked: list[int]) -> bool:
    """Whether ``banked`` meets a goal of "Spielende": :func:`goals_met` not empty, without its lists (a
    landing asks it)."""
    return min(banked) >= WIN_EACH_COLOUR or max(banked) >= WIN_SAME_COLOUR or sum(banked) >= WIN_TOTAL


def gem_value(banked: list[int]) -> int:
    """The banked gems' value (amethyst 1 … ruby 5): it decides among the seats that meet a goal under
    ``ending=finish-round``, and between the leaders at the round limit."""
    return sum(n * v for n, v in zip(banked, GEM_VALUES, strict=True))


def finish_round_winners(s: NiagaraState, events: list[Event] | None) -> None:
    """Option ``ending=finish-round``: after the round, of those who meet a goal the one whose banked
    gems are worth most wins (Board Game Arena's tie-break: "the value of the gems", amethyst 1 …
    ruby 5); equal ones share the win. The number of gems plays no part: four rubies (20) beat seven
    small gems. A seat that met a goal keeps it: banked gems are spent only on buy-backs, at the start
    of the owner's turn, before any landing."""
    qualified = [seat for seat in range(s.players) if has_won(s.banked[seat])]
    best = max(gem_value(s.banked[seat]) for seat in qualified)
    finish_game(s, [seat for seat in qualified if gem_value(s.banked[seat]) == best], events)


def leaders(s: NiagaraState, seats: Iterable[int]) -> list[int]:
    """Of ``seats``, those with the most banked gems and, among them, the highest gem value (the
    round limit's safety rule; not a rule of the game)."""
    rank = {seat: (sum(s.banked[seat]), gem_value(s.banked[seat])) for seat in seats}
    best = max(rank.values())
    return [seat for seat, key in rank.items() if key == best]


def finish_game(s: NiagaraState, winners: list[int], events: list[Event] | None) -> None:
    """The game is over; a move cut short by the winning landing leaves no points behind."""
    s.phase = OVER
    s.won = winners
    s.active = -1
    s.points = s.handled = 0
    if events is not None:
        events.append(Event("game-over", {"winners": list(winners), "banked": [sum(b) for b in s.banked]}))


# -- refusals -------------------------------------------------------------------------------------
def explain_illegal(s: NiagaraState, seat: int, action: int) -> IllegalActionError:
    """The rule that forbids ``action`` now, and what is allowed instead."""
    legal = legal_actions(s, seat)
    allowed = ", ".join(action_text(a) for a in legal) or "nothing (not this seat's decision)"
    try:
        text = action_text(action)
    except ValueError:
        return IllegalActionError(str(action), "no such action in Niagara's action space", allowed)
    return IllegalActionError(text, _reason(s, seat, action), allowed)


def _reason(s: NiagaraState, seat: int, action: int) -> str:
    if s.phase == OVER:
        return "the game is over"
    if s.phase == SECRET:
        return _secret_reason(s, seat, action)
    if seat != s.current:
        return f"it is seat {s.current}'s turn"
    if PLAY <= action < CLOUD_UP:
        return "paddle cards are chosen at the start of the round, and yours is already on the table"
    if s.phase == BUYBACK:
        if BUY <= action < LEAVE:
            return f"you have no banked {GEM_COLOURS[action - BUY]} to pay with"
        return "first decide on your canoe below the falls: buy it back with a banked gem, or leave it"
    if s.phase == WEATHER:
        if action in (CLOUD_UP, CLOUD_DOWN):
            return f"the cloud is at the end of the weather track ({WEATHER_MIN} to +{WEATHER_MAX})"
        return "you played the cloud: move it one field up or down instead of paddling"
    if s.phase == THEFT:
        if STEAL <= action < PASS:
            return "theft takes the gem of another player's loaded canoe on the space where your canoe stopped"
        return "your canoe stopped upstream beside another's loaded canoe: steal its gem or pass first"
    return _move_reason(s, action)


def _secret_reason(s: NiagaraState, seat: int, action: int) -> str:
    if s.choice[seat] >= 0:
        return "you have already chosen your paddle card this round; the others are still choosing"
    if not PLAY <= action < CLOUD_UP:
        return "every player first chooses a paddle card face down"
    return (
        f"card {CARD_NAMES[action - PLAY]} was already played; the cards come back only when all seven have been "
        "played"
    )


def _move_reason(s: NiagaraState, action: int) -> str:
    if action in (CLOUD_UP, CLOUD_DOWN):
        return "only the cloud card moves the cloud; you are paddling"
    if BUY <= action <= LEAVE:
        return "canoes are bought back at the start of the owner's turn, before paddling"
    if STEAL <= action <= PASS:
        return "theft is possible only after a canoe stops upstream beside another's loaded canoe"
    if action == DONE:
        return _done_reason(s)
    canoe, kind = divmod(action - CANOE, STEP_KINDS)
    return _canoe_reason(s, canoe, kind)


def _canoe_reason(s: NiagaraState, canoe: int, kind: int) -> str:
    name = CANOE_NAMES[canoe]
    space = s.canoes[s.current * CANOES + canoe]
    if s.active >= 0 and canoe != s.active:
        return f"canoe {CANOE_NAMES[s.active]} is moving: finish its move first"
    if s.active < 0 and s.moved >> canoe & 1:
        return f"canoe {name} has already moved this turn"
    if space == FALLEN:
        return f"canoe {name} is below the falls"
    if space == SHORE and s.launched and s.active < 0:
        return "only one canoe may be launched per turn"
    if space == SHORE and kind != DOWN:
        return f"canoe {name} is ashore: it can only be launched ('{name} down')"
    leg = start_leg(s, canoe) if s.active < 0 else active_leg(s)
    return _step_reason(s, leg, kind, name)


def _done_reason(s: NiagaraState) -> str:
    """Why ``done`` (declining the optional launch) is refused."""
    if s.active >= 0:
        return f"canoe {CANOE_NAMES[s.active]} is moving: finish its move first"
    if s.must & ~s.moved:
        return "every canoe on the water must move its full value first"
    if launch_compulsory(s):
        return "in the first round a canoe must be launched"
    return "there is no launch left to decline"


def _step_reason(s: NiagaraState, leg: Leg, kind: int, name: str) -> str:
    space, points, heading, stage = leg[0], leg[1], leg[2], leg[3]
    where = SPACE_NAMES[space]
    if kind >= UNLOAD:
        return _gem_reason(s, leg, kind, name)
    if (kind == UP and heading == DOWNSTREAM_HEADING) or (kind != UP and heading == UPSTREAM_HEADING):
        if s.options["direction"] == "per-turn" and stage == START:
            return "all canoes go in one direction this turn (option direction=per-turn)"
        return "a canoe keeps one direction for its whole move"
    if stage == ENDING:
        return "after a gem action at the end of a move the canoe paddles no further"
    if kind != UP:
        targets = DOWNSTREAM[space]
        if not targets:
            return f"space {where} is the last before the falls: no canoe paddles over the falls"
        if (len(targets) == 2) != (kind != DOWN):
            return "at the fork (space 5) name the arm: 'down left' or 'down right'; elsewhere just 'down'"
    return (
        f"canoe {name} could not use all {points} remaining points after that step (only landing may waste "
        "points)" + _partner_note(s)
    )


def _gem_reason(s: NiagaraState, leg: Leg, kind: int, name: str) -> str:
    space, points, stage, loaded, anywhere, handled = leg[0], leg[1], leg[3], leg[4], leg[7], leg[8]
    cave = CAVE_AT[space]
    if cave < 0:
        return f"there is no cave beside space {SPACE_NAMES[space]}"
    if handled:
        return f"canoe {name} has already taken or set down its gem of this move: one gem action per move"
    if kind == UNLOAD and not loaded:
        return f"canoe {name} carries no gem"
    if kind >= LOAD and loaded:
        return "a canoe carries only one gem"
    if kind >= LOAD and not s.caves[cave][kind - LOAD]:
        return f"the cave holds no {GEM_COLOURS[kind - LOAD]}"
    if points < 2:
        return "loading or unloading costs 2 paddle points"
    if stage == MOVING and not anywhere:
        return (
            f"gems are handled only before the first step or after the last, and canoe {name} could not "
            f"use its {points} remaining points after that"
        )
    if stage == START and points == LOAD_COST and not leg[9]:
        return f"canoe {name} must be moved: a gem action alone is no move, and no point would be left for a step"
    return (
        f"canoe {name} could not use all {points} remaining points after that (only landing may waste points)"
        + _partner_note(s)
    )


def _partner_note(s: NiagaraState) -> str:
    if s.options["direction"] == "per-turn":
        return ", or the other canoe could not then move its full value in the same direction"
    return ""
