"""One error type for the CLI; its exit code follows the usual conventions."""

from .i18n import N_, _

EXIT_OK = 0
EXIT_FAILED = 1  # the command ran and found a problem (e.g. illegal lines)
EXIT_USAGE = 2  # bad arguments, unreadable input


class CommandError(Exception):
    """Raised by a command; main() prints the message and exits with code."""

    def __init__(self, message, code=EXIT_USAGE):
        super().__init__(message)
        self.code = code


# The refusal line of the companion and the web page's command box. The
# English prefix is what a log or a test reads; is_error knows both.
ERROR_LINE = N_("error: {why}")


def error_line(why):
    """A refusal as the companion shows it, in the language in use."""
    return _(ERROR_LINE).format(why=why)


def is_error(line):
    """Whether a companion line is a refusal, in English or in the
    language in use."""
    return line.startswith("error:") or line.startswith(_(ERROR_LINE).split("{", 1)[0])
