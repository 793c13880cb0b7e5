"""taskproto/machine/builtin"""
