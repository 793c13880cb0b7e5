"""`taskproto tui`: the terminal UI (docs/tui.md), an adapter like the board behind the optional
extra `taskproto[tui]` (Textual). `app.py` is the Textual app; every action it offers goes through
`ops/review.py` and the engine as the user, exactly as the CLI's commands do."""
