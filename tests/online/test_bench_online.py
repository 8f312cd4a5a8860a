"""tools/bench_online.py kept working: both parts, small (a few moves, a
few matches); the figures themselves are docs/online.md's."""

import bench_online


def test_the_benchmark_runs_small():
    said = []
    lat = bench_online.latency(3, said.append)
    assert lat["moves"] == 3 and lat["p95_ms"] <= bench_online.BUDGET_MS, lat
    load = bench_online.load(4, 1.0, 0.2, said.append)
    assert load["errors"] == 0 and load["moves"] > 0, load
    lines = [x for x in said if not x.startswith("broker: ")]
    assert lines[0].startswith("latency: 3 moves") and lines[1].startswith("load: 4 matches")


def test_the_load_sends_what_a_session_sends_on_the_projects_broker():
    # per move a real session publishes the mover's move, the other side's
    # ack and the host's one signed feed message (session.py, feed.py): three
    # published, two delivered (nobody watches here), a third of them feed
    said = []
    load = bench_online.load(3, 2.0, 0.2, said.append)
    assert load["errors"] == 0 and load["moves"] > 0, load
    pub, got, fed = load["published_per_s"], load["delivered_per_s"], load["feed_per_s"]
    assert abs(pub - 3 * fed) <= 0.1 * pub and abs(got - 2 * fed) <= 0.1 * pub, load
    assert load["broker"]["persistence"] is True, load["broker"]
    assert any(x.startswith("broker: ") and "persistence on" in x for x in said), said
