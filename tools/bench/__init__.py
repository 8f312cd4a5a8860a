"""The board's benchmark: `python -m bench` (from tools/) or `make bench`.
Its parts are the modules here, each named for what it measures; see
__main__.py."""
