"""What taskproto knows about the agent clients (Claude Code, Codex CLI, Gemini CLI): their hook
events, how they want answers, and the settings files their hooks are installed in."""
