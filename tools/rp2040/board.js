// The APIXAGON board on an emulated RP2040: rp2040js runs the image (the
// bootrom, then the flash), and around the chip sit models of the board's
// parts, wired as the revision's pin table says (boards/rev_*/pins.py):
//   - the WS2812 chain, read from what the CPU (or a DMA channel paced by
//     its DREQ) pushes into the PIO state machine that drives the LED pin,
//     drained at the strip's bit rate;
//   - PN532 readers on I2C: four behind a TCA9548A switch, each with its
//     antennas selected on GPIOs (rev A's decoder and MOSFETs), and the
//     action pad's own;
//   - the 74HC165 reed chain on SPI with its latch (rev B);
//   - the buttons (to ground, pull-ups) and the strip's sense pin;
//   - the USB-C CC sense divider on its ADC pin (the source's advertisement);
//   - the reset lines: the TCA9548A's RESET and the PN532s' RSTPD_N on
//     GPIOs (pulled up on the board); a part held in reset does not answer,
//     and a reader made to hang ('hang') comes back only from a reset pulse.
// The GPIOs are the circuit's (hardware/<rev>/wiring.json, generated from
// the netlist), not the firmware's pin table: a pins.py that disagrees
// with the board fails here as it would on the board.
// Every part runs on the chip's clock (125 MHz cycles), never on wall time,
// so what the firmware measures with time.ticks_us() is the board's time.
//
// Started by emuboard.py:
//   node board.js CONFIG.json
// stdin/stdout carry the USB CDC bytes (emuboard.py bridges them to a
// pseudo-terminal); fd 3 is the control channel, JSON lines both ways
// (see handle() below and emuboard.py). The flash image lives in a file
// and survives resets and power cuts, as a chip's flash does.
'use strict';

const fs = require('fs');
const net = require('net');
const { Simulator, USBCDC, I2CMode, ConsoleLogger, LogLevel } = require('rp2040js');
const { Timing } = require('./timing');

const DEBUG = !!process.env.EMU_DEBUG;
const cfg = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// MicroPython's start-up reads two SIO registers rp2040js does not know
// (0x50, 0x58: harmless, see ../shared/rp2040/README.md); say nothing of them.
const warn = console.warn;
console.warn = (msg, ...rest) => {
  if (/^Read from invalid SIO address: 5[08]$/.test(String(msg))) return;
  warn(msg, ...rest);
};
const HZ = 125000000; // rp2040js's cycle clock
const NS_PER_CYCLE = 1e9 / HZ;
const FLASH_BYTES = cfg.flash_bytes || 2 * 1024 * 1024; // the Pico's W25Q16
const PAGE_OFFSET = 4; // NTAG21x: the payload page (smartboard/tag.py)
// The real chip's timing (timing.js): XIP cache misses, flash program and
// erase stalls; 'ideal' (none) unless the config asks for a profile.
const timing = new Timing(cfg.timing || 'ideal');
const TIMED = timing.on;

// ---- control channel -------------------------------------------------------
const ctl = new net.Socket({ fd: cfg.ctl_fd, readable: true, writable: true });
function emit(obj) {
  ctl.write(JSON.stringify(obj) + '\n');
}
const hex = (b) => Buffer.from(b).toString('hex');
const unhex = (s) => Uint8Array.from(Buffer.from(s || '', 'hex'));

// ---- the physical world: it outlives any reset of the chip ----------------
const world = {
  tags: new Map(), // sensor channel -> {page, uid} (rev A: an antenna per cell)
  pad: null, // the tag on the action pad
  reeds: new Uint8Array(64), // rev B: 1 where a card closes the reed
  pressed: new Set(), // GPIOs of buttons held down
  deadReaders: new Set(), // 0..3 cell readers, 'pad'
  // readers that hang (0..3, 'pad') -> how: 'busy' (its status byte never
  // ready again, commands ignored) or 'sda' (it holds SDA low); only a
  // reset pulse on its RSTPD_N clears it
  hungReaders: new Map(),
  stuckBuses: new Set(), // I2C ids held low
  stripPlugged: true,
  ccMv: cfg.cc_mv || 0, // vRd on the live CC pin (emuboard.py CC_MV)
};

// ---- flash ------------------------------------------------------------------
// rp2040js reads the flash array but does not emulate programming it over
// the SSI. The bootrom's flash functions are replaced by BKPT #n; BX LR
// and done here with NOR semantics (erase: 0xFF; program: AND).
const bootrom = new Uint8Array(fs.readFileSync(cfg.bootrom));
const HOOKS = { RE: 1, RP: 2, IF: 3, EX: 4, FC: 5, CX: 6 };
(function patchBootrom() {
  let p = bootrom[0x14] | (bootrom[0x15] << 8);
  for (;;) {
    const code = bootrom[p] | (bootrom[p + 1] << 8);
    if (!code) break;
    const name = String.fromCharCode(code & 0xff, code >> 8);
    const at = (bootrom[p + 2] | (bootrom[p + 3] << 8)) & ~1;
    if (HOOKS[name]) {
      bootrom[at] = HOOKS[name]; // BKPT #n
      bootrom[at + 1] = 0xbe;
      bootrom[at + 2] = 0x70; // BX LR
      bootrom[at + 3] = 0x47;
    }
    p += 4;
  }
})();

let flash = new Uint8Array(FLASH_BYTES).fill(0xff);
if (fs.existsSync(cfg.flash)) {
  flash.set(new Uint8Array(fs.readFileSync(cfg.flash)).subarray(0, FLASH_BYTES));
} else {
  loadImage(cfg.image);
}

function loadImage(path) {
  const data = new Uint8Array(fs.readFileSync(path));
  if (path.endsWith('.uf2')) {
    for (let off = 0; off + 512 <= data.length; off += 512) {
      const v = new DataView(data.buffer, data.byteOffset + off, 512);
      if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) {
        throw new Error('not a UF2 block at ' + off);
      }
      const addr = v.getUint32(12, true) - 0x10000000;
      const n = v.getUint32(16, true);
      flash.set(data.subarray(off + 32, off + 32 + n), addr);
    }
  } else {
    flash.set(data, 0);
  }
}

function saveFlash() {
  const tmp = cfg.flash + '.tmp';
  fs.writeFileSync(tmp, flash);
  fs.renameSync(tmp, cfg.flash);
}

// A power cut can fall inside a flash operation: `cutOp` counts them down
// and the chosen one writes only part of its bytes.
let flashOps = 0;
const opKinds = { erase: 0, program: 0 };
let cutOp = null; // {left, frac}

// A journal of the flash operations (the 'journal' request): the flash as
// it was at its start (PATH.base), then each operation as it comes: a byte
// 'E' or 'P', its offset and length (u32 LE), and a program's bytes. A test
// replays any prefix of it, the last operation cut part way, to have the
// flash a power cut there would leave, without the deploy run again
// (tests/rp2040/test_rp2040_deploy_cuts.py).
let journal = null; // its file descriptor

