"""A grid router for the board's signal nets (tools/hardware/pcb.py):
A* on a fine grid over the two outer layers with negotiated congestion
(PathFinder: McMurchie and Ebeling, FPGA '95).

Why our own: the board is sparse and regular, and the autorouters we could
run here gave every net one width and a grid coarser than the RP2040's
0.4 mm pin pitch. Ground and the LEDs' 5 V are planes (pcb.py joins their
pads with vias); everything else is routed here, each track at its
class's width with the clearance kept exactly.

How: the pads, the board's edge and the antenna's turns are fixed copper,
drawn once into one array per layer and per kind of thing routed (a
signal track, a power track, its neck, a via): a cell holds the net whose
copper lies within that thing's half width plus the clearance of the
cell's centre (-1 for two nets), and a net may only enter cells holding 0
or itself. Tracks are counted instead (how many pieces of copper reach a
cell): in the first pass a net may cross another's track at a price;
then every net that crossed one is routed again, the price of a crossed
cell rising each time (its history), until no two nets touch. Each net's
pins are joined nearest first (Prim's order), each join an A* search from
a pad's cells to the net's copper so far, a via costing VIA_COST cells."""

import heapq
import math

import numpy as np

OBSTACLE = 32000  # the board's edge, holes, the antenna's turns: no net's
VIA_COST = 12  # cells of track a via is worth: a via only where it saves a detour
DIAG = math.sqrt(2)
_DIRS = (
    (0, 1, 1.0),
    (1, 0, 1.0),
    (0, -1, 1.0),
    (-1, 0, 1.0),
    (1, 1, DIAG),
    (1, -1, DIAG),
    (-1, 1, DIAG),
    (-1, -1, DIAG),
)


