"""``torch.__future__``: switches for behaviour that PyTorch plans to make the default.

Two of them decide what ``Module.to()``, ``.double()``, ``.cpu()`` and friends do with each
parameter (see ``Module._apply``):

- ``set_overwrite_module_params_on_conversion(True)``: the module gets new Parameter objects
  holding the converted values (an optimizer built before still holds the old ones).
- ``set_swap_module_params_on_conversion(True)``: PyTorch swaps the converted values into the
  old objects with ``torch.utils.swap_tensors``. minitorch always keeps the objects and gives
  them the new values, which is what the swap does to a plain tensor, so the flag is recorded
  and read back but changes nothing.

Example:
    >>> import minitorch
    >>> minitorch.__future__.get_overwrite_module_params_on_conversion()
    False
"""

__all__ = [
    "get_overwrite_module_params_on_conversion",
    "get_swap_module_params_on_conversion",
    "set_overwrite_module_params_on_conversion",
    "set_swap_module_params_on_conversion",
]

_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Whether ``Module._apply`` assigns new Parameter objects (True) or keeps the old ones."""
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    """What ``set_overwrite_module_params_on_conversion`` set (False by default)."""
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Whether conversions swap the new values into the old Parameter objects (see above)."""
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    """What ``set_swap_module_params_on_conversion`` set (False by default)."""
    return _swap_module_params_on_conversion