function journalOp(kind, off, n, src, mcu) {
  const head = Buffer.alloc(9);
  head.write(kind === 'erase' ? 'E' : 'P', 0, 'latin1');
  head.writeUInt32LE(off, 1);
  head.writeUInt32LE(n, 5);
  fs.writeSync(journal, head);
  if (kind === 'program') {
    const data = Buffer.alloc(n);
    for (let i = 0; i < n; i++) data[i] = mcu.readUint8(src + i);
    fs.writeSync(journal, data);
  }
}

function flashOp(kind, off, n, src, mcu) {
  flashOps++;
  opKinds[kind]++;
  if (journal !== null) journalOp(kind, off, n, src, mcu);
  let keep = n;
  let cut = false;
  if (cutOp && (!cutOp.kind || cutOp.kind === kind) && --cutOp.left <= 0) {
    keep = Math.floor(n * cutOp.frac);
    cut = true;
  }
  if (off < 0 || off + n > FLASH_BYTES) {
    emit({ ev: 'log', text: `flash ${kind} out of range: ${off}+${n}` });
    return false;
  }
  if (kind === 'erase') {
    flash.fill(0xff, off, off + keep);
  } else {
    for (let i = 0; i < keep; i++) flash[off + i] &= mcu.readUint8(src + i);
  }
  const ns0 = timing.stats.flashNs;
  timing.flashOp(kind, off, keep);
  // with the real chip's timing, each operation stamped with its start and
  // the stall it costs: the bench names the erases and programs a
  // placement's latency overlaps (bench/emulated.py)
  if (TIMED) {
    const ns = timing.stats.flashNs - ns0;
    emit({ ev: 'flash', kind, cycle: cycles(), off, n: keep, cycles: Math.round(ns / NS_PER_CYCLE) });
  }
  if (cut) {
    powerOff('cut', { flash_op: kind, offset: off, bytes: n, written: keep });
    return true;
  }
  return false;
}

// ---- the chip ---------------------------------------------------------------
let sim = null;
let mcu = null;
let cycleBase = 0; // cycles of the boots before this one
let running = false;
let cutAtCycle = Infinity;
let boots = 0;
// the polling loops' jumps since power-on (watchSpin): the 'timing' request's
const spun = { jumps: 0, ns: 0 };

function cycles() {
  return mcu ? cycleBase + Math.round(sim.clock.nanos / NS_PER_CYCLE) : cycleBase;
}

function powerOn() {
  held = null;
  cutOp = null;
  cutAtCycle = Infinity;
  sim = new Simulator();
  mcu = sim.rp2040;
  mcu.logger = new ConsoleLogger(LogLevel.Error);
  mcu.loadBootrom(new Uint32Array(bootrom.buffer.slice(0)));
  // The chip reads its flash straight from the array this process owns.
  mcu.flash.set(flash);
  flash = mcu.flash.subarray(0, FLASH_BYTES);
  timing.flush(); // the cache holds nothing at power-on
  spun.jumps = spun.ns = 0;
  timing.take(NS_PER_CYCLE);
  timing.attach(mcu);
  mcu.onBreak = (code) => {
    const r = mcu.core.registers;
    if (code === HOOKS.RE) flashOp('erase', r[0], r[1], 0, mcu);
    else if (code === HOOKS.RP) flashOp('program', r[0], r[2], r[1], mcu);
    // IF, EX, FC, CX: the SSI/XIP set-up that the emulator does not need
  };
  mcu.watchdog = mcu.peripherals[0x40058];
  const chip = mcu;
  const wd = mcu.watchdog;
  mcu.watchdog.onWatchdogTrigger = () => {
    // A watchdog reset clears the watchdog's own CTRL, as the chip does:
    // left enabled, the dead chip's periodic alarm would fire again at the
    // same instant, for ever, inside the step that reset it.
    wd.alarm.enable = false;
    wd.timer.enable = false;
    if (mcu === chip) reset('watchdog'); // a dead chip's alarm is moot
  };
  wireUsb();
  wireParts();
  mcu.core.PC = 0x10000000; // boot2 at the start of the flash, as the bootrom would
  boots++;
  running = true;
  emit({ ev: 'on', cycle: cycles(), boot: boots });
  setImmediate(runSlice);
}

const waits = new Set(); // 'wait' requests under way: answered at once if the power goes

function powerOff(why, extra) {
  if (!mcu) return;
  for (const w of waits) emit({ ev: 'ack', id: w.id, cycle: cycles(), on: false });
  waits.clear();
  held = null;
  running = false;
  cycleBase = cycles();
  flash = new Uint8Array(flash); // detach from the dead chip
  mcu = null;
  sim = null;
  usb.connected = false;
  usb.rx.length = 0;
  cutOp = null;
  cutAtCycle = Infinity;
  saveFlash();
  emit(Object.assign({ ev: 'off', cycle: cycleBase, why }, extra || {}));
}

function reset(why) {
  // A watchdog or software reset: the chip restarts from its flash; the
  // host sees the USB device go and come back.
  const at = cycles();
  powerOff(why);
  emit({ ev: 'reset', cycle: at, why });
  powerOn();
}

// ---- a cycle profile: where the CPU's cycles go, by the PC ------------------
// 'profile' with on: every instruction's cycles added to its PC's slot (the
// bootrom, the flash's image and the RAM, where MicroPython puts viper and
// native code); with on false the totals by PC go back and profiling stops.
// tools/rp2040/cycleprof.py names the functions from the image's .elf.
const PROF_REGIONS = [
  [0x00000000, 0x4000],
  [0x10000000, 0x200000],
  [0x20000000, 0x42000],
];
let prof = null;

function profCount(pc, n) {
  for (const r of prof.regions) {
    const off = pc - r.base;
    if (off >= 0 && off < r.size) {
      r.hist[off >> 1] += n;
      return;
    }
  }
  prof.other += n;
}

function profReport() {
  const out = {};
  for (const r of prof.regions) {
    for (let i = 0; i < r.hist.length; i++) {
      if (r.hist[i]) out[(r.base + 2 * i).toString(16)] = r.hist[i];
    }
  }
  return { pcs: out, idle: prof.idle, other: prof.other };
}

// A sleeping core's clock jumps to its next alarm: idle time costs nothing
// here, and the emulated chip runs far ahead of the wall clock at its REPL.
// While a host is at work (bytes from it, or to it, in the last PACE_MS of
// wall time: a host waiting for a long script's output is still there) the
// board's idle time is paced to the wall clock instead: a host's seconds
// are then the board's, as with a real chip, and whatever the board times
// against the host (its watchdog's watch of a host, firmware/bootsel.py)
// means what it does on a Pico. Busy, the emulated chip is slower than a
// real one anyway.
const PACE_MS = 5000;
let pace = null; // {wall, cyc}: the wall clock and the chip's at its start

