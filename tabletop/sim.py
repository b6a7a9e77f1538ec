"""Headless simulation: games played start to finish by the rule system's bots, one on
every side it has one for, and the distribution of their outcomes (``tabletop sim``).

Game ``i`` of every group is played with dice seed ``seed + i``, so one game of a run is
replayed exactly by ``tabletop play SCENARIO --seed S`` (the same options) and the same
run always gives the same figures. With ``by`` (an option of the scenario) the run plays
``games`` games for each choice of that option, and reports each group apart.

A game that raises is reported with its seed and traceback, and the run goes on.

The rule system supplies the player: its descriptor's ``sim()`` gives an object with
``autoplayer()`` (an engine Bot), ``SIDE`` (the side it plays), ``assess(state) -> (rank, score)``, ``ranks()`` (rank
names, lowest first), optionally ``SCORE`` (what the score counts) and ``SIM_BY`` (the
option to compare by when none is asked for). The bots seated are the descriptor's:
``bots`` (name -> factory) and ``default_bots`` (side -> name), one seat per side
``default_bots`` names, ``--bot SIDE=NAME`` choosing another of ``bots``.

A two-sided rule system's module gives ``standings(state) -> {side: (outcome, score)}``
(outcome "win", "loss" or "draw") instead of ``assess``, and optionally ``TURN_CAP``:
a game still going after that turn is stopped and is a draw for every side ("draws at a
turn cap where the rules have none"). Its report counts, per side, wins, losses and
draws and the mean score, and the mean length of a game (turns and actions); a
solitaire report (ranks) is exactly as before.
"""

from __future__ import annotations

import gc
import time
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tabletop.engine.game import Bot, Game, Ruleset
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.rulesystem import RuleSystem
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.engine.setup import chosen
from tabletop.games import rule_system, rule_systems, ruleset

Progress = Callable[[int, int], None]
ACTION_LIMIT = 100_000  # actions a game may take before it counts as stuck


class SimError(ValueError):
    """What was asked cannot be simulated (no such option, no autoplayer...)."""


class Stuck(RuntimeError):
    """A game in which no action is possible: nobody is asked, or the only player asked
    offers an action the rules refuse. Reported at once, not after the action limit."""


def _where(game: Game) -> str:
    phase = game.phase()
    return f"turn {game.state.turn}, {phase.name if phase is not None else game.state.phase}"


def play_out(
    game: Game,
    seats: Mapping[str, Bot] | str,
    bot: Bot | None = None,
    limit: int = ACTION_LIMIT,
    turn_cap: int | None = None,
) -> int:
    """Play a game to its end: the rules' own actions, and the bot seated on the side
    that must decide (``Game.actor``: a phase's side, a side the rules name inside an
    automatic phase such as DOG SECTOR's choose-landing, a side choosing in secret, a
    side reacting), each given only its side's view. ``seats`` maps sides to bots (or is
    one side, with ``bot``). Stops after turn ``turn_cap`` if given. Stuck when nobody
    seated can act; RuntimeError past ``limit`` actions. Returns the actions played."""
    if isinstance(seats, str):
        assert bot is not None, "play_out(game, side, bot): the bot for that side"
        seats = {seats: bot}
    played = 0
    while game.state.result is None:
        if turn_cap is not None and game.state.turn > turn_cap:
            break
        if played >= limit:
            raise RuntimeError(f"the game did not end within {limit} actions ({_where(game)})")
        action = game.proposal()
        checked = False
        if action is None:
            actor = game.actor()
            player = seats.get(actor) if actor is not None else None
            if player is None or actor is None:
                raise Stuck(f"{_where(game)}: {actor} must act, and the bots play only {', '.join(seats)}")
            action = player.choose(game.side_view(actor))
            reason = game.refusal(action)
            if reason is not None:
                raise Stuck(
                    f"{_where(game)}: the rules wait for {actor}, and the bot's "
                    f"{action.get('do') if isinstance(action, dict) else action!r} is refused ({reason})"
                )
            checked = True
        game.play(action, refusal_checked=checked)
        played += 1
    return played


def bots_of(system: RuleSystem) -> tuple[dict[str, Callable[[], Bot]], dict[str, str]]:
    """A rule system's bots by name and the default bot of each side it has one for."""
    return dict(system.bots), dict(system.default_bots)


