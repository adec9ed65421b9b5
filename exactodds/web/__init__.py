"""The live shoe tracker: an ASGI app (Starlette), its JSON API, its page and its SQLite store.

Started by ``exactodds serve``; needs the ``web`` extra (``pip install "exactodds[web]"``).

- :mod:`exactodds.web.app`: the ASGI app, a route table over :mod:`exactodds.web.views`' handlers.
- :mod:`exactodds.web.fields`: the JSON fields each body takes, and how messages name them.
- :mod:`exactodds.web.reader`: the bounded reader: a body's bytes in, one JSON object of exact values.
- :mod:`exactodds.web.checks`: small validators of the values a body holds (type, bounds, fields).
- :mod:`exactodds.web.inputs`: what each route asks for: the values in, the library's own objects out.
- :mod:`exactodds.web.service`: what the API answers, from the commands' library calls.
- :mod:`exactodds.web.tracker` and :mod:`exactodds.web.store`: a tracked shoe, kept in SQLite.
- :mod:`exactodds.web.security`: Host, Origin, JSON bodies only, a token, a load limit.
- :mod:`exactodds.web.openapi`: the API's OpenAPI 3.1 schema.
"""