function paced() {
  const now = Date.now();
  if (now - usb.lastRx > PACE_MS) {
    pace = null;
    return false;
  }
  if (!pace) pace = { wall: now, cyc: cycles() };
  return true;
}

function paceRoom() {
  // ns the chip may run ahead on its own (idle, or a polling loop jumped):
  // none past the wall clock while a host is at work, else no limit
  if (!paced()) return Infinity;
  return (Date.now() - pace.wall) * 1e6 - (cycles() - pace.cyc) * NS_PER_CYCLE;
}

function idleStep(clock) {
  // false: the chip is ahead of the wall clock; wait for it
  let dt = clock.nanosToNextAlarm;
  if (!(dt > 0)) dt = 1000;
  const room = paceRoom();
  if (room <= 0) return false;
  clock.tick(Math.min(dt, room));
  return true;
}

// The chip runs in slices of wall time; the PC's bytes are handed to it,
// and its bytes to the PC, between two. A USB host polls its board every
// 1 ms frame: while the two talk (bytes either way in the last TALK_MS),
// a slice is TALK_SLICE_MS, so a request is not held back the rest of a
// 25 ms slice (~10 ms of the chip's time at the emulator's speed) that
// the board would have counted as its own, waiting.
const SLICE_MS = 25;
const TALK_SLICE_MS = 1;
const TALK_MS = 200;

function sliceMs() {
  return Date.now() - usb.lastRx < TALK_MS ? TALK_SLICE_MS : SLICE_MS;
}

// A core waiting on a transfer: the SDK waits for each I2C byte and SPI
// frame by reading the block's status registers in a tight loop (pico-sdk
// hardware_i2c/i2c.c, i2c_read_blocking_internal; hardware_spi/spi.c),
// ~2,800 cycles of polling a byte at 400 kHz: over a third of profile A's
// cycles, all executed here one by one. Only the transfer's alarm changes
// what those registers say, so once they have read the same values
// SPIN_READS times in a row, each within SPIN_NS of the one before, with
// a step of the transfer on the wires, the clock jumps to the next alarm
// (no further: a USB frame, a timer's interrupt are alarms too, and a cut
// at a cycle is never jumped over). The loop sees the change when the
// chip would, give or take one pass of it (tens of cycles).
const SPIN_READS = 6; // two passes of the three registers the I2C loop reads
const SPIN_NS = 2000; // a pass of a polling loop takes ~40 cycles (320 ns)
let spinning = false;
// Off unless cfg.spin (APIXAGON_SPIN=1): a transfer alone takes the chip
// the same time with the jumps (tests/rp2040/test_rp2040_spin.py), but a
// make bench run with them on lost two boards to a reset and one placement
// in the real-chip column, which runs without them never showed; until
// that is understood every figure executes every pass
// (docs/development/notes.md).
const SPIN = cfg.spin === true;

function watchSpin(block, busy) {
  if (!SPIN) return; // off: the block's registers read and written as rp2040js has them
  const read = block.readUint32.bind(block);
  const write = block.writeUint32.bind(block);
  const last = new Map();
  let same = 0;
  let at = -1e12;
  block.readUint32 = (offset) => {
    const v = read(offset);
    const now = sim.clock.nanos;
    if (last.get(offset) === v && now - at <= SPIN_NS && busy()) {
      if (++same >= SPIN_READS) {
        spinning = true;
        same = 0;
      }
    } else {
      same = 0;
    }
    last.set(offset, v);
    at = now;
    return v;
  };
  block.writeUint32 = (offset, value) => {
    same = 0;
    last.clear();
    write(offset, value);
  };
}

function spinJump(clock, stopNanos) {
  // the jump a polling loop earned (watchSpin): to the next alarm, no
  // further than a cut, and paced like idle time while a host is at work
  spinning = false;
  const dt = Math.min(clock.nanosToNextAlarm, stopNanos - clock.nanos, paceRoom());
  if (!(dt > 0)) return 0;
  spun.jumps++;
  spun.ns += dt;
  clock.tick(dt);
  return dt;
}

function runSlice() {
  if (!running || held) return;
  if (prof) return runSliceProfiled();
  const chip = mcu;
  const core = mcu.core;
  const clock = sim.clock;
  const stopNanos = (cutAtCycle - cycleBase) * NS_PER_CYCLE;
  const until = Date.now() + sliceMs();
  for (let i = 1; running; i++) {
    if (core.waiting) {
      if (!idleStep(clock)) {
        setTimeout(() => mcu === chip && runSlice(), 2); // a reset meanwhile: its own loop
        return;
      }
    } else if (TIMED) {
      const n = core.executeInstruction();
      clock.tick(n * NS_PER_CYCLE + timing.take(NS_PER_CYCLE));
    } else {
      clock.tick(core.executeInstruction() * NS_PER_CYCLE);
    }
    if (spinning) spinJump(clock, stopNanos);
    if (mcu !== chip) return; // a reset or a cut in that step: the new chip has its own loop
    if (clock.nanos >= stopNanos) {
      powerOff('cut');
      return;
    }
    if (held) return; // resumed by 'go' (resumeHeld)
    if ((i & 0xfff) === 0 && Date.now() > until) break;
  }
  if (running) setImmediate(runSlice);
}

function runSliceProfiled() {
  // runSlice with every instruction's cycles counted at its PC (slower)
  const chip = mcu;
  const core = mcu.core;
  const clock = sim.clock;
  const stopNanos = (cutAtCycle - cycleBase) * NS_PER_CYCLE;
  const until = Date.now() + 25;
  for (let i = 1; running && prof; i++) {
    if (core.waiting) {
      const dt = clock.nanosToNextAlarm;
      const ns = dt > 0 ? dt : 1000;
      prof.idle += ns / NS_PER_CYCLE;
      clock.tick(ns);
    } else {
      const pc = core.PC;
      const n = core.executeInstruction();
      const stall = timing.take(NS_PER_CYCLE); // a miss, a flash write: this PC's
      profCount(pc, n + stall / NS_PER_CYCLE);
      clock.tick(n * NS_PER_CYCLE + stall);
      if (spinning) profCount(pc, spinJump(clock, stopNanos) / NS_PER_CYCLE); // the loop's time
    }
    if (mcu !== chip) return;
    if (clock.nanos >= stopNanos) {
      powerOff('cut');
      return;
    }
    if (held) return;
    if ((i & 0xfff) === 0 && Date.now() > until) break;
  }
  if (running) setImmediate(runSlice);
}

