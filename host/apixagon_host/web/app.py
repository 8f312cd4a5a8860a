"""The web companion's routes (Starlette). Pages are Jinja2 templates
(autoescaped: a board's or a database's text is shown, never run); the
live view is one server-sent event stream per page, a JSON snapshot per
change (live.py); pictures come from render.py.

Safety (guard.py: who may ask, the Host header, the token of
--allow-remote, same-origin changes, no traceback on the terminal); here:
a match is named by its id, a whole number in SQLite's range (others are
404); no path ever comes from a request (downloads are made in memory)."""

import asyncio
import contextvars
import json
import os
import time
from urllib.parse import urlencode

from smartboard import proto
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.responses import (
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from .. import i18n, logs, rules_summary, words
from ..errors import CommandError, error_line, is_error
from ..i18n import N_, _
from ..link import BoardError
from ..online import protocol as P
from ..render import PngUnavailable, led_legend_svg, svg_to_png
from ..store import Store, check_tags
from ..termtext import typed
from . import lang as L
from . import library, live
from .guard import Guard, Quiet
from .pagewords import page_words
from .reviews import Reviews

HERE = os.path.dirname(os.path.abspath(__file__))
# The manual as `make docs` builds it in this checkout (build/site): served
# at /manual/ and linked from every page when it is there, so a player at
# the board's page finds the guide without a second server.
MANUAL = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "build", "site")
DISPLAYS = ("adult", "hint", "card_query")  # SET display: smartboard.view ADULT HINT QUERY
DISPLAY_WORDS = (N_("adult"), N_("hint"), N_("card query"))  # as the page names them
PALETTE_WORDS = {"standard": N_("standard"), "colour-blind": N_("colour-blind safe")}
# The computer's seats the set-up offers (SET computer): two players, then
# every seat of a team game by its record name
COMPUTER_SEATS = (("none", N_("nobody")), ("G", N_("Gold")), ("B", N_("Black")))
COMPUTER_SEATS += tuple((s, s) for s in ("A1", "A2", "A3", "B1", "B2", "B3"))
SSE_COALESCE_S = 0.03  # the events of one placement (move, cells, leds) make one update
SSE_PING_S = 15.0
SSE_WAKE_S = 0.5  # a stream looks this often whether the server is stopping
MAX_ID = 2**63 - 1  # SQLite's largest INTEGER: a larger id is no match (404)
# The largest body a POST may have: the pages send a few hundred bytes at
# most (a match's tags, each value up to 200 characters).
MAX_BODY = 16 * 1024
TOO_BIG = N_("the request's body is over {kb} KB: no page sends that much")


class BadBody(Exception):
    """A POST whose body is not what its page sends: its words, its status."""

    def __init__(self, text, status=400):
        Exception.__init__(self, text)
        self.status = status


