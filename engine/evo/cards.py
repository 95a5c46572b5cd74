"""The 26 event cards: when each may be played, its targets, and its effect.

Timing points ("windows") where the flow pauses for cards:

* ``phase1`` .. ``phase6``: the start of each phase (phase 6: before the meteorite moves);
* ``phase2_end``: after the climate die (or the climate card), before movement (DÉLUGE and
  ACCIDENT say "during phase 2");
* ``phase4_end`` and ``phase5_end``: the end of births and of survival;
* a phase end and the next phase's start are one window (``phase2_end+phase3``,
  ``phase4_end+phase5``, ``phase5_end+phase6``: both timing points' cards) unless MOI
  D'ABORD's player must choose at that start, between the two;
* ``auction``: after a meteorite roll that did not end the game, before the genes are drawn;
* ``pay``: when the auction is over and its winners are about to pay (SURSAUT GÉNÉTIQUE "when
  paying your bid");
* ``reaction``: right after a card was played on someone's own turn (ENCORE, ÉON CALME);
* and, without a window, ``move`` / ``hatch`` / ``bid``: during the player's own turn in
  phases 3, 4 and 6 (cards that say "during phase X").

Who is asked never depends on the cards in anyone's hand, only on what everyone sees: from
turn 3 on, while no ÉON CALME is in force, a window opens at every timing point where at least
one player holds a card (hand sizes are public), and every player holding a card is asked,
whatever they hold, all at once: each answers secretly, a pass or a card (``state.answers``;
the card stays in the hand, unseen). The answers stay hidden until every player asked has
answered; then the first card in turn order is played (the rulebook: cards wanted at the same
time are played in turn order) and the other answers are forgotten unseen: seeing that card,
everyone holding a card is asked again (a new round, ``window["round"]``), so they may react,
play the card they wanted or change their mind ("au vu des premières cartes jouées, les
joueurs peuvent changer d'avis"). The window closes after a round in which everyone passed,
or at once when ÉON CALME is played.
"""

from __future__ import annotations

from engine.core import IllegalAction, roll
from engine.evo import position as pos
from engine.evo.state import INITIATIVE, MOVEMENT

PHASE_STARTS = frozenset({"phase1", "phase2", "phase3", "phase4", "phase5", "phase6"})
# The end of a phase and the start of the next are one moment when nobody decides anything
# between them (no MOI D'ABORD choice due at the next start): one window covers both
# timing points, its name joining theirs ("phase2_end+phase3").
NEXT_START = {"phase2_end": "phase3", "phase4_end": "phase5", "phase5_end": "phase6"}
JOINT = {f"{end}+{start}": (end, start) for end, start in NEXT_START.items()}
WINDOWS = (PHASE_STARTS | {"phase2_end", "phase4_end", "phase5_end", "auction", "pay", "reaction"}
           | set(JOINT))
OWN_TURNS = frozenset({"move", "hatch", "bid"})
ANYTIME = WINDOWS | OWN_TURNS

CLIMATE_CARDS = frozenset({"cata", "gene_meteo", "plus_de_saison"})

TIMING: dict[str, frozenset[str]] = {
    "deluge": frozenset({"phase2", "phase2_end"}),
    "accident": frozenset({"phase2", "phase2_end"}),
    "cata": frozenset({"phase2"}),
    "gene_meteo": frozenset({"phase2"}),
    "plus_de_saison": frozenset({"phase2"}),
    "motivation": frozenset({"phase3", "move"}),
    "maousse_kosto": frozenset({"phase3"}),
    "grand_frere": frozenset({"phase3"}),
    "gaz_de_combat": frozenset({"phase3"}),
    "regime_vegetarien": frozenset({"phase3"}),
    "plus_de_jeunesse": frozenset({"phase4", "hatch"}),
    "pondeuse_musclee": frozenset({"phase4", "hatch"}),
    "evolution_capote": frozenset({"phase4"}),
    "ciel_mon_mari": frozenset({"phase4_end"}),
    "pthermolactyl": frozenset({"phase5"}),
    "on_crame": frozenset({"phase5"}),
    "peau_adaptable": frozenset({"phase5"}),
    "ca_caille": frozenset({"phase5"}),
    "gene_survivaliste": frozenset({"phase5_end"}),
    "rate_evolutionniste": frozenset({"phase6", "auction"}),
    "evolution_separee": frozenset({"phase6", "auction", "bid"}),
    "sursaut_genetique": frozenset({"phase6", "auction", "bid", "pay"}),
    "moi_dabord": PHASE_STARTS,
    "eon_calme": ANYTIME,
    "encore": ANYTIME,
    "gene_inattendu": frozenset(),  # counted automatically at the final scoring
}
TIMING = {card: points | {joint for joint, pair in JOINT.items() if points & set(pair)}
          for card, points in TIMING.items()}


