import pytest


@pytest.fixture(autouse=True)
def _no_user_database(tmp_path, monkeypatch):
    # A command run without --db uses the user's data folder: in a test,
    # a folder of its own, never the real one.
    monkeypatch.setenv("APIXAGON_DATA", str(tmp_path / "user-data"))
