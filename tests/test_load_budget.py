"""The load run's bookkeeping of Discord's budget (issue 25): which REST calls are bound to
the bot's global rate limit, and the bots' garbage-collection pauses."""

from __future__ import annotations

import json

from fakediscord.driver import LoadConfig, exempt, gc_pauses


def test_interaction_endpoints_are_exempt_and_channel_calls_are_global():
    assert exempt("/interactions/1/tok/callback")
    assert exempt("/webhooks/9/tok/messages/@original")
    assert exempt("/webhooks/9/tok")  # a followup
    assert not exempt("/channels/5/messages")
    assert not exempt("/channels/5/messages/7")
    assert not exempt("/guilds/3/members/4")


def test_gc_pauses_are_the_longest_of_every_bot(tmp_path):
    for i, (top, gen2) in enumerate([(12.5, 1), (40.0, 3)]):
        (tmp_path / f"gc-{i}.json").write_text(json.dumps({
            "max_ms": top, "max_ms_by_gen": [1.0, 2.0, top], "count_by_gen": [10, 2, gen2],
            "total_ms": 80.0}))
    pauses = gc_pauses(LoadConfig(workdir=tmp_path))
    assert pauses["max_ms"] == 40.0 and pauses["gen2"] == 4 and pauses["by_gen"][2] == 40.0


def test_the_launcher_times_every_collection(tmp_path):
    import gc

    from fakediscord.launcher import GcPauses

    pauses = GcPauses()
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(pauses.callback)
    pauses.write(tmp_path / "gc-0.json")
    report = json.loads((tmp_path / "gc-0.json").read_text())
    assert report["count_by_gen"][2] >= 1 and report["max_ms"] > 0


def test_the_metrics_count_rest_calls_by_budget():
    from ops.metrics import Metrics, bucket_of, route_of

    assert bucket_of(route_of("/api/v10/interactions/9/tok/callback")) == "exempt"
    assert bucket_of(route_of("/api/v10/webhooks/7/tok/messages/@original")) == "exempt"
    assert bucket_of(route_of("/api/v10/channels/1/messages/2")) == "global"
    metrics = Metrics()
    metrics.rest("POST", "/interactions/:id/:token/callback", "2xx")
    metrics.rest("PATCH", "/webhooks/:id/:token/messages/@original", "2xx")
    metrics.rest("PATCH", "/channels/:id/messages/:id", "429")
    sample = metrics.registry.get_sample_value
    assert sample("darwin_rest_budget_requests_total", {"bucket": "exempt"}) == 2
    assert sample("darwin_rest_budget_requests_total", {"bucket": "global"}) == 1