def open_end_window(state, at: str, events: list) -> bool:
    """The window at the end of a phase (``at``: ``phase2_end``, ``phase4_end``,
    ``phase5_end``). When no MOI D'ABORD choice is due at the start of the next phase, it
    also covers that start (the joint window): True then, and the next phase opens with no
    window of its own. Its start cards played here act in the next phase as they would
    there; MOI D'ABORD's choice comes at that start."""
    if "first" in state.effects:
        open_window(state, at, events)
        return False
    open_window(state, f"{at}+{NEXT_START[at]}", events)
    return state.window is not None

NO_CARDS_BEFORE = pos.D["setup"]["no_cards_before_turn"]


def cards_allowed(state) -> bool:
    return state.turn >= NO_CARDS_BEFORE and not state.effects.get("calm")


def card_params(state, p: int, card: str, at: str) -> list[dict]:
    """Every legal way for ``p`` to play ``card`` at timing point ``at`` ([] if none)."""
    if at not in TIMING[card]:
        return []
    e = state.effects
    if card in CLIMATE_CARDS:
        if e.get("climate_card"):
            return []
        if card == "gene_meteo":
            return [{"die": d} for d in range(1, 7)]
        if card == "plus_de_saison":
            return [{}] if pos.TRACK[state.climate] in (1, 2) else []
        return [{}]
    if card == "encore":
        return [{}] if state.retrievable is not None else []
    if card == "accident":
        b = pos.board(state)
        return [{"target": q, "region": b.names[r]}
                for q in range(state.n) if q != p and pos.on_board(state, q) >= _min_targets()
                for r, owner in enumerate(state.occ) if owner == q]
    if card == "gaz_de_combat":
        return [{"target": q} for q in range(state.n)
                if q != p and sorted((p, q)) not in e.get("peace", [])]
    if card == "ciel_mon_mari":
        if pos.reserve(state, p) <= 0:
            return []
        b = pos.board(state)
        return [{"region": b.names[r]} for r in sorted(state.newborn)
                if state.occ[r] not in (-1, p) and pos.on_board(state, state.occ[r]) >= _min_targets()]
    if card == "motivation" and p in e.get("motivation", ()):
        return []
    if card == "moi_dabord" and e.get("first") == p:
        return []
    if card == "sursaut_genetique" and at == "pay" and not pos.bid_price(state, p):
        return []  # only a winner who still has something to pay
    return [{}]


def _min_targets() -> int:
    return pos.D["cards"]["min_dinos_for_target"]


def plays(state, p: int, at: str) -> list[dict]:
    """All card plays open to ``p`` at ``at``, as actions."""
    if state.turn < NO_CARDS_BEFORE or state.effects.get("calm"):  # not cards_allowed
        return []
    out = []
    locked = state.locked[p]
    seen = set()
    for card in state.hands[p]:
        # card_params' first test first: most cards have nothing to do at ``at``
        if at not in TIMING[card] or card in seen or card in locked:
            continue
        seen.add(card)
        for params in card_params(state, p, card, at):
            out.append({"type": "play", "card": card, **params})
    return out


