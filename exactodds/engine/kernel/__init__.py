"""The compiled evaluation of many shoes, and its pure-Python twin.

- :mod:`exactodds.engine.kernel.program`: a *program*: the count polynomials of a
  tableau (:mod:`exactodds.engine.polynomial`) and a weight matrix from their
  inputs (value-level keys, pair states, the total) to the outputs a caller
  wants (outcome counts, EV numerators), as flat integer arrays; and
  :func:`~exactodds.engine.kernel.program.evaluate`, which runs it on many shoes (in C, or
  in numpy when the extension is not built).
- :mod:`exactodds.engine.kernel.pruned`: a program cut down to the inputs its outputs read
  (each output's commonest key weight moved onto the total): the same integers, less work.
- :mod:`exactodds.engine.kernel.twin`: the same algorithm in Python integers: the
  specification the tests hold the compiled kernel to, and the path for shoes too
  large for 128-bit integers.
- ``_native.c``: the C extension, installed as the top-level module ``_exactodds_kernel``
  (optional: without a C compiler, numpy and the twin do the same arithmetic).
- ``_depth.c``: in the same extension, a depth table's sums below one prefix
  (:mod:`exactodds.advantage.compositions` calls it; its numpy path is the twin).
"""
