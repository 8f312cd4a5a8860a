"""The match review on the replay page (review.py through the web page), in
a real Chromium: the review runs in the background after the button (the
page polls its progress), then each move's grade is beside it, the better
cell of the move shown is outlined on the board, the advantage is a graph
and the turning points jump to their move. The record: Black misses the
sequence of 4 on A4 at move 7 (RULES §2; tests/host/test_review.py)."""

import json
import time
import urllib.error
import urllib.request

import pytest
from apixagon_host.store import Store
from smartboard.logstore import records
from webkit import Server

pytest.importorskip("playwright.sync_api", reason="Playwright (make installs it)")

MISSED = [
    "mode queens-gambit",
    "start black",
    "B 0 A1",
    "G 1 I9",
    "B 5 A2",
    "G 2 I8",
    "B 10 A3",
    "G 3 H9",
    "B 20 E8",
    "G 4 H8",
    "B 15 A4",
]


def log_bytes(lines):
    out = bytearray()
    prev = records.SEED
    for text in lines:
        kind = records.HEADER if text[0] in "ms[" else records.MOVE
        rec, prev = records.encode(prev, kind, text.encode())
        out += rec
    return bytes(out)


@pytest.fixture
def server(tmp_path, monkeypatch):
    monkeypatch.setenv("APIXAGON_DATA", str(tmp_path / "data"))  # the review cache
    db = str(tmp_path / "m.sqlite")
    with Store(db) as s:
        s.put("sim-A", "0001.alog", log_bytes(MISSED))
    srv = Server(str(tmp_path / "no-board"), db).start()
    yield srv
    srv.stop()


def get_json(server, path):
    with urllib.request.urlopen(server.url + path, timeout=10) as r:
        return json.loads(r.read().decode())


def post_json(server, path):
    code, body = server.post(path, {}, {"Origin": server.url})  # as the page sends it
    assert code == 200, (code, body)
    return json.loads(body)


def test_the_replay_page_shows_the_review(server, browser):
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/match/1?ply=7")
        page.wait_for_selector("#match[data-ready]")
        assert page.locator("#review-result").is_hidden()
        page.locator("#review-button").click()
        page.wait_for_selector('#review[data-state="done"]', timeout=60000)
        grade = page.locator('#moves button[data-ply="7"] .grade').get_attribute("data-grade")
        assert grade in ("mistake", "blunder"), grade
        assert (
            page.locator('#moves button[data-ply="9"] .grade').get_attribute("data-grade") == "best"
        )
        # the better cell of move 7 outlined on its position
        assert page.locator('#position svg .better-mark[data-cell="A4"]').count() == 1
        assert "A4" in page.locator("#review-better").inner_text()
        # the graph: one point per position, 10 for 9 moves
        pts = page.locator("#review-graph polyline.advantage").get_attribute("points").split()
        assert len(pts) == 10, pts
        # a turning point jumps to its move (the sequence of 4 at last)
        first = page.locator("#review-turns button").first
        ply = first.get_attribute("data-ply")
        assert ply == "9"
        first.click()
        page.wait_for_selector('#position[data-ply="9"]')
        assert page.locator("#position svg .better-mark").count() == 0  # move 9 was the best
        acc = page.locator("#review-accuracy dt").all_inner_texts()
        assert acc == ["B", "G"], acc
    finally:
        ctx.close()


def test_the_review_is_computed_once_and_kept(server):
    assert get_json(server, "/match/1/review.json") == {"state": "none"}
    got = post_json(server, "/match/1/review")
    assert got["ok"] and got["state"] in ("running", "done"), got
    end = time.monotonic() + 60
    while got["state"] != "done":
        assert time.monotonic() < end, got
        assert got["state"] == "running" and got["done"] <= got["total"], got
        time.sleep(0.1)
        got = get_json(server, "/match/1/review.json")
    review = got["review"]
    # a second start is the kept review, not another computation
    again = post_json(server, "/match/1/review")
    assert again["state"] == "done" and again["review"] == review


def test_no_such_match_has_no_review(server):
    with pytest.raises(urllib.error.HTTPError) as e:
        get_json(server, "/match/99/review.json")
    assert e.value.code == 404


def test_two_matches_reviewed_at_once_are_each_their_review_alone(server, tmp_path):
    # each review runs in a process of its own: the rules core's games
    # share scratch buffers, so two in one process's threads raced
    from apixagon_host import review

    taken = MISSED[:8] + ["B 15 A4", "G 4 H8", "B 20 E8"]
    with Store(str(tmp_path / "m.sqlite")) as s:
        s.put("sim-A", "0002.alog", log_bytes(taken))
    for mid in (1, 2):
        post_json(server, "/match/%d/review" % mid)
    got = {}
    end = time.monotonic() + 60
    while len(got) < 2:
        assert time.monotonic() < end, got
        for mid in (1, 2):
            r = get_json(server, "/match/%d/review.json" % mid)
            assert r["state"] in ("running", "done"), r
            if r["state"] == "done":
                got[mid] = r["review"]
        time.sleep(0.1)
    # as the CLI's review of the same records (its tags: the board's own)
    assert got[1]["moves"] == review.review(MISSED)["moves"]
    assert got[2]["moves"] == review.review(taken)["moves"]


JUNIOR = ["mode junior", "players 2", "J 0 E5", "J1 5 D4", "J2 6 E4", "J1 10 D3", "J2 3 C2"]


def test_a_junior_match_shows_where_a_card_fitted_sooner(server, browser, tmp_path):
    # §6, a race: J2's card of move 3 fitted at move 2 already; the page
    # outlines that cell and says so (tests/host/test_review.py).
    from apixagon_host import review

    early = review.review(JUNIOR)["moves"][2]["earlier"]
    with Store(str(tmp_path / "m.sqlite")) as s:
        s.put("sim-A", "0002.alog", log_bytes(JUNIOR))
    ctx = browser.new_context(bypass_csp=True)
    try:
        page = ctx.new_page()
        page.goto(server.url + "/match/2?ply=3")
        page.wait_for_selector("#match[data-ready]")
        page.locator("#review-button").click()
        page.wait_for_selector('#review[data-state="done"]', timeout=60000)
        grade = page.locator('#moves button[data-ply="3"] .grade').get_attribute("data-grade")
        assert grade == "missed"
        mark = '#position svg .better-mark[data-cell="%s"]' % early["cell"]
        page.wait_for_selector(mark)
        said = page.locator("#review-better").inner_text()
        assert early["cell"] in said and "move %d" % early["ply"] in said, said
    finally:
        ctx.close()
