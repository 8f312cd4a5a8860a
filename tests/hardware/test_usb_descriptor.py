# Each image's USB configuration descriptor asks for what its board draws
# before the firmware has read the CC pins (tools/hardware/power.py
# boot_ma), not MicroPython's fixed 250 mA: the value tools/build_firmware.py
# passes, the firmware's start-up order that makes it true, and the byte in
# the built images.
import ast
import os
import re
import struct

import pytest

from hardware import check, power

REVS = ("rev_a", "rev_b")


def _net(rev):
    with open(os.path.join(check.ROOT, "hardware", rev, rev + ".net")) as f:
        return f.read()


@pytest.mark.parametrize("rev", REVS)
def test_the_descriptor_is_what_the_board_draws_before_the_cc_pins_are_read(rev):
    import build_firmware

    text = _net(rev)
    ma, fields = power.boot_ma(text)
    assert build_firmware.usb_max_power_ma(rev) == power.descriptor_ma(text) == 2 * -(-ma // 2)
    assert 0 < power.descriptor_ma(text) <= 500
    # the strip's switch is off until then: its buffer and LEDs are not in it
    assert ma < power.rest_ma(text)
    # where the board with every reader's field on would be over Default
    # USB's 500 mA, the firmware keeps the fields off until it has read
    # the supply (test_the_supply_is_read_before_any_reader_is_set_up)
    assert fields == (power._draw(text, strip=False) <= 500)
    assert fields == (rev == "rev_b")


def test_the_supply_is_read_before_any_reader_is_set_up():
    # boards/build.py reads the CC pins (Supply.led_budget_ma) before it
    # makes a reader: no RF field is on until the board knows its supply
    path = os.path.join(check.ROOT, "firmware", "boards", "build.py")
    with open(path) as f:
        tree = ast.parse(f.read())
    (fn,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "build"]
    calls = [n for n in ast.walk(fn) if isinstance(n, ast.Call)]

    def first(name):
        named = [c for c in calls if getattr(c.func, "attr", getattr(c.func, "id", "")) == name]
        lines = [c.lineno for c in named]
        assert lines, name
        return min(lines)

    assert first("led_budget_ma") < first("cell_scanner") < first("nfc_reader")


def test_the_tinyusb_config_is_patched_once(tmp_path):
    import build_firmware

    cfg = tmp_path / build_firmware.TUSB_CONFIG
    cfg.parent.mkdir(parents=True)
    cfg.write_text("#include x\n#define USBD_MAX_POWER_MA (250)\n#define Y 1\n")
    build_firmware.patch_usb_power(str(tmp_path))
    once = cfg.read_text()
    build_firmware.patch_usb_power(str(tmp_path))
    assert cfg.read_text() == once
    assert "#ifndef USBD_MAX_POWER_MA\n#define USBD_MAX_POWER_MA (250)\n#endif\n" in once


def _uf2_image(path):
    """The flash bytes a UF2 file writes, in address order."""
    blocks = {}
    with open(path, "rb") as f:
        data = f.read()
    for off in range(0, len(data), 512):
        b = data[off : off + 512]
        magic0, magic1, _, addr, size = struct.unpack_from("<IIIII", b)
        assert (magic0, magic1) == (0x0A324655, 0x9E5D5157)
        blocks[addr] = b[32 : 32 + size]
    return b"".join(blocks[a] for a in sorted(blocks))


@pytest.mark.parametrize("rev", REVS)
def test_the_built_image_asks_for_the_budget(rev):
    import build_firmware

    uf2 = os.path.join(build_firmware.OUT, "apixagon-%s.uf2" % rev)
    if not os.path.exists(uf2):
        pytest.skip("no %s: `make firmware` builds it" % os.path.relpath(uf2, check.ROOT))
    image = _uf2_image(uf2)
    # the configuration descriptor (USB 2.0, Table 9-10): bLength 9, type 2,
    # wTotalLength, bNumInterfaces, bConfigurationValue 1, iConfiguration
    # 0, bmAttributes 0x80 (bus powered), bMaxPower in 2 mA; then the CDC
    # function's interface association (bLength 8, type 0x0B)
    found = re.findall(rb"\x09\x02..[\x01-\x08]\x01\x00\x80(.)\x08\x0b", image, re.S)
    assert len(found) == 1, found
    assert found[0][0] * 2 == build_firmware.usb_max_power_ma(rev)
