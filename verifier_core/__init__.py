"""Pure library behind Side editor: wikitext -> claims, chunking, retrieval, verification.

Never imports Django. Heavy libraries (torch, transformers, faiss) are imported inside
the functions that need them so that importing this package stays cheap.
"""
