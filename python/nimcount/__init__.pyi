from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Literal, NamedTuple, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

__version__: str
__all__ = [
    "Counts",
    "MisereQuotient",
    "Move",
    "Period",
    "Play",
    "QuotientNotFound",
    "TooCostly",
    "__version__",
    "and_convolve",
    "count",
    "fwht",
    "grundy",
    "hadamard_matrix",
    "hadamard_transform",
    "hadamard_transform_12N",
    "hadamard_transform_20N",
    "hadamard_transform_28N",
    "hadamard_transform_40N",
    "matmul_hadU",
    "misere_quotient",
    "period",
    "or_convolve",
    "play",
    "subset_convolve",
    "survey",
    "xor_convolve",
    "xor_power",
    "zeta",
]

_A = TypeVar("_A", bound=np.ndarray)
_Sizes = Union[range, Tuple[int, int], Sequence[int], npt.NDArray[np.integer]]
_ArrayLike = Union[np.ndarray, Sequence[float], Sequence[Sequence[float]], npt.ArrayLike]

class TooCostly(ValueError):
    estimate: Optional[Union[int, float]]
    keyword: Optional[str]

class QuotientNotFound(ValueError):
    reason: str
    keyword: Optional[str]

_T = TypeVar("_T")

def fwht(
    a: _T,
    *,
    modulus: Optional[int] = ...,
    inverse: bool = ...,
    axis: int = ...,
    threads: Optional[int] = ...,
    scale: Optional[float] = ...,
    factor: Optional[int] = ...,
    family: Optional[Literal["fast-hadamard-transform", "sloane"]] = ...,
) -> _T: ...
def hadamard_matrix(
    n: int,
    dtype: npt.DTypeLike = ...,
    *,
    factor: Optional[int] = ...,
    family: Optional[Literal["fast-hadamard-transform", "sloane"]] = ...,
) -> np.ndarray: ...
def hadamard_transform(x: _T, scale: float = ...) -> _T: ...
def hadamard_transform_12N(x: _T, scale: float = ...) -> _T: ...
def hadamard_transform_20N(x: _T, scale: float = ...) -> _T: ...
def hadamard_transform_28N(x: _T, scale: float = ...) -> _T: ...
def hadamard_transform_40N(x: _T, scale: float = ...) -> _T: ...
def matmul_hadU(x: _T, *, transpose: bool = ...) -> _T: ...
def xor_convolve(
    a: _ArrayLike,
    b: _ArrayLike,
    *,
    modulus: Optional[int] = ...,
    axis: int = ...,
    threads: Optional[int] = ...,
) -> np.ndarray: ...
def zeta(
    a: _T,
    *,
    superset: bool = ...,
    inverse: bool = ...,
    modulus: Optional[int] = ...,
    axis: int = ...,
    threads: Optional[int] = ...,
) -> _T: ...
def and_convolve(
    a: _ArrayLike, b: _ArrayLike, *, modulus: Optional[int] = ..., axis: int = ..., threads: Optional[int] = ...
) -> np.ndarray: ...
def or_convolve(
    a: _ArrayLike, b: _ArrayLike, *, modulus: Optional[int] = ..., axis: int = ..., threads: Optional[int] = ...
) -> np.ndarray: ...
def subset_convolve(
    a: _ArrayLike, b: _ArrayLike, *, modulus: Optional[int] = ..., axis: int = ..., threads: Optional[int] = ...
) -> np.ndarray: ...
def xor_power(
    a: _ArrayLike, k: int, *, modulus: Optional[int] = ..., axis: int = ..., threads: Optional[int] = ...
) -> np.ndarray: ...

@dataclass(frozen=True)
class Period:
    game: str
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    theorem: Optional[str]
    theorem_id: Optional[str]
    checked_upto: Optional[int] = ...
    max_value: Optional[int] = ...
    never_periodic: bool = ...
    suggested_max_heap: Optional[int] = ...
    suggested_seconds: Optional[float] = ...
    def as_dict(self) -> dict: ...

@dataclass(frozen=True)
class Counts:
    losing: Union[int, float]
    winning: Union[int, float]
    total: Union[int, float]
    modulus: Optional[int]
    heaps: Union[int, range]
    sizes: int
    kind: str
    play: str
    source: str
    period: Optional[Period]
    theorem: Optional[str]
    values_computed: Optional[int]
    exact: Optional[bool] = ...
    def as_dict(self) -> dict: ...

def count(
    game: Optional[str] = ...,
    sizes: Optional[_Sizes] = ...,
    heaps: Optional[Union[int, range]] = ...,
    *,
    histogram: Optional[Union[Dict[int, int], npt.NDArray[np.integer]]] = ...,
    modulus: Optional[int] = ...,
    unordered: bool = ...,
    distinct: bool = ...,
    misere: bool = ...,
    probability: bool = ...,
    max_work: Optional[int] = ...,
    max_heap: Optional[int] = ...,
    parts: Optional[Iterable[Tuple[str, _Sizes, int]]] = ...,
    max_states: Optional[int] = ...,
    max_order: Optional[int] = ...,
    max_seconds: Optional[int] = ...,
) -> Counts: ...
def grundy(game: str, first: int, *, max_seconds: Optional[float] = ...) -> npt.NDArray[np.uint64]: ...
def period(game: str, *, max_heap: Optional[int] = ...) -> Period: ...

class Move(NamedTuple):
    description: str
    changes: Tuple[Tuple[int, int, Tuple[int, ...]], ...]

@dataclass(frozen=True)
class Play:
    verdict: str
    grundy: Optional[List[int]]
    moves: List[Move]
    @property
    def won(self) -> bool: ...
    def as_dict(self) -> dict: ...

def play(
    game: str,
    heaps: Iterable[int],
    *,
    misere: bool = ...,
    max_heap: Optional[int] = ...,
    all: bool = ...,
    max_states: Optional[int] = ...,
) -> Play: ...

@dataclass(frozen=True)
class MisereQuotient:
    game: str
    order: int
    generators: Tuple[Tuple[str, int], ...]
    relations: Tuple[Tuple[str, str], ...]
    elements: Tuple[str, ...]
    p_portion: Tuple[int, ...]
    heaps: Tuple[int, ...]
    preperiod: int
    period: int
    theorem: str
    theorem_id: str
    states_checked: int
    table: Optional[Tuple[Tuple[int, ...], ...]] = ...
    largest_heap: Optional[int] = ...
    reason: Optional[str] = ...
    def element(self, n: int) -> int: ...
    def as_dict(self) -> dict: ...

def misere_quotient(
    game: str,
    *,
    max_heap: Optional[int] = ...,
    max_order: Optional[int] = ...,
    max_states: Optional[int] = ...,
    table: bool = ...,
    max_seconds: Optional[int] = ...,
) -> MisereQuotient: ...

def survey(
    patterns: Union[str, Sequence[str]],
    *,
    max_seconds_per_game: float = ...,
    max_heap: Optional[int] = ...,
    max_states: Optional[int] = ...,
    push: Optional[int] = ...,
) -> List[Dict[str, Any]]: ...
