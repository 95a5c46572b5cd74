"""AI matchups of any registered game: win shares, score margins and time per decision.

Everything about a game comes from its description (``engine.core.GameDescription``: its
rules, player counts, AI module and levels, and ``bench``, the benchmarks' hooks:
the option mixed by ``--advanced``, the tie-break, the silly-play counter...); a new game
needs no line here.

    python bench/ai_matchup.py --games 200            # EVO: the three matchups, 200 games each
    python bench/ai_matchup.py --games 50 --only b    # one matchup
    python bench/ai_matchup.py --games 200 --workers 2 --variant
    python bench/ai_matchup.py --game cubosaurs --games 200 --only a
    python bench/ai_matchup.py --game cubosaurs --games 200 --advanced on
    python bench/ai_matchup.py --game mutations --games 210
    python bench/ai_matchup.py --game climate --games 200
    python bench/ai_matchup.py --game climate --games 60 --only bc --workers 1 --coverage

``--coverage`` (every game that lists its ``STRATEGIC`` kinds): per level, over every decision of every seat of
that level in the games played, how often each strategic action kind (the game's
``STRATEGIC``, engine/ai.py) was legal and how often chosen, the figure
``ai.<game>.<level>.unused_strategic`` (kinds legal but never chosen), and the silly plays
per level that the game's ``bench.watch`` counts (:class:`ClimateSilly`, :class:`EvoSilly`).

Matchups (every game seeded; for EVO the hero's seat and the player count rotate over 3, 4
and 5; for Cubosaurs over 2, 3, 4 and 5, with the advanced rules in half of the games unless
``--advanced on|off``; for Random Mutations over 2 to 8, with Divergence in half of the games
unless ``--advanced on|off``; for Evolution: Climate over 2 to 6, with the Quick game in half
of the games unless ``--advanced on|off`` (6 players are always Quick)):

* (a) 1 strong vs 2-4 random seats (Cubosaurs: 1-4)
* (b) 1 strong vs 2-4 fast seats (Cubosaurs: 1-4)
* (c) 1 fast vs 2-4 random seats (Cubosaurs: 1-4)
* (d) Random Mutations: 1 expert (IS-MCTS, ``--iterations`` per decision) vs strong seats

A win is a first place (EVO: ties broken by dinos; Cubosaurs: by the last round's score;
Random Mutations: by the cards lost from the game; Climate: by trait cards, then population); a
shared first place counts as a fractional win. "margin" is the hero's score minus the best
opponent's score. "fair share" is the win share of a seat if all seats were equal (the mean
of 1/n over the games).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
from functools import partial
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.ai import strategic  # noqa: E402
from engine.core import Seat, description, descriptions  # noqa: E402

MATCHUPS = {
    "a": ("strong", "random"),
    "b": ("strong", "fast"),
    "c": ("fast", "random"),
    "d": ("expert", "strong"),  # Random Mutations only: the IS-MCTS searcher (engine/search.py)
}


def play_seeded(rules, policy_for, seed_of, levels: tuple, seed: int, options: dict,
                coverage=None, watch=None):
    """One seeded game of AI seats (``levels[p]`` is seat p's level), each deciding on its
    own view as the table's AI seats do (a single legal action is taken without asking);
    returns the final state and the time spent per level (total, count, worst).
    ``coverage`` (an ``engine.ai.Coverage``) counts the strategic kinds legal and chosen at
    every decision asked; ``watch(state, p, level, view, legal, action, events)`` sees every
    action once applied (``view`` None when nothing was asked)."""
    seats = [Seat(f"ai:{i}", f"AI {i}") for i in range(len(levels))]
    policies = {lv: policy_for(lv) for lv in set(levels)}
    state = rules.new_game(seats, seed, options)
    spent = {lv: 0.0 for lv in policies}
    count = {lv: 0 for lv in policies}
    worst = {lv: 0.0 for lv in policies}
    choice_times: dict[str, list[float]] = {lv: [] for lv in policies}
    while not rules.is_over(state):
        p = rules.to_act(state)[0]
        legal = rules.legal_actions(state, p)
        lv = levels[p]
        t0 = time.perf_counter()
        view = None
        if len(legal) == 1:
            action = legal[0]
        else:
            view = rules.view(state, p)
            action = policies[lv].choose(view, legal, seed_of(state, p, view))
        dt = time.perf_counter() - t0
        spent[lv] += dt
        count[lv] += 1
        worst[lv] = max(worst[lv], dt)
        if view is not None:
            choice_times[lv].append(dt)
        if coverage is not None and view is not None:
            coverage.record(lv, view, legal, action)
        events = rules.apply_in_place(state, p, action)
        if watch is not None:
            watch(state, p, lv, view, legal, action, events)
    return state, {"spent": spent, "count": count, "worst": worst,
                   "choice_times": choice_times}


def standings(rules, state, n: int, tiebreak) -> tuple[list, list]:
    """Per seat: the final score and the game's tie-break value (``tiebreak(row)``)."""
    scores, ties = [0] * n, [0] * n
    for r in rules.returns(state):
        scores[r["player"]] = r["score"]
        ties[r["player"]] = tiebreak(r)
    return scores, ties


def play_job(kind: str, job: tuple) -> dict:
    """One seeded game of ``kind``; ``job`` is (levels, seed, the mixed option's value[,
    coverage]): ``levels[p]`` is the AI level of seat p. What is the game's own comes from
    its description (``engine.core.Bench``): its options, tie-break, turn counter, silly-play
    counter and whether each policy call is timed."""
    d = description(kind)
    bench = d.bench
    levels, seed, mixed = job[:3]
    coverage = _coverage(kind) if job[3:] and job[3] else None
    watch = _function(bench.watch)(levels) if bench.watch and coverage is not None else None
    ai = importlib.import_module(d.ai_module)
    policy_for = ai.policy_for
    # per level: the wall and the CPU time of each policy call (the CPU time is this process's
    # own, whatever else runs on the machine)
    asked: dict[str, list[tuple[float, float]]] = {}
    if bench.call_times:
        def policy_for(level: str):
            policy = ai.policy_for(level)
            own = asked.setdefault(level, [])

            class Timed:
                def choose(self, view, legal, seed):
                    t0, c0 = time.perf_counter(), time.process_time()
                    action = policy.choose(view, legal, seed)
                    own.append((time.perf_counter() - t0, time.process_time() - c0))
                    return action

            return Timed()

    state, times = play_seeded(d.rules, policy_for, ai.AI.seed, levels, seed,
                               game_options(d, mixed), coverage, watch)
    tiebreak = bench.tiebreak or (lambda _r: 0)
    scores, ties = standings(d.rules, state, len(levels), tiebreak)
    out = {"levels": levels, "seed": seed, "scores": scores, "dinos": ties, "advanced": mixed,
           "turns": getattr(state, bench.turns, 0), "coverage": coverage,
           "silly": watch.counts if watch is not None else {}, **times}
    if bench.call_times:
        out["asked"] = asked
    return out


def game_options(d, mixed) -> dict:
    """The options of a benchmark game: the game's fixed ones, and its mixed option's value
    (``--variant``'s for a game without one)."""
    options = dict(d.bench.options)
    if d.bench.mixed is not None:
        options[d.bench.mixed] = mixed
    elif "variant" in d.options:
        options["variant"] = mixed
    return options


def jobs(kind: str, hero: str, other: str, games: int, base_seed: int, mode) -> list[tuple]:
    """Every player count in turn; the hero's seat moving every game of a count (every two
    with a mixed option, which is on every other game of a count with ``mode="mixed"``, in
    all with "on", in none with "off"). A game without a mixed option plays ``mode`` (a
    bool: ``--variant``) in every game."""
    d = description(kind)
    low, span = d.min_players, d.max_players - d.min_players + 1
    out = []
    for g in range(games):
        n = low + g % span
        k = g // span
        if d.bench.mixed is None:
            value, seat = bool(mode), k % n
        else:
            value = k % 2 == 0 if mode == "mixed" else mode == "on"
            seat = (k // 2) % n
        levels = [other] * n
        levels[seat] = hero
        out.append((tuple(levels), base_seed + g, value))
    return out


def _function(path: str):
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def _coverage(game: str):
    from engine.ai import Coverage, strategic

    return Coverage(*strategic(game))


class ClimateSilly:
    """Climate's plays a person would find silly (issue 22), counted per level:

    * ``last_round_stop``: done in the last round's play phase while a card could still go
      on a species as a trait (a point each; not Carnivore, which makes a plant eater hunt
      or starve) and the hand holds more cards than its Intelligence species could use (2
      plants a card);
    * ``grown_starved`` (raw): a species whose population its owner grew this round and that
      lost population to starvation at the end of that round's feeding (``starved``: every
      species that lost population to starvation);
    * ``grown_foreseeable``: those of ``grown_starved`` where nothing the owner could not see
      when it grew (its last growth of that species) turned against it:
      (1) the plants the reveal put on the Watering Hole (added minus removed) were at least
      what its view let it expect: its own food card's plants, the box's mean
      (``engine.climate.ai.MEAN_PLANTS``) for every other food card, and the plant modifier
      of the zone the marker stood in (under a Meteor only a negative total counts; never
      more than the Watering Hole held removed);
      (2) no carnivore of another player attacked any species of the owner in that round;
      (3) the other players' plant-eating population when the feeding began was no larger
      than the owner's view showed when it grew (more came from plays it could not see: a
      Quick game's secret plays, or those of the players after it in turn order).
      Climate losses, events and the feeding's order are not excused: the zone's losses and
      the events under the zones are in the view, and the feeding is the owner's own."""

    def __init__(self, levels: tuple) -> None:
        self.levels = levels  # seat -> level
        self.counts: dict[str, dict[str, int]] = {
            lv: {"last_round_stop": 0, "grown_starved": 0, "grown_foreseeable": 0,
                 "starved": 0} for lv in levels}
        self.grown: dict[int, dict] = {}  # species grown this round -> what its owner saw
        self.attacked: set[int] = set()  # players attacked by another's carnivore this round
        self.plants = 0  # this round's plants put on the Watering Hole (net)
        self.eaters: list[int] = []  # each player's plant-eating population at the feeding
        # debug: every grown_foreseeable case (the growth's round, player, species, what it
        # saw, what came)
        self.cases: list[dict] = []

    def __call__(self, state, p, level, view, legal, action, events) -> None:
        kind = action["type"]
        if kind == "grow" and action["what"] == "pop":
            self.grown[action["species"]] = dict(self._expected(p, view), round=state.round)
        if kind == "done" and view is not None and view["last"]:
            mine = view["players"][p]
            intel = sum((sp["pop"] + 1) // 2 for sp in mine["species"]
                        if not sp["carnivore"] and any(
                            t["trait"] == "intelligence" for t in sp["traits"]))
            if len(mine["cards"]) > intel and any(
                    a["type"] == "trait" and not a["card"].startswith("carnivore")
                    for a in legal):
                self.counts[level]["last_round_stop"] += 1
        for e in events:
            t = e["type"]
            if t == "loss" and e["cause"] == "starvation":
                c = self.counts[self.levels[e["player"]]]
                c["starved"] += 1
                seen = self.grown.get(e["species"])
                if seen is not None:
                    c["grown_starved"] += 1
                    q = e["player"]
                    if self.plants >= seen["plants"] - 1e-9 and q not in self.attacked and \
                            sum(self.eaters) - self.eaters[q] <= seen["others"]:
                        c["grown_foreseeable"] += 1
                        self.cases.append({"round": seen["round"], "player": q,
                                           "species": e["species"], "seen": seen,
                                           "plants": self.plants, "eaters": list(self.eaters)})
            elif t == "attack" and e["owner"] != e["player"]:
                self.attacked.add(e["owner"])
            elif t == "plants":
                from engine.climate.position import face_up

                self.plants = e["added"] - e["removed"]
                self.eaters = [sum(sp["pop"] for sp in row if "carnivore" not in face_up(sp))
                               for row in state.rows]
            elif t == "round_start":
                self.grown = {}
                self.attacked = set()

    @staticmethod
    def _expected(p: int, view) -> dict:
        """What ``p``'s view lets it expect when it grows: the plants the reveal brings, the
        others' plant-eating population."""
        if view is None:  # (a single legal action: never a growth)
            return {"plants": float("inf"), "others": -1}
        from engine.climate.ai import MEAN_PLANTS

        fcs = view["food_cards"]
        plants = view["climate"]["plants"][view["climate"]["index"]]
        for q, fc in enumerate(fcs):
            if fc is not None:
                plants += fc["plants"] if q == p and fc.get("card") else MEAN_PLANTS
        if view["events"]["meteor"]:
            plants = min(0.0, plants)
        plants = max(plants, -view["watering_hole"])
        others = sum(sp["pop"] for q, row in enumerate(view["players"]) if q != p
                     for sp in row["species"] if not sp["carnivore"])
        return {"plants": plants, "others": others}


class EvoSilly:
    """EVO's plays a person would find silly (issue 22), counted per level:

    * ``idle_in_deadly``: movement ended with no step taken while two or more of the
      player's dinos stand where they die this turn (deadly terrain, or cold / hot without
      fur / parasol) and a legal step saves one of them (``engine.evo.ai.saving_steps``);
    * ``useless_card``: PTHERMOLACTYL or PEAU ADAPTABLE played while none of the player's
      dinos in the cold (the heat) would die of it, ON CRAME or ÇA CAILLE while no opponent
      would lose a dino more by it (``engine.evo.ai.card_has_effect``)."""

    def __init__(self, levels: tuple) -> None:
        self.levels = levels  # seat -> level
        self.counts: dict[str, dict[str, int]] = {
            lv: {"idle_in_deadly": 0, "useless_card": 0} for lv in levels}

    def __call__(self, state, p, level, view, legal, action, events) -> None:
        if view is None:
            return
        from engine.evo import ai

        st = view["state"]
        if action["type"] == "end" and st["window"] is None and st["stage"] == "move":
            if st["steps"] > 0 and st["steps"] >= st["genes"][p][ai.LEGS]:
                s = ai._obs(view)
                zone = ai._info(s.n).zone[s.climate]
                doomed = sum(1 for r, o in enumerate(s.occ)
                             if o == p and ai._doomed(s, p, zone[r]))
                if doomed >= 2 and ai.saving_steps(s, p):
                    self.counts[level]["idle_in_deadly"] += 1
        elif action["type"] == "play" and not ai.card_has_effect(ai._obs(view), p,
                                                                  action["card"]):
            self.counts[level]["useless_card"] += 1


def summarize(name: str, hero: str, results: list[dict]) -> dict:
    wins = 0.0
    share = 0.0
    margin = 0.0
    by_n: dict[int, list[float]] = {}
    hero_score = 0.0
    other_score = 0.0
    for res in results:
        levels = res["levels"]
        n = len(levels)
        h = levels.index(hero)
        key = [(res["scores"][p], res["dinos"][p]) for p in range(n)]
        top = max(key)
        firsts = [p for p in range(n) if key[p] == top]
        w = 1.0 / len(firsts) if h in firsts else 0.0
        wins += w
        share += 1.0 / n
        best_other = max(res["scores"][p] for p in range(n) if p != h)
        margin += res["scores"][h] - best_other
        hero_score += res["scores"][h]
        other_score += sum(res["scores"][p] for p in range(n) if p != h) / (n - 1)
        by_n.setdefault(n, []).append(w)
    g = len(results)
    return {"name": name, "games": g, "win": wins / g, "fair": share / g, "margin": margin / g,
            "hero_score": hero_score / g, "other_score": other_score / g,
            "by_n": {n: sum(v) / len(v) for n, v in sorted(by_n.items())}}


def run_jobs(all_jobs: list, play, workers: int) -> tuple[dict[str, list[dict]], dict, float]:
    """Play every (matchup key, job), the slow games first so that workers finish together;
    returns the results per key, the decision times per level and the wall time."""
    t_start = time.perf_counter()
    all_jobs = sorted(all_jobs, key=lambda kj: 0 if "strong" in kj[1][0] else 1)
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play, [j for _, j in all_jobs], chunksize=1)
    else:
        results = [play(j) for _, j in all_jobs]
    times = {"spent": {}, "count": {}, "worst": {}, "choice_times": {}}
    per_key: dict[str, list[dict]] = {}
    for (key, _), res in zip(all_jobs, results, strict=True):
        per_key.setdefault(key, []).append(res)
        for lv, t in res["spent"].items():
            times["spent"][lv] = times["spent"].get(lv, 0.0) + t
            times["count"][lv] = times["count"].get(lv, 0) + res["count"][lv]
            times["worst"][lv] = max(times["worst"].get(lv, 0.0), res["worst"][lv])
            times["choice_times"].setdefault(lv, []).extend(res["choice_times"][lv])
    return per_key, times, time.perf_counter() - t_start


def print_times(times: dict, wall: float) -> None:
    spent, count, worst = times["spent"], times["count"], times["worst"]
    print("time per decision:")
    for lv in ("random", "fast", "strong", "expert"):
        if count.get(lv):
            print(f"  {lv:<7} mean {1000 * spent[lv] / count[lv]:8.3f} ms   max "
                  f"{1000 * worst[lv]:7.1f} ms   ({count[lv]} decisions)")
            chosen = sorted(times["choice_times"].get(lv, ()))
            if chosen:  # the decisions with a choice (more than one legal action)
                p99 = chosen[min(len(chosen) - 1, int(0.99 * len(chosen)))]
                print(f"  {'':<7} with a choice: median {1000 * chosen[len(chosen) // 2]:8.3f} ms"
                      f"   p99 {1000 * p99:7.1f} ms   ({len(chosen)} decisions)")
    print(f"total wall time: {wall:.1f} s")


def main(argv: list[str] | None = None) -> int:
    games = descriptions()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200, help="games per matchup")
    ap.add_argument("--seed", type=int, default=1000, help="first game seed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--only", default="abc", help="which matchups (letters a, b, c)")
    ap.add_argument("--variant", action="store_true", help="variant auction (EVO)")
    ap.add_argument("--game", choices=tuple(d.kind for d in games), default=games[0].kind)
    ap.add_argument("--iterations", type=int, default=None,
                    help="Random Mutations: the expert level's iterations per decision")
    ap.add_argument("--coverage", action="store_true",
                    help="per level, each strategic action kind "
                         "chosen / legal (engine/ai.py) and the silly plays counted")
    ap.add_argument("--advanced", choices=("mixed", "on", "off"), default="mixed",
                    help="Cubosaurs: the advanced (DNA) rules, Random Mutations: Divergence, "
                         "Climate: the Quick game; "
                         "in half of the games, all, none")
    args = ap.parse_args(argv)
    d = description(args.game)
    bench = d.bench
    if args.iterations:  # the searching level's budget (engine/search.py)
        expert = importlib.import_module(d.ai_module).AI.policies.get("expert")
        if expert is not None:
            expert.iterations = args.iterations
    mode = args.advanced if bench.mixed is not None else args.variant
    all_jobs = []
    for key in args.only:
        hero, other = MATCHUPS[key]
        all_jobs += [(key, j) for j in jobs(d.kind, hero, other, args.games, args.seed, mode)]
    covered = args.coverage and bool(strategic(d.kind)[0])  # a game that lists its kinds
    if covered:
        all_jobs = [(key, (*j, True)) for key, j in all_jobs]
    per_key, times, wall = run_jobs(all_jobs, partial(play_job, d.kind), args.workers)
    header = bench.header(args.advanced, game_options(d, args.variant)) if bench.header \
        else f"options: {args.advanced}"
    print(f"{d.title} AI matchups: {args.games} games each, seeds {args.seed}.., "
          f"{header}, {args.workers} workers")
    span = d.max_players - d.min_players + 1
    counts = "/".join(str(n) for n in range(d.min_players, d.max_players + 1)) if span <= 4 \
        else f"{d.min_players}..{d.max_players}"
    if bench.mixed is None:
        print_plain(args, per_key, counts)
    else:
        print_mixed(args, per_key, counts, bench.mixed_columns)
    print_times(times, wall)
    if bench.call_times:
        print_call_times(per_key)
    if covered:
        print_coverage(d.kind, per_key, print)
    return 0


