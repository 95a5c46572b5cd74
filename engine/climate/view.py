"""What a seat may see of a game of Evolution: Climate, and how to imagine the hidden part.

Hidden: every hand (its owner sees it), the food cards until they are revealed, the trait
cards played face down this round (their owner sees them), the order and content of the draw
deck, of the set-aside cards and of both event decks, what each food bag holds (its owner sees
the total), the cards a player puts back for the exchange (its owner sees them), and in a
Quick game's play phase everything a player does until the reveal: the others see that
player's species and hand count as they were when the phase began. A view shows counts only
for hidden things; the discard pile is shown as a count too.

``view(state, viewer)`` (``viewer`` None: the public table, e.g. a spectator or the channel
image) returns::

    {
      "kind": "climate",
      "viewer": int | None,
      "round": int,                 # 1, 2, ...
      "phase": "food" | "play" | "green" | "feeding" | "over",
      "step": int,                  # the public step counter (rules.step_key)
      "first": int,                 # the first player of this round
      "current": int | None,        # whose turn it is in a sequential step (play in the normal
                                    # game, green, feeding); None in a simultaneous step
                                    # (food; play in the Quick game) and at the end
      "awaiting": [int],            # the players whose input is awaited (rules.to_act)
      "last": bool,                 # this round is the last one
      "final_next": bool,           # the draw deck ran out at an extinction: next round is last
      "over": bool,
      "options": {"events": bool, "quick": bool},   # quick: in effect (6 players: always)
      "max_traits": int,            # trait cards a species may hold (3 with 2 players, else 4)
      "climate": {
        "zone": str,                # the marker's zone: "ice_age", "freezing", "cold", "cool",
                                    # "temperate", "warm", "tropical", "hot", "scorching"
        "index": int,               # its index in "zones" (0 = coldest)
        "zones": [str],             # every zone, coldest first
        "side": "small" | "large",  # the board side (2-3 players / 4-6 players)
        "plants": [int],            # per zone, that side's plant modifier
        "loss": [{"cause": "cold" | "heat" | None, "icons": int, "body": [low, high]}],
                                    # per zone: population lost by species of body low..high
      },
      "events": {                   # all empty when options.events is False
        "cold": {"deck": int, "up": EVENT | None},   # cards left in the deck; the card face
        "hot": {"deck": int, "up": EVENT | None},    # up under its zone
        "thaw": EVENT | None,       # a Thaw on the Watering Hole: its suns count at the next
                                    # reveal
        "meteor": bool,             # a Meteor struck: positive plant totals are never added
        "volcano": str | None,      # the zone the marker moves to at the end of this feeding
        "fired": EVENT | None,      # the event that fired this round
        "wildfire": int,            # plants set aside by a Wildfire, added before the next Deal
      },
      "watering_hole": int,         # plants on the Watering Hole
      "deck": int,                  # draw deck
      "set_aside": int,             # cards set aside at the setup (the next draw deck, 2-4 p.)
      "discard": int,               # discard pile (face up)
      "food_cards": [None | CARD | {"down": True}],
                                    # per player: no food card, the revealed card, or a face-down
                                    # one (the viewer sees their own with "down": True added)
      "suns": int | None, "snows": int | None,   # icons on the revealed food cards (a Thaw's
                                    # suns, counted at the reveal, are in the food_reveal event)
      "green": [{"species": int, "trait": str}], # phase "green": what `current` still orders
      "night": [int],               # feeding: species that used Nocturnal this turn
      "negated": [{"species": int, "trait": str}],  # feeding: traits a carnivore's owner
                                    # cancelled with Intelligence for its next attack
      "players": [PLAYER],          # by seat
      "result": [{"player", "rank", "score", "food", "population", "traits"}] | None,
    }

    PLAYER = {
      "id": str, "name": str,
      "hand": int,                  # cards in hand
      "cards": [CARD] | None,       # the hand, for the viewer only
      "returned": [CARD] | int,     # cards put back for the exchange (viewer: the cards;
                                    # others: a count, 0 in a Quick game's play phase)
      "held": [CARD] | int,         # a Quick game's play phase: cards discarded secretly, on
                                    # the discard pile at the reveal (viewer: the cards;
                                    # others: 0)
      "bag": int | None,            # food in the bag: the viewer's own, everyone's at the end
      "done": bool,                 # play phase: finished playing
      "passed": bool,               # feeding: passed
      "points": int,                # public points: population + trait cards of its species
      "total": int | None,          # points + bag: the viewer's own, everyone's at the end
      "species": [SPECIES],         # left to right
    }

    SPECIES = {
      "id": int,                    # stable id (1000 * (player + 1) + k)
      "body": int, "pop": int,      # 1..6 each
      "food": int,                  # food on the board this round
      "fat": int,                   # food stored on Fat Tissue
      "traits": [TRAIT],            # left to right in play order
      "carnivore": bool,            # holds a face-up Carnivore
      "hungry": bool,               # must still be fed (Hibernation: up to 2 need not)
      "fed": bool,                  # food == pop
    }

    TRAIT = CARD + {"down": bool}   # face up, or the owner's own face-down card
          | {"card": None, "trait": None, "down": True}   # another player's face-down card

    CARD = {"card": str, "trait": str, "plants": int, "suns": int, "snows": int,
            "green": bool}          # a trait card: id, trait, the leaf number and the icons

    EVENT = {"card": str, "event": str, "deck": "cold" | "hot", "zone": str, "to": str | None}
                                    # event: "cold_snap", "heat_wave", "thaw", "meteor",
                                    # "desertification", "wildfire", "volcanic_eruption";
                                    # "to": a Volcanic Eruption's destination zone

Two states that differ only in hidden things give equal views to every viewer they hide it from.
``determinize(view, seed)`` builds a full state consistent with a view (the unseen cards dealt
at random, a fresh generator): for AI look-ahead only.
"""