def create_app(
    bridge,
    db=None,
    allow_remote=False,
    hosts=None,
    stopping=lambda: False,
    token=None,
    manual=MANUAL,
    watcher=None,
    watch_token=None,
):
    """The app around a started bridge.Bridge (or any object with its
    session, log, version, job, call, watch, unwatch, run_job) and the
    match database db (None: the user's). stopping(): true once the
    server is shutting down (the event streams end then). hosts: the
    names the Host header may carry besides the loopback ones; token: the
    secret remote clients need (--allow-remote); manual: the built manual's
    folder, served at /manual/ if it holds an index.html. watcher: the
    online matches' records for spectators (online.watch.Watcher), or None;
    watch_token: the spectators' link's secret, opening the watch pages
    only (guard.py)."""
    templates = Jinja2Templates(directory=os.path.join(HERE, "templates"))
    # {% trans %} and _() in the templates (babel.cfg extracts them): each
    # page gets its request's catalogue in its context (page()); the
    # environment's own callables, shared by every request, read the
    # request's language too (i18n.using, lang.Language).
    templates.env.add_extension("jinja2.ext.i18n")
    templates.env.install_gettext_callables(i18n._, i18n.ngettext, newstyle=False)
    has_manual = bool(manual) and os.path.isfile(os.path.join(manual, "index.html"))
    templates.env.globals["manual"] = has_manual
    bridge.db = db  # where the page's companion keeps the players' names

    def page(request, name, code=200, **ctx):
        ctx.setdefault("active", name)
        code_ = request.scope.get("state", {}).get("lang") or i18n.DEFAULT
        tr = i18n.translation(code_)
        ctx.update(
            gettext=tr.gettext,
            ngettext=tr.ngettext,
            _=tr.gettext,
            lang=code_,
            lang_links=_lang_links(request),
            page_words=page_words(),
        )
        return templates.TemplateResponse(request, name + ".html", ctx, status_code=code)

    def palette_of(request):
        p = request.cookies.get("palette", "standard")
        return p if p in live.PALETTES else "standard"

    async def snapshot(request):
        return await run_in_threadpool(
            live.snapshot,
            bridge.session,
            bridge.log,
            bridge.job,
            palette_of(request),
            getattr(bridge, "conf", None),
        )

    async def call(fn, timeout=10.0):
        # run in the link's thread with this request's context: its words
        # in the request's language (i18n.using)
        ctx = contextvars.copy_context()
        return await asyncio.wait_for(
            asyncio.wrap_future(bridge.call(lambda s: ctx.run(fn, s))), timeout
        )

    # ---- live ---------------------------------------------------------------
    async def live_page(request):
        return page(
            request,
            "live",
            state=await snapshot(request),
            modes=words.MODES,
            options=words.OPTIONS,
            displays=list(zip(DISPLAYS, DISPLAY_WORDS)),
            palettes=live.PALETTES,
            computer_seats=COMPUTER_SEATS,
            player_fields=_player_fields(bridge.session.status),
        )

    async def state(request):
        return JSONResponse(await snapshot(request))

    async def events(request):
        loop = asyncio.get_running_loop()
        ev = asyncio.Event()
        bridge.watch(loop, ev)

        async def stream():
            try:
                seen = -1
                quiet = 0.0
                while not stopping():
                    if bridge.version != seen:
                        seen = bridge.version
                        snap = await snapshot(request)
                        snap["sent"] = time.time()
                        # when the board's last cells event came: the page
                        # tells how long it took to draw it (the tests' figure)
                        snap["cells_at"] = bridge.times.get("cells")
                        yield "event: state\ndata: %s\n\n" % json.dumps(snap)
                    try:
                        await asyncio.wait_for(ev.wait(), SSE_WAKE_S)
                        await asyncio.sleep(SSE_COALESCE_S)
                        quiet = 0.0
                    except asyncio.TimeoutError:
                        quiet += SSE_WAKE_S
                        if (
                            quiet >= SSE_PING_S
                        ):  # a comment keeps proxies and the page's timers content
                            quiet = 0.0
                            yield ": ping\n\n"
                    ev.clear()
            finally:
                bridge.unwatch(loop, ev)

        return StreamingResponse(
            stream(),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        )

    async def form(request, fields=()):
        """The request's body, checked before anything is done with it: a
        JSON object of at most MAX_BODY bytes whose fields are among
        `fields`, each one text (all the pages send). BadBody says what is
        wrong: the request then changes nothing."""
        size = request.headers.get("content-length", "")
        if size.isdigit() and int(size) > MAX_BODY:
            raise BadBody(_(TOO_BIG).format(kb=MAX_BODY // 1024), 413)
        body = bytearray()
        async for chunk in request.stream():  # counted as it comes: no length may be sent
            body += chunk
            if len(body) > MAX_BODY:
                raise BadBody(_(TOO_BIG).format(kb=MAX_BODY // 1024), 413)
        data = _json_object(bytes(body))
        for name, value in data.items():
            if name not in fields:
                takes = ", ".join(fields) if fields else _("no fields")
                raise BadBody(
                    _("unknown field {name}: this request takes {fields}").format(
                        name=repr(name[:40]), fields=takes
                    )
                )
            if not isinstance(value, str):
                raise BadBody(
                    _("{name} must be text, not {kind}").format(name=name, kind=_json_kind(value))
                )
            try:
                value.encode()
            except UnicodeEncodeError:  # a lone surrogate (\ud800): no character
                raise BadBody(
                    _("{name} is not text (it holds a lone surrogate)").format(name=name)
                ) from None
        return data

    async def set_(request):
        """The set-up by name (mode, start, option, players), the display
        mode, the LED palette: a SET to the board."""
        try:
            data = await form(request, ("key", "value"))
        except BadBody as e:
            return JSONResponse({"ok": False, "error": str(e)}, e.status)
        for name in ("key", "value"):
            if name not in data:
                return JSONResponse(
                    {"ok": False, "error": _("{name} is missing").format(name=name)}, 400
                )
        key, value = data["key"], data["value"]
        try:
            st = bridge.session.status
            if key == "display":
                if value not in DISPLAYS:
                    raise CommandError(
                        _("display {word}? choose one of: {names}").format(
                            word=typed(value), names=", ".join(DISPLAYS)
                        )
                    )
                n = DISPLAYS.index(value)
            elif key in ("computer", "level", "assist", "hintlimit"):
                # the board reads these words itself (ERR 6 says why not);
                # a space or a line break would make another frame of it
                if not value.isprintable() or value.split() != [value]:
                    raise CommandError(
                        _("{key} {word}? one word, as the board takes it").format(
                            key=key, word=typed(value)
                        )
                    )
                n = value
            elif key == "palette":
                if value not in live.PALETTES:
                    raise CommandError(
                        _("palette {word}? choose one of: {names}").format(
                            word=typed(value), names=", ".join(live.PALETTES)
                        )
                    )
                n = live.PALETTES.index(value)
            else:
                try:
                    n = words.setting_value(key, value, st.get("sides", "BG"), st.get("mode"))
                except ValueError as e:
                    raise CommandError(str(e))

            def send(s):
                if not s.connected:
                    raise CommandError(_("no board connected: nothing sent"))
                try:
                    s.request("SET", key, n)
                except BoardError as e:  # ERR 6 says what the setting takes: the companion's words
                    if e.board_code != proto.E_ARGS:
                        raise
                    raise CommandError(
                        words.setting_refused(key, value, str(e), st.get("sides", "BG"))
                    )
                s.stale = True  # STATUS names the new set-up

            await call(send)
        except CommandError as e:
            return JSONResponse({"ok": False, "error": _why(e, key)}, 400)
        # the page's selects show the set-up: said in words when it waits for
        # the next match, and for the computer and the hints (when they act;
        # assist 2's colours), as the companion says them
        note = ""
        phase = st.get("phase", "setup")
        if (
            key in ("computer", "level") + words.AT_ONCE
            or key in words.NEXT_MATCH
            and phase != "setup"
        ):
            note = words.setting_taken(key, n, phase, st.get("sides", "BG"))
        return JSONResponse({"ok": True, "note": note})

    async def command(request):
        """A companion command line (the simulated board's hands: put,
        lift, tap, the buttons; tag, the players' names), as `apixagon
        monitor` takes it."""
        try:
            data = await form(request, ("line",))
            if "line" not in data:
                raise BadBody(_("{name} is missing").format(name="line"))
        except BadBody as e:
            return JSONResponse({"ok": False, "error": str(e), "lines": [error_line(e)]}, e.status)
        line = data["line"][:200]
        if line.split()[:1] and line.split()[0].lower() in ("pull", "quit", "exit", "q"):
            return JSONResponse(
                {"ok": False, "lines": [error_line(_("use the library's pull button"))]}
            )
        _done, lines = await call(lambda s: bridge.companion().command(line))
        return JSONResponse({"ok": not any(is_error(x) for x in lines), "lines": lines})

    async def hands(request):
        from ..companion import Companion

        def ask(s):
            try:
                return {"ok": True, "lines": Companion(s)._hands()}
            except CommandError as e:
                return {"ok": False, "lines": [str(e)]}

        return JSONResponse(await call(ask))

    # ---- library -------------------------------------------------------------
    async def legend_svg(request):
        # the LED legend as a picture, in the page's palette
        palette = palette_of(request)
        title = _("What the LEDs show ({palette} palette)").format(
            palette=_(PALETTE_WORDS[palette])
        )
        return Response(led_legend_svg(live.legend(palette), title), media_type="image/svg+xml")

    async def library_page(request):
        try:
            rows = await run_in_threadpool(library.matches, db)
        except CommandError as e:  # a data folder the user may not read
            return page(request, "library", 500, rows=[], problem=str(e))
        return page(request, "library", rows=rows)

    def _match(request):
        mid = request.path_params["id"]
        if not 0 < mid <= MAX_ID:
            return None  # (SQLite cannot even be asked: OverflowError)
        try:
            return library.Match(db, mid)
        except (KeyError, FileNotFoundError, ValueError):
            return None

    async def match_page(request):
        m = await run_in_threadpool(_match, request)
        if m is None:
            return page(
                request, "missing", 404, what=_("match {id}").format(id=request.path_params["id"])
            )
        ply = m.ply(request.query_params.get("ply"))
        svg = await run_in_threadpool(m.svg, ply)
        return page(
            request,
            "match",
            m=m,
            ply=ply,
            svg=svg,
            tag_names=library.tag_names(m.letters),
        )

    async def position(request):
        m = await run_in_threadpool(_match, request)
        if m is None:
            return PlainTextResponse(_("no such match"), 404)
        ply = m.ply(request.query_params.get("ply"))
        svg = await run_in_threadpool(m.svg, ply)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "max-age=60"})

    async def thumb(request):
        m = await run_in_threadpool(_match, request)
        if m is None:
            return PlainTextResponse(_("no such match"), 404)
        svg = await run_in_threadpool(m.svg, len(m.moves), 240, False, False)
        return Response(svg, media_type="image/svg+xml")

    async def download(request):
        ext = request.path_params["ext"]
        m = await run_in_threadpool(_match, request)
        if m is None:
            return PlainTextResponse(_("no such match"), 404)
        ply = m.ply(request.query_params.get("ply"))
        if ext == "apx":
            body, kind = m.apx().encode(), "text/plain; charset=utf-8"
        elif ext == "json":
            body, kind = m.json().encode(), "application/json"
        elif ext == "svg":
            body, kind = (await run_in_threadpool(m.svg, ply)).encode(), "image/svg+xml"
        else:
            try:
                body = await run_in_threadpool(lambda: svg_to_png(m.svg(ply)))
            except PngUnavailable as e:
                return PlainTextResponse(
                    _(
                        "PNG needs CairoSVG and the cairo library ({why}); the SVG works without"
                    ).format(why=e),
                    503,
                )
            kind = "image/png"
        name = "match-%d%s.%s" % (m.id, "" if ext in ("apx", "json") else "-%d" % ply, ext)
        return Response(
            body,
            media_type=kind,
            headers={"Content-Disposition": 'attachment; filename="%s"' % name},
        )

    async def tags(request):
        m = await run_in_threadpool(_match, request)
        if m is None:
            return JSONResponse({"ok": False, "error": _("no such match")}, 404)
        try:
            new = await form(request, library.tag_names(m.letters))
            # checked before the file is opened to write (which touches it)
            new = check_tags(new)

            def save():
                with Store(db) as store:
                    store.set_tags(m.id, new)

            await run_in_threadpool(save)
        except BadBody as e:
            return JSONResponse({"ok": False, "error": str(e)}, e.status)
        except (CommandError, ValueError) as e:
            return JSONResponse({"ok": False, "error": str(e)}, 400)
        return JSONResponse({"ok": True})

    async def pull(request):
        try:
            await form(request)  # {}: the button's, nothing more
        except BadBody as e:
            return JSONResponse({"ok": False, "error": str(e)}, e.status)
        try:
            job = bridge.run_job("pull", logs.pull, db=db)
        except CommandError as e:
            return JSONResponse({"ok": False, "error": str(e)}, 409)
        return JSONResponse({"ok": True, "job": job.as_dict()})

    reviews = Reviews()

    async def review_state(request):
        m = await run_in_threadpool(_match, request)
        if m is None:
            return JSONResponse({"state": "failed", "error": _("no such match")}, 404)
        return JSONResponse(await run_in_threadpool(reviews.state, m.apx().splitlines()))

    async def review_start(request):
        m = await run_in_threadpool(_match, request)
        if m is None:
            return JSONResponse({"ok": False, "error": _("no such match")}, 404)
        try:
            await form(request)  # {}: the button's, nothing more
        except BadBody as e:
            return JSONResponse({"ok": False, "error": str(e)}, e.status)
        got = await run_in_threadpool(reviews.start, m.apx().splitlines())
        return JSONResponse(dict(got, ok=True))

    async def job(request):
        return JSONResponse(bridge.job.as_dict() if bridge.job else None)

    # ---- the rules in short: the companion's `help rules`, the manual's page linked
    async def rules_page(request):
        return page(
            request,
            "rules",
            words=rules_summary.page_words(has_manual),
            summary=rules_summary.summary_lines(),
            topics=rules_summary.topics(),
            manual_page=rules_summary.MANUAL_PAGE,
        )

    # ---- the board ------------------------------------------------------------
    async def board_page(request):
        s = bridge.session
        st = dict(s.status)
        return page(
            request,
            "board",
            info=s.info,
            port=s.port,
            connected=s.connected,
            status=sorted(st.items()),
            warnings=logs.warnings(st),
            free=_kb(st.get("free")),
        )

    async def update(request):
        from .. import deploy

        try:
            await form(request)  # {}: the button's, nothing more
        except BadBody as e:
            return JSONResponse({"ok": False, "error": str(e)}, e.status)
        try:
            job = bridge.run_job(
                "update", deploy.run, command="update", timeout=20.0, firmware=None
            )
        except CommandError as e:
            return JSONResponse({"ok": False, "error": str(e)}, 409)
        return JSONResponse({"ok": True, "job": job.as_dict()})

    # ---- spectators of online matches (read-only, delayed, no hands) --------
    def _watched(request):
        # by the fingerprint of the host's signing key (online/feed.py):
        # a spectator is never given the match's code
        fp = request.path_params["fp"]
        if watcher is None:
            return None, fp
        try:
            delay = int(request.query_params.get("delay", "0"))
        except ValueError:
            delay = 0
        return watcher.view(fp, delay), fp

    async def watch_page(request):
        v, code = _watched(request)
        if v is None:
            what = (
                _("online match {code}").format(code=code[:32])
                if watcher
                else _("online watching (--watch-broker)")
            )
            return page(request, "missing", 404, what=what)
        svg = await run_in_threadpool(_watch_svg, v)
        moves = [x for x in v["lines"] if P.is_move(x)]
        return page(request, "watch", v=v, svg=svg, moves=moves, active="watch")

    async def watch_apx(request):
        v, code = _watched(request)
        if v is None:
            return PlainTextResponse(_("no such online match"), 404)
        return PlainTextResponse(
            "\n".join(v["lines"]) + "\n",
            media_type="text/plain; charset=utf-8",
            headers={"Cache-Control": "no-store"},
        )

    routes = [
        Route("/", live_page),
        Route("/events", events),
        Route("/api/state", state),
        Route("/api/set", set_, methods=["POST"]),
        Route("/api/command", command, methods=["POST"]),
        Route("/api/hands", hands),
        Route("/api/pull", pull, methods=["POST"]),
        Route("/api/update", update, methods=["POST"]),
        Route("/api/job", job),
        Route("/legend.svg", legend_svg),
        Route("/library", library_page),
        Route("/match/{id:int}", match_page),
        Route("/match/{id:int}/position.svg", position),
        Route("/match/{id:int}/thumb.svg", thumb),
        Route("/match/{id:int}/download.{ext:str}", _only(download, ("apx", "json", "svg", "png"))),
        Route("/match/{id:int}/tags", tags, methods=["POST"]),
        Route("/match/{id:int}/review.json", review_state),
        Route("/match/{id:int}/review", review_start, methods=["POST"]),
        Route("/board", board_page),
        Route("/rules", rules_page),
        Route("/watch/{fp:str}.apx", watch_apx),
        Route("/watch/{fp:str}", watch_page),
        Route("/favicon.ico", favicon),
        Mount("/static", StaticFiles(directory=os.path.join(HERE, "static")), name="static"),
    ]
    if has_manual:
        routes.append(Mount("/manual", StaticFiles(directory=manual, html=True), name="manual"))
    middleware = [
        Middleware(Quiet),
        Middleware(L.Language),
        Middleware(
            Guard,
            allow_remote=allow_remote,
            hosts=hosts or (),
            token=token,
            watch_token=watch_token,
        ),
    ]
    return Starlette(routes=routes, middleware=middleware)


def _lang_links(request):
    """The language switch's links: this page with ?lang=CODE (its other
    query parameters kept), each language named in its own words."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    return [
        (code, name, "%s?%s" % (request.url.path, urlencode(query + [("lang", code)])))
        for code, name in L.NAMES
    ]


def _player_fields(st):
    """The players form's fields: (tag, label) for each side of the match
    on the board (logs.PLAYER_TAGS' names, the side's name in words)."""
    sides = st.get("sides", "BG")
    tags = logs.PLAYER_TAGS[1] if sides == "AB" else logs.PLAYER_TAGS[0]
    letters = sides if sides in ("AB", "BG") else "BG"
    return [(t, words.side_name(letters[i], letters)) for i, t in enumerate(tags)]


def _watch_svg(v):
    from apixagon import record
    from apixagon.game import Game

    from ..render import render_svg

    game, _verdicts = record.check(v["lines"], Game)
    title = _("online {code} \u00b7 move {shown} ({held} held back)").format(
        code=v["fp"][:8], shown=v["shown"], held=v["moves"] - v["shown"]
    )
    return render_svg(game, title=title)


async def favicon(request):
    # the browsers' own request, whatever the page's <link> says: the same
    # hexagon (a 404 in every log otherwise)
    with open(os.path.join(HERE, "static", "icon.svg"), "rb") as f:
        icon = f.read()
    return Response(icon, media_type="image/svg+xml", headers={"Cache-Control": "max-age=86400"})


def _only(handler, exts):
    async def guarded(request):
        if request.path_params["ext"] not in exts:
            return PlainTextResponse(_("no such download"), 404)
        return await handler(request)

    return guarded


def _json_object(body):
    """The JSON object a body holds, or BadBody saying what it is instead."""
    if not body.strip():
        raise BadBody(_("send a JSON object: the body is empty"))
    try:
        data = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        raise BadBody(_("send a JSON object: the body is not UTF-8 text")) from None
    except ValueError as e:
        raise BadBody(_("send a JSON object: the body is not JSON ({why})").format(why=e)) from None
    except RecursionError:  # [[[[... nested past what the parser takes
        raise BadBody(_("send a JSON object: the body is nested too deep")) from None
    if not isinstance(data, dict):
        raise BadBody(_("send a JSON object, not {kind}").format(kind=_json_kind(data)))
    return data


def _json_kind(value):
    """What a JSON value is, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return _("true or false")
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, str):
        return _("a string")
    return _("a list") if isinstance(value, list) else _("an object")


def _why(e, key):
    text = str(e)
    if key == "palette" and "ERR" in text:
        return _("this board's firmware has no colour-blind palette (update it); the page's is set")
    return text


def _kb(text):
    return "%.0f KB" % (int(text) / 1024) if text and text.isdigit() else ""
