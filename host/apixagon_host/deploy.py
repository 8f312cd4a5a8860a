"""`apixagon deploy` / `apixagon update`: the firmware onto a board over USB,
in a way no interruption can leave the board unable to start.

The board keeps two firmwares on its flash, in the slots fw/a and fw/b,
and a boot record, fw/BOOT, naming the one to run; its boot selector
(firmware/bootsel.py: frozen in an image, /lib/bootsel.mpy on a stock
MicroPython) reads it at every boot. The steps:

1. Build (fwbuild): mpy-cross compiles the firmware into a slot's tree
   with its manifest (each file's size and sha256). Nothing on the board
   is touched if this fails.
2. HELLO: the board and the firmware version it runs now (STATUS: whether
   it is in safe mode).
3. mpremote takes the board over and reads, in one `exec`, what runs (the
   selector's account of this boot), the image's ID, the boot record and
   the files of both slots (fwtransport).
4. In one mpremote run: the slot that does not run is taken out of the
   record and made ready (emptied for `deploy`; for `update` what it
   already has right stays and what the running slot has right is copied
   on the board), the files are written into it, then the board checks
   every file's sha256 against the manifest and only then replaces the
   boot record, by a rename, with {"cur": new slot, "state": "new",
   "prev": the slot that ran}. On a stock board main.py and
   lib/bootsel.mpy are written beside their place and renamed into it
   just before.
5. Restart (a soft reset); the selector boots the new slot as a trial and
   marks it good at the first pass of its loop. The host waits for HELLO
   with the new version (fwcheck).

On a board flashed with our image the firmware goes instead into the
image's ROMFS partition (the slot "rom", _deploy_rom), where it runs in
place from the flash: the firmware running there is first copied into
fw/a and the record pointed at that copy, then the partition is erased and
written, its image's sha256 checked, and the record switched to it; once
the new firmware answers, the copy goes. A board that stops answering
under mpremote (reset, unplugged) is given up within seconds
(fwtransport.SILENCE), and one left at its REPL by a host that died goes
back to its firmware by itself (firmware/bootsel.py, handover).

A power cut or a killed PC before the record is replaced leaves the old
firmware running; after it, the new one boots as a trial; a trial that
does not reach its loop is set aside at the next boot. If the new
firmware fails before its loop runs the selector boots the previous one
by itself; if it answers with another version, in safe mode or not at
all, the host writes the record back. Either way the command fails
(exit 1) saying so. `deploy` sends every file; `update` only those the
board does not have. The previous firmware stays in its slot until the
next deploy.
"""

import os
import sys
import tempfile
import time

from . import fwbuild as B
from . import fwcheck as C
from . import fwtransport as T
from . import link as L
from .errors import EXIT_FAILED, EXIT_USAGE, CommandError
from .i18n import _
from .progress import Progress


class Files(Progress):
    """The bar of a copy, file by file."""

    def file(self, name):
        if self.add(1):
            self.draw(_("copying"), "%3d/%d %-40s" % (self.done, self.total, name[-40:]))


def say(out, text):
    out.write(text + "\n")
    out.flush()


def target_slot(running, record):
    """The slot to write: never the one running; with the board's own
    firmware running, not the one the record boots either."""
    other = {"a": "b", "b": "a"}
    if running in other:
        return other[running]
    return other.get(record.get("cur"), "a")


def plan(b, st, running, target, full, stock):
    """What goes where: (send over USB, keep in the target slot, copy from
    the running slot on the board, boot files to send, removed)."""
    new = b.files
    have_run = st["slots"].get(running, {}) if running else {}
    have_tgt = st["slots"][target]
    if full:
        keep, copy = [], []
    else:  # the manifest is always written anew, last
        keep = [p for p in new if have_tgt.get(p) == new[p] and p != B.MANIFEST]
        copy = [p for p in new if p not in keep and have_run.get(p) == new[p] and p != B.MANIFEST]
    send = [p for p in new if p not in keep and p not in copy]
    send.sort(key=lambda p: (p == B.MANIFEST, p))  # the manifest last
    boot = sorted(p for p in b.boot if stock and (full or st["boot"].get(p) != b.boot[p]))
    removed = sorted(p for p in have_run if p not in new)
    return send, keep, copy, boot, removed


