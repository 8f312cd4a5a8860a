# Set-up on the buttons, the clear-the-board guidance, and settings kept on
# flash across restarts (issue 3, item 5), through the real Board loop.
from boardkit import card, layer, rig, settings_path
from smartboard import buttons, cbpalette, settings, view
from smartboard.board import PLAY, SETUP
from smartboard.settings import Settings


def test_match_starts_only_on_a_clear_board():
    r = rig("clear")
    r.put("C3", card(0, 1))
    r.settle()
    assert layer(r, "C3") == view.CLEAR | view.SLOW  # guidance: lift this
    r.press(buttons.CONFIRM)
    assert r.board.phase == SETUP and r.board.message == "clear the board first"
    assert layer(r, "C3") == view.ERR_RED | view.FAST
    r.lift("C3")
    r.settle()
    assert layer(r, "C3") == view.OFF
    r.press(buttons.CONFIRM)
    assert r.board.phase == PLAY and r.board.ref.game.ply() == 0


def test_setup_buttons_choose_the_match():
    r = rig("choose")
    st = r.board.settings
    for _ in range(6):
        r.press(buttons.MODE)  # queens-gambit -> ... -> teen
    r.press(buttons.DECLARE)  # the other side starts
    r.press(buttons.DECLARE, True)  # special_then_place
    r.press(buttons.CONFIRM, True)  # teen players 4 -> 6
    assert (st.get(settings.GAME_MODE), st.get(settings.START)) == (6, 1)
    assert (st.get(settings.STP), st.get(settings.PLAYERS)) == (1, 6)
    # The set-up screen shows it: 7 cells of row C for the 7th mode, the
    # Royal Cell in the starting side's colour, 6 cells of row G, A1 on.
    assert layer(r, "C7") == view.SETTING and layer(r, "E5") == view.SIDE1
    assert layer(r, "G8") == view.SETTING and layer(r, "G9") == view.OFF
    assert layer(r, "A1") == view.LEGAL
    r.press(buttons.CONFIRM)
    g = r.board.ref.game
    assert g.mode == 6 and g.start == 1 and g.special_then_place and g.seats == (3, 3)


def test_buttons_debounce_and_long_press():
    keys_down = []

    class Keys:
        mask = 0

        def read(self):
            return self.mask

    k = Keys()
    b = buttons.Buttons(k)
    t = 0
    for m in (1, 0, 1, 0, 1):  # bounce shorter than DEBOUNCE_MS: nothing
        k.mask = m
        assert b.poll(t) == buttons.NONE
        t += 3
    k.mask = 0
    for _ in range(20):
        ev = b.poll(t)
        t += 5
        if ev != buttons.NONE:
            keys_down.append(ev)
    assert keys_down == []  # the bounce ended released: no press
    k.mask = 4  # DECLARE held past LONG_MS: one long event, none on release
    for _ in range(300):
        ev = b.poll(t)
        t += 5
        if ev != buttons.NONE:
            keys_down.append(ev)
    k.mask = 0
    for _ in range(20):
        ev = b.poll(t)
        t += 5
        if ev != buttons.NONE:
            keys_down.append(ev)
    assert keys_down == [buttons.DECLARE | buttons.LONG]


def test_settings_survive_a_restart():
    r = rig("keep")
    r.press(buttons.MODE)  # game mode 1
    r.press(buttons.MODE, True)  # brightness up
    r.run(settings.SAVE_AFTER_MS + 100)  # quiet: written to flash
    again = rig("keep", fresh=False)
    st = again.board.settings
    assert st.error is None
    assert st.get(settings.GAME_MODE) == 1 and st.get(settings.BRIGHT) == 3
    assert again.board.hw.painter.brightness == settings.BRIGHTNESS[3]