def seat_names(system: RuleSystem, asked: Mapping[str, str] | None = None) -> dict[str, str]:
    """The bot name on each side: the defaults, with ``asked`` (``--bot SIDE=NAME``)
    over them; SimError for a side or a name the rule system has no bot for."""
    bots, seats = bots_of(system)
    if not seats:
        raise SimError(f"{system.title} seats no bot on any side (its descriptor's default_bots is empty)")
    for side, name in (asked or {}).items():
        if side not in seats:
            raise SimError(
                f"--bot {side}={name}: the bots play {', '.join(seats)}, not {side!r}; name one of those sides"
            )
        if name not in bots:
            raise SimError(f"--bot {side}={name}: no bot {name!r}; choose one of: {', '.join(bots)}")
        seats[side] = name
    return seats


def _two_sided(module: Any) -> bool:
    return callable(getattr(module, "standings", None))


def _open(source: str) -> Scenario:
    opened = open_map_or_scenario(source)
    if not isinstance(opened, Scenario):
        raise SimError(f"{source}: a map, not a scenario; a simulation needs a scenario with a rule system")
    return opened


_opened: dict[str, Scenario] = {}


def play_one(
    source: str | Scenario,
    options: Mapping[str, object],
    seed: int,
    bots: Mapping[str, str] | None = None,
    *,
    rules: Ruleset | None = None,
    system: RuleSystem | None = None,
) -> dict[str, Any]:
    """Play one game headless with a bot on every side (``bots``: side -> bot name, the
    defaults otherwise); its rank and score (solitaire) or each side's outcome and
    score (two-sided), its length and result in words, or the error and traceback if it
    raised (or never ended). ``rules`` and ``system`` stand in for the registry's (a
    rule system the registry does not list: the tests' two-sided one)."""
    _collector_before_a_game()
    try:
        if isinstance(source, Scenario):
            opened = source
        else:
            opened = _opened.get(source) or _opened.setdefault(source, _open(source))
        system = system or _system(opened.rules)
        module = _judge(system)
        made, _ = bots_of(system)
        seats = {side: made[name]() for side, name in seat_names(system, bots).items()}
        game = new_game(
            opened, rules or ruleset(opened.rules), seed=seed, options=dict(options), history=False
        )
        game.use_seeded_dice()  # bots only: the run repeats from its seed (issue 12 item 3)
        auto_setup(game)
        cap = getattr(module, "TURN_CAP", None) if _two_sided(module) else None
        played = play_out(game, seats, turn_cap=cap)
        out: dict[str, Any] = {
            "seed": seed,
            "result": game.state.result,
            "turns": game.state.turn,
            "actions": played,
        }
        if _two_sided(module):
            standings = module.standings(game.state)
            capped = game.state.result is None
            out["capped"] = capped
            out["sides"] = {s: ["draw" if capped else o, sc] for s, (o, sc) in standings.items()}
            return out
        rank, score = module.assess(game.state)
        return {**out, "rank": rank, "score": score}
    except Exception as exc:  # reported, and the run goes on
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}


GAMES_PER_SWEEP = 100  # games between full garbage collections of a sim process
_since_sweep = [0]


def _collector_before_a_game() -> None:
    """Before each game, every object made so far (the rule tables, the scenario, the
    rules' memos: hundreds of thousands of objects that live as long as the process) is
    moved out of the garbage collector's reach (``gc.freeze``), so its full passes during
    the game walk only what the game makes (issue 19 item 1: a DOG SECTOR game spent a
    tenth of its time walking the same tables again). Every ``GAMES_PER_SWEEP`` games
    they are let back and swept once, so garbage cycles a game leaves are still freed."""
    _since_sweep[0] += 1
    if _since_sweep[0] > GAMES_PER_SWEEP:
        _since_sweep[0] = 1
        gc.unfreeze()
        gc.collect()
    gc.freeze()


def _play_job(job: tuple[str, dict[str, object], int, dict[str, str]]) -> dict[str, Any]:
    return play_one(*job)


