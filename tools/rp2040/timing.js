// The real chip's timing on top of rp2040js, which runs every instruction
// from a flash that never waits and programs and erases flash in no time.
// Nothing of this lives in the firmware: board.js asks it, after each
// instruction, how many cycles the chip stalled meanwhile, and adds them to
// the chip's clock (timers, alarms, the strip's DMA and PIO go on through a
// stall; the core does not).
//
// Profiles (board.js's cfg.timing):
//   ideal    rp2040js as it is: no model (every figure before this file)
//   typical  the XIP cache, and flash program/erase at the W25Q16JV's typical times
//   worst    the XIP cache, and flash program/erase at its datasheet maxima
//
// The XIP cache (RP2040 datasheet, section 2.6.3 "Flash", XIP cache): 16 KB,
// two-way set-associative, 8-byte lines; 0x10000000 is cached and
// allocating, 0x11000000 cached, not allocating, 0x12000000 and 0x13000000
// bypass it. A miss fetches from the flash through the SSI in the
// continuous quad read mode the image's boot2 sets up (pico-sdk
// src/rp2040/boot_stage2/boot2_w25q080.S: 0xEB with mode bits 0xA0, 4
// wait cycles; SCK = clk_sys / PICO_FLASH_SPI_CLKDIV, 2 for the Pico,
// src/boards/include/boards/pico.h; MicroPython 1.28 sets that divider
// again, ports/rp2/rp2_flash.c rp2_flash_set_timing): 24 address bits and
// 8 mode bits on four lines (8 SCK), 4 dummy SCK, then the word wanted (8
// SCK): 20 SCK = 40 clk_sys cycles = 320 ns at 125 MHz before the core
// has it ("a 32bit flash read takes a minimum of 320ns", K. O'Connor,
// https://github.com/Klipper3d/klipper/pull/6464). The line's other word
// follows while the core goes on (not charged). Calibrated against
// published real-Pico figures (docs/figures.md, "Calibration"): 40 cycles
// a miss puts 19 of 20 within 15 %, 56 (the whole line first) 13.
// Replacement: least recently used within a set (the datasheet leaves it
// unsaid; a pseudo-random choice gives the same hit rate within a few %
// on code this size). Invalidated whole by every flash program and erase
// (the SDK's flash_flush_cache after it), as on the chip.
//
// Flash program and erase (Winbond W25Q16JV datasheet, rev. H, 2019,
// "AC Electrical Characteristics",
// https://www.winbond.com/resource-files/w25q16jv%20spi%20revf%2005092017.pdf:
// tPP page program 0.4 ms typical, 3 ms max; tSE 4 KB sector erase 45 ms
// typical, 400 ms max; tBE2 64 KB block erase 150 ms typical, 2000 ms max;
// the 3 ms also as quoted in https://github.com/blackmagic-debug/blackmagic/pull/879.
// The table itself was not re-read here: docs/development/notes.md): the core is stalled for the
// whole operation, as MicroPython 1.28's rp2 port runs every program and
// erase with interrupts off and core 1 locked out (ports/rp2/rp2_flash.c:
// flash_range_erase/program inside mp_thread_begin_atomic_section). The
// bootrom's flash_range_erase uses 64 KB block erases where the range is
// aligned to them, else 4 KB sectors; a program is cut into 256-byte pages.
//
// USB: a real host's polls of an endpoint the device has not armed are
// NAKed by the USB controller without the core (no interrupt: TinyUSB's
// dcd_rp2040.c enables BUFF_STATUS, BUS_RESET, SETUP_REQ, suspend and
// resume interrupts only); board.js's bridge holds the chip's OUT requests
// until the PC has bytes, as such a host does. The 1 ms start-of-frame
// interrupt is on only while a bulk IN transfer is armed (the
// TUD_OPT_RP2040_USB_DEVICE_UFRAME_FIX errata workaround, on in the SDK's
// tinyusb_device): a handful of microseconds a millisecond while the
// board sends, not modelled (stated in docs/figures.md).
'use strict';

