"""The emulator's jump over a polling loop (tools/rp2040/board.js watchSpin)
changes nothing the chip measures: the SDK waits for each I2C byte by
reading the block's status registers in a loop (~2,800 cycles a byte at
400 kHz), and the emulator jumps the clock to the byte's end instead of
executing every pass. A transfer to the action pad's PN532 takes the
same time on the board's own clock (time.ticks_us) with the jumps and
without them, within a pass of the loop a byte, and the jumps are made.
The jumps are off unless asked for (APIXAGON_SPIN=1): a make bench run
with them lost boards to a reset, not yet understood (board.js)."""

import emukit

PAD = emukit.wiring_of("rev_a")["PAD_I2C"]  # [block, sda, scl]
N = 20
CODE = (
    "import time, machine\n"
    "i2c = machine.I2C(%d, sda=machine.Pin(%d), scl=machine.Pin(%d), freq=400000)\n"
    "buf = bytearray(32)\n"
    "t0 = time.ticks_us()\n"
    "for _ in range(%d):\n"
    "    i2c.readfrom_into(0x24, buf)\n"
    "print('READ', time.ticks_diff(time.ticks_us(), t0))\n"
) % (PAD[0], PAD[1], PAD[2], N)


def run(tmp_path, spin):
    out, before, after = emukit.at_repl(tmp_path, CODE, spin, spin=spin)
    us = int(out.split("READ")[1].split()[0])
    return us, after["spinJumps"] - before["spinJumps"]


def test_a_polling_loop_jumped_takes_the_chip_the_same_time(tmp_path):
    stepped, none = run(tmp_path, False)
    jumped, jumps = run(tmp_path, True)
    print("stepped %d us, jumped %d us (%d jumps)" % (stepped, jumped, jumps))
    assert none == 0
    # 20 transfers of an address and 32 bytes: ~1,000 jumps, one a byte
    assert jumps >= N * 32, jumps
    # 33 bytes of 9 bits at 400 kHz: ~750 us a transfer, on either clock
    assert stepped > N * 700, stepped
    # a jump ends at the byte's alarm; the loop sees it within one pass of
    # itself (tens of cycles), where the stepped loop saw it at its next
    # pass too: a few us over 660 bytes, far under 1 %
    assert abs(jumped - stepped) <= stepped // 100, (jumped, stepped)
