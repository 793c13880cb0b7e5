"""taskproto/hooks/git"""
