from typing import Dict, List, NamedTuple, Optional, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

__version__: str

_A = TypeVar("_A", bound=np.ndarray)
_Sizes = Union[range, Tuple[int, int]]

class TooCostly(ValueError):
    estimate: Optional[Union[int, float]]
    keyword: Optional[str]

def fwht(
    a: _A,
    *,
    modulus: Optional[int] = ...,
    inverse: bool = ...,
    axis: int = ...,
    threads: Optional[int] = ...,
) -> _A: ...
def xor_convolve(a: _A, b: _A, *, modulus: Optional[int] = ...) -> _A: ...
def xor_power(a: _A, k: int, *, modulus: Optional[int] = ...) -> _A: ...

class Period:
    game: str
    preperiod: Optional[int]
    period: Optional[int]
    saltus: Optional[int]
    theorem: Optional[str]
    theorem_id: Optional[str]
    checked_upto: Optional[int]
    max_value: Optional[int]
    never_periodic: bool
    suggested_max_heap: Optional[int]
    suggested_seconds: Optional[float]
    def as_dict(self) -> dict: ...

class Counts:
    losing: Union[int, float]
    winning: Union[int, float]
    total: Union[int, float]
    modulus: Optional[int]
    heaps: int
    sizes: int
    kind: str
    play: str
    source: str
    period: Optional[Period]
    theorem: Optional[str]
    values_computed: Optional[int]
    exact: Optional[bool]
    def as_dict(self) -> dict: ...

def count(
    game: Optional[str] = ...,
    sizes: Optional[_Sizes] = ...,
    heaps: Optional[int] = ...,
    *,
    histogram: Optional[Union[Dict[int, int], npt.NDArray[np.integer]]] = ...,
    modulus: Optional[int] = ...,
    unordered: bool = ...,
    distinct: bool = ...,
    misere: bool = ...,
    probability: bool = ...,
    max_work: Optional[int] = ...,
    max_heap: Optional[int] = ...,
) -> Counts: ...
def grundy(game: str, first: int) -> npt.NDArray[np.uint64]: ...
def period(game: str, *, max_heap: Optional[int] = ...) -> Period: ...

class Move(NamedTuple):
    description: str
    changes: Tuple[Tuple[int, int, Tuple[int, ...]], ...]

class Play:
    verdict: str
    grundy: Optional[List[int]]
    moves: List[Move]
    @property
    def won(self) -> bool: ...
    def as_dict(self) -> dict: ...

def play(game: str, heaps: List[int], *, misere: bool = ..., max_heap: Optional[int] = ...) -> Play: ...
