# One pass of the board's loop, guarded: the board's tick, then the serial
# link. An error in either is caught, counted and said (Board.fault), and
# the loop goes on — a bug hit in the middle of a match must never leave
# the board at the REPL, deaf to its host and executing whatever the host
# sends next as Python. The link runs even when the tick keeps failing, so
# the PC can always ask what is wrong and pull the matches. Ctrl-C still
# ends the loop: that is how mpremote takes the board over.
import gc


def step(board, link, now, tick=None):
    """tick: what runs the board's tick (the simulator's rig.tick, which
    keeps its sensors' time); board.tick(now) if None."""
    try:
        if tick is None:
            board.tick(now)
        else:
            tick()
    except KeyboardInterrupt:
        raise
    except Exception as e:  # noqa: BLE001 - see above
        _caught(board, "the loop", e)
    try:
        link.poll(now)
        link.send_changes()  # cells and leds events, when watching
    except KeyboardInterrupt:
        raise
    except Exception as e:
        _caught(board, "the link", e)


def _caught(board, where, err):
    if isinstance(err, MemoryError):
        gc.collect()
    try:
        board.fault(where, err)
    except Exception:  # noqa: BLE001 - saying so must not be what stops the board
        board.crashes += 1
