"""taskproto/git"""