// ---- USB CDC: the board's serial port ----------------------------------------
// rp2040js's USBCDC answers an OUT request at once, empty when the host has
// nothing to send, so the device would take an interrupt every few
// microseconds. A real host NAKs until it has data: requests wait here.
const usb = { cdc: null, rx: [], want: 0, connected: false, spoke: false, lastRx: 0, lastTx: -1, rxCount: 0 };
// The link's traffic since the last 'usbstat' mark, stamped in cycles: the
// first byte handed to the chip and the last one it sent (a download's
// rate in the chip's own time, whatever the PC's speed).
// turns: [cycle, the last byte sent before it] of each request that came
// after the chip had answered (the last 16): where a command's last
// request began, asked after it, not stamped by a call amid it (a call to
// this process takes ms of the PC's, which the chip runs on through).
const traffic = { rxFirst: -1, rxLast: -1, txFirst: -1, txLast: -1, rxBytes: 0, txBytes: 0, turns: [] };

function wireUsb() {
  const cdc = new USBCDC(mcu.usbCtrl);
  usb.cdc = cdc;
  usb.want = 0;
  usb.spoke = false;
  cdc.onDeviceConnected = () => {
    usb.connected = true;
    emit({ ev: 'usb', cycle: cycles() });
    feedUsb();
  };
  cdc.onSerialData = (buf) => {
    if (!usb.spoke) {
      usb.spoke = true; // the first bytes since power-on: boot-to-answer figures
      emit({ ev: 'tx', cycle: cycles() });
    }
    const now = cycles();
    usb.lastTx = now;
    if (traffic.txFirst < 0) traffic.txFirst = now;
    traffic.txLast = now;
    traffic.txBytes += buf.length;
    usb.lastRx = Date.now(); // a host reading the board is one at work too (paced())
    process.stdout.write(Buffer.from(buf));
  };
  mcu.usbCtrl.onEndpointRead = (ep, size) => {
    if (ep === cdc.outEndpoint) {
      usb.want = size;
      feedUsb();
    }
  };
}

function feedUsb() {
  if (!mcu || !usb.want || !usb.rx.length || !usb.connected) return;
  const n = Math.min(usb.want, usb.rx.length);
  const buf = Uint8Array.from(usb.rx.splice(0, n));
  usb.want = 0;
  const now = cycles();
  if (traffic.txLast > traffic.rxLast) {
    traffic.turns.push([now, traffic.txLast]);
    if (traffic.turns.length > 16) traffic.turns.shift();
  }
  if (traffic.rxFirst < 0) traffic.rxFirst = now;
  traffic.rxLast = now;
  traffic.rxBytes += n;
  mcu.usbCtrl.endpointReadDone(usb.cdc.outEndpoint, buf);
}

process.stdin.on('data', (data) => {
  if (!mcu) return; // no power: the bytes fall on the floor
  usb.lastRx = Date.now();
  for (const b of data) usb.rx.push(b);
  usb.rxCount += data.length;
  feedUsb();
  resumeHeld();
});
process.stdin.on('end', () => {
  if (mcu) powerOff('host');
  process.exit(0);
});

// ---- parts --------------------------------------------------------------------
let strip = null;
let i2cBuses = new Map(); // this boot's I2C blocks, by id
let parts = { switch: null, readers: [] }; // this boot's switch and readers (the 'resets' request)
// the readers' RF fields on at once, the most since the 'readers' request
// last asked (rev A's five at 150 mA each are over a Default USB port)
let fieldsMost = 0;
function fieldsChanged() {
  const on = parts.readers.filter((r) => r.field).length;
  if (on > fieldsMost) fieldsMost = on;
}

// Conversions of each ADC channel since the emulator started: how often
// the firmware reads its supply's CC sense ('adc' request).
const adcReads = [0, 0, 0, 0, 0];

function wireParts() {
  const pins = cfg.pins;
  const onRead = mcu.adc.onADCRead;
  mcu.adc.onADCRead = (channel) => {
    adcReads[channel]++;
    onRead(channel);
  };
  // Buttons to ground with the chip's pull-ups; the strip's sense pin is
  // tied to ground on the strip's side of the connector.
  for (const g of pins.BUTTONS) mcu.gpio[g].setInputValue(!world.pressed.has(g));
  if (pins.STRIP_SENSE !== undefined) mcu.gpio[pins.STRIP_SENSE].setInputValue(!world.stripPlugged);
  applyCc();
  // No PIO program runs as code here: the strip's state machine is modelled
  // by its FIFO (below); the waveform is tests/test_pio_waveform.py's job.
  for (const pio of mcu.pio) pio.run = () => {};
  strip = new Strip(pins.LED_PIN, cfg.nleds || 61);
  for (const pio of mcu.pio) {
    for (const sm of pio.machines) strip.watch(sm);
  }
  const buses = new Map();
  i2cBuses = buses;
  const bus = (spec) => {
    if (!buses.has(spec[0])) buses.set(spec[0], new I2CBus(spec[0]));
    return buses.get(spec[0]);
  };
  parts = { switch: null, readers: [] };
  if (pins.PROFILE === 'A') {
    const readers = pins.MUX_SELECT.map((sel, k) => new Pn532(k, new Antennas(sel, k * pins.LANE)));
    const sw = new Tca9548a(readers);
    bus(pins.CELL_I2C).attach(pins.CELL_SWITCH, sw);
    bus(pins.CELL_I2C).attach(0x24, sw.port); // the readers, through whichever port is on
    parts.switch = sw;
    parts.readers.push(...readers);
    if (pins.CELL_SWITCH_RESET !== undefined) resetLine(pins.CELL_SWITCH_RESET, [sw]);
    if (pins.CELL_RSTPD !== undefined) resetLine(pins.CELL_RSTPD, readers);
  } else {
    new ReedChain(pins.SHIFT_SPI, pins.SHIFT_LATCH, pins.SHIFT_BYTES);
  }
  const pad = new Pn532('pad', null);
  bus(pins.PAD_I2C).attach(0x24, pad);
  parts.readers.push(pad);
  if (pins.PAD_RSTPD !== undefined) resetLine(pins.PAD_RSTPD, [pad]);
}

// A reset input on a GPIO, pulled up on the board: low only while the chip
// drives it low (an input, or the chip in reset, reads high); each edge
// goes to the parts on it, then a bus a hung reader held may move again.
function resetLine(gpio, on) {
  const pin = mcu.gpio[gpio];
  let low = false;
  const look = () => {
    const now = pin.outputEnable && !pin.outputValue;
    if (now === low) return;
    low = now;
    for (const p of on) p.reset(low);
    for (const b of i2cBuses.values()) if (!b.stuck()) b.release();
  };
  pin.addListener(look);
  look();
}

