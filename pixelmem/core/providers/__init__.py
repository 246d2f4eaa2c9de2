"""What pixelmem talks to: embedding models, HTTP servers, rerankers, chat clients.

Local and remote. May import settings, files and the shared leaves (not vault or index).
"""
