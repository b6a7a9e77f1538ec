"""Headless simulation: solitaire games played start to finish by the rule system's
autoplayer, and the distribution of their outcomes (``tabletop sim``).

Game ``i`` of every group is played with dice seed ``seed + i``, so one game of a run is
replayed exactly by ``tabletop play SCENARIO --seed S`` (the same options) and the same
run always gives the same figures. With ``by`` (an option of the scenario) the run plays
``games`` games for each choice of that option, and reports each group apart.

A game that raises is reported with its seed and traceback, and the run goes on.

The rule system supplies the player: its descriptor's ``sim()`` gives an object with
``autoplayer()`` (an engine Bot), ``SIDE`` (the side it plays), ``assess(state) -> (rank, score)``, ``ranks()`` (rank
names, lowest first), optionally ``SCORE`` (what the score counts) and ``SIM_BY`` (the
option to compare by when none is asked for).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from tabletop.engine.game import Bot, Game
from tabletop.engine.newgame import auto_setup, new_game
from tabletop.engine.scenario import Scenario, open_map_or_scenario
from tabletop.engine.setup import chosen
from tabletop.games import autoplayer_module, ruleset

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


def play_out(game: Game, side: str, bot: Bot, limit: int = ACTION_LIMIT) -> int:
    """Play a solitaire game to its end: the rules' own actions, and the bot for ``side``
    whenever a decision is left, in the bot's phases and in automatic ones that wait
    for the player (an option such as DOG SECTOR's choose-landing). Stuck when nobody
    can act; RuntimeError past ``limit`` actions. Returns the actions played."""
    played = 0
    while game.state.result is None:
        if played >= limit:
            raise RuntimeError(f"the game did not end within {limit} actions ({_where(game)})")
        action = game.proposal()
        if action is None:
            actor = game.actor()
            if actor not in (side, "auto"):
                raise Stuck(f"{_where(game)}: {actor} must act, and the autoplayer plays only {side}")
            action = bot.choose(game, side)
            reason = game.refusal(action)
            if reason is not None:
                raise Stuck(
                    f"{_where(game)}: the rules wait for {side}, and the autoplayer's "
                    f"{action.get('do') if isinstance(action, dict) else action!r} is refused ({reason})"
                )
        game.play(action)
        played += 1
    return played


def _open(source: str) -> Scenario:
    opened = open_map_or_scenario(source)
    if not isinstance(opened, Scenario):
        raise SimError(f"{source}: a map, not a scenario; a simulation needs a scenario with a rule system")
    return opened


_opened: dict[str, Scenario] = {}


def play_one(source: str | Scenario, options: Mapping[str, object], seed: int) -> dict[str, Any]:
    """Play one game headless with the autoplayer; its rank, score and result in words,
    or the error and traceback if it raised (or never ended)."""
    try:
        if isinstance(source, Scenario):
            opened = source
        else:
            opened = _opened.get(source) or _opened.setdefault(source, _open(source))
        module = autoplayer_module(opened.rules)
        game = new_game(opened, ruleset(opened.rules), seed=seed, options=dict(options), history=False)
        auto_setup(game)
        play_out(game, module.SIDE, module.autoplayer())
        rank, score = module.assess(game.state)
        return {"seed": seed, "rank": rank, "score": score, "result": game.state.result}
    except Exception as exc:  # reported, and the run goes on
        return {"seed": seed, "error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}


def _play_job(job: tuple[str, dict[str, object], int]) -> dict[str, Any]:
    return play_one(*job)


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
) -> dict[str, Any]:
    """Play ``games`` games (for each choice of option ``by``, if given) and count the
    outcomes. Game ``i`` of a group uses seed ``seed + i``. ``progress(done, total)`` is
    called after every game. ``jobs`` > 1 plays in that many processes (the same
    figures). SimError (and DataErrors for an unreadable scenario) before any game for
    what cannot be run."""
    if games < 1:
        raise SimError(f"--games must be 1 or more, got {games}")
    opened = _open(scenario_source)
    try:
        module = autoplayer_module(opened.rules)
    except LookupError as exc:
        raise SimError(str(exc)) from None
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
    rank_names = list(module.ranks())
    jobs_list = [(scenario_source, {**given, **extra}, seed + i) for extra in settings for i in range(games)]
    total = len(jobs_list)
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    if jobs > 1 and total > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for out in pool.map(_play_job, jobs_list, chunksize=max(1, min(16, total // (jobs * 8)))):
                results.append(out)
                if progress is not None:
                    progress(len(results), total)
    else:
        for job in jobs_list:
            results.append(_play_job(job))
            if progress is not None:
                progress(len(results), total)
    seconds = time.perf_counter() - started
    out_groups: list[dict[str, Any]] = []
    failed: list[dict[str, Any]] = []
    for g, extra in enumerate(settings):
        mine = results[g * games : (g + 1) * games]
        done = [r for r in mine if "error" not in r]
        counts = {name: sum(1 for r in done if r["rank"] == name) for name in rank_names}
        scores: dict[str, int] = {}
        for r in sorted(done, key=lambda r: r["score"]):
            scores[str(r["score"])] = scores.get(str(r["score"]), 0) + 1
        out_groups.append(
            {
                "by": extra,
                "options": chosen(opened.options, {**given, **extra}),
                "games": games,
                "played": len(done),
                "failed": len(mine) - len(done),
                "ranks": counts,
                "percent": {k: round(100 * v / len(done), 1) if done else 0.0 for k, v in counts.items()},
                "scores": scores,
                "mean_score": round(sum(r["score"] for r in done) / len(done), 3) if done else None,
            }
        )
        failed.extend({"by": extra, **r} for r in mine if "error" in r)
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


def table(report: Mapping[str, Any]) -> str:
    """The report as text: a small table of ranks per group, then any failures."""
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
    for f in report["failed"]:
        where = ", ".join(f"{k}={v}" for k, v in f["by"].items())
        lines.append("")
        lines.append(f"FAILED seed {f['seed']}" + (f" ({where})" if where else "") + f": {f['error']}")
        lines.append(f["traceback"].rstrip())
    return "\n".join(lines)


__all__ = ["SimError", "Stuck", "groups_of", "play_one", "play_out", "simulate", "table"]