def check_play(state, p: int, action: dict, at: str) -> tuple[str, dict]:
    card = action["card"]  # a known card, with exactly its parameters (check_action)
    if card not in state.hands[p]:
        raise IllegalAction("card_not_in_hand", card=card)
    if state.turn < pos.D["setup"]["no_cards_before_turn"]:
        raise IllegalAction("cards_too_early", turn=state.turn)
    if state.effects.get("calm"):
        raise IllegalAction("cards_calm")
    if card in state.locked[p]:
        raise IllegalAction("card_locked", card=card)
    if at not in TIMING[card]:
        raise IllegalAction("card_wrong_time", card=card, at=at)
    if card in CLIMATE_CARDS and state.effects.get("climate_card"):
        raise IllegalAction("climate_card_played", card=card)
    params = {k: v for k, v in action.items() if k not in ("type", "card")}
    if "region" in params:
        params["region"] = pos.region_name(state, pos.parse_region(state, params["region"]))
    legal = card_params(state, p, card, at)
    if params not in legal:
        if not legal:
            raise IllegalAction("card_not_playable", card=card)
        raise IllegalAction("card_bad_target", card=card)
    return card, legal[legal.index(params)]  # the legal spelling (its keys in order)


def play(state, p: int, card: str, params: dict, events: list) -> None:
    """Play ``card`` (already checked): discard it, then apply its effect."""
    state.hands[p].remove(card)
    state.discard.append(card)
    state.history.setdefault("cards", []).append({"player": p, "card": card})
    events.append({"type": "card_played", "player": p, "card": card, "params": dict(params)})
    e = state.effects
    if card in CLIMATE_CARDS:
        e["climate_card"] = True
    if card == "deluge":
        b = pos.board(state)
        limit = pos.D["cards"]["deluge_dies_up_to"]
        for r, owner in enumerate(state.occ):
            if owner != -1 and b.coastal[r]:
                die = roll(state)
                total = die + state.genes[owner][pos.PARASOL]
                drowned = total <= limit
                events.append({"type": "deluge_roll", "player": owner, "region": b.names[r],
                               "die": die, "total": total, "drowned": drowned})
                if drowned:
                    pos.kill(state, r, "deluge", events)
    elif card == "accident":
        pos.kill(state, pos.parse_region(state, params["region"]), "accident", events)
    elif card == "cata":
        before = state.climate
        state.climate = (state.climate + 2) % len(pos.TRACK)
        e["climate_set"] = True
        state.history["climate"] = {"die": None, "from": before, "to": state.climate}
        events.append({"type": "climate", "die": None, "delta": 2, "square": state.climate,
                       "card": card,
                       "temperate": pos.TERRAINS[pos.TRACK[state.climate]], "by": p})
    elif card == "gene_meteo":
        before = state.climate
        delta = pos.move_climate(state, params["die"])
        e["climate_set"] = True
        state.history["climate"] = {"die": params["die"], "from": before, "to": state.climate}
        events.append({"type": "climate", "die": params["die"], "delta": delta, "card": card,
                       "square": state.climate,
                       "temperate": pos.TERRAINS[pos.TRACK[state.climate]], "by": p})
    elif card == "plus_de_saison":
        colour = pos.TRACK[state.climate]
        twin = next(i for i, t in enumerate(pos.TRACK) if t == colour and i != state.climate)
        events.append({"type": "climate_swap", "from": state.climate, "to": twin})
        state.climate = twin
    elif card == "motivation":
        e.setdefault("motivation", []).append(p)
        if state.phase == MOVEMENT and state.stage == "move" and pos.current_actor(state) == p:
            used = state.genes[p][pos.LEGS] - state.steps
            state.steps = max(0, pos.on_board(state, p) - used)
    elif card in ("maousse_kosto", "grand_frere", "pthermolactyl", "peau_adaptable",
                  "plus_de_jeunesse", "pondeuse_musclee", "evolution_separee"):
        key = {"maousse_kosto": "maousse", "plus_de_jeunesse": "jeunesse",
               "pondeuse_musclee": "pondeuse", "evolution_separee": "separee"}.get(card, card)
        e.setdefault(key, []).append(p)
    elif card == "gaz_de_combat":
        e.setdefault("peace", []).append(sorted((p, params["target"])))
    elif card == "regime_vegetarien":
        e["no_combat"] = True
    elif card in ("on_crame", "ca_caille"):
        e[card] = e.get(card, 0) + 1
    elif card == "ciel_mon_mari":
        r = pos.parse_region(state, params["region"])
        victim = state.occ[r]
        state.occ[r] = p
        events.append({"type": "newborn_replaced", "player": p, "victim": victim,
                       "region": params["region"]})
    elif card == "evolution_capote":
        e["no_births"] = True
    elif card == "gene_survivaliste":
        for q in range(state.n):
            loss = min(state.mp[q], state.lost[q])
            if state.lost[q]:
                state.mp[q] -= loss
                events.append({"type": "points_lost", "player": q, "lost": loss,
                               "dinos": state.lost[q]})
    elif card == "rate_evolutionniste":
        e["rate"] = True
    elif card == "sursaut_genetique":
        s = e.setdefault("sursaut", {})
        s[str(p)] = s.get(str(p), 0) + 1
    elif card == "encore":
        taken = state.retrievable["card"]
        state.discard.remove(taken)
        state.hands[p].append(taken)
        state.locked[p].append(taken)
        events.append({"type": "card_retrieved", "player": p, "card": taken,
                       "from": state.retrievable["player"]})
    elif card == "moi_dabord":
        e["first"] = p
        ask_first(state)
    elif card == "eon_calme":
        e["calm"] = True
    state.retrievable = {"card": card, "player": p}


