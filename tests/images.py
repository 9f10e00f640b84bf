"""Image files for upload tests."""

import struct
import zlib

from django.core.files.uploadedfile import SimpleUploadedFile


def declared_png(width: int, height: int, name: str = "bomb.png") -> SimpleUploadedFile:
    """A PNG of a few dozen bytes whose header declares `width` x `height` pixels (a
    decompression bomb's shape: nothing to decode, everything declared)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b""))
    return SimpleUploadedFile(name, data + chunk(b"IEND", b""), content_type="image/png")


def png(name: str = "photo.png", size: tuple[int, int] = (4, 3)) -> SimpleUploadedFile:
    """A small white PNG, an image that decodes."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", size, "white").save(buf, "PNG")
    return SimpleUploadedFile(name, buf.getvalue(), content_type="image/png")


def eps(name: str = "photo.jpg") -> SimpleUploadedFile:
    """A PostScript (EPS) file named as a photo: Pillow's EPS plugin would hand it to
    Ghostscript, which runs what it says."""
    body = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\nnewpath 0 0 moveto showpage\n"
    return SimpleUploadedFile(name, body, content_type="image/jpeg")


def webp(name: str = "photo.webp") -> SimpleUploadedFile:
    """A small WebP photo, an image that decodes."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (4, 3), "white").save(buf, "WEBP")
    return SimpleUploadedFile(name, buf.getvalue(), content_type="image/webp")
