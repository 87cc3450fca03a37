"""numba kernels: bit helpers, generic rules, the search loop and the code composing them."""
