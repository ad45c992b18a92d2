"""The ``spieltafel`` command line: games, play, simulate, state, replay, bench (the base install), and
arena, serve, worker and connect, which need an extra (``spieltafel.extras``): without it such a command
says in one line which extra to install."""

from __future__ import annotations

import importlib
import json
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.columns import Columns
from rich.table import Table
from rich.text import Text

import spieltafel
from spieltafel.analysis_command import analyse_command
from spieltafel.arena.command import arena_command
from spieltafel.bots import Bot, make_bot
from spieltafel.build import engine_build
from spieltafel.console import OneLineErrors, fail, literal, out, parse_options, progress_bar, user_errors
from spieltafel.core import (
    Game,
    GameRecord,
    Recorder,
    RecordMismatchError,
    SpieltafelError,
    State,
    StateFormatError,
    all_games,
    check_seat,
    final_state_digest,
    get_game,
    load_record_file,
    load_state,
    public_record,
    replay,
)
from spieltafel.extras import is_missing_dependency, needs
from spieltafel.match import GameSummary, choose, play_game

app = typer.Typer(
    cls=OneLineErrors, add_completion=False, no_args_is_help=True,
    help="Spieltafel: board games with faithful rules, bots and an online platform (see: spieltafel games).",
)
state_app = typer.Typer(no_args_is_help=True, help="Inspect and drive a full-state JSON file.")
app.add_typer(state_app, name="state")


def _show_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"spieltafel {spieltafel.__version__}\n")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool, typer.Option("--version", is_eager=True, callback=_show_version, help="Print the version and exit.")
    ] = False,
) -> None:
    """Spieltafel: Iquazú, Haleakala and Niagara."""


def bots_for(names: str, count: int, seed: int) -> list[Bot]:
    """``count`` bots from a comma-separated list; the last name fills the remaining seats."""
    listed = [n for n in names.split(",") if n.strip()] or ["random"]
    listed += [listed[-1]] * (count - len(listed))
    if len(listed) > count:
        raise SpieltafelError(f"{len(listed)} bots given for {count} seats")
    return [make_bot(name, seed * 1000 + i) for i, name in enumerate(listed)]