from __future__ import annotations

from engine.climate import data as DATA
from engine.climate.data import (
    BODY,
    CARD_INFO,
    CARDS,
    CAUSE,
    DECKS,
    EVENTS,
    ICONS,
    SNOWS,
    SUNS,
    TRAIT_OF,
    ZONE_INDEX,
    ZONES,
    card_info,
    event_info,
    max_traits,
    side_for,
    zone_plants,
)
from engine.climate.position import (
    current_player,
    face_up,
    hibernating,
    public_position,
    to_act,
)
from engine.climate.state import ClimateState
from engine.core import Rng, json_copy

HIDDEN_TRAIT = {"card": None, "trait": None, "down": True}
# per zone: (cause or None, icons, lowest body, highest body), the view's "loss" rows
_LOSS = tuple((CAUSE[i] or None, ICONS[i], *BODY[i]) for i in range(len(ZONES)))


def species_view(sp: dict, own: bool) -> dict:
    down = sp["down"]
    if down:
        traits = [dict(CARD_INFO[c], down=False) if c not in down else
                  dict(CARD_INFO[c], down=True) if own else dict(HIDDEN_TRAIT)
                  for c in sp["traits"]]
        up = face_up(sp)
    else:
        traits = [dict(CARD_INFO[c], down=False) for c in sp["traits"]]
        up = [x["trait"] for x in traits]
    food, pop = sp["food"], sp["pop"]
    return {"id": sp["id"], "body": sp["body"], "pop": pop, "food": food,
            "fat": sp["fat"], "traits": traits, "carnivore": "carnivore" in up,
            "hungry": food < pop - hibernating(up), "fed": food >= pop}


def public_points(rows: list[dict]) -> int:
    pop, trait = DATA.SCORE_POP, DATA.SCORE_TRAIT
    return sum(sp["pop"] * pop + len(sp["traits"]) * trait for sp in rows)


