"""taskproto/classify"""
