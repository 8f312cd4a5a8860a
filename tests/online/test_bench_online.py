"""tools/bench_online.py kept working: both parts, small (a few moves, a
few matches); the figures themselves are docs/online.md's."""

import bench_online


def test_the_benchmark_runs_small():
    said = []
    lat = bench_online.latency(3, said.append)
    assert lat["moves"] == 3 and lat["p95_ms"] <= bench_online.BUDGET_MS, lat
    load = bench_online.load(4, 1.0, 0.2, said.append)
    assert load["errors"] == 0 and load["moves"] > 0, load
    assert said[0].startswith("latency: 3 moves") and said[1].startswith("load: 4 matches")