def read_state(path: Path, seat: int | None = None) -> State:
    """The state in a full-state JSON file; ``seat``, if given, must be one of its seats."""
    try:
        state = load_state(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise StateFormatError(f"cannot read {path}: {error}") from error
    check_seat(state, seat)
    return state


def print_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")


# -- games ------------------------------------------------------------------------------------------
@app.command()
def games(as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False) -> None:
    """List the games, their player counts and options."""
    described = [g.describe() for g in all_games()]
    if as_json:
        print_json(described)
        return
    table = Table(title="games")
    for column in ("name", "title", "players", "options"):
        table.add_column(column)
    for d in described:
        options = "; ".join(f"{o['name']}={'|'.join(o['choices'])}" for o in d["options"]) or "-"
        table.add_row(d["name"], d["title"], f"{d['min_players']}–{d['max_players']}", options)
    out.print(table)


# -- play -------------------------------------------------------------------------------------------
def describe_event(view: dict[str, Any]) -> str:
    """One line for an event as the person's seat sees it."""
    seat = view.get("seat")
    who = f"seat {seat}: " if isinstance(seat, int) else ""
    if view["kind"] == "turn":
        return f"→ seat {seat} to play"
    if "notation" in view:
        return f"{who}{view['notation']}"
    details = ", ".join(f"{k} {v}" for k, v in view.items() if k not in ("kind", "seat"))
    return f"{who}{view['kind']}" + (f" ({details})" if details else "")


def ask_person(state: State, seat: int) -> int | None:
    """Show the legal actions numbered and read a choice; None when the person quits."""
    legal = state.legal_actions(seat)
    texts = [state.action_text(seat, a) for a in legal]
    numbered = [Text.assemble((f"{i:>3}", "bold cyan"), " ", t) for i, t in enumerate(texts, start=1)]
    out.print(Columns(numbered, padding=(0, 2)))
    while True:
        try:
            answer = input("your move (number or notation, 'q' quits)> ").strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if answer.isascii() and answer.isdigit() and len(answer) <= 4 and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        try:
            action = state.read_action(seat, answer)
            if action in legal:
                return action
            out.print(literal(str(state.explain_illegal(seat, action)), "red"))
        except SpieltafelError as error:
            out.print(literal(str(error), "red"))


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="Game name, see 'spieltafel games'.")],
    players: Annotated[int | None, typer.Option(help="Number of players (default: the game's minimum).")] = None,
    seat: Annotated[int, typer.Option(help="Your seat (0 = start player).")] = 0,
    bots: Annotated[str, typer.Option(help="Bots for the other seats, comma-separated.")] = "random",
    seed: Annotated[int | None, typer.Option(help="Seed of the game (default: random).")] = None,
    option: Annotated[list[str] | None, typer.Option(help="Game option KEY=VALUE (repeatable).")] = None,
) -> None:
    """Play a game in the terminal against bots."""
    with user_errors():
        spec = get_game(game)
        count = players or spec.min_players
        seed = seed if seed is not None else int.from_bytes(os.urandom(4), "big")
        state = spec.new_state(count, seed, parse_options(option or []))
        check_seat(state, seat)
        others = iter(bots_for(bots, count - 1, seed))
        table: list[Bot | None] = [None if s == seat else next(others) for s in range(count)]
        names = ["human" if b is None else b.name for b in table]
        recorder = Recorder(state, names)
        # the seed fixes every hidden card: it is told, and saved, only once the game is over
        out.print(Text.assemble((spec.title, "bold"), f" · {count} players · you are seat {seat}"))
        record_path = Path(f"spieltafel-{spec.name}-{time.strftime('%Y%m%d-%H%M%S')}.json")
        news: list[str] = []
        while not state.is_over:
            acting = state.seats_to_act()
            bot_seats = [s for s in acting if table[s] is not None]
            current = bot_seats[0] if bot_seats else acting[0]
            bot = table[current]
            if bot is None:
                out.print(state.render(seat))
                if news:
                    out.print(Text.assemble(("since your last turn: ", "bold"), " · ".join(news[-30:])))
                    news.clear()
                action = ask_person(state, current)
                if action is None:
                    public_record(recorder.record, seat).save(record_path)
                    out.print(
                        literal(
                            f"game saved to {record_path}: the public record of an unfinished game (no seed, no "
                            "face-down choice of another seat), so it cannot be replayed or resumed"
                        )
                    )
                    return
            else:
                action = choose(bot, state, current)
            recorder.add(state, current, action)
            news.extend(describe_event(e.view(seat)) for e in state.apply(current, action))
        record = recorder.finish(state)
        record.save(record_path)
        out.print(state.render(seat))
        if news:
            out.print(literal(" · ".join(news[-30:])))
        scores = ", ".join(f"seat {s} ({names[s]}): {p}" for s, p in enumerate(state.scores()))
        winners = ", ".join(map(str, state.winners()))
        out.print(Text.assemble(("game over", "bold"), f" — {scores}; winner(s): {winners}; seed {seed}"))
        out.print(literal(f"record saved to {record_path} (replay it with 'spieltafel replay {record_path}')"))