def ask_first(state) -> None:
    """MOI D'ABORD: its player is to choose whether to play first in the phase now under way
    (``effects["first_go"]`` None until they do). Nothing to ask in phase 1 (its order is
    already set) or when they come first anyway."""
    e = state.effects
    if state.phase == INITIATIVE or (state.window is not None
                                     and state.window["at"] in JOINT):
        # phase 1's order is set; played in a phase end's joint window, the choice is for
        # the next phase, at its start
        e["first_go"] = False
    elif state.order[0] == e["first"]:
        e["first_go"] = True
    else:
        e["first_go"] = None


def open_window(state, at: str, events: list) -> None:
    """Pause the flow at timing point ``at``: every player holding a card is asked at once."""
    if not cards_allowed(state) or not any(state.hands):
        return
    state.window = {"at": at, "asked": [], "answered": [], "round": 0}
    _new_round(state, events)


def _new_round(state, events: list) -> None:
    """Ask every player holding a card (in turn order), or close the window if nobody
    does."""
    hands = state.hands
    asked = [q for q in pos.turn_order(state) if hands[q]]
    if not asked:
        _close(state)
        return
    w = state.window
    w["asked"], w["answered"], w["round"] = asked, [], w["round"] + 1
    state.answers = [None] * len(hands)
    events.append({"type": "window", "at": w["at"], "asked": list(asked), "round": w["round"]})


def _close(state) -> None:
    state.window = None
    state.retrievable = None
    state.answers = [None] * len(state.seats)


def waiting(state) -> list[int]:
    """The players asked in this round who have not answered yet (in turn order)."""
    w = state.window
    return [q for q in w["asked"] if q not in w["answered"]]


def answer(state, p: int, action: dict, events: list) -> bool:
    """``p``'s secret answer in the window: a pass, or a card playable here (checked now; it
    stays in the hand). The event says that ``p`` answered, never what. When it is the last
    answer of the round, the round is resolved (see :func:`resolve`) and True is returned."""
    w = state.window
    kind = action["type"]
    if kind == "pass":
        state.answers[p] = {"type": "pass"}
    elif kind == "play":
        card, params = check_play(state, p, action, w["at"])
        state.answers[p] = {"type": "play", "card": card, **params}
    else:
        raise IllegalAction("card_window_open", at=w["at"])
    answered = w["answered"]
    answered.append(p)
    events.append({"type": "window_answer", "player": p})
    for q in w["asked"]:  # waiting(state), stopping at the first still to answer
        if q not in answered:
            return False
    resolve(state, events)
    return True


def resolve(state, events: list) -> None:
    """Every player asked has answered: the first card in turn order is played, then everyone
    holding a card is asked again; the other answers are forgotten unseen. No card: the
    window closes."""
    w = state.window
    answers = state.answers
    for first in w["asked"]:
        if answers[first]["type"] == "play":
            break
    else:
        _close(state)
        return
    a = state.answers[first]
    card, params = a["card"], {k: v for k, v in a.items() if k not in ("type", "card")}
    play(state, first, card, params, events)
    if state.effects.get("calm"):
        _close(state)
        return
    _new_round(state, events)
