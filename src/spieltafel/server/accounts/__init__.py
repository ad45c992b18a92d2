"""accounts"""
