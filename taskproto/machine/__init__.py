"""taskproto/machine"""