def test_the_palette_setting_survives_a_restart_and_an_older_file_keeps_the_rest():
    r = rig("palette-keep")
    standard = bytes(view.PALETTE)
    r.board.settings.set(settings.PALETTE, 1, r.board.now)
    r.run(settings.SAVE_AFTER_MS + 100)
    again = rig("palette-keep", fresh=False)
    assert again.board.settings.error is None
    assert again.board.settings.get(settings.PALETTE) == 1
    # the start-up code (boards/start.py, the simulator's serial_main)
    # puts the LEDs in it
    cbpalette.use(again.board, 1)
    assert bytes(view.PALETTE) == cbpalette.PALETTE_CB
    cbpalette.use(again.board, 0)  # (one palette per process: the next test's)
    assert bytes(view.PALETTE) == standard
    # a record of the version before the palette (9 bytes, 6 fields): the
    # defaults, and why
    from smartboard.tag import crc8

    path = settings_path("v1")
    old = bytearray((0x5A, 1, 0, 3, 2, 1, 0, 4, 0))
    old[8] = crc8(old, 8)
    _write(path, old)
    st = Settings(path)
    assert not st.load() and "unreadable" in st.error
    assert st.get(settings.GAME_MODE) == 0 and st.get(settings.PALETTE) == 0


def test_settings_are_written_only_after_a_quiet_moment():
    path = settings_path("quiet")
    st = Settings(path)
    st.set(settings.DISPLAY, 0, 1000)
    assert not st.due(1000 + settings.SAVE_AFTER_MS - 1) and st.due(1000 + settings.SAVE_AFTER_MS)
    st.set(settings.DISPLAY, 0, 9999)  # same value: nothing to write
    assert st.due(20000)


def _write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def test_a_bad_settings_file_gives_the_defaults_and_a_reason():
    path = settings_path("bad")
    good = Settings(path)
    good.set(settings.GAME_MODE, 2, 0)
    good.save()
    with open(path, "rb") as f:
        rec = bytearray(f.read())
    cases = (
        (b"", "unreadable"),
        (bytes(rec[:5]), "unreadable"),  # torn write
        (bytes(rec) + b"x", "unreadable"),
        (bytes(rec[:4]) + bytes([rec[4] ^ 1]) + bytes(rec[5:]), "corrupt"),
    )
    for data, why in cases:
        _write(path, data)
        st = Settings(path)
        assert not st.load()
        assert why in st.error, (data, st.error)
        assert st.get(settings.GAME_MODE) == 0 and st.get(settings.DISPLAY) == 1
    # In range is checked after the CRC: a well-formed record of a value
    # this firmware does not know.
    bad = bytearray(rec)
    bad[2 + settings.GAME_MODE] = 9
    from smartboard.tag import crc8

    bad[-1] = crc8(bad, len(bad) - 1)
    _write(path, bad)
    st = Settings(path)
    assert not st.load() and "range" in st.error
    missing = Settings(settings_path("missing"))
    assert not missing.load() and "no settings" in missing.error


def test_a_version_2_settings_file_keeps_its_fields_and_junior_gets_its_default():
    # the record before Junior's players (10 bytes, 7 fields): read as it
    # was, Junior's count the default 2; saved again as the version of now (5)
    from smartboard.tag import crc8

    path = settings_path("v2")
    old = bytearray((0x5A, 2, 0, 3, 6, 1, 1, 6, 1, 0))
    old[9] = crc8(old, 9)
    _write(path, old)
    st = Settings(path)
    assert st.load() and st.error is None
    assert (st.get(settings.GAME_MODE), st.get(settings.PLAYERS)) == (6, 6)
    assert (st.get(settings.PALETTE), st.get(settings.JPLAYERS)) == (1, 2)
    st.set(settings.JPLAYERS, 5, 0)
    st.save()
    again = Settings(path)
    assert again.load() and again.get(settings.JPLAYERS) == 5 and again.get(settings.PALETTE) == 1
    with open(path, "rb") as f:
        assert f.read()[:2] == b"\x5a\x05"
