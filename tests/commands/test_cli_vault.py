"""``pixelmem add | list | show | delete | import | doctor`` through ``pixelmem.cli.main``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from doc_files import make_docx, make_pdf

from pixelmem.cli import main
from pixelmem.core.vault.store import MemoryStore

pytestmark = pytest.mark.permissions  # also run without CAP_DAC_OVERRIDE (dev.sh)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def add(capsys, vault: Path, *extra: str) -> str:
    code, out, _ = run(capsys, "add", "--vault", str(vault), *extra)
    assert code == 0
    return out.strip()


def test_add_then_show(vault: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", _Tty(""))
    memory_id = add(
        capsys, vault, "--title", "数据库 索引", "--body", "B-tree.\n", "--topics", "db, 索引,"
    )
    memory = MemoryStore(vault).get(memory_id)
    assert memory.title == "数据库 索引" and memory.topics == ["db", "索引"]
    assert memory.body == "B-tree.\n" and memory.importance == "medium"

    code, out, _ = run(capsys, "show", memory_id, "--vault", str(vault))
    assert code == 0
    assert f"id: {memory_id}\n" in out and "topics: db, 索引\n" in out
    assert out.endswith("\nB-tree.\n")

    code, out, _ = run(capsys, "show", memory_id[:6], "--json", "--vault", str(vault))
    data = json.loads(out)
    assert data["id"] == memory_id and data["body"] == "B-tree.\n"
    assert data["created"].endswith("Z") and data["extra"] == {}


def test_show_prints_unknown_keys_too(vault: Path, capsys) -> None:
    (vault / "n.md").write_text("---\naliases: [a, b]\nrating: 4\n---\ntext\n", "utf-8")
    memory = MemoryStore(vault).list()[0]
    code, out, _ = run(capsys, "show", memory.id, "--vault", str(vault))
    assert code == 0 and "aliases: a, b\n" in out and "rating: 4\n" in out
    assert out.endswith("\n\ntext\n")


def test_add_reads_the_body_from_stdin(vault: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("piped\nbody\n"))
    memory_id = add(capsys, vault, "--title", "From pipe", "--importance", "high")
    memory = MemoryStore(vault).get(memory_id)
    assert memory.body == "piped\nbody\n" and memory.importance == "high"


def test_add_with_a_tty_has_an_empty_body(vault: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", _Tty("never read"))
    memory_id = add(capsys, vault, "--title", "No body")
    assert MemoryStore(vault).get(memory_id).body == ""


def test_add_errors_are_one_line(vault: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", _Tty(""))
    code, out, err = run(capsys, "add", "--vault", str(vault), "--title", "  ")
    assert code == 1 and out == ""
    assert err == "pixelmem: error: a memory needs a title\n"
    with pytest.raises(SystemExit) as info:
        main(["add", "--vault", str(vault), "--title", "x", "--importance", "urgent"])
    assert info.value.code == 2


def test_list_table_and_json(vault: Path, capsys) -> None:
    store = MemoryStore(vault)
    first = store.create("English title", topics=["a", "b"], importance="low")
    second = store.create("中文标题很长" * 10, topics=["数据库"])
    code, out, _ = run(capsys, "list", "--vault", str(vault))
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["ID", "TITLE", "TOPICS", "IMPORTANCE", "UPDATED"]
    assert {line.split()[0] for line in lines[1:]} == {first.id, second.id}
    assert "…" in out  # long titles are clipped
    columns = [line.index("IMPORTANCE") if i == 0 else None for i, line in enumerate(lines)]
    assert columns[0] is not None

    code, out, _ = run(capsys, "list", "--json", "--vault", str(vault))
    data = json.loads(out)
    assert {item["id"] for item in data} == {first.id, second.id}
    assert "body" not in data[0]


def test_list_columns_align_with_cjk(vault: Path, capsys) -> None:
    from pixelmem.commands.vault import _width

    store = MemoryStore(vault)
    store.create("短", topics=["x"])
    store.create("a longer english title", topics=["y"])
    _, out, _ = run(capsys, "list", "--vault", str(vault))
    lines = out.splitlines()
    starts = {_width(line[: line.index("medium")]) for line in lines[1:]}
    assert len(starts) == 1


def test_list_of_an_empty_vault(vault: Path, capsys) -> None:
    code, out, _ = run(capsys, "list", "--vault", str(vault))
    assert code == 0 and out.startswith("no memories in")


def test_vault_from_the_environment(vault: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("PIXELMEM_VAULT", str(vault))
    MemoryStore(vault).create("env vault")
    code, out, _ = run(capsys, "list", "--json")
    assert code == 0 and json.loads(out)[0]["title"] == "env vault"


def test_missing_named_vault_is_an_error_not_a_new_folder(tmp_path: Path, capsys) -> None:
    missing = tmp_path / "typo"
    code, _out, err = run(capsys, "list", "--vault", str(missing))
    assert code == 1 and "does not exist" in err and not missing.exists()
    assert err.count("\n") == 1 and "Traceback" not in err


def test_default_vault_is_created_on_first_run(capsys) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0 and out.startswith("no memories in")


def test_show_and_delete_errors(vault: Path, capsys) -> None:
    code, _, err = run(capsys, "show", "../../etc/passwd", "--vault", str(vault))
    assert code == 1 and err.startswith("pixelmem: error: invalid memory id")
    code, _, err = run(capsys, "show", "nope", "--vault", str(vault))
    assert code == 1 and err == "pixelmem: error: no memory with id 'nope'\n"
    code, _, err = run(capsys, "delete", "abc", "--vault", str(vault))
    assert code == 1


def test_show_of_an_unreadable_note_names_it(vault: Path, capsys) -> None:
    from pixelmem.core.vault import ids

    (vault / "notes").mkdir()
    (vault / "notes" / "big.md").write_bytes(b"\x00" * 10)
    code, _, err = run(capsys, "show", ids.path_id("notes/big.md"), "--vault", str(vault))
    assert code == 1 and "big.md" in err and "binary file" in err
    code, _, err = run(capsys, "show", "nope", "--vault", str(vault))
    assert code == 1 and "1 file in the vault cannot be read" in err and "doctor" in err


def test_ambiguous_prefix_is_not_found(vault: Path, capsys) -> None:
    store = MemoryStore(vault)
    store.create("one", memory_id="same-prefix-1")
    store.create("two", memory_id="same-prefix-2")
    code, _, err = run(capsys, "show", "same-prefix", "--vault", str(vault))
    assert code == 1 and "no memory" in err


def test_delete_moves_to_trash(vault: Path, capsys) -> None:
    memory = MemoryStore(vault).create("bye")
    code, out, _ = run(capsys, "delete", memory.id, "--vault", str(vault))
    assert code == 0 and ".pixelmem/trash" in out
    assert memory.path is not None and not memory.path.exists()
    assert len(list((vault / ".pixelmem" / "trash").iterdir())) == 1


def test_delete_of_a_read_only_note_needs_force(vault: Path, capsys) -> None:
    memory = MemoryStore(vault).create("Signed contract")
    assert memory.path is not None
    memory.path.chmod(0o444)
    code, _, err = run(capsys, "delete", memory.id, "--vault", str(vault))
    assert code == 1 and memory.path.is_file()
    assert err.count("\n") == 1 and "is read-only" in err and "--force" in err
    code, out, _ = run(capsys, "delete", memory.id, "--force", "--vault", str(vault))
    assert code == 0 and not memory.path.exists() and "trash" in out


def test_import_files_and_folders(vault: Path, tmp_path: Path, capsys) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "a.md").write_text("---\nid: keep-me\ntopics: [x]\n---\n# A\n", encoding="utf-8")
    (src / "sub" / "b.txt").write_text("plain text\n", encoding="utf-8")
    make_pdf(src / "c.pdf", ["PDF words"])
    make_docx(src / "d.docx")
    code, out, err = run(capsys, "import", str(src), "--vault", str(vault))
    assert code == 0, err
    assert "imported 4 files, 0 skipped, 0 failed" in err
    assert len(out.splitlines()) == 4  # one "<id>  <path>" line per file
    memories = {m.title: m for m in MemoryStore(vault).list()}
    assert set(memories) == {"A", "b", "c", "Doc title"}
    assert memories["A"].id == "keep-me" and memories["A"].topics == ["x"]
    assert memories["b"].source == str((src / "sub" / "b.txt").resolve())
    assert "PDF words" in memories["c"].body

    # The same folder again: every file is already there, nothing is duplicated.
    code, out, err = run(capsys, "import", str(src), "--vault", str(vault))
    assert code == 0 and out == ""
    assert "imported 0 files, 4 skipped, 0 failed" in err
    assert f"skipped {src / 'a.md'}: already there (the text of “A”)" in err
    assert len(MemoryStore(vault).list()) == 4

    # Another text under a taken id: imported, with a fresh id.
    (src / "a2.md").write_text("---\nid: keep-me\n---\n# A\nmore\n", encoding="utf-8")
    code, _out, err = run(capsys, "import", str(src / "a2.md"), "--vault", str(vault))
    assert code == 0
    again = [m for m in MemoryStore(vault).list() if m.title == "A"]
    assert len(again) == 2 and len({m.id for m in again}) == 2  # the taken id was replaced


def test_import_reports_failures_and_continues(vault: Path, tmp_path: Path, capsys) -> None:
    good = tmp_path / "good.txt"
    good.write_text("fine\n", encoding="utf-8")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4\nnot really\n")
    odd = tmp_path / "x.png"
    odd.write_bytes(b"\x89PNG")
    inside = vault / "already.md"
    inside.write_text("in the vault\n", encoding="utf-8")
    args = [str(broken), str(good), str(odd), str(inside), str(tmp_path / "missing.md")]
    code, _out, err = run(capsys, "import", *args, "--vault", str(vault))
    assert code == 1
    assert "imported 1 file, 1 skipped, 3 failed" in err
    assert f"pixelmem: failed {broken}: cannot read the PDF" in err
    assert "skipped " + str(odd) + ": .png is not a supported file type" in err
    assert "already in the vault" in err
    assert "no such file" in err and "Traceback" not in err
    assert [m.title for m in MemoryStore(vault).list()].count("good") == 1


def test_doctor_lists_skipped_files(vault: Path, capsys) -> None:
    (vault / "ok.md").write_text("fine\n", encoding="utf-8")
    (vault / "sub").mkdir()
    (vault / "sub" / "bad.md").write_bytes(b"\xff\xfe\x00bad")
    code, out, _ = run(capsys, "doctor", "--vault", str(vault))
    assert code == 0
    assert "1 memory, 1 skipped file" in out
    assert "sub/bad.md: binary file" in out


def test_doctor_names_excalidraw_drawings(vault: Path, capsys) -> None:
    (vault / "ok.md").write_text("fine\n", encoding="utf-8")
    drawing = "---\nexcalidraw-plugin: parsed\n---\n# Text Elements\nCorpus ^a1\n%%\n# Drawing\n"
    (vault / "Fuzzer.excalidraw.md").write_text(drawing + "```json\n{}\n```\n%%\n", "utf-8")
    code, out, _ = run(capsys, "doctor", "--vault", str(vault))
    assert code == 0
    assert "2 memories, 0 skipped files" in out
    assert "1 Excalidraw drawing (memories searched by the words on them" in out
    assert "Fuzzer.excalidraw.md" in out


def test_cli_uses_the_vault_the_app_opened_last(tmp_path, capsys) -> None:
    from pixelmem.cli import main
    from pixelmem.core.settings import Settings
    from pixelmem.core.vault.store import MemoryStore

    last = tmp_path / "last-vault"
    MemoryStore(last).create("Remembered vault", "body")
    settings = Settings()
    settings.vault = str(last)
    settings.save()
    assert main(["list", "--json"]) == 0
    assert "Remembered vault" in capsys.readouterr().out
    settings.vault = str(tmp_path / "gone")
    settings.save()
    assert main(["list"]) == 1  # a vault that vanished is an error, not a new empty one
    assert not (tmp_path / "gone").exists()


def test_doctor_lists_canvases_bases_and_attachments(obsidian_syntax: Path, capsys) -> None:
    code, out, _ = run(capsys, "doctor", "--vault", str(obsidian_syntax))
    assert code == 0
    assert "6 other files (not memories)" in out
    assert "1 Obsidian canvases" in out and "Canvas/My canvas.canvas" in out
    assert "1 Obsidian bases" in out and "Bases/Books.base" in out
    assert "3 images" in out and "Attachments/diagram.png" in out
    assert "1 PDFs" in out and ".obsidian" not in out
