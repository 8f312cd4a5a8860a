"""`apixagon serve`: the companion in the browser. A Starlette app served
by uvicorn on 127.0.0.1: the live board (bridge.py keeps monitor.Session's
link up in a thread and fans its events out as server-sent events), the
match library (store.py) with replays and downloads, the board's identity,
storage and firmware update. Pictures come from render.py; the pages are
Jinja2 templates and a little plain JavaScript (no build step).

Why these parts: Starlette is a small, well-kept ASGI toolkit (routing,
streaming responses for server-sent events, Jinja2 templates with
autoescape, static files, a trusted-host guard) with no ORM or settings
machinery to carry; uvicorn is the reference ASGI server, runs on its
pure-Python HTTP parser (nothing to compile) and takes a socket this
command bound itself (a busy port is a clear error, not a log line).
Server-sent events rather than WebSocket: the live view only flows from
the board to the page, EventSource reconnects by itself, and every change
the page asks for is an ordinary same-origin POST the server checks."""
