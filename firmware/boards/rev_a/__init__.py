"""Revision A (an NFC antenna under each cell): its pin table and its
image's main."""
