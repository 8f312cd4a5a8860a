# The board layout (hardware/layout.json): which LED and which sensor
# channel serve each cell. Data, not code: a new board revision is a new
# file (the board reads it as a string frozen into its image,
# boards/layout_data.py). Loaded once at start-up into bytes tables; a bad
# file is a clear ValueError naming what is wrong, never a board that
# lights the wrong cell.
import json

from apixagon.geometry import NCELLS, NONE, cell_name, parse_cell


class Layout:
    def __init__(self, data):
        if not isinstance(data, dict) or not isinstance(data.get("cells"), dict):
            raise ValueError("layout: no 'cells' table")
        leds = data.get("leds", NCELLS)
        channels = data.get("sensor_channels", 64)
        if not isinstance(leds, int) or not isinstance(channels, int) or channels > 254:
            raise ValueError("layout: bad 'leds' or 'sensor_channels'")
        self.name = data.get("board", "?")
        self.nleds = leds
        self.nchannels = channels
        self.led = bytearray(NCELLS)  # cell -> LED index
        self.sensor = bytearray(NCELLS)  # cell -> sensor channel
        self.cell_of_channel = bytearray(b"\xff" * channels)  # channel -> cell
        seen_led = bytearray(leds)
        cells = data["cells"]
        for name in cells:
            if parse_cell(name) == NONE:
                raise ValueError("layout: no cell %s on the board" % name)
        for x in range(NCELLS):
            name = cell_name(x)
            entry = cells.get(name)
            if not isinstance(entry, dict):
                raise ValueError("layout: cell %s is missing" % name)
            led = entry.get("led")
            ch = entry.get("sensor")
            if not isinstance(led, int) or not 0 <= led < leds or seen_led[led]:
                raise ValueError("layout: cell %s has a bad or repeated LED %r" % (name, led))
            if (
                not isinstance(ch, int)
                or not 0 <= ch < channels
                or self.cell_of_channel[ch] != NONE
            ):
                raise ValueError("layout: cell %s has a bad or repeated sensor %r" % (name, ch))
            seen_led[led] = 1
            self.led[x] = led
            self.sensor[x] = ch
            self.cell_of_channel[ch] = x


def loads(text):
    """The Layout in a JSON text: the board's own, frozen into its image
    (boards/layout_data.py); ValueError with the reason."""
    try:
        data = json.loads(text)
    except ValueError:
        raise ValueError("layout: not JSON")
    return Layout(data)


def load(path):
    """The Layout in a JSON file; ValueError (or OSError) with the reason."""
    with open(path) as f:
        try:
            data = json.load(f)
        except ValueError:
            raise ValueError("layout: %s is not JSON" % path)
    return Layout(data)
