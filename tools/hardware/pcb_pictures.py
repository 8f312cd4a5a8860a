"""The PCB's pictures for the manual: each SVG fab.py drew (build/pcb/img,
KiCad's plots, megabytes each) as a PNG in docs/img/pcb/, small enough
for the manual and the repository. Run by `make pcb` after fab.py, with
the project's Python (CairoSVG)."""

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "build", "pcb", "img")
OUT = os.path.join(ROOT, "docs", "img", "pcb")
WIDTH = {"rev_b-assembled": 1800}  # px; the layers 1200


def main(argv=None):
    import cairosvg

    src = argv[0] if argv else SRC
    os.makedirs(OUT, exist_ok=True)
    done = 0
    for name in sorted(os.listdir(src)):
        if not name.endswith(".svg"):
            continue
        stem = name[:-4]
        cairosvg.svg2png(
            url=os.path.join(src, name),
            write_to=os.path.join(OUT, stem + ".png"),
            output_width=WIDTH.get(stem, 1200),
        )
        done += 1
    print("pictures: %d written in %s" % (done, os.path.relpath(OUT, ROOT)))
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
