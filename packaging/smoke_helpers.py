"""Helpers for smoke_test.sh, standard library only (run with the system's python3):

    python3 smoke_helpers.py fixtures DIR      # writes DIR/grinder.docx and DIR/kettle.pdf
    python3 smoke_helpers.py mcp BIN [ARG...]  # an MCP session over stdio with `BIN ARG... mcp`

The .docx has no styles part, so python-docx falls back to its bundled templates (as for files
written by many tools other than Word); the PDF is one page of Helvetica text.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_PACKAGE = "http://schemas.openxmlformats.org/package/2006"
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_RELS = "application/vnd.openxmlformats-package.relationships+xml"


def write_docx(path: Path, title: str, body: str) -> None:
    head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    paragraphs = "".join(f"<w:p><w:r><w:t>{text}</w:t></w:r></w:p>" for text in (title, body))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as docx:
        docx.writestr(
            "[Content_Types].xml",
            f'{head}<Types xmlns="{_PACKAGE}/content-types">'
            f'<Default Extension="rels" ContentType="{_RELS}"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/word/document.xml" ContentType="{_MAIN}"/></Types>',
        )
        docx.writestr(
            "_rels/.rels",
            f'{head}<Relationships xmlns="{_PACKAGE}/relationships">'
            f'<Relationship Id="rId1" Type="{_OFFICE}" Target="word/document.xml"/>'
            "</Relationships>",
        )
        docx.writestr(
            "word/document.xml",
            f'{head}<w:document xmlns:w="{_W}"><w:body>{paragraphs}</w:body></w:document>',
        )


def write_pdf(path: Path, text: str) -> None:
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    path.write_bytes(bytes(out))


def mcp_session(command: list[str]) -> int:
    """initialize, tools/list, a semantic_search that must find "Espresso ratio", then EOF."""
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert server.stdin is not None and server.stdout is not None

    def send(message: dict) -> None:
        server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        server.stdin.flush()

    def answer() -> dict:
        line = server.stdout.readline()
        if not line:
            raise SystemExit("FAIL: the MCP server closed the connection")
        return json.loads(line)

    send(
        {
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "smoke-test", "version": "1"},
            },
        }
    )
    info = answer()["result"]["serverInfo"]
    send({"method": "notifications/initialized"})
    send({"id": 2, "method": "tools/list"})
    tools = sorted(tool["name"] for tool in answer()["result"]["tools"])
    arguments = {"query": "how much coffee for a double shot", "limit": 3}
    send(
        {
            "id": 3,
            "method": "tools/call",
            "params": {"name": "semantic_search", "arguments": arguments},
        }
    )
    found = answer()
    server.stdin.close()
    code = server.wait(timeout=60)
    if "Espresso ratio" not in json.dumps(found, ensure_ascii=False):
        print(f"FAIL: semantic_search did not find the memory: {found}")
        return 1
    print(f"{info['name']} {info.get('version', '')}, {len(tools)} tools, search found", end="")
    print(f", exit {code}")
    return code


def main() -> int:
    if sys.argv[1:2] == ["fixtures"]:
        folder = Path(sys.argv[2])
        write_docx(
            folder / "grinder.docx",
            "Burr grinder settings",
            "Set the conical burr grinder to step 12 for a moka pot.",
        )
        write_pdf(folder / "kettle.pdf", "Descaling the kettle with citric acid every month")
        return 0
    if sys.argv[1:2] == ["mcp"]:
        return mcp_session([*sys.argv[2:], "mcp"])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