// The WS2812 chain. A frame is what follows a latch gap (>= 50 us low):
// the first 3 x nleds bytes light the strip, GRB.
class Strip {
  constructor(pin, nleds) {
    this.pin = pin;
    this.nbytes = 3 * nleds;
    this.frame = new Uint8Array(this.nbytes);
    this.n = 0;
    this.last = '';
    this.busyUntil = 0; // nanos: the last word pushed is shifted out by then
    this.starts = []; // when each word still in the FIFO starts shifting out
    this.frames = 0;
    this.paced = null; // the state machine whose DREQ waits for room
    this.paceAlarm = sim.clock.createAlarm(() => this.pace(this.paced));
  }

  watch(sm) {
    // Only the state machine whose side-set pins start at the LED pin
    // drives the strip (pinctrl SIDESET_BASE, bits 10..14).
    const self = this;
    const fifo = sm.txFIFO;
    const orig = sm.writeFIFO.bind(sm);
    sm.writeFIFO = function (value) {
      if (((sm.pinCtrl >> 10) & 0x1f) !== self.pin) return orig(value);
      self.push(sm, value);
      self.pace(sm);
    };
    Object.defineProperty(fifo, 'full', { get: () => self.pending(sm, fifo) >= fifo.size });
    Object.defineProperty(fifo, 'empty', { get: () => self.pending(sm, fifo) === 0 });
    Object.defineProperty(fifo, 'itemCount', { get: () => self.pending(sm, fifo) });
  }

  wordNanos(sm) {
    // One bit is 10 cycles of the state machine's clock (T1 + T2 + T3 of
    // smartboard/drivers/neopixel_pio.py); a word carries pull_thresh bits.
    const div = sm.clockDivInt + sm.clockDivFrac / 256 || 1;
    const bits = sm.pullThreshold || 32;
    return (bits * 10 * div * 1e9) / mcu.clkSys;
  }

  pending(sm, fifo) {
    if (((sm.pinCtrl >> 10) & 0x1f) !== this.pin) return fifo.used;
    const now = sim.clock.nanos;
    while (this.starts.length && this.starts[0] <= now) this.starts.shift();
    return this.starts.length;
  }

  // The TX FIFO's DREQ (RP2040 datasheet 2.5.3.1, 3.2): asserted while the
  // FIFO is not full, so a DMA channel paced by it puts a word in each time
  // one leaves for the output shift register, at the strip's bit rate.
  // rp2040js raises it from its own FIFO, which this model stands in for.
  pace(sm) {
    const fifo = sm.txFIFO;
    if (this.pending(sm, fifo) < fifo.size) {
      mcu.dma.setDREQ(sm.dreqTx);
      return;
    }
    mcu.dma.clearDREQ(sm.dreqTx);
    this.paced = sm;
    this.paceAlarm.schedule(this.starts[0] - sim.clock.nanos); // the next word leaves
  }

  push(sm, value) {
    const now = sim.clock.nanos;
    if (now - this.busyUntil >= 50000 && this.n) this.latch(this.busyUntil);
    const start = Math.max(now, this.busyUntil);
    this.busyUntil = start + this.wordNanos(sm);
    this.starts.push(start);
    const bits = sm.pullThreshold || 32;
    const byte = (value >>> (32 - Math.min(bits, 8))) & 0xff; // shifted left: MSB first
    if (this.n < this.nbytes) this.frame[this.n] = byte;
    this.n++;
    if (this.n === this.nbytes) this.latch(this.busyUntil);
  }

  latch(atNanos) {
    this.n = 0;
    this.frames++;
    if (!world.stripPlugged) return;
    const en = cfg.pins.STRIP_EN;
    if (en !== undefined && !mcu.gpio[en].value) {
      this.last = ''; // its load switch off: the strip has no power, shows nothing
      return;
    }
    const h = hex(this.frame);
    if (h === this.last) return;
    this.last = h;
    emit({ ev: 'frame', cycle: cycleBase + Math.round(atNanos / NS_PER_CYCLE), grb: h, n: this.frames });
  }
}

// One I2C block and what hangs on its wires. Each step of a transfer is
// completed after its time on the bus (9 bit times a byte), so the CPU
// waits for the bus as it would on the board. A stuck bus completes
// nothing: the firmware's own timeout has to catch it.
class I2CBus {
  constructor(id) {
    this.id = id;
    this.i2c = mcu.i2c[id];
    this.devices = new Map();
    this.cur = null;
    this.alarm = sim.clock.createAlarm(() => {
      const f = this.next;
      this.next = null;
      if (f) f();
    });
    const later = (bits, f) => {
      this.next = f;
      if (this.stuck()) {
        this.held = bits; // SDA low: nothing moves until it is let go (release())
        return;
      }
      this.alarm.schedule(bits * this.bitNanos());
    };
    const i2c = this.i2c;
    watchSpin(i2c, () => this.next != null && !this.held);
    // An abort (a NACK) flushes the TX FIFO: on the chip the FIFO is then
    // below its threshold and TX_EMPTY is set, which the SDK waits for.
    // rp2040js sets it only when a command leaves the FIFO, so a NACK read
    // as a timeout and its EIO landed on the next transfer.
    const abort = i2c.abort.bind(i2c);
    i2c.abort = (reason) => {
      abort(reason);
      i2c.setInterrupts(1 << 4); // R_TX_EMPTY
    };
    i2c.onStart = () => {
      if (DEBUG) process.stderr.write(`i2c${id} start\n`);
      later(1, () => i2c.completeStart());
    };
    i2c.onConnect = (addr, mode) => {
      const d = this.devices.get(addr);
      const ok = !!(d && d.connect(mode === I2CMode.Read));
      if (DEBUG) process.stderr.write(`i2c${id} connect ${addr} ${mode} ${ok}\n`);
      this.cur = ok ? d : null;
      later(9, () => i2c.completeConnect(ok));
    };
    i2c.onWriteByte = (v) => {
      const ok = !!(this.cur && this.cur.write(v));
      if (DEBUG) process.stderr.write(`i2c${id} w ${v.toString(16)}\n`);
      later(9, () => i2c.completeWrite(ok));
    };
    i2c.onReadByte = () => {
      const v = this.cur ? this.cur.read() : 0xff;
      if (DEBUG) process.stderr.write(`i2c${id} r ${v.toString(16)}\n`);
      later(9, () => i2c.completeRead(v));
    };
    i2c.onStop = () => {
      if (DEBUG) process.stderr.write(`i2c${id} stop\n`);
      if (this.cur) this.cur.stop();
      this.cur = null;
      later(1, () => i2c.completeStop());
    };
  }

  release() {
    if (this.held && this.next) this.alarm.schedule(this.held * this.bitNanos());
    this.held = 0;
  }

  stuck() {
    // SDA held low: by the test ('bus'), or by a hung reader on the wires
    if (world.stuckBuses.has(this.id)) return true;
    for (const d of this.devices.values()) if (d.holdsSda && d.holdsSda()) return true;
    return false;
  }

