"""`apixagon logs review ID`: a stored match reviewed (review.py) as a
table of moves with their grades and the better moves, the turning
points and each seat's accuracy; `--json` the review's dict for other
tools (docs/guide/command-line.md gives its schema)."""

import json

from .errors import CommandError
from .i18n import _
from .logs import _load
from .progress import Progress
from .review import GRADE_WORDS, ReviewError
from .reviewcache import reviewed
from .store import apx_lines
from .termtext import clean


class _Bar(Progress):
    """The review's bar on stderr: moves reviewed of the match's."""

    def __init__(self, force):
        Progress.__init__(self, 1, force)

    def __call__(self, done, total):
        self.total = max(total, 1)
        self.done = 0
        if self.add(done):
            self.draw(
                _("reviewing"), _("%(done)d/%(total)d moves") % {"done": done, "total": total}
            )


def run(state, args):
    board, name, lines, verdict, date, tags = _load(args, more=True)
    text = apx_lines(board, name, lines, date, tags)
    if args.jobs < 1 or args.jobs > 8:
        raise CommandError(_("--jobs is 1 to 8 processes, not %d") % args.jobs)
    bar = _Bar(args.progress)
    try:
        got = reviewed(text, bar, args.jobs)
    except ReviewError as e:
        raise CommandError(
            _("match %(id)d cannot be reviewed: %(why)s") % {"id": args.id, "why": e}
        ) from None
    finally:
        bar.end()
    if args.json:
        state.out.write(json.dumps(got, indent=1) + "\n")
        return 0
    state.out.write(table(got, args.id))
    return 0


def grade_word(g):
    return _(GRADE_WORDS[g]) if g in GRADE_WORDS else "-"


def table(got, match_id):
    """The review in words, for a terminal."""
    out = [_("match %(id)d reviewed (%(mode)s)") % {"id": match_id, "mode": got["mode"]}, ""]
    row = "%4s  %-4s %-24s %-11s %s"
    out.append((row % (_("ply"), _("seat"), _("move"), _("grade"), _("better"))).rstrip())
    for m in got["moves"]:
        better = m.get("better") or ""
        if m.get("earlier"):
            better = _("could go on %(cell)s at ply %(ply)d") % m["earlier"]
        out.append(
            (
                row
                % (m["ply"], m["seat"], clean(m.get("move") or ""), grade_word(m["grade"]), better)
            ).rstrip()
        )
    if got["turning_points"]:
        out += ["", _("turning points:")]
        for t in got["turning_points"]:
            out.append(
                "  "
                + _("ply %(ply)d: %(swing)d points towards %(side)s")
                % {"ply": t["ply"], "swing": t["swing"], "side": t["towards"]}
            )
    out += ["", _("accuracy:")]
    for seat, acc in got["accuracy"].items():
        out.append("  %-4s %5.1f %%" % (seat, acc))
    return "\n".join(out) + "\n"
