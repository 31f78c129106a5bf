"""Learned policies saved as numpy arrays: the ``.npz`` policy format, version 1.

A policy file holds an MLP over a game's RL observation (``rl.encoding``: the game's
observer and the header, exactly what ``spieltisch/<game>-v0`` gives a seat) whose
outputs are one logit per action of the environment (the game's actions, then
``DECLINE``). Playing it needs numpy only, never torch. Entries (``numpy.savez``; read
with ``allow_pickle=False``):

========================  ==========================================================
``format``                ``"spieltisch-policy"``
``version``               ``1`` (``FORMAT_VERSION``)
``game``                  the game's registered name (``"hockey"``)
``players``               the player count it was trained for
``options``               the rule options, as JSON (informative)
``encoding``              ``"observer"`` (the game's own observer) or ``"view"``
``encoding_size``         the observation's length
``encoding_digest``       SHA-256 of the observation's slot labels, one a line: the
                          encoding's version (it changes when a game's layout does)
``num_actions``           outputs: the game's actions + 1 (``DECLINE``)
``activation``            ``"tanh"`` or ``"relu"``, after every hidden layer
``layers``                the number of linear layers ``L``
``W0`` … ``W{L-1}``       float32 weights, shape (inputs, outputs)
``b0`` … ``b{L-1}``       float32 biases, shape (outputs,)
``meta``                  JSON: how it was made (informative)
========================  ==========================================================

The action taken is the legal action with the largest logit (ties: the lowest index),
so a policy plays deterministically. A file that does not fit — missing, not a policy
file, another format version, another game, player count or encoding, inconsistent
shapes — raises ``PolicyFileError`` naming the problem.
"""

from __future__ import annotations

import hashlib
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..core.game import ConfigError, Game
from .encoding import StateEncoder, ViewEncoder, encoder_for

FORMAT = "spieltisch-policy"
FORMAT_VERSION = 1
ACTIVATIONS = ("tanh", "relu")


class PolicyFileError(ConfigError):
    """A policy file that cannot be played: the message names the file and the problem."""


def encoding_digest(encoder: StateEncoder | ViewEncoder) -> str:
    """The version of an observation layout: SHA-256 of its slot labels, one a line."""
    return hashlib.sha256("\n".join(encoder.labels).encode()).hexdigest()


def encoding_kind(encoder: StateEncoder | ViewEncoder) -> str:
    return "observer" if isinstance(encoder, StateEncoder) else "view"


