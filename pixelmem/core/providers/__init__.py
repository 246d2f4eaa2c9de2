"""What pixelmem talks to: embedding models, HTTP servers, rerankers, chat clients.

Local and remote. May import the core's shared modules only (not vault or index).
"""
