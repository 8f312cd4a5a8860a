"""Revision B (reed sensors and the action pad): its pin table and its
image's main."""
