"""One error type for the CLI; its exit code follows the usual conventions."""

EXIT_OK = 0
EXIT_FAILED = 1  # the command ran and found a problem (e.g. illegal lines)
EXIT_USAGE = 2  # bad arguments, unreadable input


class CommandError(Exception):
    """Raised by a command; main() prints the message and exits with code."""

    def __init__(self, message, code=EXIT_USAGE):
        super().__init__(message)
        self.code = code
