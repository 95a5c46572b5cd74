"""/evo bid gene:NAME: every gene kind on the auction table, named in every catalogue language,
finds its slot (the Card gene included), and a gene that is not on offer is refused."""

from types import SimpleNamespace

import pytest

from cogs.evo import Evo
from engine import IllegalAction
from engine.evo.data import BAG_KINDS
from messages import languages, t


def _game(genes):
    auction = {"genes": list(genes), "bids": [None] * len(genes)}
    return SimpleNamespace(state=SimpleNamespace(auction=auction))


@pytest.mark.parametrize("lang", sorted(languages()))
@pytest.mark.parametrize("gene", BAG_KINDS)
def test_every_gene_kind_is_found_by_its_name(gene, lang):
    others = [g for g in BAG_KINDS if g != gene][:3]
    game = _game(others + [gene])
    name = t(f"evo.gene.{gene}", lang)
    assert Evo._gene_slot(None, game, name) == 3
    assert Evo._gene_slot(None, game, name.upper()) == 3
    assert Evo._gene_slot(None, game, gene) == 3


def test_a_slot_nobody_holds_is_chosen_first_and_missing_genes_are_refused():
    game = _game(["card", "fur", "card"])
    game.state.auction["bids"][0] = [1, 2]
    assert Evo._gene_slot(None, game, "card") == 2
    with pytest.raises(IllegalAction) as err:
        Evo._gene_slot(None, game, "egg")
    assert err.value.code == "unknown_gene"
