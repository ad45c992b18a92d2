"""Throughput benchmarks: random playouts, clones and determinisations, with OpenSpiel as a peer."""
