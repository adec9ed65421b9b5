"""A small on-disk cache for data that is slow to build and cheap to check.

The compiled count polynomials of a tableau take about 50 ms of pure Python to
build (more on a busy machine) and never change; ``exactodds odds``, which
needs about as long for everything else, should not pay for them at every
start.  This module keeps such data in the user's cache directory:

* ``$EXACTODDS_CACHE_DIR`` if set (an empty value turns the cache off), else
  ``$XDG_CACHE_HOME/exactodds``, else ``~/.cache/exactodds``.
* A file is written whole: to a temporary file in the same directory, then
  renamed over the old one, so that a reader never sees half a file.
* A file is read only if it is a regular file this user owns and nobody else
  may write to, no larger than :data:`MAX_BYTES`, starts with this module's
  magic, carries exactly the label asked for (what the data is and the
  format version), and its CRC-32 matches.  The caller still checks the
  payload's structure before using it.

Nothing here raises: a missing, corrupt, truncated, foreign or unwritable cache
reads as ``None`` or fails to write, and the caller rebuilds the data.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     directory = Path(folder)
...     write("example", b"example v1", b"payload", directory)
...     read("example", b"example v1", directory), read("example", b"example v2", directory)
True
(b'payload', None)
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
import zlib
from pathlib import Path

__all__ = ["MAGIC", "MAX_BYTES", "cache_directory", "read", "write"]

#: The first bytes of every cache file.
MAGIC = b"exactodds cache\n"
#: Files larger than this are not read.
MAX_BYTES = 16 * 1024 * 1024

_LENGTHS = struct.Struct("<IQ")  # label length, payload length
_CRC = struct.Struct("<I")


def cache_directory() -> Path | None:
    """Where cache files live, or ``None`` when the cache is turned off.

    >>> import os
    >>> saved = os.environ.get("EXACTODDS_CACHE_DIR")
    >>> os.environ["EXACTODDS_CACHE_DIR"] = ""
    >>> cache_directory() is None
    True
    >>> os.environ["EXACTODDS_CACHE_DIR"] = "/some/where"
    >>> str(cache_directory())
    '/some/where'
    >>> _ = os.environ.pop("EXACTODDS_CACHE_DIR") if saved is None else os.environ.update(
    ...     EXACTODDS_CACHE_DIR=saved)
    """
    explicit = os.environ.get("EXACTODDS_CACHE_DIR")
    if explicit is not None:
        return Path(explicit) if explicit else None
    base = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG specification says to ignore a relative path.
    if not base or not os.path.isabs(base):
        home = os.path.expanduser("~")
        if home == "~" or not os.path.isabs(home):
            return None
        base = os.path.join(home, ".cache")
    return Path(base) / "exactodds"


def _encode(label: bytes, payload: bytes) -> bytes:
    body = MAGIC + _LENGTHS.pack(len(label), len(payload)) + label + payload
    return body + _CRC.pack(zlib.crc32(body))


def _decode(data: bytes, label: bytes) -> bytes | None:
    start = len(MAGIC) + _LENGTHS.size
    if len(data) < start + _CRC.size or not data.startswith(MAGIC):
        return None
    label_length, payload_length = _LENGTHS.unpack_from(data, len(MAGIC))
    if start + label_length + payload_length + _CRC.size != len(data):
        return None
    (crc,) = _CRC.unpack_from(data, len(data) - _CRC.size)
    if zlib.crc32(memoryview(data)[: len(data) - _CRC.size]) != crc:
        return None
    if data[start : start + label_length] != label:
        return None
    return data[start + label_length : len(data) - _CRC.size]


def _trusted(status: os.stat_result) -> bool:
    """A regular file of sane size that only this user can have written."""
    if not stat.S_ISREG(status.st_mode) or status.st_size > MAX_BYTES:
        return False
    if status.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or status.st_uid == getuid()


def read(name: str, label: bytes, directory: Path | None = None) -> bytes | None:
    """The payload stored under *name* with exactly this *label*, or ``None``.

    ``None`` for a missing, unreadable, foreign, oversized, truncated or
    corrupt file, or one written for another label (another format version,
    another tableau): the caller rebuilds.

    >>> read("nothing here", b"label", Path("/nonexistent/exactodds")) is None
    True
    """
    folder = directory if directory is not None else cache_directory()
    if folder is None:
        return None
    try:
        # No symbolic links; and no waiting on a FIFO put where the file should be.
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        descriptor = os.open(folder / name, flags)
    except (OSError, ValueError):
        return None
    try:
        status = os.fstat(descriptor)
        if not _trusted(status):
            return None
        chunks = []
        remaining = status.st_size + 1  # one byte more: a file that grew is refused
        while remaining > 0:
            chunk = os.read(descriptor, remaining)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    if len(data) != status.st_size:
        return None
    return _decode(data, label)


def write(name: str, label: bytes, payload: bytes, directory: Path | None = None) -> bool:
    """Store *payload* under *name* and *label*, atomically; ``False`` if it cannot be.

    >>> write("anything", b"label", b"data", Path("/proc/exactodds-cannot-write-here"))
    False
    """
    folder = directory if directory is not None else cache_directory()
    if folder is None:
        return False
    import tempfile  # only when writing, which happens once per tableau and user

    data = _encode(label, payload)
    if len(data) > MAX_BYTES:
        return False
    temporary = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, folder / name)
        temporary = None
        return True
    except (OSError, ValueError):
        return False
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
