"""One vault kept current, under every entry point: the app, `pixelmem serve`, `pixelmem mcp`."""