def _in_processes(jobs_list: list[Any], jobs: int, progress: Progress | None) -> list[dict[str, Any]]:
    """The games played in ``jobs`` processes, in order (issue 19 item 5). The objects
    made so far are frozen out of the garbage collector's reach first: the workers
    start as copies of this process, and a collection pass in a worker would otherwise
    touch (and so copy) every page of what they share."""
    total = len(jobs_list)
    results: list[dict[str, Any]] = []
    gc.freeze()
    try:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for out in pool.map(_play_job, jobs_list, chunksize=max(1, min(16, total // (jobs * 8)))):
                results.append(out)
                if progress is not None:
                    progress(len(results), total)
    finally:
        gc.unfreeze()
    return results


CLUSTER_TIMEOUT = 10  # seconds to reach a Dask scheduler before saying so


def _on_cluster(jobs_list: list[Any], address: str, progress: Progress | None) -> list[dict[str, Any]]:
    """The games played on an existing Dask distributed cluster (issue 19 item 5), in
    order: the same games (scenario, options, seed, bots) as a local run, so the same
    results. Its workers need tabletop installed and the scenario at the same path (a
    shipped name works anywhere). SimError for no Dask or an unreachable scheduler."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SimError("--cluster needs Dask's distributed package: pip install 'tabletop[cluster]'") from None
    try:
        client = Client(address, timeout=CLUSTER_TIMEOUT, set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimError(
            f"--cluster {address}: cannot reach a Dask scheduler there ({exc}); "
            "start one (`dask scheduler`, then `dask worker ADDRESS` on each machine) or check the address"
        ) from None
    total = len(jobs_list)
    results: list[dict[str, Any] | None] = [None] * total
    with client, client.as_current():
        futures = client.map(_play_job, jobs_list, pure=False)
        where = {f.key: i for i, f in enumerate(futures)}
        for done, future in enumerate(as_completed(futures), start=1):  # type: ignore[no-untyped-call]
            results[where[future.key]] = future.result()
            if progress is not None:
                progress(done, total)
    return [r for r in results if r is not None]


def groups_of(opened: Scenario, by: str | None) -> list[dict[str, object]]:
    """The settings of ``by`` to compare: one group per choice ([{}] without ``by``)."""
    if by is None:
        return [{}]
    if by not in opened.options:
        known = ", ".join(opened.options) or "none"
        raise SimError(f"--by {by!r}: the scenario has no such option (options: {known})")
    return [{by: c} for c in opened.options[by].choices]


def simulate(
    scenario_source: str,
    games: int,
    seed: int,
    options: Mapping[str, object] | None = None,
    by: str | None = None,
    progress: Progress | None = None,
    jobs: int = 1,
    bots: Mapping[str, str] | None = None,
    *,
    cluster: str | None = None,
    opened: Scenario | None = None,
    rules: Ruleset | None = None,
    system: RuleSystem | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (for each choice of option ``by``, if given) and count the
    outcomes. Game ``i`` of a group uses seed ``seed + i``. ``progress(done, total)`` is
    called after every game. ``jobs`` > 1 plays in that many processes (the same
    figures); ``cluster``, a Dask scheduler's address, plays them on that cluster (the
    same figures). ``bots``: side -> bot name (``--bot SIDE=NAME``). SimError (and
    DataErrors for an unreadable scenario) before any game for what cannot be run.
    ``opened``, ``rules`` and ``system`` stand in for the registry's (one process)."""
    if games < 1:
        raise SimError(f"--games must be 1 or more, got {games}")
    if opened is None:
        opened = _open(scenario_source)
    given_system = system is not None
    system = system or _system(opened.rules)
    module = _judge(system)
    seat_names(system, bots)  # refuses an unknown side or bot before any game
    asked = dict(bots or {})
    given = dict(options or {})
    if by is not None and by in given:
        raise SimError(f"--by {by!r} and --option {by}=... both given: choose one")
    settings = groups_of(opened, by)
    try:
        for extra in settings:
            chosen(opened.options, {**given, **extra})
    except ValueError as exc:
        raise SimError(str(exc)) from None
    _opened[scenario_source] = opened
    jobs_list = [
        (scenario_source, {**given, **extra}, seed + i, asked) for extra in settings for i in range(games)
    ]
    total = len(jobs_list)
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    if rules is not None or given_system:
        for job in jobs_list:  # a rule system given here, not by the registry: one process
            results.append(play_one(opened, job[1], job[2], asked, rules=rules, system=system))
            if progress is not None:
                progress(len(results), total)
    elif cluster is not None:
        results.extend(_on_cluster(jobs_list, cluster, progress))
    elif jobs > 1 and total > 1:
        results.extend(_in_processes(jobs_list, jobs, progress))
    else:
        for job in jobs_list:
            results.append(_play_job(job))
            if progress is not None:
                progress(len(results), total)
    seconds = time.perf_counter() - started
    if _two_sided(module):
        return _two_sided_report(
            opened, scenario_source, system, asked, games, seed, given, by, settings, results, seconds
        )
    rank_names = list(module.ranks())

    def ranked(done: list[dict[str, Any]]) -> dict[str, Any]:
        counts = {name: sum(1 for r in done if r["rank"] == name) for name in rank_names}
        scores: dict[str, int] = {}
        for r in sorted(done, key=lambda r: r["score"]):
            scores[str(r["score"])] = scores.get(str(r["score"]), 0) + 1
        return {
            "ranks": counts,
            "percent": {k: round(100 * v / len(done), 1) if done else 0.0 for k, v in counts.items()},
            "scores": scores,
            "mean_score": round(sum(r["score"] for r in done) / len(done), 3) if done else None,
        }

    out_groups, failed = _per_group(opened, given, settings, games, results, ranked)
    return {
        "scenario": opened.name,
        "source": scenario_source,
        "rules": opened.rules,
        "autoplayer": module.__name__,
        "score": getattr(module, "SCORE", "score"),
        "games": games,
        "seed": seed,
        "seeds": f"game i of each group is played with seed {seed} + i ({seed} to {seed + games - 1})",
        "options": given,
        "by": by,
        "ranks": rank_names,
        "groups": out_groups,
        "failed": failed,
        "seconds": round(seconds, 2),
    }


def _system(rules: str | None) -> RuleSystem:
    """The descriptor of a scenario's rule system; SimError when it has no bots to play it."""
    system = rule_system(rules)
    if system is None or system.sim is None or not system.bots:
        with_bots = ", ".join(sorted(k for k, s in rule_systems().items() if s.sim is not None and s.bots))
        raise SimError(f"rule system {rules or 'free'!r} has no autoplayer (rule systems with one: {with_bots})")
    return system


def _judge(system: RuleSystem) -> Any:
    """What judges a finished game of ``system`` (its descriptor's ``sim()``)."""
    if system.sim is None:
        raise SimError(f"{system.title} has no sim() to judge a finished game")
    return system.sim()


def _side_counts(done: list[dict[str, Any]], sides: list[str]) -> dict[str, dict[str, Any]]:
    """Per side: wins, losses, draws and the mean score of the finished games."""
    out: dict[str, dict[str, Any]] = {}
    for side in sides:
        got = [r["sides"][side] for r in done if side in r["sides"]]
        out[side] = {
            "wins": sum(1 for o, _ in got if o == "win"),
            "losses": sum(1 for o, _ in got if o == "loss"),
            "draws": sum(1 for o, _ in got if o == "draw"),
            "mean_score": round(sum(sc for _, sc in got) / len(got), 3) if got else None,
        }
    return out


def _per_group(
    opened: Scenario,
    given: Mapping[str, object],
    settings: list[dict[str, object]],
    games: int,
    results: list[dict[str, Any]],
    body: Callable[[list[dict[str, Any]]], dict[str, Any]],
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The report of each group of option choices (its games are consecutive in
    ``results``): what every report says of a group, then ``body`` of the games played;
    and the failed games, each with its group."""
    out_groups: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for g, extra in enumerate(settings):
        mine = results[g * games : (g + 1) * games]
        done = [r for r in mine if "error" not in r]
        out_groups.append(
            {
                "by": extra,
                "options": chosen(opened.options, {**given, **extra}),
                "games": games,
                "played": len(done),
                "failed": len(mine) - len(done),
                **body(done),
            }
        )
        failed.extend({"by": extra, **r} for r in mine if "error" in r)
    return out_groups, failed


def _two_sided_report(
    opened: Scenario,
    source: str,
    system: RuleSystem,
    asked: Mapping[str, str],
    games: int,
    seed: int,
    given: Mapping[str, object],
    by: str | None,
    settings: list[dict[str, object]],
    results: list[dict[str, Any]],
    seconds: float,
) -> dict[str, Any]:
    """The per-side report (issue 12 item 4): who won, lost or drew, by how much, and
    how long the games took."""
    module = _judge(system)
    seats = seat_names(system, asked)
    sides = list(seats)

    def per_side(done: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "sides": _side_counts(done, sides),
            "draws_at_cap": sum(1 for r in done if r.get("capped")),
            "mean_turns": round(sum(r["turns"] for r in done) / len(done), 2) if done else None,
            "mean_actions": round(sum(r["actions"] for r in done) / len(done), 1) if done else None,
        }

    out_groups, failed = _per_group(opened, given, settings, games, results, per_side)
    return {
        "scenario": opened.name,
        "source": source,
        "rules": opened.rules,
        "bots": seats,
        "turn_cap": getattr(module, "TURN_CAP", None),
        "games": games,
        "seed": seed,
        "seeds": f"game i of each group is played with seed {seed} + i ({seed} to {seed + games - 1})",
        "options": dict(given),
        "by": by,
        "groups": out_groups,
        "failed": failed,
        "seconds": round(seconds, 2),
    }


def _two_sided_table(report: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for group in report["groups"]:
        title = ", ".join(f"{k}={v}" for k, v in group["by"].items()) or "all games"
        lines.append("")
        lines.append(
            f"{title}: {group['played']} played" + (f", {group['failed']} failed" if group["failed"] else "")
        )
        width = max([len(s) for s in group["sides"]] + [4])
        lines.append(f"  {'side':<{width}}  {'bot':<12} {'wins':>5} {'losses':>6} {'draws':>5}  mean score")
        for side, c in group["sides"].items():
            mean = "-" if c["mean_score"] is None else f"{c['mean_score']:.2f}"
            lines.append(
                f"  {side:<{width}}  {report['bots'][side]:<12} {c['wins']:>5} {c['losses']:>6} {c['draws']:>5}  {mean}"
            )
        if group["mean_turns"] is not None:
            cap = (
                f", {group['draws_at_cap']} stopped at the turn cap" if report["turn_cap"] is not None else ""
            )
            lines.append(
                f"  mean length: {group['mean_turns']:.2f} turns, {group['mean_actions']:.1f} actions{cap}"
            )
    return lines


def table(report: Mapping[str, Any]) -> str:
    """The report as text: a small table of ranks (or of each side's results) per
    group, then any failures."""
    if "bots" in report:
        lines = [
            f"{report['scenario']}: {report['games']} games per group, seeds {report['seed']}"
            f"-{report['seed'] + report['games'] - 1}, bots "
            + ", ".join(f"{s}={n}" for s, n in report["bots"].items())
            + f" in {report['seconds']:.1f} s"
        ]
        if report["options"]:
            lines.append("options: " + ", ".join(f"{k}={v}" for k, v in report["options"].items()))
        lines += _two_sided_table(report)
        return "\n".join(lines + _failures(report))
    lines = [
        f"{report['scenario']}: {report['games']} games per group, seeds {report['seed']}"
        f"-{report['seed'] + report['games'] - 1}, played by {report['autoplayer']} "
        f"in {report['seconds']:.1f} s"
    ]
    if report["options"]:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in report["options"].items()))
    width = max([len(r) for r in report["ranks"]] + [4])
    for group in report["groups"]:
        title = ", ".join(f"{k}={v}" for k, v in group["by"].items()) or "all games"
        lines.append("")
        lines.append(
            f"{title}: {group['played']} played" + (f", {group['failed']} failed" if group["failed"] else "")
        )
        for name in report["ranks"]:
            n = group["ranks"][name]
            lines.append(f"  {name:<{width}}  {n:>6}  {group['percent'][name]:5.1f}%")
        mean = group["mean_score"]
        lines.append(f"  mean {report['score']}: {mean:.2f}" if mean is not None else "  no game finished")
    return "\n".join(lines + _failures(report))


def _failures(report: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for f in report["failed"]:
        where = ", ".join(f"{k}={v}" for k, v in f["by"].items())
        lines.append("")
        lines.append(f"FAILED seed {f['seed']}" + (f" ({where})" if where else "") + f": {f['error']}")
        lines.append(f["traceback"].rstrip())
    return lines


__all__ = [
    "SimError",
    "Stuck",
    "bots_of",
    "groups_of",
    "play_one",
    "play_out",
    "seat_names",
    "simulate",
    "table",
]
