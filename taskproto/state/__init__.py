"""taskproto/state"""
