"""Nemeton's games in the tools AI researchers use (the ``rl`` extra):

- :mod:`nemeton.interop.pettingzoo`: ``env("alarun", players=3)``, PettingZoo AEC environments;
- :mod:`nemeton.interop.gymnasium`: importing it registers ``nemeton/Alarun-v0``,
  ``nemeton/Amarok-v0`` and ``nemeton/Edora-v0`` (one seat against built-in agents);
- :mod:`nemeton.interop.openspiel`: importing it registers ``nemeton_alarun``,
  ``nemeton_amarok`` and ``nemeton_edora`` as pyspiel Python games.

Everything here is built on :mod:`nemeton.engine.encoding` (action ids, masks and
observation tensors made from a seat's view) and reads only views, never states, for what a
seat observes. See docs/rl.md.
"""