class Router:
    def __init__(self, box, step, clearance, kinds, layers=2):
        """box = (x0, y0, x1, y1) mm; kinds = {name: half width mm} of the
        things routed (a track's half width, a via's radius)."""
        self.x0, self.y0 = box[0], box[1]
        self.step = step
        self.W = int(math.ceil((box[2] - box[0]) / step)) + 1
        self.H = int(math.ceil((box[3] - box[1]) / step)) + 1
        self.clearance = clearance
        self.kinds = dict(kinds)
        self.layers = layers
        shape = (self.H, self.W)
        self.fixed = {k: [np.zeros(shape, np.int16) for _ in range(layers)] for k in kinds}
        self.count = {k: [np.zeros(shape, np.int16) for _ in range(layers)] for k in kinds}
        self.history = [np.zeros(shape, np.float32) for _ in range(layers)]
        # flat views of the same memory: A* reads a cell per step
        self.fview = {k: [memoryview(a.reshape(-1)) for a in v] for k, v in self.fixed.items()}
        self.cview = {k: [memoryview(a.reshape(-1)) for a in v] for k, v in self.count.items()}
        self.hview = [memoryview(a.reshape(-1)) for a in self.history]
        self.copper = {}  # net -> [(kind, layer, flat indices)]
        self.tracks = {}  # net -> [(layer, ax, ay, bx, by, width)]
        self.vias = {}  # net -> [(x, y)]
        self.paths = {}  # net -> [(node, kind)] the cells its copper runs through

    # ---- geometry ----------------------------------------------------------------
    def cell(self, x, y):
        return int(round((y - self.y0) / self.step)), int(round((x - self.x0) / self.step))

    def at(self, i, j):
        return self.x0 + j * self.step, self.y0 + i * self.step

    def _window(self, bbox, reach):
        i0 = max(0, int(math.floor((bbox[1] - reach - self.y0) / self.step)))
        i1 = min(self.H, int(math.ceil((bbox[3] + reach - self.y0) / self.step)) + 1)
        j0 = max(0, int(math.floor((bbox[0] - reach - self.x0) / self.step)))
        j1 = min(self.W, int(math.ceil((bbox[2] + reach - self.x0) / self.step)) + 1)
        ys = self.y0 + np.arange(i0, i1) * self.step
        xs = self.x0 + np.arange(j0, j1) * self.step
        X, Y = np.meshgrid(xs, ys)
        return (i0, i1, j0, j1), X, Y

    @staticmethod
    def distance(shape, X, Y):
        """Distance from each point to the copper of shape (0 inside)."""
        kind = shape[0]
        if kind == "seg":
            _, ax, ay, bx, by, hw = shape
            dx, dy = bx - ax, by - ay
            n = dx * dx + dy * dy
            t = 0.0 if n == 0 else np.clip(((X - ax) * dx + (Y - ay) * dy) / n, 0.0, 1.0)
            return np.maximum(np.hypot(ax + t * dx - X, ay + t * dy - Y) - hw, 0.0)
        if kind == "rect":
            _, cx, cy, hx, hy, deg = shape
            a = math.radians(deg)
            c, s = math.cos(a), math.sin(a)
            u = (X - cx) * c + (Y - cy) * s
            v = -(X - cx) * s + (Y - cy) * c
            return np.hypot(np.maximum(np.abs(u) - hx, 0.0), np.maximum(np.abs(v) - hy, 0.0))
        _, cx, cy, r = shape
        return np.maximum(np.hypot(X - cx, Y - cy) - r, 0.0)

    @staticmethod
    def bbox(shape):
        kind = shape[0]
        if kind == "seg":
            _, ax, ay, bx, by, hw = shape
            return min(ax, bx) - hw, min(ay, by) - hw, max(ax, bx) + hw, max(ay, by) + hw
        if kind == "rect":
            _, cx, cy, hx, hy, _ = shape
            r = math.hypot(hx, hy)
            return cx - r, cy - r, cx + r, cy + r
        _, cx, cy, r = shape
        return cx - r, cy - r, cx + r, cy + r

    def _reached(self, shape, reach):
        (i0, i1, j0, j1), X, Y = self._window(self.bbox(shape), reach)
        m = self.distance(shape, X, Y) < reach - 1e-9
        ii, jj = np.nonzero(m)
        return (ii + i0) * self.W + (jj + j0)

    def add_fixed(self, net, layers, shape):
        """Fixed copper of a net (OBSTACLE for none) on the given layers."""
        for kind, half in self.kinds.items():
            idx = self._reached(shape, half + self.clearance)
            for L in layers:
                a = self.fixed[kind][L].reshape(-1)
                cur = a[idx]
                a[idx] = np.where((cur == 0) | (cur == net), net, -1)

    def _add_track(self, net, layers, shape):
        rec = self.copper.setdefault(net, [])
        for kind, half in self.kinds.items():
            idx = self._reached(shape, half + self.clearance)
            for L in layers:
                np.add.at(self.count[kind][L].reshape(-1), idx, 1)
                rec.append((kind, L, idx))

    def rip(self, net):
        """Take a net's tracks and vias off the board."""
        for kind, L, idx in self.copper.pop(net, ()):
            np.subtract.at(self.count[kind][L].reshape(-1), idx, 1)
        self.tracks.pop(net, None)
        self.vias.pop(net, None)
        self.paths.pop(net, None)

    def cells_in(self, shape):
        """The cells whose centres lie in a shape's copper (at least the
        nearest one)."""
        (i0, i1, j0, j1), X, Y = self._window(self.bbox(shape), 0.0)
        m = self.distance(shape, X, Y) <= 1e-9
        got = [(i0 + int(i), j0 + int(j)) for i, j in zip(*np.nonzero(m))]
        if not got:
            cx, cy = (
                (shape[1], shape[2])
                if shape[0] != "seg"
                else ((shape[1] + shape[3]) / 2, (shape[2] + shape[4]) / 2)
            )
            got = [self.cell(cx, cy)]
        return got

    def near(self, shape, reach):
        """Flat indices of the cells within reach of a shape's copper."""
        (i0, i1, j0, j1), X, Y = self._window(self.bbox(shape), reach)
        m = self.distance(shape, X, Y) <= reach
        return {(i0 + int(i)) * self.W + j0 + int(j) for i, j in zip(*np.nonzero(m))}

    # ---- search --------------------------------------------------------------------
    def pad_cells(self, shape, inset):
        """The cells of a pad a track of half width inset may start from
        (its copper then inside the pad's), at least its centre's."""
        (i0, i1, j0, j1), X, Y = self._window(self.bbox(shape), 0.0)
        if shape[0] == "rect":
            _, cx, cy, hx, hy, deg = shape
            inner = ("rect", cx, cy, max(hx - inset, 0.0), max(hy - inset, 0.0), deg)
        else:
            inner = shape
        m = self.distance(inner, X, Y) <= 1e-9
        got = [(i0 + int(i), j0 + int(j)) for i, j in zip(*np.nonzero(m))]
        # a pad narrower than the track, off the grid (a 0.5 mm pitch on a
        # 0.2 mm grid): any of its cells, the search keeps the free ones
        return got or self.cells_in(shape)

    def connect(
        self,
        net,
        kind,
        sources,
        targets,
        goal,
        via_kind="via",
        price=1.0,
        eps=1.3,
        limit=400_000,
        neck=None,
        neck_kind=None,
        own=(),
    ):
        """A* from source nodes (layer, i, j) to any target node, through
        cells free of fixed copper, crossing other nets' tracks at price x
        their count + the cell's history; the path of nodes, or None."""
        W, H = self.W, self.H
        fv, cv = self.fview[kind], self.cview[kind]
        nfv = self.fview[neck_kind] if neck else None
        ncv = self.cview[neck_kind] if neck else None
        neck = neck or ()
        hv = self.hview
        vf = self.fview[via_kind] if via_kind else None
        vc = self.cview[via_kind] if via_kind else None
        gi, gj = goal
        tset = set(targets)

        def enter(L, k):
            """The extra cost of a cell, None if it cannot be entered."""
            if k in neck:
                v = nfv[L][k]
                c = ncv[L][k]
            else:
                v = fv[L][k]
                c = cv[L][k]
            if v != 0 and v != net:
                return None
            if c and k not in own:
                return price * c + hv[L][k]
            return 0.0

        openq = []
        g = {}
        came = {}
        for node in sources:
            L, i, j = node
            extra = enter(L, i * W + j)
            if extra is None:
                continue
            g[node] = extra
            came[node] = None
            heapq.heappush(openq, (extra + eps * _octile(i - gi, j - gj), extra, node))
        n = 0
        while openq:
            f, gc, node = heapq.heappop(openq)
            if gc > g.get(node, 1e18):
                continue
            if node in tset:
                path = [node]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])
                return path[::-1]
            n += 1
            if n > limit:
                return None
            L, i, j = node
            for di, dj, cost in _DIRS:
                ni, nj = i + di, j + dj
                if not (0 <= ni < H and 0 <= nj < W):
                    continue
                extra = enter(L, ni * W + nj)
                if extra is None:
                    continue
                if cost > 1.0:
                    # no corner cutting: both side cells clear of fixed copper
                    if enter(L, i * W + nj) is None or enter(L, ni * W + j) is None:
                        continue
                nxt = (L, ni, nj)
                ng = gc + cost + extra
                if ng < g.get(nxt, 1e18):
                    g[nxt] = ng
                    came[nxt] = node
                    heapq.heappush(openq, (ng + eps * _octile(ni - gi, nj - gj), ng, nxt))
            if vf is None:
                continue
            k = i * W + j
            extra = 0.0
            for Lv in range(self.layers):
                v = vf[Lv][k]
                if v != 0 and v != net:
                    extra = None
                    break
                c = vc[Lv][k]
                if c:
                    extra += price * c + hv[Lv][k]
            if extra is None:
                continue
            for L2 in range(self.layers):
                if L2 == L:
                    continue
                e2 = enter(L2, k)
                if e2 is None:
                    continue
                nxt = (L2, i, j)
                ng = gc + VIA_COST + extra + e2
                if ng < g.get(nxt, 1e18):
                    g[nxt] = ng
                    came[nxt] = node
                    heapq.heappush(openq, (ng + eps * _octile(i - gi, j - gj), ng, nxt))
        return None

    def commit(
        self, net, path, kind, width, via_radius, neck=(), neck_kind=None, neck_width=None, own=()
    ):
        """Draw a found path as tracks and vias; a stretch in the neck
        cells at neck_width. Cells inside the net's own pads (own) are not
        watched for crossings: the track's copper there is the pad's."""
        runs = []  # (layer, narrow, [cells])
        prev = None
        cells = self.paths.setdefault(net, [])
        for node in path:
            L, i, j = node
            narrow = (i * self.W + j) in neck
            if (i * self.W + j) not in own:
                cells.append((node, neck_kind if narrow else kind))
            if runs and runs[-1][0] == L and runs[-1][1] == narrow:
                runs[-1][2].append((i, j))
            elif runs and runs[-1][0] == L:
                # the width changes here: the two stretches share this cell
                runs.append((L, narrow, [prev[1:], (i, j)]))
            else:
                if runs:
                    x, y = self.at(i, j)
                    self.vias.setdefault(net, []).append((x, y))
                    self._add_track(net, range(self.layers), ("circle", x, y, via_radius))
                    cells.append(((None, i, j), "via"))
                runs.append((L, narrow, [(i, j)]))
            prev = node
        for L, narrow, run in runs:
            w = neck_width if narrow else width
            pts = _corners(run)
            for (ai, aj), (bi, bj) in zip(pts, pts[1:]):
                ax, ay = self.at(ai, aj)
                bx, by = self.at(bi, bj)
                self.tracks.setdefault(net, []).append((L, ax, ay, bx, by, w))
                self._add_track(net, (L,), ("seg", ax, ay, bx, by, w / 2))

    def crossed(self, net):
        """The cells where a routed net's copper meets another net's track
        (with the net's own copper taken off first, then put back)."""
        rec = self.copper.get(net, ())
        for kind, L, idx in rec:
            np.subtract.at(self.count[kind][L].reshape(-1), idx, 1)
        bad = []
        for (L, i, j), kind in self.paths.get(net, ()):
            k = i * self.W + j
            layers = range(self.layers) if L is None else (L,)
            for Lx in layers:
                if self.cview[kind][Lx][k]:
                    bad.append((Lx, k))
        for kind, L, idx in rec:
            np.add.at(self.count[kind][L].reshape(-1), idx, 1)
        return bad


