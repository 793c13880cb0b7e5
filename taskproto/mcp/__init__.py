"""taskproto/mcp"""
