"""The board: a live local web page of every task and agent, where the user reviews and approves.

An adapter like `mcp/` (needs the optional extra `taskproto[board]`: Starlette, uvicorn,
watchfiles):

- server.py    bind, print the URL with the one-time token, run uvicorn
- app.py       the ASGI app: routes behind the guard, the watcher for the app's life
- security.py  the token, Host and Origin checks (every request)
- state.py     what a running board holds: settings, the change hub, the doctor cache
- watch.py     file-system notifications -> what changed (tasks, activity, everything)
- snapshot.py  cards and a task's detail, read from the files (read-only); the diff is
               taskproto's one diff, engine/diff.py
- diagram.py   a workflow as SVG with the current state highlighted; its Mermaid text
- pages.py     HTML pages, partials and the event stream; api.py the JSON API
"""
