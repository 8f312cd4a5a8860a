"""`make bench`: the CircuitPython strip adapter's write path on the real
Adafruit library (adafruit-circuitpython-neopixel 6.4.2 with its
pure-Python adafruit_pixelbuf 2.1.0; the hardware hook neopixel_write and
board/digitalio stood in for by tests/circuitpython, the hook counting
calls only).

Prints microseconds per 61-LED frame (the painter's GRB bytes into the
library, then show()) for
  - per-pixel: the adapter before, one `pixels[i] = (r, g, b)` per LED;
  - slice:     the adapter now (drivers/neopixel_cp.py), the frame as one
               `pixels[:] = list of 0xRRGGBB ints`;
on CPython and on the MicroPython unix port (each the best of 5 runs), the
heap bytes a frame allocates on the unix port, with the library and with
a list in its place (the adapter's own share), and checks that both paths
put the same bytes on the wire. CircuitPython on an RP2040 has
adafruit_pixelbuf built in (C): there the library's per-pixel work is C,
where these figures run its pure-Python fallback for both paths.
Options: --json (figures as one JSON object).

Run under MicroPython by the script itself: micropython tools/bench/strip_cp.py
--device LIBDIR K (LIBDIR: the library's two files).
"""

import sys

try:
    from time import ticks_diff, ticks_us
except ImportError:  # CPython
    from time import perf_counter

    def ticks_us():
        return int(perf_counter() * 1000000)

    def ticks_diff(a, b):
        return a - b


N = 61
RUNS = 5


def per_pixel(strip):
    """The adapter's write() before the slice: kept here as the baseline."""
    p = strip.pixels
    b = strip.buf
    for i in range(strip.n):
        p[i] = (b[3 * i + 1], b[3 * i], b[3 * i + 2])
    p.show()


def slice_write(strip):
    strip.write()


def frames(k):
    """k frames' GRB bytes: every LED lit, different each frame."""
    out = []
    for f in range(k):
        out.append(bytes((7 * i + 13 * f) & 0xFF for i in range(3 * N)))
    return out


def time_path(strip, write, data):
    best = None
    for _ in range(RUNS):
        t0 = ticks_us()
        for d in data:
            strip.buf[:] = d
            write(strip)
        t = ticks_diff(ticks_us(), t0)
        best = t if best is None or t < best else best
    return best / len(data)


class ListPixels(list):
    """The library replaced by a list (a C sequence's store): what is left
    is the adapter's own bytecode, as where PixelBuf is built in."""

    brightness = 1.0
    auto_write = False

    def show(self):
        pass


def allocated(strip, write):
    """Heap bytes one write() allocates (MicroPython; None on CPython)."""
    try:
        import gc

        gc.collect()
        gc.disable()
        a = gc.mem_alloc()
    except AttributeError:
        return None
    write(strip)
    b = gc.mem_alloc()
    gc.enable()
    return b - a


def measure(k):
    """{path: [us per frame, heap bytes per frame]} in this runtime, and
    whether both paths put the same bytes on the wire."""
    import board
    import neopixel
    import neopixel_write
    from smartboard.drivers.neopixel_cp import CircuitPythonStrip

    strip = CircuitPythonStrip(neopixel.NeoPixel(board.GP16, N, auto_write=False))
    bare = CircuitPythonStrip(ListPixels([0] * N))
    data = frames(k)
    same = True
    for d in data[:3]:
        neopixel_write.KEEP = True
        strip.buf[:] = d
        per_pixel(strip)
        slice_write(strip)
        a, b = neopixel_write.WRITES[-2][1], neopixel_write.WRITES[-1][1]
        same = same and a == b and len(a) == 3 * N
    neopixel_write.KEEP = False
    fig = {}
    for name, s in (("library", strip), ("adapter", bare)):
        for path, write in (("per_pixel", per_pixel), ("slice", slice_write)):
            fig[name + "_" + path] = [time_path(s, write, data), allocated(s, write)]
    return fig, same


