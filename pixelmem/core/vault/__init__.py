"""The vault: which files are memories, reading them, writing them back safely.

Owns the file rules (vault_files), scanning (vault_scan, scan_cache, gc_pause), the table and
its writes (store), the one write gateway every entry point uses (writes), frontmatter, ids,
atomic writes and watching for outside changes. May import the core's shared modules (errors,
paths, settings); the gateway (writes) also drives archive's importers and inbox. Never index,
providers, assist or insight.
"""
