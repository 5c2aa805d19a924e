"""The 64-bit hash by which a diff joins its sides' URLs, computed for a file's URLs at
once with numpy.

A URL's UTF-8 bytes are read as little-endian 64-bit words (the last one padded with
zero bytes) and folded into an accumulator seeded with the length, one word a round
(a multiply, a rotation, a multiply), then mixed once more so that every bit of the
input reaches every bit of the hash. Each round runs over the words of every URL of
the file in one numpy step, so a file of 50,000 URLs costs a few milliseconds, where
a cryptographic digest a URL costs a tenth of a second. A URL longer than the widest
group (2 KiB) is hashed alone, by BLAKE2b cut to 64 bits: one such URL padded to the
width of a longer one, or folded a word a numpy step, would cost memory and time in
the product of their lengths (a URL of megabytes in a file). The hash depends on the
URL alone (not on the other URLs of its file, nor on the machine), so both sides agree.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from hashlib import blake2b

import numpy as np
from numpy.typing import NDArray

_PRIME_1 = np.uint64(0x9E3779B185EBCA87)
_PRIME_2 = np.uint64(0xC2B2AE3D27D4EB4F)
_MIX_1 = np.uint64(0xFF51AFD7ED558CCD)
_MIX_2 = np.uint64(0xC4CEB9FE1A85EC53)
_SEED = np.uint64(0x27D4EB2F165667C5)
# URLs are hashed in groups of similar length, so that a few long URLs do not widen
# the table of words of every URL of the file (the widths, in words of 8 bytes).
_WIDTHS = (16, 64, 256)


def url_hashes(urls: Sequence[str]) -> array[int]:
    """The hash of each of ``urls``, in order, as an array of unsigned 64-bit integers."""
    hashes = array("Q")
    hashes.frombytes(hash_array(urls).tobytes())
    return hashes


def url_hash(url: str) -> int:
    """The hash of one URL (the same as ``url_hashes`` gives it)."""
    return int(hash_array([url])[0])


def hash_array(urls: Sequence[str]) -> NDArray[np.uint64]:
    return hash_encoded([url.encode("utf-8", "surrogatepass") for url in urls])


def joined_hashes(joined: bytes, count: int) -> array[int] | None:
    """The hashes of ``count`` URLs given as their UTF-8 text joined by line breaks
    (none when a URL holds a line break itself)."""
    if joined.count(b"\n") != count - 1:
        return None
    hashes = array("Q")
    hashes.frombytes(hash_encoded(joined.split(b"\n")).tobytes())
    return hashes


def hash_encoded(encoded: Sequence[bytes]) -> NDArray[np.uint64]:
    """The hash of each URL of ``encoded`` (their UTF-8 bytes)."""
    lengths = np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded))
    hashes = np.empty(len(encoded), dtype=np.uint64)
    if not len(encoded):
        return hashes
    words = (lengths + 7) // 8
    narrower = -1  # the groups' words: (narrower, width]
    for width in _WIDTHS:
        rows = np.flatnonzero((words > narrower) & (words <= width))
        narrower = width
        if not len(rows):
            continue
        if len(rows) == len(encoded):
            group: Sequence[bytes] = encoded
        else:
            group = [encoded[row] for row in rows.tolist()]
        hashes[rows] = _fold(group, lengths[rows], max(int(words[rows].max()), 1))
    for row in np.flatnonzero(words > narrower).tolist():
        digest = blake2b(encoded[row], digest_size=8, person=b"sitemap-lint").digest()
        hashes[row] = int.from_bytes(digest, "little")
    return hashes


def _fold(encoded: Sequence[bytes], lengths: NDArray[np.int64], width: int) -> NDArray[np.uint64]:
    table: NDArray[np.uint64] = (
        np.array(encoded, dtype=f"S{8 * width}").view("<u8").reshape(len(encoded), width)
    )
    words = (lengths + 7) // 8
    with np.errstate(over="ignore"):
        hashes: NDArray[np.uint64] = _SEED ^ (lengths.astype(np.uint64) * _PRIME_1)
        for column in range(width):
            folded: NDArray[np.uint64] = hashes + table[:, column] * _PRIME_2
            folded = ((folded << np.uint64(31)) | (folded >> np.uint64(33))) * _PRIME_1
            hashes = np.where(words > column, folded, hashes)
        return _mix(hashes)


def _mix(hashes: NDArray[np.uint64]) -> NDArray[np.uint64]:
    hashes = hashes ^ (hashes >> np.uint64(33))
    hashes = hashes * _MIX_1
    hashes = hashes ^ (hashes >> np.uint64(33))
    hashes = hashes * _MIX_2
    return hashes ^ (hashes >> np.uint64(33))
