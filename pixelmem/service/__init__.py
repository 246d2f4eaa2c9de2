"""``pixelmem serve``: the vault as a long-running local HTTP service (REST under ``/v1``, MCP
over Streamable HTTP at ``/mcp``).

One process, one vault. :mod:`live` keeps the vault and its index current (a file watcher and
an index lane) and answers through the same tools (:mod:`pixelmem.core.runtime.tools`) the
stdio MCP server uses; :mod:`guard` checks every request (Host, Origin, bearer token, body
size); :mod:`app` puts the REST routes (``routes_*``) and the MCP endpoint on one Starlette
app; :mod:`server` runs it under uvicorn and shuts it down cleanly.

Imports: the core and :mod:`pixelmem.mcp_server`; never Qt or the GUI.
"""
