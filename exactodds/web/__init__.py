"""The live shoe tracker: an ASGI app (Starlette), its JSON API, its page and its SQLite store.

Started by ``exactodds serve``; needs the ``web`` extra (``pip install "exactodds[web]"``).
"""