def deploy(
    port=None,
    firmware=None,
    full=True,
    dry_run=False,
    timeout=20.0,
    force=False,
    out=None,
    progress=False,
    revision=None,
):
    """Deploy (full) or update the firmware; a summary dict. Raises
    CommandError: 2 bad arguments (the board untouched), 3 no board, 1 the
    update failed (the message says what the board runs). On a stock
    board main.py goes on for the revision given, else the one the board's
    main.py names (a rev_b board stays rev_b), else the firmware's own; an
    image's board is the image's revision."""
    out = out or sys.stdout
    t0 = time.monotonic()
    firmware = os.path.abspath(firmware or B.default_firmware())
    if timeout <= 0:
        raise CommandError(_("--timeout must be positive"), EXIT_USAGE)
    with tempfile.TemporaryDirectory(prefix="apixagon-fw-") as tmp:
        B.check_firmware(firmware)
        old_fw, was_safe, arch = "?", True, B.BOARD_ARCH
        try:
            with L.connect(port) as lk:
                port = lk.port
                old_fw = lk.info.get("fw", "?")
                try:
                    was_safe = L.fields(lk.request("STATUS")).get("phase") == "safe"
                except L.BoardError:
                    pass
                if lk.info.get("mpy", "").isdigit():  # fw 0.4.1 on
                    arch = B.arch_of(int(lk.info["mpy"])) or arch
                say(out, _("board on %s: %s, fw %s") % (port, lk.info.get("id", "?"), old_fw))
        except L.BoardError as e:
            if not (force and port):
                hint = _("--force --port PORT: deploy to a board whose firmware is broken")
                raise L.BoardError("%s (%s)" % (e, hint), e.code)
            say(out, _("board on %s does not answer HELLO (%s): going on (--force)") % (port, e))

        b = B.build(firmware, tmp, revision, arch)
        if revision is not None:
            B.check_revision(b, revision)
        total = sum(b.sizes.values())
        say(out, _("built fw %s: %d files, %.1f KB") % (b.fw, len(b.files), total / 1024))

        try:  # the firmware is at the REPL from here on
            lines = T.mpremote(
                port,
                ["exec", T.FREE],
                ["exec", T.state_script(T.SLOTS, not full or dry_run, b.boot)],
                ["exec", T.ROM_PROBE],
                timeout=T.SHORT,
            )
            st = T.parse_state(lines)
            for note in st["notes"]:  # what its selector set aside at this boot, and why
                say(out, _("the board at its last boot: %s") % note)
            stock = _fit(b, st, revision, out)
            board_arch = B.arch_of(st["mpy"])
            if board_arch and board_arch != b.arch:  # HELLO said nothing (--force)
                b = B.build(firmware, os.path.join(tmp, board_arch), revision, board_arch)
        except BaseException as e:
            _leave(port, timeout, e)  # nothing written: the old firmware runs again
            raise
        running = st["booted"] if st["booted"] != "?" else st["record"].get("cur")
        if st["rom"] and not stock:
            rom_b = B.copy(b, os.path.join(tmp, "rom"))
            rom_b.drop(B.SIM)
            image = rom_b.romfs()
            if len(image) <= st["rom"]:
                return _deploy_rom(
                    port, rom_b, image, st, running, full, dry_run, timeout, was_safe,
                    old_fw, out, progress, t0,
                )  # fmt: skip
            say(
                out,
                _(
                    "the firmware's ROMFS image (%.1f KB) does not fit the board's partition "
                    "(%.1f KB): into a slot of the littlefs"
                )
                % (len(image) / 1024, st["rom"] / 1024),
            )
        target = target_slot(running, st["record"])
        send, keep, copy, boot, removed = plan(b, st, running, target, full, stock)
        result = {
            "port": port,
            "old_fw": old_fw,
            "fw": b.fw,
            "slot": target,
            "copied": sorted(send + boot),
            "removed": removed,
            "unchanged": len(b.files) - len(send),
        }
        have_run = st["slots"].get(running, {}) if running else {}
        if dry_run:
            for p in sorted(send + copy):
                say(out, "%s %s" % ("~" if p in have_run else "+", p))
            for p in boot:
                say(out, "%s %s" % ("~" if p in st["boot"] else "+", p))
            for p in removed:
                say(out, "- %s" % p)
            say(
                out,
                _("dry run: %d to copy, %d to remove, %d unchanged (into fw/%s)")
                % (len(send) + len(boot), len(removed), result["unchanged"], target),
            )
            result["dry_run"] = True  # copied, removed: what would be
            C.reboot(port, timeout)
            return result
        if not full and running and have_run == b.files and not boot:
            info = C.reboot(port, timeout)
            result.update(copied=[], removed=[], unchanged=len(b.files))
            result["seconds"] = time.monotonic() - t0
            say(
                out,
                _("up to date: fw %s, %d files (%.1f s)")
                % (info.get("fw"), len(b.files), result["seconds"]),
            )
            return result

        say(
            out,
            _("copying %d files into fw/%s, removing %d, %d unchanged")
            % (len(send) + len(boot), target, len(removed), result["unchanged"]),
        )
        record = {
            "cur": target,
            "state": "new",
            "prev": running,
            "image": (st["image"] or {}).get("id"),
        }
        try:
            _install(port, b, target, running, full, send, keep, copy, boot, record, out, progress)
        except BaseException as e:
            _leave(port, timeout, e)  # the record was not replaced: the old firmware runs
            if isinstance(e, CommandError):
                raise CommandError(
                    _("update failed: %s; nothing switched: %s") % (e, _as_before(e, old_fw)),
                    EXIT_FAILED,
                )
            raise
        info = _start_new(port, b, target, running, st, timeout, was_safe, old_fw, out)
        result["seconds"] = time.monotonic() - t0
        said = (
            _("deployed fw %s -> %s: %d copied, %d removed, %d unchanged (%.1f s)")
            if full
            else _("updated fw %s -> %s: %d copied, %d removed, %d unchanged (%.1f s)")
        )
        say(
            out,
            said
            % (
                old_fw,
                info.get("fw"),
                len(result["copied"]),
                len(removed),
                result["unchanged"],
                result["seconds"],
            ),
        )
        return result


