"""A learned policy as an agent: ``policy:path=FILE`` (``sample=1`` to sample its moves).

The file is a small multilayer perceptron saved by :func:`save_policy` (``scripts/train_policy.py``
trains one on the vector environment): a NumPy ``.npz`` holding the weights ``w0, b0, w1, b1,
...`` (tanh between layers, the last layer's outputs one logit per action id) and ``meta``, a
JSON text naming the format and its version, the game, the options it was trained for (the
player count among them), the observation size, the number of actions and the hidden widths,
plus what the training wants to record.

The agent acts from its seat's view only, as every agent: the view's observation tensor (the
game's reference encoder, :meth:`GameEncoding.encode <nemeton.engine.encoding.GameEncoding.encode>`,
the tensor the RL environments give) goes through the network, the logits of the legal
actions' ids are compared, and the agent plays the best one (``sample=1``: one drawn from
their softmax with the agent's own random stream). Greedy play is deterministic.

A policy file comes from whoever runs the command (a client of the server never sends a spec:
the operator names the files, ``nemeton serve --agent learned=policy:path=FILE``), but it is
read as untrusted data all the same: loaded with ``allow_pickle=False``, at most
:data:`MAX_FILE_BYTES` on disk and :data:`MAX_ARRAY_BYTES` per array once unpacked, exactly the
arrays and shapes its ``meta`` announces, finite numbers only. Anything else, and a game or
options other than the ones it was trained for, is an :class:`~nemeton.agents.base.AgentSpecError`
saying what is wrong: the game is checked when the agent is made, the options (which only the
game knows) by :meth:`PolicyAgent.settings_for` before a tournament and at the first decision.

NumPy only (the ``rl`` extra); no deep-learning framework.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import zipfile
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from ..engine import Action, GameOptions, GameSpec, NemetonError
from .base import Agent, AgentSpecError

FORMAT = "nemeton-policy"
VERSION = 1
MAX_FILE_BYTES = 64 * 2**20
MAX_ARRAY_BYTES = 64 * 2**20
MAX_META_CHARS = 65_536
MAX_HIDDEN_LAYERS = 4
MAX_WIDTH = 4096


@dataclass(frozen=True)
class Policy:
    """A loaded, checked policy network: ``layers`` are (weights (in, out), bias (out,)) in
    order, float32; ``meta`` the file's metadata; ``digest`` the file's SHA-256 (hex)."""

    meta: dict[str, Any]
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    digest: str

    @property
    def game(self) -> str:
        return self.meta["game"]

    @property
    def options(self) -> dict[str, Any]:
        return self.meta["options"]

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """The logits of every action id for ``obs`` ((obs,) or (B, obs))."""
        x = obs
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            x = x @ w + b
            if i < last:
                x = np.tanh(x)
        return x


def save_policy(path: str | os.PathLike, layers: Sequence[tuple[np.ndarray, np.ndarray]], *, game: str,
                options: GameOptions | Mapping[str, Any], extra: Mapping[str, Any] | None = None) -> None:
    """Write a policy file: ``layers`` (weights (in, out), bias (out,)) of a tanh MLP whose
    last layer gives one logit per action id, for ``game`` played with ``options`` (validated
    options or their JSON form). ``extra`` (JSON-ready) is kept in ``meta["trained"]``. The
    file is written whole or not at all (a temporary file renamed)."""
    opts = options.to_json() if isinstance(options, GameOptions) else dict(options)
    ws = [np.asarray(w, dtype=np.float32) for w, _ in layers]
    meta = {"format": FORMAT, "version": VERSION, "game": game, "options": opts,
            "observation_size": int(ws[0].shape[0]), "num_actions": int(ws[-1].shape[1]),
            "hidden": [int(w.shape[1]) for w in ws[:-1]], "activation": "tanh",
            "trained": dict(extra or {})}
    arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta, sort_keys=True))}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
    path = os.fspath(path)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        np.savez_compressed(f, allow_pickle=False, **arrays)
    os.replace(tmp, path)


def load_policy(path: str | os.PathLike) -> Policy:
    """The policy in ``path``, checked (see the module docstring); AgentSpecError otherwise."""
    where = f"policy file {os.fspath(path)!r}"
    try:
        size = os.stat(path).st_size
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise AgentSpecError(f"{where}: cannot read it ({exc.strerror or exc})") from None
    if size > MAX_FILE_BYTES or len(data) > MAX_FILE_BYTES:
        raise AgentSpecError(f"{where}: {size:,} bytes; a policy file holds at most {MAX_FILE_BYTES:,}")
    arrays = _read_arrays(data, where)
    meta = _read_meta(arrays.pop("meta", None), where)
    layers = _read_layers(arrays, meta, where)
    return Policy(meta, layers, hashlib.sha256(data).hexdigest())


def _read_arrays(data: bytes, where: str) -> dict[str, np.ndarray]:
    """The arrays of an .npz (a zip of .npy files), each member's unpacked size checked before
    it is read; no pickled object is ever loaded."""
    import io
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            members = z.infolist()
            if len(members) > 2 * (MAX_HIDDEN_LAYERS + 1) + 1:
                raise AgentSpecError(f"{where}: {len(members)} entries; a policy has at most "
                                     f"{2 * (MAX_HIDDEN_LAYERS + 1) + 1} (meta, w0, b0, ...)")
            for m in members:
                if m.file_size > MAX_ARRAY_BYTES:
                    raise AgentSpecError(f"{where}: entry {m.filename!r} unpacks to {m.file_size:,} bytes; "
                                         f"at most {MAX_ARRAY_BYTES:,}")
            arrays = {}
            for m in members:
                name = m.filename[:-4] if m.filename.endswith(".npy") else m.filename
                with z.open(m) as f:
                    arrays[name] = np.lib.format.read_array(f, allow_pickle=False)
            return arrays
    except AgentSpecError:
        raise
    except zipfile.BadZipFile:
        raise AgentSpecError(f"{where}: not a policy file (a NumPy .npz written by save_policy)") from None
    except (ValueError, OSError, EOFError, zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        # numpy refuses object arrays without pickle with a ValueError that says so
        raise AgentSpecError(f"{where}: an array cannot be read ({str(exc)[:200]})") from None


def _read_meta(raw: np.ndarray | None, where: str) -> dict[str, Any]:
    if raw is None or raw.shape != () or raw.dtype.kind != "U" or len(str(raw)) > MAX_META_CHARS:
        raise AgentSpecError(f"{where}: no 'meta' text (a policy file is written by save_policy)")
    try:
        meta = json.loads(str(raw))
    except ValueError:
        raise AgentSpecError(f"{where}: its 'meta' is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise AgentSpecError(f"{where}: not a {FORMAT} file")
    if meta.get("version") != VERSION:
        raise AgentSpecError(f"{where}: format version {meta.get('version')!r}; this Nemeton reads version {VERSION}")
    if meta.get("activation") != "tanh":
        raise AgentSpecError(f"{where}: activation {meta.get('activation')!r}; only 'tanh' is known")
    if not isinstance(meta.get("game"), str) or not isinstance(meta.get("options"), dict):
        raise AgentSpecError(f"{where}: its 'meta' names no game and options")
    hidden = meta.get("hidden")
    sizes = [meta.get("observation_size"), *(hidden if isinstance(hidden, list) else [None]), meta.get("num_actions")]
    if (not isinstance(hidden, list) or len(hidden) > MAX_HIDDEN_LAYERS
            or not all(type(n) is int and 1 <= n <= (MAX_WIDTH if 0 < i < len(sizes) - 1 else 10**6)
                       for i, n in enumerate(sizes))):
        raise AgentSpecError(f"{where}: observation_size, hidden (at most {MAX_HIDDEN_LAYERS} widths of at "
                             f"most {MAX_WIDTH}) and num_actions must be positive integers; got {sizes}")
    meta["sizes"] = sizes
    return meta


def _read_layers(arrays: dict[str, np.ndarray], meta: dict[str, Any], where: str) -> tuple:
    sizes = meta.pop("sizes")
    expected = {f"{kind}{i}" for i in range(len(sizes) - 1) for kind in "wb"}
    if set(arrays) != expected:
        raise AgentSpecError(f"{where}: arrays {sorted(arrays)}; expected {sorted(expected)} for "
                             f"{len(sizes) - 1} layers")
    layers = []
    for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
        w, b = arrays[f"w{i}"], arrays[f"b{i}"]
        for name, a, shape in ((f"w{i}", w, (n_in, n_out)), (f"b{i}", b, (n_out,))):
            if a.shape != shape or a.dtype.kind != "f":
                raise AgentSpecError(f"{where}: {name} is {a.dtype} of shape {a.shape}; expected floats "
                                     f"of shape {shape}")
            if not np.isfinite(a).all():
                raise AgentSpecError(f"{where}: {name} holds numbers that are not finite (NaN or infinity)")
        layers.append((w.astype(np.float32), b.astype(np.float32)))
    return tuple(layers)


_LOADED: dict[tuple[str, int, int], Policy] = {}  # (real path, mtime, size) -> policy: one load per file version


def cached_policy(path: str) -> Policy:
    """:func:`load_policy`, once per version of the file (a server makes an agent per seat)."""
    try:
        st = os.stat(path)
        key = (os.path.realpath(path), st.st_mtime_ns, st.st_size)
    except OSError:
        return load_policy(path)  # says why it cannot be read
    policy = _LOADED.get(key)
    if policy is None:
        policy = load_policy(path)
        if len(_LOADED) >= 16:
            _LOADED.clear()
        _LOADED[key] = policy
    return policy


def policy_file(text: str) -> str:
    """The ``path`` parameter: a policy file that loads (checked when the spec is read, so a
    server refuses a bad file when it starts)."""
    cached_policy(text)
    return text


policy_file.__name__ = "a policy file"


def _flag(text: str) -> bool:
    if text not in ("0", "1"):
        raise ValueError(text)
    return text == "1"


_flag.__name__ = "0 or 1"


class PolicyAgent(Agent):
    """Plays a saved policy network from its seat's view (see the module docstring)."""

    name = "policy"
    params = {"path": policy_file, "sample": _flag}

    def __init__(self, game: GameSpec, seat: int, rng, path: str | None = None, sample: bool = False, **params):
        super().__init__(game, seat, rng)
        if not path:
            raise AgentSpecError("agent 'policy' needs the file of a trained policy: policy:path=FILE")
        self.path = path
        self.sample = sample
        self.policy = cached_policy(path)
        if self.policy.game != game.name:
            raise AgentSpecError(f"policy file {path!r} was trained for {self.policy.game!r}, not {game.name!r}")
        self.options = self._trained_options()
        if not 0 <= seat < self.options.players:
            raise AgentSpecError(f"policy file {path!r} was trained for {self.options.players} players; "
                                 f"there is no seat {seat}")
        self.encoding = game.encoding(self.options)
        sizes = (self.encoding.observation_size, len(self.encoding.actions))
        if sizes != (self.policy.meta["observation_size"], self.policy.meta["num_actions"]):
            raise AgentSpecError(f"policy file {path!r}: its network takes {self.policy.meta['observation_size']} "
                                 f"inputs and gives {self.policy.meta['num_actions']} actions; {game.name} with "
                                 f"its options has {sizes[0]} and {sizes[1]}")
        self._checked: Any = None  # the last view options found equal to the trained ones

    def _trained_options(self) -> GameOptions:
        try:
            return self.game.options(**self.policy.options)
        except NemetonError as exc:
            raise AgentSpecError(f"policy file {self.path!r}: its options are not {self.game.name}'s: {exc}") from None

    def _check_options(self, options: GameOptions) -> None:
        if options != self.options:
            mine, theirs = self.options.to_json(), options.to_json()
            diff = ", ".join(f"{k}={mine.get(k)!r} (this game: {theirs.get(k)!r})"
                             for k in sorted(set(mine) | set(theirs)) if mine.get(k) != theirs.get(k))
            raise AgentSpecError(f"policy file {self.path!r} was trained for other options of "
                                 f"{self.game.name}: {diff}")

    def settings(self) -> dict[str, Any]:
        return {"path": self.path, "sample": self.sample, "sha256": self.policy.digest}

    def settings_for(self, options: Mapping[str, Any]) -> dict[str, Any]:
        try:
            opts = self.game.options(**dict(options))
        except NemetonError as exc:
            raise AgentSpecError(f"policy: {exc}") from None
        self._check_options(opts)
        return self.settings()

    def act(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        options = view.get("options")
        if options is None or options != self._checked:
            self._check_options(self.game._encoding_module().options_from_view(view))
            self._checked = options
        obs = self.encoding.encode(view)
        ids = self.encoding.actions.ids(legal)
        logits = self.policy.logits(obs)[ids].astype(np.float64)
        if not self.sample:
            return legal[int(np.argmax(logits))]
        p = np.exp(logits - logits.max())
        cumulative = np.cumsum(p)
        chosen = int(np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right"))
        return legal[min(chosen, len(legal) - 1)]
