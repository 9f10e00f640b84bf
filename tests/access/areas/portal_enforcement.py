"""The operator's enforcement page in its portal: its own establishment's only (ACCESS.md:
the letters sent to it, its invoices); every other role answers 404, as if it did not
exist, and another operator's establishment too."""

TABLE = """
portal:operator_enforcement         GET   404   404   404   404   ok    404   404   404   login
portal:operator_enforcement         POST  404   404   404   404   405   404   404   404   login
"""
