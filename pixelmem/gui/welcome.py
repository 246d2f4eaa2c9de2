"""The memory a first run starts with, so search can be tried at once."""

from __future__ import annotations

WELCOME_TITLE = "Welcome to pixelmem"
WELCOME_TOPICS = ("pixelmem", "getting-started")
WELCOME_BODY = """\
pixelmem keeps what you know as Markdown files in a folder you own. Every memory is a plain
`.md` file with a little YAML at the top: you can open, sync or back up the folder with any tool.

## Try it

- Press **Ctrl+K** and type a few words, for example *plain files* or *keyboard*. Results
  appear as you type, ranked by meaning and by keyword, with the matching words highlighted.
- Press **Ctrl+N** to write a new memory and **Ctrl+S** to save it.
- Give memories topics and an importance to filter the list on the left.
- The *Related* panel shows the memories closest in meaning to the one you are reading.

## Good to know

- Search works offline: the embedding model ships with the app.
- Deleting moves a file to the trash, and you can undo it.
- If another program changes a file while you edit it, pixelmem asks before overwriting.
- Settings (Ctrl+,) let you pick a vault folder, another embedding provider or a chat model.
"""