def _deploy_rom(
    port, b, image, st, running, full, dry_run, timeout, was_safe, old_fw, out, progress, t0
):
    """Into the image's ROMFS partition: the firmware runs in place from the
    flash (its bytecode out of the heap, as the image's own). One
    partition, so while it is erased and written the record names another
    whole firmware: the one running, copied first into fw/a if it is the
    ROMFS one. Once the new one answers, the copies in the littlefs go."""
    import hashlib

    sha = hashlib.sha256(image).hexdigest()
    result = {
        "port": port,
        "old_fw": old_fw,
        "fw": b.fw,
        "slot": T.ROMSLOT,
        "copied": sorted(b.files),
        "removed": [],
        "unchanged": 0,
        "romfs": len(image),
    }
    up_to_date = False
    if running == T.ROMSLOT and (dry_run or not full):
        try:
            up_to_date = T.rom_sum(port) == sha
        except BaseException as e:
            _leave(port, timeout, e)
            raise
    if dry_run:
        say(
            out,
            _(
                "dry run: %s: a ROMFS image of %d files, %.1f KB, into the board's partition "
                "(%.1f KB)"
            )
            % (
                _("up to date") if up_to_date else _("to write"),
                len(b.files),
                len(image) / 1024,
                st["rom"] / 1024,
            ),
        )
        result.update(dry_run=True, copied=[] if up_to_date else result["copied"])
        C.reboot(port, timeout)
        return result
    if not full and up_to_date:
        info = C.reboot(port, timeout)
        result.update(copied=[], unchanged=len(b.files))
        result["seconds"] = time.monotonic() - t0
        say(
            out,
            _("up to date: fw %s, %d files in the ROMFS partition (%.1f s)")
            % (info.get("fw"), len(b.files), result["seconds"]),
        )
        return result
    keep = "a" if running == T.ROMSLOT else None
    prev = keep or (running if running in T.SLOTS else None)
    record = {
        "cur": T.ROMSLOT,
        "state": "new",
        "prev": prev,
        "image": (st["image"] or {}).get("id"),
    }
    say(
        out,
        _("writing the firmware's ROMFS image (%d files, %.1f KB) into the board's partition%s")
        % (
            len(b.files),
            len(image) / 1024,
            " " + _("(the running one kept in fw/a meanwhile)") if keep else "",
        ),
    )
    cmds = [["exec", T.FREE]]
    if keep:
        cmds.append(["exec", T.rom_keep_script(keep)])
    cmds.append(["exec", T.rom_prepare_script(len(image))])
    writes = T.rom_write_commands(image)
    cmds += writes
    cmds.append(["exec", T.rom_switch_script(image, b.files[B.MANIFEST], [], record)])
    bar = Files(len(writes), progress)

    def on_line(line):
        if line.startswith("R "):
            bar.file("ROMFS block %s" % line[2:])

    try:
        try:
            lines = T.mpremote(port, *cmds, on_line=on_line)
        finally:
            bar.end()
        if keep and "KEPT-OK" not in lines:
            raise CommandError(
                _("the board could not keep its firmware in fw/%s") % keep, EXIT_FAILED
            )
        if "PREPARE-OK" not in lines:
            raise CommandError(_("the board could not erase its ROMFS partition"), EXIT_FAILED)
        if "SWITCHED" not in lines:
            bad = [line[4:] for line in lines if line.startswith("BAD ")]
            raise CommandError(
                _("the ROMFS image failed its check on the board: %s")
                % ", ".join(bad or ["no answer"]),
                EXIT_FAILED,
            )
    except BaseException as e:
        _leave(port, timeout, e)  # the record names what ran (or its copy)
        if isinstance(e, CommandError):
            raise CommandError(
                _("update failed: %s; nothing switched: %s") % (e, _as_before(e, old_fw)),
                EXIT_FAILED,
            )
        raise
    say(out, _("verified: the ROMFS image matches its sha256 on the board"))
    info = _start_new(port, b, T.ROMSLOT, prev, st, timeout, was_safe, old_fw, out)
    # The new one answers: the littlefs copies go (the image's own firmware
    # stays the board's fallback).
    try:
        lines = T.mpremote(port, ["exec", T.FREE], ["exec", T.drop_script()], timeout=T.SHORT)
        dropped = [line[8:] for line in lines if line.startswith("DROPPED ")]
        info = C.reboot(port, timeout)
    except CommandError as e:
        dropped = []
        say(out, _("note: the copies in fw/ stay (%s)") % e)
        T.restart_quietly(port)
        info = C.await_firmware(port, timeout)
    result["removed"] = ["fw/%s" % d for d in dropped]
    result["seconds"] = time.monotonic() - t0
    said = (
        _("deployed fw %s -> %s: ROMFS %.1f KB, %d files%s (%.1f s)")
        if full
        else _("updated fw %s -> %s: ROMFS %.1f KB, %d files%s (%.1f s)")
    )
    say(
        out,
        said
        % (
            old_fw,
            info.get("fw"),
            len(image) / 1024,
            len(b.files),
            _(", fw/%s freed") % " fw/".join(dropped) if dropped else "",
            result["seconds"],
        ),
    )
    return result


