"""Game kernels: int-coded, mutable copies of the built-in games' rules for fast playouts.

(Work in progress: the loader, the build and the kernels themselves land with issue 25.)
"""
