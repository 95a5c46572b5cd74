"""EVO's strong level may correct its own futures' values by a fit of its own
(:data:`engine.evo.ai.LEAF_FIT_SELF`, by player count) and its rivals' by
:data:`engine.evo.ai.LEAF_FIT`. None is in use today (fits on games with one strong seat among
fast seats measured no better: see the comment above LEAF_FIT), so its own value takes
LEAF_FIT like everyone's."""

from __future__ import annotations

import pytest

from engine.evo.ai import LEAF_FIT, LEAF_FIT_SELF, StrongPolicy

# the 5-player fit of the strong seat's rows measured in issue 22 (not kept)
MEASURED_OWN_5 = (-0.355, 0.312, 0.054, -0.102, -0.164, -0.061, 0.033, 0.14, -0.177, 0.059,
                  -0.508)


@pytest.fixture
def own_fit():
    saved = dict(LEAF_FIT_SELF)
    LEAF_FIT_SELF.clear()
    LEAF_FIT_SELF[5] = MEASURED_OWN_5
    yield
    LEAF_FIT_SELF.clear()
    LEAF_FIT_SELF.update(saved)


def test_without_a_fit_of_its_own_our_value_takes_the_rivals_fit():
    assert LEAF_FIT_SELF == {}
    strong = StrongPolicy()
    assert strong._leaf_params(5, own=True).leaf_fit == LEAF_FIT[5]
    assert strong._leaf_params(4, own=True).leaf_fit is None
    assert StrongPolicy(leaf_fit=False)._leaf_params(5, own=True).leaf_fit is None


def test_a_fit_of_its_own_values_our_dinos_and_only_ours(own_fit):
    strong = StrongPolicy()
    assert strong._leaf_params(5, own=True).leaf_fit == MEASURED_OWN_5
    assert strong._leaf_params(5).leaf_fit == LEAF_FIT[5]
    assert strong._leaf_params(4, own=True).leaf_fit is None
    assert StrongPolicy(leaf_fit=False)._leaf_params(5, own=True).leaf_fit is None

