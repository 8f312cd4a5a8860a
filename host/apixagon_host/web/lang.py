"""The language of each request to the web page: `?lang=it` (then kept in
a cookie), else the cookie the page's switch or an earlier `?lang=` set,
else the browser's Accept-Language, else English. The server serves
several people: each request reads its own (i18n.using), the language in
use elsewhere unchanged."""

from .. import i18n

COOKIE = "lang"
YEAR_S = 365 * 24 * 3600
# The languages as the page's switch names them: each in its own words
NAMES = (("en", "English"), ("it", "Italiano"))


def _ours(text):
    try:
        return i18n.code_of(text)
    except ValueError:
        return None


def accepted(header):
    """The first of our languages an Accept-Language header asks for, by
    its weights (`it-IT,it;q=0.9,en;q=0.8`: it), or None."""
    asked = []
    for k, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        code = _ours(tag.strip()) if tag.strip() not in ("", "*") else None
        if code and q > 0:
            asked.append((-q, k, code))
    return min(asked)[2] if asked else None


def choose(query, cookie, header):
    """(language, remember): the query's `lang` if it is ours (remember:
    set the cookie), else the cookie's, else the header's, else English."""
    code = _ours(query) if query else None
    if code:
        return code, True
    return (_ours(cookie) if cookie else None) or accepted(header) or i18n.DEFAULT, False


class Language:
    """ASGI middleware: the request's language in scope["state"]["lang"]
    and in force (i18n.using) while it is answered; a `?lang=` choice
    remembered in a cookie."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        from starlette.requests import Request

        request = Request(scope)
        code, remember = choose(
            request.query_params.get("lang"),
            request.cookies.get(COOKIE),
            request.headers.get("accept-language"),
        )
        scope.setdefault("state", {})["lang"] = code

        async def send_with_cookie(message):
            if remember and message["type"] == "http.response.start":
                cookie = "%s=%s; Path=/; Max-Age=%d; SameSite=Strict" % (COOKIE, code, YEAR_S)
                message = dict(message, headers=list(message.get("headers", [])))
                message["headers"].append((b"set-cookie", cookie.encode()))
            await send(message)

        with i18n.using(code):
            await self.app(scope, receive, send_with_cookie)
