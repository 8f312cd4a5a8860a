"""`apixagon serve`: the companion in the browser. A Starlette app served
by uvicorn on 127.0.0.1: the live board (bridge.py keeps monitor.Session's
link up in a thread and fans its events out as server-sent events), the
match library (store.py) with replays and downloads, the board's identity,
storage and firmware update. Pictures come from render.py; the pages are
Jinja2 templates and a little plain JavaScript (no build step)."""
