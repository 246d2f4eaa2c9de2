"""``pixelmem serve``: the vault as a long-running local HTTP service (REST under ``/v1``, MCP
over Streamable HTTP at ``/mcp``).

One process, one vault. The vault's runtime (:mod:`pixelmem.core.runtime`, with the service's
freshness policy) keeps it and its index current; requests are answered by the same tools
(:mod:`pixelmem.core.runtime.tools`) the stdio MCP server uses, and :mod:`memory_writes` adds
the REST API's writes; :mod:`guard` checks every request (Host, Origin, bearer token, body
size); :mod:`app` puts the REST routes (``routes_*``) and the MCP endpoint on one Starlette
app; :mod:`server` runs it under uvicorn and shuts it down cleanly.

Imports: the core and :mod:`pixelmem.mcp_server`; never Qt or the GUI.
"""
