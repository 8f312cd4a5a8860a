"""The board's circuit as code (SKiDL): both revisions, their parts, and
what `make hardware` generates from them."""
