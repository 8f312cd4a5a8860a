# The USB supply's simulated twin: the CC sense pin's reading for a source
# that advertises Default USB power, 1.5 A or 3.0 A (its Rp of 56 k, 22 k
# or 10 k to 5 V across the board's 5.1 kOhm Rd), through the board's
# divider (CC_LEVELS[0]: the ADC millivolts at vRd = 610 mV).
from ..power import VRD_USB_MAX_MV, Supply

VRD_MV = {"500mA": 417, "1.5A": 941, "3A": 1689}  # 5 V x 5.1 k / (Rp + 5.1 k)


class SimCC:
    def __init__(self, levels, advert="1.5A"):
        self.levels = levels
        self.advert = advert

    def mv(self):
        return VRD_MV[self.advert] * self.levels[0] // VRD_USB_MAX_MV


def sim_supply(pins, advert="1.5A"):
    """A Supply over the twin, from a revision's pin table (a dict or a
    module with CC_LEVELS and POWER_REST_MA, and RF_FIELDS and RF_FIELD_MA
    if its readers' fields are to be rationed); its .cc sets the advert."""
    get = pins.get if isinstance(pins, dict) else lambda k, d=None: getattr(pins, k, d)
    cc = SimCC(get("CC_LEVELS"), advert)
    s = Supply(
        cc.mv, get("CC_LEVELS"), get("POWER_REST_MA"), get("RF_FIELDS", 0), get("RF_FIELD_MA", 0)
    )
    s.cc = cc
    return s