  bitNanos() {
    const hl = this.i2c.sclHighPeriod + this.i2c.sclLowPeriod;
    return hl > 0 ? (hl * 1e9) / mcu.clkSys : 2500; // 400 kHz if unset
  }

  attach(addr, device) {
    this.devices.set(addr, device);
  }
}

// TCA9548A: one control byte; the readers (all at 0x24) answer through
// whichever port is on.
class Tca9548a {
  constructor(readers) {
    this.readers = readers;
    this.ctrl = 0;
    this.inReset = false; // RESET low: no answer, every port off
    this.resets = 0;
    this.dev = null;
    this.inner = null;
    const self = this;
    // The switched readers sit on the same bus at 0x24.
    this.port = {
      connect(read) {
        const k = self.readers.findIndex((_, i) => self.ctrl & (1 << i));
        self.inner = k >= 0 ? self.readers[k] : null;
        return !!(self.inner && self.inner.connect(read));
      },
      write: (v) => self.inner.write(v),
      read: () => self.inner.read(),
      stop: () => self.inner && self.inner.stop(),
    };
  }
  connect() {
    return !this.inReset;
  }
  reset(low) {
    // RESET low clears the control register (every port off) and lets SDA
    // go (TCA9548A datasheet, RESET Input; tW(L) 6 ns, trst 500 ns)
    this.inReset = low;
    if (low) {
      this.ctrl = 0;
      this.resets++;
    }
  }
  holdsSda() {
    // a reader holding its SDA low holds the bus while its port is on
    if (this.inReset) return false;
    return this.readers.some((r, i) => this.ctrl & (1 << i) && r.holdsSda());
  }
  write(v) {
    this.ctrl = v;
    return true;
  }
  read() {
    return this.ctrl;
  }
  stop() {}
}

// A reader's 16 antennas behind its decoder and MOSFETs (CD74HC4514's
// A0..A3 on GPIOs, the select lines S0..S3 of pins.py). A tag needs
// T.settle of field after a switch before it can answer: from the moment
// the select lines change (watched), not from the next command.
class Antennas {
  constructor(select, base) {
    this.select = select;
    this.base = base;
    this.switchedAt = -1e12;
    this.last = -1;
    for (const p of select) mcu.gpio[p].addListener(() => this.channel());
  }
  channel() {
    let ch = 0;
    for (let i = 0; i < this.select.length; i++) {
      if (mcu.gpio[this.select[i]].outputValue) ch |= 1 << i;
    }
    if (ch !== this.last) {
      this.last = ch;
      this.switchedAt = sim.clock.nanos;
    }
    return this.base + ch;
  }
}

// Time model of a PN532 (what tools/bench/firmware.py's simulator assumes):
// after an antenna switch a tag needs 5.1 ms of field before it can answer
// (smartboard/scan.py SETTLE_US: the tag's power-up under ISO/IEC 14443-3,
// the MOSFET switch itself takes microseconds; a list sent sooner finds no
// tag, as the real chip's REQA goes out at once), InListPassiveTarget takes
// 2.7 ms of RF work when a tag answers and 0.7 ms when none does, reading a
// page 1.2 ms; set-up commands 1 ms. The I2C traffic is timed by the bus.
const US = 1000;
// the reset pulse a PN532 takes and its wake-up after it (see Pn532.reset)
const RESET_NS = { pn532Low: 400000 * US, pn532Wake: 10000 * US };
const T = { settle: 5100 * US, found: 2700 * US, none: 700 * US, page: 1200 * US, setup: 1000 * US };
const ACK = [0x00, 0x00, 0xff, 0x00, 0xff, 0x00];

class Pn532 {
  constructor(id, antennas) {
    this.id = id;
    this.antennas = antennas;
    this.rx = [];
    this.queue = []; // [{at, bytes}] frames waiting for the host
    this.reading = false;
    this.sent = 0;
    this.target = null; // the tag InListPassiveTarget found
    this.commands = 0;
    this.early = 0; // lists sent before the tag on the antenna had power
    // its RF field: off at power-on and in reset, on with RFConfiguration's
    // RF field item or with the first command that needs it (the chip
    // switches it on itself); a tag powers up from when it came on
    this.field = false;
    this.fieldAt = -1e12;
    this.inReset = false; // RSTPD_N low
    this.lowAt = 0;
    this.wakeAt = 0; // nanos: it answers nothing before its wake-up
    this.resets = 0; // pulses that reset it
  }
  hung() {
    return world.hungReaders.get(this.id) || null;
  }
  holdsSda() {
    return !this.inReset && this.hung() === 'sda';
  }
  reset(low) {
    // RSTPD_N: low is hard power-down (it forgets everything); a pulse of
    // RESET_NS.pn532Low or more, let go, resets it and clears a hang, and
    // it answers RESET_NS.pn532Wake later (the figures the firmware
    // follows: smartboard/recover.py LOW_MS, WAKE_MS).
    const now = sim.clock.nanos;
    this.inReset = low;
    if (low) {
      this.setField(false);
      this.lowAt = now;
      this.queue = [];
      this.rx = [];
      this.target = null;
      return;
    }
    if (now - this.lowAt >= RESET_NS.pn532Low) {
      world.hungReaders.delete(this.id);
      this.resets++;
    }
    this.wakeAt = now + RESET_NS.pn532Wake;
  }
  connect(read) {
    if (world.deadReaders.has(this.id)) return false; // no ACK: a dead or unplugged reader
    if (this.inReset || sim.clock.nanos < this.wakeAt) return false; // in reset, or waking
    this.reading = read;
    this.rx = [];
    this.sent = 0;
    return true;
  }
  ready() {
    return this.queue.length && this.queue[0].at <= sim.clock.nanos;
  }
  read() {
    // Every read starts with the status byte (1: a frame is ready), then
    // the frame; past its end, zeros.
    const i = this.sent++;
    if (this.hung() || !this.ready()) return 0; // a hung reader is never ready
    if (i === 0) return 1;
    const f = this.queue[0].bytes;
    return i - 1 < f.length ? f[i - 1] : 0;
  }
  write(v) {
    this.rx.push(v);
    return true;
  }
  stop() {
    if (this.reading) {
      if (this.sent >= 2 && this.ready()) this.queue.shift(); // the host has the frame
      return;
    }
    if (this.hung()) return; // it takes no command
    const f = this.rx;
    // 00 00 FF LEN LCS D4 CMD params DCS 00
    if (f.length < 8 || f[2] !== 0xff || ((f[3] + f[4]) & 0xff) || f[5] !== 0xd4) return;
    const len = f[3];
    let s = 0;
    for (let i = 5; i < 5 + len + 1 && i < f.length; i++) s += f[i];
    if (s & 0xff) return; // a bad checksum: the PN532 stays silent
    this.command(f[6], f.slice(7, 5 + len));
  }
  setField(on) {
    if (on === this.field) return;
    this.field = on;
    fieldsChanged();
  }
  command(cmd, params) {
    const now = sim.clock.nanos;
    this.commands++;
    if (cmd === 0x32 && params[0] === 0x01) {
      // RFConfiguration, CfgItem 1: the RF field on (bit 0) or off
      this.setField((params[1] & 1) === 1);
      if (this.field) this.fieldAt = now;
    } else if (cmd === 0x4a || cmd === 0x40) {
      this.setField(true);
    }
    this.queue = [{ at: now + 50 * US, bytes: ACK }];
    let at = now + T.setup;
    let data = [];
    if (cmd === 0x4a) {
      // InListPassiveTarget: one 106 kbps type A target
      // The PN532 sends REQA at once: a tag on an antenna switched to
      // less than T.settle ago has no power yet and does not answer
      // (ISO/IEC 14443-3, 5.1); the host must hold the command till then.
      const powered = this.antennas ? Math.max(this.antennas.switchedAt, this.fieldAt) : this.fieldAt;
      const early = now - powered < T.settle;
      if (early) this.early++;
      const tag = early ? null : this.tag();
      if (tag) {
        at = now + T.found;
        data = [0x01, 0x01, 0x00, 0x44, 0x00, tag.uid.length, ...tag.uid];
      } else {
        at = now + T.none;
        data = [0x00];
      }
      this.target = tag;
    } else if (cmd === 0x40) {
      // InDataExchange with an NTAG READ of page 4: 16 bytes (pages 4..7)
      const tag = this.tag();
      at = now + T.page;
      if (tag && tag === this.target && params[1] === 0x30 && params[2] === PAGE_OFFSET) {
        data = [0x00, ...tag.page, ...new Array(12).fill(0)];
      } else {
        data = [0x01]; // timeout: the tag left the field
      }
    }
    this.queue.push({ at, bytes: frame(cmd + 1, data) });
  }
  tag() {
    if (this.antennas === null) return world.pad;
    return world.tags.get(this.antennas.channel()) || null;
  }
}