@dataclass
class PolicyNet:
    """An MLP from a policy file: ``weights[i]`` is (inputs, outputs)."""

    game: str
    players: int
    encoding: str
    encoding_size: int
    encoding_digest: str
    num_actions: int
    activation: str
    weights: list[np.ndarray]
    biases: list[np.ndarray]
    options: dict[str, Any] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    def logits(self, observation: np.ndarray) -> np.ndarray:
        """The output layer for one observation (float32)."""
        x = np.asarray(observation, dtype=np.float32)
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if i < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x

    def choose(self, observation: np.ndarray, mask: np.ndarray) -> int:
        """The legal action (``mask`` nonzero) with the largest logit; ties: lowest index."""
        legal = np.flatnonzero(mask)
        if not len(legal):
            raise ValueError("no legal action in the mask")
        logits = self.logits(observation)
        return int(legal[int(np.argmax(logits[legal]))])

    def __call__(self, observation: dict[str, np.ndarray], action_mask: np.ndarray) -> int:
        """As an opponent policy of ``SingleAgentEnv`` (the environment's observation)."""
        return self.choose(observation["observation"], action_mask)

    def check_game(self, game: Game, source: str = "the policy",
                   observation: str = "auto") -> StateEncoder | ViewEncoder:
        """The encoder of ``game`` if this policy fits it, else ``PolicyFileError``."""
        if game.name != self.game:
            raise PolicyFileError(f"{source} was trained for {self.game}, not {game.name}")
        if game.num_players != self.players:
            raise PolicyFileError(f"{source} was trained for {self.players} players of "
                                  f"{self.game}, not {game.num_players}")
        encoder = encoder_for(game, observation)
        kind, size, digest = encoding_kind(encoder), encoder.size, encoding_digest(encoder)
        if (kind, size, digest) != (self.encoding, self.encoding_size, self.encoding_digest):
            raise PolicyFileError(
                f"{source} was trained on another observation encoding of {self.game} "
                f"({self.encoding}, {self.encoding_size} slots, version "
                f"{self.encoding_digest[:12]}); this spieltisch encodes {kind}, {size} slots, "
                f"version {digest[:12]}: train or export it again")
        if self.num_actions != game.num_actions + 1:
            raise PolicyFileError(f"{source} has {self.num_actions} outputs; {self.game} has "
                                  f"{game.num_actions + 1} actions (with decline)")
        return encoder

    def save(self, path: str | Path) -> None:
        """Write the policy file (``numpy.savez``; the format of the module docstring)."""
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT), "version": np.array(FORMAT_VERSION),
            "game": np.array(self.game), "players": np.array(self.players),
            "options": np.array(json.dumps(self.options, sort_keys=True)),
            "encoding": np.array(self.encoding), "encoding_size": np.array(self.encoding_size),
            "encoding_digest": np.array(self.encoding_digest),
            "num_actions": np.array(self.num_actions), "activation": np.array(self.activation),
            "layers": np.array(len(self.weights)),
            "meta": np.array(json.dumps(self.meta, sort_keys=True)),
        }
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"W{i}"] = np.asarray(w, dtype=np.float32)
            arrays[f"b{i}"] = np.asarray(b, dtype=np.float32)
        with open(path, "wb") as f:  # a file object: savez adds no ".npz" to the name
            np.savez(f, **arrays)


def for_game(game: Game, weights: Sequence[np.ndarray], biases: Sequence[np.ndarray],
             activation: str = "tanh", observation: str = "auto",
             meta: dict[str, Any] | None = None) -> PolicyNet:
    """A policy for ``game``'s configuration with the given layers (checked)."""
    encoder = encoder_for(game, observation)
    net = PolicyNet(game.name, game.num_players, encoding_kind(encoder), encoder.size,
                    encoding_digest(encoder), game.num_actions + 1, activation,
                    [np.asarray(w, dtype=np.float32) for w in weights],
                    [np.asarray(b, dtype=np.float32) for b in biases],
                    dict(game.options), dict(meta or {}))
    _check_shapes(net, "the policy")
    return net


def _check_shapes(net: PolicyNet, source: str) -> None:
    if net.activation not in ACTIVATIONS:
        raise PolicyFileError(f"{source} has activation {net.activation!r} "
                              f"(known: {', '.join(ACTIVATIONS)})")
    if not net.weights:
        raise PolicyFileError(f"{source} has no layers")
    inputs = net.encoding_size
    for i, (w, b) in enumerate(zip(net.weights, net.biases, strict=True)):
        if w.ndim != 2 or w.shape[0] != inputs:
            raise PolicyFileError(f"{source}: layer {i} weights W{i} have shape {w.shape}, "
                                  f"expected ({inputs}, …)")
        if b.shape != (w.shape[1],):
            raise PolicyFileError(f"{source}: layer {i} bias b{i} has shape {b.shape}, "
                                  f"expected ({w.shape[1]},)")
        inputs = w.shape[1]
    if inputs != net.num_actions:
        raise PolicyFileError(f"{source}: the last layer gives {inputs} outputs, expected "
                              f"{net.num_actions} (one per action)")


