"""taskproto/ops"""
