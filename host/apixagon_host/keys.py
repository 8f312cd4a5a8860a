"""The terminal as a keyboard for the full-screen views (monitor's live
view, replay's stepping): keys one at a time with echo, line mode and the
signal keys off (Ctrl-C and Ctrl-D are keys the view reads), and a closed
terminal or a kill that leaves through the view's own finally, so the
terminal's modes always come back."""

import signal


def keys_mode(fd):
    """Put the terminal fd in key-at-a-time mode; its modes before, to give
    back with restore(fd, saved)."""
    import termios

    saved = termios.tcgetattr(fd)
    mode = termios.tcgetattr(fd)
    mode[3] &= ~(termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN)
    mode[6][termios.VMIN] = 1
    mode[6][termios.VTIME] = 0
    termios.tcsetattr(fd, termios.TCSANOW, mode)
    return saved


def restore(fd, saved):
    import termios

    termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def quit_on_signals(status):
    """SIGTERM and SIGHUP raise SystemExit(status(signum)) in the main
    thread (elsewhere nothing changes); a function that puts the handlers
    back."""

    def leave(signum, frame):
        raise SystemExit(status(signum))

    old = {}
    for sig in (signal.SIGTERM, signal.SIGHUP):
        try:
            old[sig] = signal.signal(sig, leave)
        except (ValueError, OSError):  # not the main thread
            pass

    def put_back():
        for sig, h in old.items():
            signal.signal(sig, h)

    return put_back
