"""Files a careless or hostile uploader sends: encrypted and decompression-bomb PDFs."""

from __future__ import annotations

import io
import zlib

from fpdf import FPDF
from pypdf import PdfWriter


def text_pdf(text: str) -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.multi_cell(w=0, text=text)
    return bytes(pdf.output())


def encrypted_pdf(text: str = "Cluster notes behind a password.") -> bytes:
    """A PDF that opens only with a user password (RC4, which pypdf writes without extra packages)."""
    writer = PdfWriter(clone_from=io.BytesIO(text_pdf(text)))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def bomb_pdf(expanded_bytes: int = 300_000_000) -> bytes:
    """A ~300 KB PDF whose one content stream inflates to ``expanded_bytes``."""
    stream = zlib.compress(b"BT /F1 12 Tf 72 712 Td (" + b"A" * expanded_bytes + b") Tj ET", 9)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = b"%PDF-1.4\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out