const LINE_SHIFT = 3; // 8-byte lines
const SETS = 1024; // 16 KB / 8 B / 2 ways
const SCK_PER_MISS = 20; // 8 address and mode + 4 dummy + 8 for the word (quad)
const CLKDIV = 2; // PICO_FLASH_SPI_CLKDIV of the Pico's boot2
const MISS_CYCLES = SCK_PER_MISS * CLKDIV;
const PAGE = 256;
const SECTOR = 4096;
const BLOCK = 65536;
// ns: [typical, worst]
const T_PP = [0.4e6, 3e6];
const T_SE = [45e6, 400e6];
const T_BE = [150e6, 2000e6];

const PROFILES = ['ideal', 'typical', 'worst'];

class Timing {
  constructor(profile) {
    if (!PROFILES.includes(profile)) throw new Error('timing profile ' + profile + '?');
    this.profile = profile;
    this.on = profile !== 'ideal';
    this.worst = profile === 'worst' ? 1 : 0;
    this.tags = [new Int32Array(SETS), new Int32Array(SETS)];
    this.lru = new Uint8Array(SETS); // the way used last in each set
    this.stallCycles = 0; // since take()
    this.stallNs = 0; // flash operations, since take()
    this.flush();
    // figures: what the model charged in all
    this.stats = { fetches: 0, misses: 0, missCycles: 0, flashNs: 0, programs: 0, erases: 0 };
  }

  flush() {
    this.tags[0].fill(-1);
    this.tags[1].fill(-1);
  }

  // The chip's flash reads, through the cache: the core's fetches and
  // loads and the DMA's reads all go through these three.
  attach(mcu) {
    if (!this.on) return;
    const self = this;
    const r8 = mcu.readUint8.bind(mcu);
    const r16 = mcu.readUint16.bind(mcu);
    const r32 = mcu.readUint32.bind(mcu);
    mcu.readUint8 = (a) => {
      if (a >>> 28 === 1) self.read(a);
      return r8(a);
    };
    mcu.readUint16 = (a) => {
      if (a >>> 28 === 1) self.read(a);
      return r16(a);
    };
    mcu.readUint32 = (a) => {
      if (a >>> 28 === 1) self.read(a);
      return r32(a);
    };
  }

  read(address) {
    const region = (address >>> 24) & 0xf;
    if (region > 3) return; // XIP's control registers and the SSI: not flash
    this.stats.fetches++;
    if (region >= 2) {
      this.miss(); // XIP_NOCACHE(_NOALLOC)
      return;
    }
    const line = (address & 0xffffff) >>> LINE_SHIFT;
    const set = line & (SETS - 1);
    const tag = line >>> 10;
    const t0 = this.tags[0];
    const t1 = this.tags[1];
    if (t0[set] === tag) {
      this.lru[set] = 0;
      return;
    }
    if (t1[set] === tag) {
      this.lru[set] = 1;
      return;
    }
    this.miss();
    if (region === 0) {
      // allocate into the way not used last
      const way = this.lru[set] ^ 1;
      this.tags[way][set] = tag;
      this.lru[set] = way;
    }
  }

  miss() {
    this.stats.misses++;
    this.stats.missCycles += MISS_CYCLES;
    this.stallCycles += MISS_CYCLES;
  }

  // A flash program or erase the bootrom carried out (board.js's hooks):
  // the core stalls for its time; the cache is invalidated after it.
  flashOp(kind, offset, n) {
    if (!this.on) return;
    let ns = 0;
    if (kind === 'erase') {
      this.stats.erases++;
      let at = offset;
      const end = offset + n;
      while (at < end) {
        if (at % BLOCK === 0 && end - at >= BLOCK) {
          ns += T_BE[this.worst];
          at += BLOCK;
        } else {
          ns += T_SE[this.worst];
          at += SECTOR;
        }
      }
    } else {
      this.stats.programs++;
      const first = Math.floor(offset / PAGE);
      const last = Math.floor((offset + n - 1) / PAGE);
      ns = (last - first + 1) * T_PP[this.worst];
    }
    this.stats.flashNs += ns;
    this.stallNs += ns;
    this.flush();
  }

  // ns the chip stalled since the last call (and the counts reset)
  take(nsPerCycle) {
    const ns = this.stallCycles * nsPerCycle + this.stallNs;
    this.stallCycles = 0;
    this.stallNs = 0;
    return ns;
  }
}

module.exports = { Timing, PROFILES, MISS_CYCLES };