def _as_before(error, old_fw):
    if isinstance(error, T.BoardGone):
        return _("the board boots fw %s when it is back") % old_fw
    return _("the board runs fw %s, as before") % old_fw


def _leave(port, timeout, error):
    """Out of the REPL after an error, before anything was switched: the
    board restarted into the firmware it ran, and (but after a Ctrl-C)
    waited for, so that the command ends with the board answering."""
    if isinstance(error, T.BoardGone):
        return  # nothing there to restart: it boots what it ran when it is back
    if not isinstance(error, Exception):
        T.restart_quietly(port)
        return
    try:
        C.reboot(port, min(timeout, 15.0))
    except Exception:  # noqa: BLE001 - the error at hand is the one to report
        pass


def _fit(b, st, revision, out):
    """Check the build against the board (the .mpy format, the revision);
    whether the board is a stock MicroPython (True: it gets main.py and
    lib/bootsel.mpy) or runs an image (False)."""
    mpy = st["mpy"]
    if mpy and mpy & 0xFF != b.mpy:
        raise CommandError(
            _(
                "the board loads .mpy v%d, mpy-cross makes v%d: install an mpy-cross "
                "that matches the board's MicroPython"
            )
            % (mpy & 0xFF, b.mpy),
            EXIT_FAILED,
        )
    image = st["image"]
    if image is not None:
        rev = image["rev"]
        if revision is not None and revision != rev:
            raise CommandError(
                _(
                    "this board runs the %s image: --board %s would not change it "
                    "(flash the %s image for that)"
                )
                % (rev, revision, revision),
                EXIT_USAGE,
            )
        if rev not in b.revisions():
            raise CommandError(
                _("the board's image is for revision %s, which this firmware has no pins for")
                % rev,
                EXIT_FAILED,
            )
        say(out, _("board revision %s (its image's; main.py stays frozen there)") % rev)
        return False
    rev = b.revision()
    if revision is None and st["main_rev"] and rev and st["main_rev"] != rev:
        if st["main_rev"] not in b.revisions():
            raise CommandError(
                _(
                    "the board's main.py is for revision %s, which this firmware has no "
                    "pins for: give --board"
                )
                % st["main_rev"],
                EXIT_FAILED,
            )
        b.set_revision(st["main_rev"])
        rev = st["main_rev"]
    if rev:
        say(out, _("main.py for board revision %s") % rev)
    return True


