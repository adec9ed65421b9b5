"""Shoes dealt in sequence, with the exact edge of every hand.

* :mod:`~exactodds.simulation.dealing`: the casino's dealing procedure (shuffle, burn, cut
  card, extra rounds) for a block of shoes at once, as flat integer arrays (compiled in
  `_dealing.c`, with its pure-Python twin :mod:`~exactodds.simulation.dealing_twin`);
* :mod:`~exactodds.simulation.evaluate`: the exact EV of every round's known composition,
  one batch call per block (where a faster exact kernel drops in);
* :mod:`~exactodds.simulation.pruned_pricing`: the same EVs of value bets from the kernel's
  program cut to the keys they read (count studies such as Jacobson's Dragon 7);
* :mod:`~exactodds.simulation.strategies`: when to bet (``perfect``, ``count``, ``always``);
* :mod:`~exactodds.simulation.study`: what to simulate (:class:`~exactodds.simulation.study.Simulation`);
* :mod:`~exactodds.simulation.block`: one block of shoes dealt, evaluated, decided and tallied;
* :mod:`~exactodds.simulation.tally`: exact integer accumulators and the estimates drawn from them;
* :mod:`~exactodds.simulation.result`: the frozen result and its statistics per bet;
* :mod:`~exactodds.simulation.checkpoint`: checkpoints written atomically, read as hostile input;
* :mod:`~exactodds.simulation.run`: :func:`~exactodds.simulation.run.simulate`, in this process,
  in worker processes or on Dask.
* :mod:`~exactodds.simulation.workers`: forked worker processes, each on its own pipe (a
  worker that dies or stalls is one sentence; shutting down never waits on a shared lock);
* :mod:`~exactodds.simulation.pairs`: pair bets' exact EV in closed form;
* :mod:`~exactodds.simulation.cardpays`: what a card-level bet pays on the cards each round dealt;
* :mod:`~exactodds.simulation.overlaypays`: a random-multiplier overlay's exact EV of each
  round and its pay on the faces and multipliers drawn for the round, the fee charged;
* :mod:`~exactodds.simulation.pair_study`: a pairs-only block dealt, priced, decided and
  tallied in one pass of the compiled kernel (the numpy road of ``block`` its twin);
* :mod:`~exactodds.simulation.value_study`: a block of value bets (perfect play, always or a
  count) dealt, priced by the lean program, decided and tallied in one pass of the compiled
  kernel (the numpy road of ``block`` its twin);
* :mod:`~exactodds.simulation.risk` (a room below the pipeline): the exact per-shoe sums, the
  trip tallies, the bankroll's paths, the ruin programme and the risk figures drawn from them;
* :mod:`~exactodds.simulation.staking` (a room below the pipeline): how much each bet stakes
  (flat, Kelly, ramps, table limits), the stakes of a block's rounds and the optimal ramp;
* :mod:`~exactodds.simulation.sweep`: every combination of a few settings, on the same shoes;
* :mod:`~exactodds.simulation.frame`: results and traces as DataFrames, Arrow and Parquet.
"""
