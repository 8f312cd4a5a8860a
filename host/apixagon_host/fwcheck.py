"""`apixagon deploy`, part 3: what the board runs after a restart, and the
way back when the new firmware does not start.

The board's selector (firmware/bootsel.py) already goes back by itself
when a new firmware is incomplete or fails before its loop runs: the
board then answers with the previous version, and its boot record names
the slot it set aside and why. What the selector cannot see — a firmware
whose loop runs but answers with another version, only in safe mode, or
not at all — the host puts back here: the record rewritten to boot the
previous slot (or the board's own firmware), and a restart.
"""

import os
import time

from . import fwtransport as T
from . import link as L
from .errors import EXIT_FAILED, CommandError
from .i18n import _

# A board that restarts leaves the USB for a moment (~1 s on a Pico); one
# whose port stays away this long was unplugged.
PORT_GONE = 5.0


def _repl_signs(noise):
    """None while the line shows nothing but the firmware; else what shows
    that a REPL is there instead (the firmware stopped): our own request
    echoed, a prompt, a traceback or the banner."""
    for line in noise:
        if (
            line.startswith(b"@")
            or b">>>" in line
            or b"Traceback" in line
            or line.startswith(b"MicroPython ")
        ):
            errors = [n.strip() for n in noise if b"Error" in n]
            return errors[-1].decode("ascii", "replace")[:160] if errors else ""
    return None


def await_firmware(port, timeout, status=False):
    """The board's HELLO answer after a restart, as soon as it comes (with
    status=True, its STATUS fields too, as info["status"]): an error early
    if the REPL shows up instead (the firmware failed to start). A HELLO
    sent while the board boots is lost with its USB buffers: it is sent
    again after 0.3 s, then less often."""
    deadline = time.monotonic() + timeout
    lk = None
    wait = 0.3
    missing = None  # since when the port has been gone
    try:
        while True:
            if os.path.exists(port) or not port.startswith("/dev/"):
                missing = None
            elif missing is None:
                missing = time.monotonic()
            elif time.monotonic() - missing > PORT_GONE:
                raise CommandError(
                    _("the board's port %s has gone (unplugged?)") % port, L.EXIT_NO_BOARD
                )
            try:
                if lk is None:
                    lk = L.Link(port, timeout=wait)
                lk.timeout = wait
                info = lk.hello()
                if status:
                    info = dict(info, status=L.fields(lk.request("STATUS", timeout=5.0)))
                return info
            except L.BoardError as e:
                signs = _repl_signs(lk.noise) if lk is not None else None
                if signs is not None:
                    raise CommandError(
                        _("the firmware does not start: its REPL answers instead")
                        + (" (%s)" % signs if signs else ""),
                        EXIT_FAILED,
                    )
                if time.monotonic() > deadline:
                    raise CommandError(
                        _("no HELLO answer within %g s after the restart (%s)") % (timeout, e),
                        EXIT_FAILED,
                    )
                wait = min(wait * 1.5, 1.0)
                time.sleep(0.05)
    finally:
        if lk is not None:
            lk.close()


def reboot(port, timeout, status=False):
    """Restart the board from its REPL and wait for the firmware's HELLO
    (its identity), or CommandError."""
    T.restart(port)
    return await_firmware(port, timeout, status)


def safe_mode(info):
    """Why the board runs in safe mode (its board could not be built), or None."""
    st = info.get("status") or {}
    if st.get("phase") == "safe":
        return st.get("error") or "unknown"
    return None


def started(port, want_fw, timeout, was_safe):
    """After the switch and the restart: the new firmware's HELLO (and
    STATUS), or CommandError saying why not (its REPL, a timeout, another
    version: the selector went back; safe mode where the old one was not)."""
    info = await_firmware(port, timeout, status=True)
    if info.get("fw") != want_fw:
        raise Fallback(info)
    why = safe_mode(info)
    if why is not None and not was_safe:
        raise CommandError(
            _("the firmware does not start its board: it runs in safe mode (%s)") % why,
            EXIT_FAILED,
        )
    return info


class Fallback(CommandError):
    """The board answers, with another firmware than the one deployed."""

    def __init__(self, info):
        super().__init__("the board answers with fw %s" % info.get("fw"), EXIT_FAILED)
        self.info = info


def why_set_aside(port, target):
    """After the selector went back by itself: what its record says of the
    slot (takes the board over; the caller restarts it)."""
    lines = T.mpremote(
        port, ["exec", T.FREE], ["exec", T.state_script((), False, ())], timeout=T.SHORT
    )
    st = T.parse_state(lines)
    rec = st["record"]
    if rec.get("bad") == target and rec.get("cur") != target:
        return rec.get("why") or _("set aside by the board")
    return None


def roll_back(port, running, record, target, reason, timeout, old_fw):
    """Boot the previous firmware again: the record rewritten (the target
    set aside), the board restarted; its HELLO, or CommandError."""
    rec = {
        "cur": running,
        "state": "ok",
        "prev": None,
        "image": record.get("image"),
        "bad": target,
        "why": reason[:120],
    }
    lines = T.mpremote(port, ["exec", T.FREE], ["exec", T.record_script(rec)], timeout=T.SHORT)
    if "RECORD-OK" not in lines:
        raise CommandError(_("the board did not take the boot record back"), EXIT_FAILED)
    info = reboot(port, timeout)
    if old_fw not in ("?", None) and info.get("fw") != old_fw:
        raise CommandError(
            _("after the rollback the board answers with fw %s, not %s") % (info.get("fw"), old_fw),
            EXIT_FAILED,
        )
    return info