def load(path: str | Path) -> PolicyNet:
    """Read and check a policy file (``PolicyFileError`` on any problem)."""
    source = f"policy file {str(path)!r}"
    p = Path(path)
    if not p.is_file():
        raise PolicyFileError(f"{source} not found" if not p.exists() else
                              f"{source} is not a file")
    try:
        with open(p, "rb") as f:
            if f.read(4) != b"PK\x03\x04":  # np.load would take other files for pickles
                raise PolicyFileError(f"{source} is not a .npz archive")
        with np.load(p, allow_pickle=False) as data:
            entries = {k: data[k] for k in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        raise PolicyFileError(f"{source} is not a .npz policy file ({e})") from None
    if "format" not in entries or str(entries["format"]) != FORMAT:
        raise PolicyFileError(f"{source} is not a spieltisch policy (no format "
                              f"{FORMAT!r} entry)")

    def get(key: str, kind: type) -> Any:
        if key not in entries:
            raise PolicyFileError(f"{source} has no {key!r} entry")
        value = entries[key]
        try:
            if value.ndim != 0:
                raise ValueError("not a single value")
            return kind(value.item() if kind is not str else str(value))
        except (TypeError, ValueError):
            raise PolicyFileError(f"{source}: entry {key!r} is not a {kind.__name__}") \
                from None

    version = get("version", int)
    if version != FORMAT_VERSION:
        raise PolicyFileError(f"{source} has format version {version}; this spieltisch "
                              f"reads version {FORMAT_VERSION}")
    layers = get("layers", int)
    weights: list[np.ndarray] = []
    biases: list[np.ndarray] = []
    for i in range(layers):
        for key, out in ((f"W{i}", weights), (f"b{i}", biases)):
            if key not in entries:
                raise PolicyFileError(f"{source} has {layers} layers but no {key!r} entry")
            a = entries[key]
            if not np.issubdtype(a.dtype, np.floating):
                raise PolicyFileError(f"{source}: {key} is {a.dtype}, not floating point")
            out.append(a.astype(np.float32))
    try:
        options = json.loads(get("options", str)) if "options" in entries else {}
        meta = json.loads(get("meta", str)) if "meta" in entries else {}
    except json.JSONDecodeError:
        raise PolicyFileError(f"{source}: 'options' or 'meta' is not JSON") from None
    net = PolicyNet(get("game", str), get("players", int), get("encoding", str),
                    get("encoding_size", int), get("encoding_digest", str),
                    get("num_actions", int), get("activation", str), weights, biases,
                    options, meta)
    _check_shapes(net, source)
    return net


def from_sb3(model: Any, game: Game, meta: dict[str, Any] | None = None) -> PolicyNet:
    """Export an SB3 ``MaskablePPO`` (``MlpPolicy`` over the observation vector, Tanh or
    ReLU, no shared layers) to a ``PolicyNet`` of ``game``'s configuration (needs torch)."""
    import torch

    policy = model.policy
    linears = [m for m in policy.mlp_extractor.policy_net if isinstance(m, torch.nn.Linear)]
    acts = {type(m).__name__ for m in policy.mlp_extractor.policy_net
            if not isinstance(m, torch.nn.Linear)}
    activation = {"Tanh": "tanh", "ReLU": "relu"}.get(next(iter(acts), "Tanh"))
    if activation is None or len(acts) > 1:
        raise ValueError(f"cannot export activations {sorted(acts)}")
    if list(policy.mlp_extractor.shared_net if hasattr(policy.mlp_extractor, "shared_net")
            else []):
        raise ValueError("cannot export a network with shared layers")
    linears.append(policy.action_net)
    with torch.no_grad():
        weights = [m.weight.detach().cpu().numpy().T.copy() for m in linears]
        biases = [m.bias.detach().cpu().numpy().copy() for m in linears]
    return for_game(game, weights, biases, activation, meta=meta)


__all__ = ["FORMAT", "FORMAT_VERSION", "PolicyFileError", "PolicyNet", "encoding_digest",
           "for_game", "from_sb3", "load"]