function frame(code, data) {
  const body = [0xd5, code, ...data];
  let s = 0;
  for (const b of body) s += b;
  return [0x00, 0x00, 0xff, body.length, -body.length & 0xff, ...body, -s & 0xff, 0x00];
}

// Rev B: 74HC165s in a chain on SPI, SH/LD on a GPIO. Pulling the latch
// low loads every reed at once; then each byte clocked out is one
// register's eight inputs, D7 first (MSB first), a closed reed reading 0.
class ReedChain {
  constructor(spiSpec, latchPin, nbytes) {
    const spi = mcu.spi[spiSpec[0]];
    this.bytes = new Uint8Array(nbytes).fill(0xff);
    this.i = 0;
    mcu.gpio[latchPin].addListener(() => {
      if (!mcu.gpio[latchPin].outputValue) {
        for (let r = 0; r < nbytes; r++) {
          let b = 0;
          for (let c = 0; c < 8; c++) if (!world.reeds[r * 8 + c]) b |= 1 << c;
          this.bytes[r] = b;
        }
        this.i = 0;
      }
    });
    this.sending = false;
    const alarm = sim.clock.createAlarm(() => {
      this.sending = false;
      spi.completeTransmit(this.out);
    });
    spi.onTransmit = () => {
      this.out = this.i < nbytes ? this.bytes[this.i] : 0xff;
      this.i++;
      this.sending = true;
      alarm.schedule((8 * 1e9) / (spi.clockFrequency || 1000000));
    };
    watchSpin(spi, () => this.sending);
  }
}

// The CC sense node: vRd scaled by the divider (CC_LEVELS[0] is its ADC mV
// at vRd = 610 mV: smartboard/power.py), as a 12-bit reading of a 3.3 V ADC.
function applyCc() {
  const pins = cfg.pins;
  if (!mcu || pins.CC_SENSE === undefined) return;
  const mv = (world.ccMv * pins.CC_LEVELS[0]) / 610;
  mcu.adc.channelValues[pins.CC_SENSE - 26] = Math.min(4095, Math.round((mv * 4095) / 3300));
}

function applyInputs() {
  if (!mcu) return;
  const pins = cfg.pins;
  for (const g of pins.BUTTONS) mcu.gpio[g].setInputValue(!world.pressed.has(g));
  if (pins.STRIP_SENSE !== undefined) mcu.gpio[pins.STRIP_SENSE].setInputValue(!world.stripPlugged);
}

// ---- inputs at a cycle ------------------------------------------------------
// A hand that lands when its control request happens to arrive lands at a
// cycle set by the PC's timing, so what it measures (placement to LED)
// moves from run to run. An input with `at_cycle` is applied when the
// chip's clock reaches that cycle; with `after_tx`, that many cycles after
// the last byte the board sent on USB (its reply to the host's last
// request: a point of the firmware's own loop, after which nothing from
// outside has touched the chip). Its acknowledgement comes when it is
// applied; `late` when that cycle had already passed (applied at once).
function scheduleAt(m, nanosFromNow) {
  const w = { id: m.id };
  w.alarm = sim.clock.createAlarm(() => {
    waits.delete(w);
    handle(Object.assign({}, m, { at_cycle: undefined, after_tx: undefined }));
  });
  waits.add(w);
  w.alarm.schedule(Math.max(0, nanosFromNow));
}

function deferred(m) {
  if (!mcu) {
    emit({ ev: 'error', id: m.id, text: 'no chip to schedule ' + m.op + ' on' });
    return;
  }
  const at = m.at_cycle !== undefined ? m.at_cycle : usb.lastTx + m.after_tx;
  const ahead = at - cycles();
  if (ahead < 0 || (m.after_tx !== undefined && usb.lastTx < 0)) {
    handle(Object.assign({}, m, { at_cycle: undefined, after_tx: undefined, late: true }));
  } else {
    scheduleAt(m, ahead * NS_PER_CYCLE);
  }
}

// ---- the chip held at a cycle -----------------------------------------------
// Requests on USB reach the chip when the PC's bytes arrive, at a cycle the
// PC's timing sets; the replies, and the state they leave, then differ from
// run to run. 'hold' (with at_cycle or after_tx) stops the chip's clock at
// that cycle; the host writes its request; 'go' with the request's length
// lets the clock run again once that many bytes have come: the request is
// handed to the chip at the held cycle, whatever the PC's speed.
let held = null; // {rx: usb.rxCount at the hold, want: bytes awaited} while held

function resumeHeld() {
  if (!held || held.want === undefined || usb.rxCount - held.rx < held.want) return;
  held = null;
  if (running) setImmediate(runSlice);
}

