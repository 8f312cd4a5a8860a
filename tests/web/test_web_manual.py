"""The web companion links to the manual (`make docs`'s build/site) and
serves it at /manual/ when it is built; without it, no link and no route."""

from webkit import get


def test_a_built_manual_is_linked_and_served(tmp_path, serve):
    site = tmp_path / "site"
    (site / "guide" / "web").mkdir(parents=True)
    (site / "index.html").write_text("<h1>the manual</h1>")
    (site / "guide" / "web" / "index.html").write_text("<h1>the web page</h1>")
    s = serve(str(site))
    code, body = get(s, "/library")
    assert code == 200 and 'href="/manual/"' in body
    assert get(s, "/manual/") == (200, "<h1>the manual</h1>")
    assert get(s, "/manual/guide/web/") == (200, "<h1>the web page</h1>")
    assert get(s, "/manual/../../m.sqlite")[0] == 404


def test_no_manual_no_link(tmp_path, serve):
    s = serve(str(tmp_path / "not-built"))
    code, body = get(s, "/library")
    assert code == 200 and "/manual/" not in body
    assert get(s, "/manual/")[0] == 404