def _octile(di, dj):
    di, dj = abs(di), abs(dj)
    return max(di, dj) + (DIAG - 1) * min(di, dj)


def _corners(cells):
    """A run of cells as its corner points (collinear steps merged)."""
    if len(cells) < 2:
        return list(cells) * 2 if cells else []
    out = [cells[0]]
    d = (cells[1][0] - cells[0][0], cells[1][1] - cells[0][1])
    for a, b in zip(cells[1:], cells[2:]):
        nd = (b[0] - a[0], b[1] - a[1])
        if nd != d:
            out.append(a)
            d = nd
    out.append(cells[-1])
    return out


def prim_order(points, groups=None, apart=10.0):
    """Pairs (new, joined) that join points nearest first from the first;
    two points of one group (pins of one chip) count apart mm further
    apart: a chip's two supply pins then each go to their own capacitor
    instead of round the pin between them."""
    if len(points) < 2:
        return []
    done = [0]
    left = set(range(1, len(points)))
    pairs = []
    while left:
        best = None
        for a in left:
            for b in done:
                d = math.hypot(points[a][0] - points[b][0], points[a][1] - points[b][1])
                if groups is not None and groups[a] == groups[b]:
                    d += apart
                if best is None or d < best[0]:
                    best = (d, a, b)
        _, a, b = best
        pairs.append((a, b))
        done.append(a)
        left.remove(a)
    return pairs
