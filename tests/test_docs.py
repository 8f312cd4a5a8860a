"""The manual builds (`mkdocs build --strict`: a broken link or anchor, a
missing page, a page left out of the nav all fail it), and README stays a
short page for the families who use the board, every link in it good."""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
# Pages README points to that another branch is writing; drop a name once
# its page is in.
PENDING = set()


def test_the_manual_builds_strict_and_offline(tmp_path):
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    r = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "WARNING" not in out, out
    assert (tmp_path / "index.html").exists()
    assert (tmp_path / "figures" / "index.html").exists()
    # No web font fetched from outside (theme.font: false): the manual reads offline.
    page = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in page
    # The Italian manual beside it (mkdocs-static-i18n): the players' pages
    # in Italian, an engineering page in English there, and the language
    # switcher's links relative (the manual opened from its files).
    it = (tmp_path / "it" / "guide" / "how-to-play" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="it"' in it and "Come si gioca" in it
    assert (tmp_path / "it" / "protocol" / "index.html").exists()
    assert 'href="it/" hreflang="it"' in page and 'href="/" hreflang' not in page


def readme():
    with open(README, encoding="utf-8") as f:
        return f.read()


def test_readme_is_short_and_keeps_the_two_commands():
    text = readme()
    assert len(text.splitlines()) <= 250
    # .ci/run runs exactly README's test command.
    assert "make run " in text and "make test " in text


def test_readme_links_resolve():
    missing = []
    with open(os.path.join(ROOT, "README.it.md"), encoding="utf-8") as f:
        italian = f.read()  # the Italian README beside it, linked from its top
    assert "(README.it.md)" in readme() and "(README.md)" in italian
    for target in re.findall(r"\]\(([^)\s]+)\)", readme() + italian):
        path = target.split("#")[0]
        if not path or "://" in path or path in PENDING:
            continue
        if not os.path.exists(os.path.join(ROOT, path)):
            missing.append(target)
    assert not missing, missing
