"""One module per simulated provider protocol; see ``PROTOCOLS`` in the simulator."""
