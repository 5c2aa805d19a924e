"""Inputs: opening files, stdin and URLs, byte caps, gzip and decoding to text."""