// ---- control requests -------------------------------------------------------
function handle(m) {
  if (m.at_cycle !== undefined || m.after_tx !== undefined) return deferred(m);
  switch (m.op) {
    case 'tag': // put (page + uid) or lift (neither) a card on a sensor channel
      if (m.page) world.tags.set(m.ch, { page: unhex(m.page), uid: unhex(m.uid) });
      else world.tags.delete(m.ch);
      break;
    case 'pad':
      world.pad = m.page ? { page: unhex(m.page), uid: unhex(m.uid) } : null;
      break;
    case 'reed':
      world.reeds[m.ch] = m.on ? 1 : 0;
      break;
    case 'button':
      if (m.down) world.pressed.add(m.gpio);
      else world.pressed.delete(m.gpio);
      applyInputs();
      break;
    case 'reader': // a reader that stops (or starts again) answering
      if (m.dead) world.deadReaders.add(m.reader);
      else world.deadReaders.delete(m.reader);
      break;
    case 'hang': // a reader hangs ('busy' or 'sda'); a reset pulse clears it
      world.hungReaders.set(m.reader, m.mode || 'busy');
      break;
    case 'resets': // the reset pulses each part took this boot, and which still hang
      emit({
        ev: 'ack',
        id: m.id,
        cycle: cycles(),
        switch: parts.switch ? parts.switch.resets : null,
        readers: Object.fromEntries(parts.readers.map((r) => [r.id, r.resets])),
        hung: [...world.hungReaders.keys()],
      });
      return;
    case 'readers': // each reader's commands this boot, and its lists sent too early
      emit({
        ev: 'ack',
        id: m.id,
        cycle: cycles(),
        readers: Object.fromEntries(
          parts.readers.map((r) => [r.id, { commands: r.commands, early: r.early, field: r.field }])
        ),
        fields_most: fieldsMost,
      });
      if (m.mark) fieldsMost = parts.readers.filter((r) => r.field).length;
      return;
    case 'bus': // an I2C bus held low, or freed
      if (m.stuck) world.stuckBuses.add(m.bus);
      else {
        world.stuckBuses.delete(m.bus);
        if (i2cBuses.has(m.bus)) i2cBuses.get(m.bus).release();
      }
      break;
    case 'cc': // the USB-C source's advertisement changes (vRd in mV)
      world.ccMv = m.mv;
      applyCc();
      break;
    case 'strip':
      world.stripPlugged = !!m.plugged;
      applyInputs();
      break;
    case 'cut': // a power cut: inside the n-th flash operation from now, at a cycle (or
      // at whichever of the two comes first), or now
      if (!mcu) break; // already off: nothing to cut, nothing left pending
      if (m.flash_op) cutOp = { left: m.flash_op, frac: m.frac || 0, kind: m.kind || null };
      if (m.cycle) cutAtCycle = m.cycle;
      if (!m.flash_op && !m.cycle) powerOff('cut');
      break;
    case 'on':
      if (!mcu) powerOn();
      break;
    case 'save':
      if (mcu) saveFlash();
      break;
    case 'load': // the power off: the flash as its file holds it now (a PC wrote it)
      if (!mcu) flash.set(new Uint8Array(fs.readFileSync(cfg.flash)).subarray(0, FLASH_BYTES));
      break;
    case 'journal': // m.path: start a journal of the flash operations there; none: stop it
      if (journal !== null) fs.closeSync(journal);
      journal = null;
      if (m.path) {
        fs.writeFileSync(m.path + '.base', flash);
        journal = fs.openSync(m.path, 'w');
      }
      break;
    case 'wait': // acknowledged once the chip's clock has run m.cycles on
      if (mcu) {
        const w = { id: m.id };
        w.alarm = sim.clock.createAlarm(() => {
          waits.delete(w);
          emit({ ev: 'ack', id: m.id, cycle: cycles(), on: true, flash_ops: flashOps, kinds: opKinds });
        });
        waits.add(w);
        w.alarm.schedule(m.cycles * NS_PER_CYCLE);
        return;
      }
      break;
    case 'timing': // what the timing model charged since power-on (timing.js)
      emit(
        Object.assign({ ev: 'ack', id: m.id, cycle: cycles(), profile: timing.profile }, timing.stats, {
          spinJumps: spun.jumps,
          spinCycles: Math.round(spun.ns / NS_PER_CYCLE),
        }),
      );
      return;
    case 'adc': // each ADC channel's conversions since the emulator started
      emit({ ev: 'ack', id: m.id, cycle: cycles(), reads: adcReads });
      return;
    case 'usbstat': // the traffic since the last mark (and, with mark, a new mark)
      emit(Object.assign({ ev: 'ack', id: m.id, cycle: cycles() }, traffic));
      if (m.mark) {
        traffic.rxFirst = traffic.rxLast = traffic.txFirst = traffic.txLast = -1;
        traffic.rxBytes = traffic.txBytes = 0;
        traffic.turns = [];
      }
      return;
    case 'profile':
      if (m.on) {
        prof = {
          regions: PROF_REGIONS.map(([base, size]) => ({ base, size, hist: new Float64Array(size >> 1) })),
          idle: 0,
          other: 0,
        };
      } else if (prof) {
        const r = profReport();
        prof = null;
        emit(Object.assign({ ev: 'ack', id: m.id, cycle: cycles() }, r));
        return;
      }
      break;
    case 'hold': // stop the chip's clock here (scheduled: at its cycle)
      if (mcu) held = { rx: usb.rxCount };
      break;
    case 'go': // run again once m.bytes more have come on USB since the hold
      if (held) {
        held.want = m.bytes || 0;
        emit({ ev: 'ack', id: m.id, cycle: cycles(), on: !!mcu });
        resumeHeld();
        return;
      }
      break;
    case 'quit':
      if (mcu) powerOff('host');
      emit({ ev: 'ack', id: m.id, cycle: cycles() });
      ctl.end(() => process.exit(0));
      return;
    default:
      emit({ ev: 'error', id: m.id, text: 'unknown op ' + m.op });
      return;
  }
  emit({ ev: 'ack', id: m.id, cycle: cycles(), flash_ops: flashOps, on: !!mcu, late: !!m.late });
}

let pendingCtl = '';
ctl.on('data', (d) => {
  pendingCtl += d.toString();
  let i;
  while ((i = pendingCtl.indexOf('\n')) >= 0) {
    const line = pendingCtl.slice(0, i);
    pendingCtl = pendingCtl.slice(i + 1);
    if (line.trim()) {
      try {
        handle(JSON.parse(line));
      } catch (e) {
        emit({ ev: 'error', text: String(e && e.stack ? e.stack : e) });
      }
    }
  }
});
ctl.on('end', () => {
  if (mcu) powerOff('host');
  process.exit(0);
});

if (!cfg.start_off) powerOn();