def view(state: ClimateState, viewer: int | None) -> dict:
    s = state
    n = s.n
    over = s.phase == "over"
    players = []
    for p in range(n):
        rows, hand = public_position(s, p, viewer)
        own = viewer == p
        points = public_points(rows)
        if own:
            returned = [card_info(c) for c in s.back[p]]
            held: list | int = [card_info(c) for c in s.held[p]]
        else:
            returned = 0 if s.shown is not None else len(s.back[p])
            held = 0
        bag = s.bags[p] if (own or over) else None
        players.append({
            "id": s.seats[p]["id"],
            "name": s.seats[p]["name"],
            "hand": hand,
            "cards": [card_info(c) for c in s.hands[p]] if own else None,
            "returned": returned,
            "held": held,
            "bag": bag,
            "done": s.done[p],
            "passed": s.passed[p],
            "points": points,
            "total": None if bag is None else points + bag * DATA.SCORE_FOOD,
            "species": [species_view(sp, own) for sp in rows],
        })
    food_cards = []
    for p in range(n):
        c = s.food[p]
        if c is None:
            food_cards.append(None)
        elif s.revealed:
            food_cards.append(card_info(c))
        elif viewer == p:
            food_cards.append(dict(card_info(c), down=True))
        else:
            food_cards.append({"down": True})
    suns = snows = None
    if s.revealed:
        suns = sum(SUNS[c] for c in s.food if c is not None)
        snows = sum(SNOWS[c] for c in s.food if c is not None)
    side = side_for(n)
    ev = s.options["events"]
    return {
        "kind": "climate",
        "viewer": viewer,
        "round": s.round,
        "phase": s.phase,
        "step": s.step,
        "first": s.first,
        "current": current_player(s),
        "awaiting": to_act(s),
        "last": s.last,
        "final_next": s.final_next,
        "over": over,
        "options": dict(s.options),
        "max_traits": max_traits(n),
        "climate": {
            "zone": ZONES[s.zone],
            "index": s.zone,
            "zones": list(ZONES),
            "side": side,
            "plants": list(zone_plants(side)),
            "loss": [{"cause": cause, "icons": icons, "body": [low, high]}
                     for cause, icons, low, high in _LOSS],
        },
        "events": {
            "cold": {"deck": len(s.event_decks["cold"]) if ev else 0,
                     "up": None if s.event_up["cold"] is None else event_info(s.event_up["cold"])},
            "hot": {"deck": len(s.event_decks["hot"]) if ev else 0,
                    "up": None if s.event_up["hot"] is None else event_info(s.event_up["hot"])},
            "thaw": None if s.thaw is None else event_info(s.thaw),
            "meteor": bool(s.meteor),
            "volcano": None if s.volcano is None else ZONES[s.volcano],
            "fired": None if s.fired is None else event_info(s.fired),
            "wildfire": s.wildfire,
        },
        "watering_hole": s.wh,
        "deck": len(s.deck),
        "set_aside": len(s.set_aside),
        "discard": len(s.discard),
        "food_cards": food_cards,
        "suns": suns,
        "snows": snows,
        "green": [{"species": sid, "trait": t} for sid, t in s.green],
        "night": list(s.night),
        "negated": [{"species": sid, "trait": t} for sid, t in s.negated],
        "players": players,
        "result": json_copy(s.result),
    }


# --- imagining the hidden part --------------------------------------------------------------

