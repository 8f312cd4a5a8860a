"""The board page's firmware update, end to end without a browser: the
POST the page's button sends runs the real `apixagon update` (deploy.run:
mpremote, the slots, the new firmware's answer) against a simulated stock
board that runs an older version, through the web companion's own link
thread; the job the page polls says how it went, and the board then runs
the repository's firmware. (The browser test of the same page checks its
progress bar and the rollback's words against a stand-in deploy.)"""

import json
import os
import sys
import time

import pytest
from apixagon_host import fwbuild, fwcheck
from apixagon_host import link as L
from deploykit import copy_with_version, stock_flash
from webkit import ROOT, Server

sys.path.insert(0, os.path.join(ROOT, "tools"))
import build_mpy  # noqa: E402
import devboard  # noqa: E402

OLD = "0.0.1-web"


@pytest.fixture
def old_board(tmp_path):
    src = copy_with_version(os.path.join(ROOT, "firmware"), str(tmp_path / "old"), OLD)
    stage = str(tmp_path / "stage")
    fwbuild.build(src, stage, arch=build_mpy.unix_arch())
    flash = str(tmp_path / "flash")
    stock_flash(flash, stage)
    b = devboard.DevBoard(flash)
    b.start()
    try:
        assert fwcheck.await_firmware(b.port, 10)["fw"] == OLD
        yield b
    finally:
        b.stop()


def test_the_update_button_installs_the_firmware_on_the_board(old_board, tmp_path):
    new = fwbuild.firmware_version(os.path.join(ROOT, "firmware"))
    server = Server(old_board.port, str(tmp_path / "m.sqlite")).start()
    try:
        server.wait(lambda st: st.get("connected"))
        code, body = server.post("/api/update", {}, {"Origin": server.url})
        assert code == 200 and json.loads(body)["ok"], body
        end = time.monotonic() + 120
        job = server.get_json("/api/job")
        while job["running"] and time.monotonic() < end:
            time.sleep(0.2)
            job = server.get_json("/api/job")
        assert not job["running"] and job["ok"], job
        assert job["done"] == job["total"] > 0  # the progress bar ran to its end
        # the page's link is back on the board, which runs the new version
        st = server.wait(lambda st: st.get("connected") and st["board"].get("fw") == new, 30)
        assert st["board"]["fw"] == new
    finally:
        server.stop()
    with L.connect(old_board.port) as lk:
        assert lk.info["fw"] == new