# -- simulate ---------------------------------------------------------------------------------------
def _simulate_one(game: str, players: int, seed: int, bots: str, options: dict[str, str], keep: bool) -> GameSummary:
    spec = get_game(game)
    state, record = play_game(spec, players, seed, bots_for(bots, players, seed), options)
    return GameSummary(seed, state.scores(), state.winners(), len(record.actions), record if keep else None)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="Game name.")],
    players: Annotated[int, typer.Option(help="Number of players.")],
    games: Annotated[int, typer.Option("--games", min=1, help="Number of games.")],
    seed: Annotated[int, typer.Option(min=0, help="Seed of the first game; game i uses seed+i.")] = 0,
    bots: Annotated[str, typer.Option(help="Bots per seat, comma-separated (last fills the rest).")] = "random",
    jobs: Annotated[int, typer.Option(min=1, help="Worker processes.")] = 1,
    records: Annotated[Path | None, typer.Option(help="Directory for one game record per game.")] = None,
    option: Annotated[list[str] | None, typer.Option(help="Game option KEY=VALUE (repeatable).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Play many games between bots and summarise scores and wins."""
    with user_errors():
        spec = get_game(games_name := game)
        spec.check_players(players)
        options = spec.resolve_options(parse_options(option or []))
        bots_for(bots, players, 0)  # validate names before starting workers
        if records is not None:
            records.mkdir(parents=True, exist_ok=True)
        results: list[GameSummary] = []
        start = time.perf_counter()
        with progress_bar(as_json) as progress:
            task = progress.add_task(f"{spec.title}, {players} players", total=games)
            collect = _collector(results, records, lambda: progress.advance(task))
            keep = records is not None
            if jobs == 1:
                for i in range(games):
                    collect(_simulate_one(games_name, players, seed + i, bots, options, keep))
            else:
                with ProcessPoolExecutor(max_workers=jobs) as pool:
                    futures = [
                        pool.submit(_simulate_one, games_name, players, seed + i, bots, options, keep)
                        for i in range(games)
                    ]
                    for future in as_completed(futures):
                        collect(future.result())
        elapsed = time.perf_counter() - start
        summary = _summary(spec, players, games, seed, elapsed, sorted(results, key=lambda r: r.seed))
        if as_json:
            print_json(summary)
        else:
            _print_summary(summary)


def _collector(
    results: list[GameSummary], records: Path | None, advance: Callable[[], None]
) -> Callable[[GameSummary], None]:
    def collect(result: GameSummary) -> None:
        results.append(result)
        if records is not None and result.record is not None:
            result.record.save(records / f"{result.record.game}-{result.record.players}p-seed{result.seed}.json")
        advance()

    return collect


def _summary(
    spec: Game, players: int, games: int, seed: int, elapsed: float, results: list[GameSummary]
) -> dict[str, Any]:
    actions = sum(r.actions for r in results)
    wins = [0.0] * players
    for r in results:
        for w in r.winners:
            wins[w] += 1 / len(r.winners)
    return {
        "game": spec.name,
        "players": players,
        "games": games,
        "seed": seed,
        "seconds": round(elapsed, 3),
        "games_per_second": games / elapsed,
        "actions_per_second": actions / elapsed,
        "mean_actions_per_game": actions / games,
        "mean_scores": [sum(r.scores[s] for r in results) / games for s in range(players)],
        "win_share": [w / games for w in wins],
    }


def _print_summary(summary: dict[str, Any]) -> None:
    table = Table(title=f"{summary['game']}: {summary['games']} games, {summary['players']} players")
    for column in ("seat", "mean score", "win share"):
        table.add_column(column, justify="right")
    for seat, (score, share) in enumerate(zip(summary["mean_scores"], summary["win_share"], strict=True)):
        table.add_row(str(seat), f"{score:.2f}", f"{share:.1%}")
    out.print(table)
    out.print(
        f"{summary['seconds']:.1f} s · {summary['games_per_second']:.1f} games/s · "
        f"{summary['actions_per_second']:,.0f} actions/s · {summary['mean_actions_per_game']:.1f} actions/game"
    )


# -- state ------------------------------------------------------------------------------------------
@state_app.command("new")
def state_new(
    game: Annotated[str, typer.Argument(help="Game name.")],
    players: Annotated[int, typer.Option(help="Number of players.")],
    seed: Annotated[int, typer.Option(min=0, help="Seed.")] = 0,
    option: Annotated[list[str] | None, typer.Option(help="Game option KEY=VALUE (repeatable).")] = None,
) -> None:
    """Print the full-state JSON of a new game."""
    with user_errors():
        print_json(get_game(game).new_state(players, seed, parse_options(option or [])).to_json())


def _acting_seat(state: State, seat: int | None) -> int:
    check_seat(state, seat)
    if seat is not None:
        return seat
    acting = state.seats_to_act()
    if len(acting) == 1:
        return acting[0]
    if not acting:
        raise SpieltafelError("the game is over: no seat acts")
    raise SpieltafelError(f"seats {', '.join(map(str, acting))} choose at the same time: pass --seat")


@state_app.command("actions")
def state_actions(
    file: Annotated[Path, typer.Argument(help="Full-state JSON file.")],
    seat: Annotated[int | None, typer.Option(help="Seat (default: the seat to act).")] = None,
) -> None:
    """Print the legal actions of a seat, one notation per line."""
    with user_errors():
        state = read_state(file)
        acting = _acting_seat(state, seat)
        for action in state.legal_actions(acting):
            sys.stdout.write(state.action_text(acting, action) + "\n")


@state_app.command("apply")
def state_apply(
    file: Annotated[Path, typer.Argument(help="Full-state JSON file.")],
    action: Annotated[str, typer.Argument(help="The action's notation.")],
    seat: Annotated[int, typer.Option(help="The acting seat.")],
) -> None:
    """Apply an action; print the new full-state JSON (refused: exit 2 and the reason)."""
    with user_errors():
        state = read_state(file, seat)
        state.apply(seat, action)
        print_json(state.to_json())


@state_app.command("view")
def state_view(
    file: Annotated[Path, typer.Argument(help="Full-state JSON file.")],
    seat: Annotated[int | None, typer.Option(help="Seat (default: spectator).")] = None,
) -> None:
    """Print what a seat (or a spectator) may see, as JSON."""
    with user_errors():
        print_json(read_state(file, seat).view(seat))


@state_app.command("show")
def state_show(
    file: Annotated[Path, typer.Argument(help="Full-state JSON file.")],
    seat: Annotated[int | None, typer.Option(help="Seat (default: spectator).")] = None,
) -> None:
    """Draw the position as a seat (or a spectator) sees it."""
    with user_errors():
        out.print(read_state(file, seat).render(seat))


# -- replay -----------------------------------------------------------------------------------------
@app.command("replay")
def replay_command(
    record: Annotated[Path, typer.Argument(help="Game record JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
) -> None:
    """Replay a game record (or a golden record file) and verify the recorded result and final state."""
    with user_errors():
        loaded, digest = load_record_file(record)
        state = replay(loaded)
        if digest is not None and final_state_digest(state) != digest:
            raise RecordMismatchError(
                f"the replayed final state differs from the golden record's (sha256 {final_state_digest(state)}, "
                f"the file says {digest})"
            )
        result = {
            "game": loaded.game,
            "players": loaded.players,
            "seed": loaded.seed,
            "actions": len(loaded.actions),
            "finished": state.is_over,
            "scores": state.scores(),
            "winners": state.winners(),
            "verified": loaded.result is not None,
            "final_state": "verified" if digest is not None else "not recorded",
        }
        if as_json:
            print_json(result)
            return
        out.print(
            literal(
                f"{loaded.game}, {loaded.players} players, seed {loaded.seed}: {len(loaded.actions)} actions replayed, "
                f"scores {state.scores()}, winners {state.winners()} — {_replay_status(loaded, state)}"
                + (", final state verified" if digest is not None else "")
            )
        )


def _replay_status(record: GameRecord, state: State) -> str:
    if record.result is not None:
        return "result verified"
    if state.is_over:
        return "the actions play the game to its end (the record holds no result to verify)"
    return "unfinished game"


# -- bench ------------------------------------------------------------------------------------------
@app.command()
def bench(
    games: Annotated[list[str] | None, typer.Argument(help="Games to measure (default: all).")] = None,
    seconds: Annotated[float, typer.Option(min=0.1, help="Seconds of playouts per player count.")] = 5.0,
    as_json: Annotated[bool, typer.Option("--json", help="Machine-readable output.")] = False,
    compare_openspiel: Annotated[
        bool, typer.Option("--compare-openspiel", help="Also run OpenSpiel's C++ backgammon the same way.")
    ] = False,
    wall_clock: Annotated[
        bool, typer.Option("--wall-clock", help="Time on the wall clock instead of this process's CPU time.")
    ] = False,
) -> None:
    """Random-playout throughput on one core: games/s, actions/s, clones/s, determinisations/s.

    Rates are per second of CPU time of this process (``--wall-clock``: per wall-clock second), for
    Spieltafel and OpenSpiel alike, so that other jobs on a shared machine do not skew the ratio."""
    from spieltafel.bench import openspiel_peer
    from spieltafel.bench.playouts import measure

    clock = time.perf_counter if wall_clock else time.process_time
    with user_errors():
        specs = [get_game(g) for g in games] if games else all_games()
        if compare_openspiel and not openspiel_peer.openspiel_available():
            raise SpieltafelError(needs("bench --compare-openspiel", "openspiel"))
        rows: list[dict[str, Any]] = [
            {"game": spec.name, **measure(spec, players, seconds, clock=clock)}
            for spec in specs
            for players in range(spec.min_players, spec.max_players + 1)
        ]
        peer = openspiel_peer.run_backgammon_playouts(seconds, clock=clock) if compare_openspiel else None
        if peer is not None:
            for row in rows:
                row["ratio_to_openspiel"] = row["actions_per_second"] / peer["actions_per_second"]
        clock_name = "wall" if wall_clock else "cpu"
        if as_json:
            print_json({"clock": clock_name, "engine": engine_build(), "results": rows, "openspiel_backgammon": peer})
            return
        _print_bench(rows, peer, clock_name)


def _print_bench(rows: list[dict[str, Any]], peer: dict[str, float] | None, clock_name: str) -> None:
    per = "CPU second of this process" if clock_name == "cpu" else "wall-clock second"
    table = Table(title=f"random playouts, one core, per {per}; engines: {engine_build()}")
    for column in ("game", "players", "games/s", "actions/s", "clones/s", "determinisations/s"):
        table.add_column(column, justify="right")
    if peer:
        table.add_column("× OpenSpiel", justify="right")
    for row in rows:
        cells = [
            row["game"],
            str(row["players"]),
            f"{row['games_per_second']:,.1f}",
            f"{row['actions_per_second']:,.0f}",
            f"{row['clones_per_second']:,.0f}",
            f"{row['determinisations_per_second']:,.0f}",
        ]
        if peer:
            cells.append(f"{row['ratio_to_openspiel']:.2f}")
        table.add_row(*cells)
    out.print(table)
    if peer:
        out.print(f"OpenSpiel backgammon (C++ via pyspiel): {peer['actions_per_second']:,.0f} actions/s")


def _missing_extra(name: str, extra: str) -> Callable[[typer.Context], None]:
    """A stand-in for ``spieltafel NAME`` when its extra is not installed: one line, exit code 2."""

    def command(ctx: typer.Context) -> None:
        fail(needs(name, extra))

    return command


def optional_command(name: str, module: str, attribute: str, extra: str) -> None:
    """Register ``spieltafel NAME`` (``module.attribute``), or, when a package of ``extra`` is missing, a
    stand-in that says which extra to install (any arguments are accepted and ignored)."""
    try:
        command = getattr(importlib.import_module(module), attribute)
    except ModuleNotFoundError as error:
        if not is_missing_dependency(error):
            raise
        lenient = {"ignore_unknown_options": True, "allow_extra_args": True, "help_option_names": []}
        app.command(name, context_settings=lenient, help=needs(name, extra))(_missing_extra(name, extra))
        return
    app.command(name)(command)


app.command("analyse")(analyse_command)  # post-game analysis of a record file (issue 27)
app.command("arena")(arena_command)  # imports its extra's packages when it runs (see arena/command.py)
optional_command("serve", "spieltafel.server.command", "serve", "server")
optional_command("connect", "spieltafel.connect", "connect_command", "client")
optional_command("worker", "spieltafel.server.command", "worker", "server")
optional_command("backup", "spieltafel.server.ops.backup", "backup_command", "server")
optional_command("restore", "spieltafel.server.ops.backup", "restore_command", "server")
try:
    from spieltafel.server.command import admin_app

    app.add_typer(admin_app, name="admin")
except ModuleNotFoundError as error:
    if not is_missing_dependency(error):
        raise
    optional_command("admin", "spieltafel.server.command", "admin_app", "server")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