def determinize(v: dict, seed: int) -> ClimateState:
    """A full state consistent with view ``v`` (seen by ``v["viewer"]``): the unseen trait
    cards (other hands, face-down cards, food cards, decks, the discard pile) and event cards
    dealt at random, others' bags at 0, a fresh generator. For AI rollouts only."""
    me = v["viewer"]
    players = v["players"]
    n = len(players)
    s = ClimateState.__new__(ClimateState)  # every slot is set below
    s.seats = [{"id": row["id"], "name": row["name"]} for row in players]
    s.options = dict(v["options"])
    s.seed = int(seed)
    rng = Rng(seed)
    s.round, s.phase, s.first = v["round"], v["phase"], v["first"]
    cur = v["current"]
    s.current = cur if cur is not None else (v["awaiting"][0] if v["awaiting"] else s.first)
    s.last, s.final_next = v["last"], v["final_next"]
    s.zone = v["climate"]["index"]
    s.wh = v["watering_hole"]
    s.revealed = v["suns"] is not None
    # what the viewer knows exactly (a card id seen twice only in a damaged view: ignored)
    seen: set[str] = set()
    s.hands = [[] for _ in range(n)]
    s.back = [[] for _ in range(n)]
    s.held = [[] for _ in range(n)]
    if me is not None:
        mine = players[me]
        for slot, cards in ((s.hands, mine["cards"]), (s.back, mine["returned"]),
                            (s.held, mine["held"])):
            slot[me] = own = [c["card"] for c in cards]
            seen.update(own)
    rows: list[list[dict]] = []
    unknown_traits: list[tuple[dict, int]] = []
    for row in players:
        out = []
        for sp in row["species"]:
            traits: list = []
            down: list = []
            x = {"id": sp["id"], "body": sp["body"], "pop": sp["pop"], "food": sp["food"],
                 "fat": sp["fat"], "traits": traits, "down": down}
            for i, t in enumerate(sp["traits"]):
                c = t["card"]
                if c is None:
                    traits.append(None)
                    down.append(None)
                    unknown_traits.append((x, i))
                else:
                    traits.append(c)
                    seen.add(c)
                    if t["down"]:
                        down.append(c)
            out.append(x)
        rows.append(out)
    food: list = [None] * n
    for p, fc in enumerate(v["food_cards"]):
        if fc is not None and fc.get("card") is not None:
            food[p] = fc["card"]
            seen.add(fc["card"])
    pool = [c for c in CARDS if c not in seen]
    rng.shuffle(pool)

    def deal(k: int) -> list[str]:
        if k <= 0:
            return []
        out = pool[-k:]
        del pool[len(pool) - len(out):]
        return out

    for x, i in unknown_traits:  # a face-down card: a trait the species does not hold yet
        have = {TRAIT_OF[c] for c in x["traits"] if c is not None}
        pick = next((j for j in range(len(pool) - 1, -1, -1) if TRAIT_OF[pool[j]] not in have),
                    len(pool) - 1)
        c = pool.pop(pick)
        x["traits"][i] = c
        x["down"][x["down"].index(None)] = c
    for p, fc in enumerate(v["food_cards"]):
        if fc is not None and fc.get("card") is None:
            food[p] = deal(1)[0]
    for p, row in enumerate(players):
        if p != me:
            s.hands[p] = deal(row["hand"])
            k = row["returned"] if isinstance(row["returned"], int) else 0
            s.back[p] = deal(k)
    s.rows = rows
    s.food = food
    s.discard = deal(v["discard"])
    s.set_aside = deal(v["set_aside"])
    s.deck = pool  # whatever is left (the deck count, unless the view was damaged)
    s.next_sid = [1 + max([sp["id"] - 1000 * (p + 1) for sp in rows[p]], default=0)
                  for p in range(n)]
    s.bags = [row["bag"] if row["bag"] is not None else 0 for row in players]
    # climate events
    evs = v["events"]
    up_cold, up_hot = evs["cold"]["up"], evs["hot"]["up"]
    s.event_up = {"cold": up_cold["card"] if up_cold else None,
                  "hot": up_hot["card"] if up_hot else None}
    s.thaw = evs["thaw"]["card"] if evs["thaw"] else None
    s.meteor = []
    shown_events = {c for c in (s.event_up["cold"], s.event_up["hot"], s.thaw)
                    if c is not None}
    s.event_decks = {}
    events_on = v["options"]["events"]
    for d in ("cold", "hot"):
        rest = [c for c in DECKS[d] if c not in shown_events]
        # the cards of this deck neither in it nor shown: Meteors in effect
        struck = len(rest) - evs[d]["deck"] if events_on else 0
        if struck > 0:
            for c in [c for c in rest if EVENTS[c].kind == "meteor"][:struck]:
                rest.remove(c)
                s.meteor.append(c)
        rng.shuffle(rest)
        s.event_decks[d] = rest
    s.fired = evs["fired"]["card"] if evs["fired"] else None
    s.volcano = None if evs["volcano"] is None else ZONE_INDEX[evs["volcano"]]
    s.wildfire = evs["wildfire"]
    s.done = [row["done"] for row in players]
    s.passed = [row["passed"] for row in players]
    s.shown = None
    if v["phase"] == "play" and v["options"]["quick"]:
        s.shown = [{"hand": len(s.hands[p]), "rows": json_copy(s.rows[p])} for p in range(n)]
    s.green = [[g["species"], g["trait"]] for g in v["green"]]
    s.night = list(v["night"])
    s.negated = [[g["species"], g["trait"]] for g in v["negated"]]
    s.step = v["step"]
    s.keys = [v["step"]] * n
    s.result = json_copy(v["result"])
    s.rng = rng.state
    return s