def device(lib, k):
    """Under MicroPython: the stand-ins and the firmware from the repository."""
    root = lib_root()
    sys.path[:0] = [lib, root + "/tests/circuitpython", root + "/firmware"]
    fig, same = measure(k)
    for key in sorted(fig):
        us, heap = fig[key]
        print("NEOPIXEL %s %d %d" % (key, int(us * 10), heap))
    print("NEOPIXEL same %d 0" % (1 if same else 0))


def lib_root():
    here = __file__ if "/" in __file__ else "./" + __file__
    return here.rsplit("/", 3)[0]


def main(argv):
    import json
    import os
    import shutil
    import subprocess
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    sys.path[:0] = [os.path.join(root, "tests", "circuitpython"), os.path.join(root, "firmware")]
    try:
        import adafruit_pixelbuf
        import neopixel
    except ImportError as e:
        print("bench: the Adafruit library is not installed (make bench): %s" % e, file=sys.stderr)
        return 2
    fig = {
        "library": "neopixel %s, adafruit_pixelbuf %s (pure Python)"
        % (neopixel.__version__, adafruit_pixelbuf.__version__)
    }
    cp, same = measure(2000)
    fig["cpython"] = {k: round(v[0], 1) for k, v in cp.items()}
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    exe = exe if os.path.exists(exe) else shutil.which("micropython")
    if exe:
        with tempfile.TemporaryDirectory() as tmp:
            for m in (neopixel, adafruit_pixelbuf):
                shutil.copy(m.__file__, tmp)
            out = subprocess.run(
                [exe, os.path.abspath(__file__), "--device", tmp, "300"],
                capture_output=True,
                text=True,
                cwd=root,
            )
        lines = [ln.split() for ln in out.stdout.splitlines() if ln.startswith("NEOPIXEL ")]
        got = {w[1]: (int(w[2]), int(w[3])) for w in lines}
        if "same" not in got:
            print("bench: the unix port run failed:\n" + out.stdout + out.stderr, file=sys.stderr)
            return 1
        same = same and got.pop("same")[0] == 1
        fig["unix_port"] = {k: v[0] / 10 for k, v in got.items()}
        fig["unix_port_heap_bytes"] = {k: v[1] for k, v in got.items()}
    fig["same_bytes"] = same
    if "--json" in argv:
        print(json.dumps(fig, indent=1, sort_keys=True))
        return 0 if same else 1
    heap = fig.get("unix_port_heap_bytes", {})
    print("CircuitPython strip adapter, one 61-LED frame (the painter's GRB bytes) + show(),")
    print("best of %d runs; per-pixel tuples (before) -> one slice of 0xRRGGBB ints (now):" % RUNS)
    print("  the real library (%s), neopixel_write stood in for:" % fig["library"])
    for key, where in (("cpython", "CPython"), ("unix_port", "MicroPython unix port")):
        if key in fig:
            old, new = fig[key]["library_per_pixel"], fig[key]["library_slice"]
            extra = ""
            if key == "unix_port":
                extra = ", heap %d -> %d bytes a frame" % (
                    heap["library_per_pixel"],
                    heap["library_slice"],
                )
            print(
                "    %-22s %6.1f -> %6.1f us a frame (x%.2f)%s"
                % (where, old, new, old / new, extra)
            )
    if heap:
        # Its time is left out: this unix port's heap allocations take
        # several microseconds each, varying with the heap's layout.
        print("  the adapter's own share (the library replaced by a list):")
        print(
            "    %-22s heap %d -> %d bytes a frame (a tuple per LED -> none)"
            % ("MicroPython unix port", heap["adapter_per_pixel"], heap["adapter_slice"])
        )
    if not same:
        print("  DIFFERENT BYTES on the wire from the two paths")
    return 0 if same else 1


if __name__ == "__main__":
    if "--device" in sys.argv:
        i = sys.argv.index("--device")
        device(sys.argv[i + 1], int(sys.argv[i + 2]))
    else:
        sys.exit(main(sys.argv[1:]))