def _install(port, b, target, running, full, send, keep, copy, boot, record, out, progress):
    """Make the slot ready, write, verify, switch: one mpremote run."""
    slot = T.DIR + "/" + target
    dirs = {slot + "/" + p.rpartition("/")[0] for p in send + copy if "/" in p}
    if B.SELECTOR in boot:
        dirs.add(B.SELECTOR.rpartition("/")[0])
    cmds = [["exec", T.FREE], ["exec", T.prepare_script(target, running, full, keep, dirs, copy)]]
    items = [(b.local(p), slot + "/" + p, p) for p in send]
    items += [(b.local_boot(p), p + T.NEW, p) for p in boot]
    cmds += T.write_commands(items)
    switch = [(p + T.NEW, p, b.boot[p]) for p in boot]
    cmds.append(["exec", T.switch_script(target, b.files, switch, record)])

    bar = Files(len(items), progress)

    def on_line(line):
        if line.startswith("W "):
            bar.file(line[2:])

    try:
        lines = T.mpremote(port, *cmds, on_line=on_line)
    finally:
        bar.end()
    if "PREPARE-OK" not in lines:
        raise CommandError(_("the board could not make fw/%s ready") % target, EXIT_FAILED)
    if "SWITCHED" not in lines:
        bad = [line[4:] for line in lines if line.startswith("BAD ")]
        raise CommandError(
            _("sha256 check failed on the board: %s") % ", ".join(bad or ["no answer"]),
            EXIT_FAILED,
        )
    say(out, _("verified: %d files match their sha256 on the board") % len(b.files))


def _start_new(port, b, target, running, st, timeout, was_safe, old_fw, out):
    """Restart into the new firmware; its HELLO, or CommandError with the
    board back on the previous one."""
    try:
        T.restart(port)
        return C.started(port, b.fw, timeout, was_safe)
    except C.Fallback as e:
        # The selector set the new slot aside and booted the previous one.
        say(out, _("the board went back to fw %s by itself") % e.info.get("fw"))
        try:
            why = C.why_set_aside(port, target) or _("it answers with fw %s") % e.info.get("fw")
        finally:
            T.restart_quietly(port)
        info = C.await_firmware(port, timeout)
        reason = _("the firmware does not start (%s)") % why
    except CommandError as e:
        reason = str(e)
        say(out, _("update failed: %s") % reason)
        say(out, _("rolling back ..."))
        try:
            info = C.roll_back(port, running, st["record"], target, reason, timeout, old_fw)
        except CommandError as e2:
            raise CommandError(
                _(
                    "update failed (%s) and the rollback failed too (%s); the board boots "
                    "fw/%s or what it falls back to"
                )
                % (reason, e2, target),
                EXIT_FAILED,
            )
    raise CommandError(
        _("update failed: %s; rolled back: the board runs fw %s again") % (reason, info.get("fw")),
        EXIT_FAILED,
    )


def add_args(p):
    p.add_argument("--port", "-p", help=_("serial port of the board (default: the first found)"))
    p.add_argument(
        "--firmware",
        metavar="DIR",
        help=_("firmware folder to compile (default: the firmware/ of this checkout)"),
    )
    p.add_argument(
        "--dry-run",
        action="store_true",
        help=_("list what would change (the board is restarted, nothing written)"),
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=20.0,
        help=_("seconds to wait for the firmware to answer after the restart (default 20)"),
    )
    p.add_argument(
        "--force",
        action="store_true",
        help=_("go on when the board does not answer HELLO (needs --port)"),
    )
    p.add_argument(
        "--board",
        metavar="REV",
        help=_(
            "board revision main.py starts on a stock MicroPython (rev_a, rev_b; "
            "default: what the board has); an image's board is the image's revision"
        ),
    )
    p.add_argument("--progress", action="store_true", help=_("progress bar even when not a tty"))


def run(state, args):
    full = getattr(args, "command", "deploy") != "update"
    deploy(
        port=args.port,
        firmware=args.firmware,
        full=full,
        dry_run=args.dry_run,
        timeout=args.timeout,
        force=args.force,
        out=state.out,
        progress=args.progress,
        revision=args.board,
    )
    return 0
