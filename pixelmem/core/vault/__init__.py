"""The vault: which files are memories, reading them, writing them back safely.

Owns the file rules (vault_files), scanning (vault_scan, scan_cache, gc_pause), the table and
its writes (store), frontmatter, ids, links and file signatures. Stands on ``core.files`` and
the shared modules (errors, paths); never imports archive, the write gateway
(``core.writes``), index, providers, assist, insight or the runtime (pyproject.toml's
import-linter contracts check it).
"""