def print_plain(args, per_key: dict, counts: str) -> None:
    """The matchup table of a game whose options are the same in every game: the win share
    by player count."""
    print(f"{'matchup':<28}{'games':>6}{'win':>8}{'fair':>7}{'margin':>8}{'hero':>7}"
          f"{'others':>8}   win by players ({counts})")
    for key in args.only:
        hero, other = MATCHUPS[key]
        sm = summarize(key, hero, per_key[key])
        by_n = " / ".join(f"{v:.2f}" for v in sm["by_n"].values())
        label = f"({key}) 1 {hero} vs {other}"
        print(f"{label:<28}{sm['games']:>6}{sm['win']:>8.3f}{sm['fair']:>7.3f}"
              f"{sm['margin']:>+8.2f}{sm['hero_score']:>7.1f}{sm['other_score']:>8.1f}   {by_n}")


def print_call_times(per_key: dict) -> None:
    """The wall and CPU time of each policy call (more than one legal action), per level."""
    asked: dict[str, list[tuple[float, float]]] = {}
    for res in (r for rs in per_key.values() for r in rs):
        for lv, ts in res["asked"].items():
            asked.setdefault(lv, []).extend(ts)
    print("time per policy call (more than one legal action), wall / CPU:")
    for lv in ("random", "fast", "strong"):
        calls = asked.get(lv, [])
        if calls:
            cols = []
            for k in (0, 1):
                ts = sorted(c[k] for c in calls)
                cols.append((ts[len(ts) // 2], ts[int(0.99 * (len(ts) - 1))], ts[-1]))
            print(f"  {lv:<7} median {1000 * cols[0][0]:7.3f} / {1000 * cols[1][0]:7.3f} ms   "
                  f"p99 {1000 * cols[0][1]:6.1f} / {1000 * cols[1][1]:6.1f} ms   "
                  f"max {1000 * cols[0][2]:6.1f} / {1000 * cols[1][2]:6.1f} ms   "
                  f"({len(calls)} calls)")


def coverage_figures(game: str, per_key: dict) -> tuple:
    """The coverage of every level over the games played (``--coverage``) and the silly
    plays counted per level: (Coverage, {level: {name: count}}, games)."""
    total = _coverage(game)
    silly: dict[str, dict[str, int]] = {}
    games = 0
    for res in (r for rs in per_key.values() for r in rs):
        games += 1
        if res.get("coverage") is not None:
            total.merge(res["coverage"])
        for lv, counts in res.get("silly", {}).items():
            out = silly.setdefault(lv, {})
            for k, c in counts.items():
                out[k] = out.get(k, 0) + c
    return total, silly, games


def print_coverage(game: str, per_key: dict, say, table: bool = True) -> None:
    """Per level: each strategic kind chosen / legal (decisions), the figure
    ``ai.<game>.<level>.unused_strategic`` and the silly plays."""
    cov, silly, games = coverage_figures(game, per_key)
    levels = [lv for lv in ("random", "fast", "strong", "expert") if lv in cov.legal]
    if table:
        say(f"strategic kinds, chosen / legal decisions ({games} games):")
        say(f"  {'kind':<26}" + "".join(f"{lv:>18}" for lv in levels))
        for kind in cov.kinds:
            cells = []
            for lv in levels:
                ch, lg = cov.chosen.get(lv, {}).get(kind, 0), cov.legal.get(lv, {}).get(kind, 0)
                mark = " !" if lg and not ch and lv != "random" else "  "
                cells.append(f"{ch:>7} / {lg:<7}{mark}")
            say(f"  {kind:<26}" + "".join(cells))
    for lv in levels:
        unused = cov.unused(lv)
        say(f"ai.{game}.{lv}.unused_strategic {len(unused)}"
            + (f"   ({', '.join(unused)})" if unused and lv != "random" else ""))
    for lv in levels:
        for k, c in sorted(silly.get(lv, {}).items()):
            say(f"ai.{game}.{lv}.silly.{k} {c}")


def print_mixed(args, per_key: dict, counts: str, option: str) -> None:
    """The matchup table of a game whose option is on in some games: the win share by player
    count and with the option off / on."""
    print(f"{'matchup':<28}{'games':>6}{'win':>8}{'fair':>7}{'margin':>8}{'hero':>7}"
          f"{'others':>8}   win by players ({counts})   win {option}")
    for key in args.only:
        hero, other = MATCHUPS[key]
        res = per_key[key]
        sm = summarize(key, hero, res)
        by_n = " / ".join(f"{v:.2f}" for v in sm["by_n"].values())
        by_rules = []
        for adv in (False, True):
            part = [r for r in res if r["advanced"] == adv]
            by_rules.append(f"{summarize(key, hero, part)['win']:.2f}" if part else "-")
        label = f"({key}) 1 {hero} vs {other}"
        print(f"{label:<28}{sm['games']:>6}{sm['win']:>8.3f}{sm['fair']:>7.3f}"
              f"{sm['margin']:>+8.2f}{sm['hero_score']:>7.1f}{sm['other_score']:>8.1f}   "
              f"{by_n:<48} {' / '.join(by_rules)}")


if __name__ == "__main__":
    raise SystemExit(main())
