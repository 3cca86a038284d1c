"""A subclass's own ``__slots__`` read and written on the instance a copy shares, not the copy.

Why this exists: a context's copy of a shared ``Transport`` (``Transport.trusting``) shares
its owner's instance dictionary, so whatever the owner sets later is the copy's too. A
subclass's own ``__slots__`` are not in that dictionary: each instance holds its own, and
the copy, made without ``__init__``, held none, so the first read of one (a gateway header a
subclass adds, a session of its own) failed the context's search with ``AttributeError``,
and a value set on the copy would have stayed the copy's while the owner's changed. Sharing
the dictionary is the one mechanism; this extends it to slots: each slot a subclass declares
is replaced by a descriptor that reads, writes and deletes the slot of the instance the copy
shares (:func:`share_own_slots`), so owner and copy see one value, as with every other
attribute.
"""

import types
from collections.abc import Callable
from typing import Any, Final

__all__ = ["OwnersSlot", "share_own_slots"]


class OwnersSlot:
    """One slot of a class, kept on the instance ``owner_of`` names for the one used.

    Args:
        slot: The slot's own descriptor, which the class held before (it reads and writes
            the slot's storage on an instance of that class).
        owner_of: The instance whose slot is meant when ``instance`` is used (``instance``
            itself for an owner; the transport it copies for a copy).
    """

    __slots__ = ("_owner_of", "_slot")

    def __init__(self, slot: types.MemberDescriptorType, owner_of: Callable[[Any], Any]) -> None:
        self._slot: Final = slot
        self._owner_of: Final = owner_of

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        """The owner's value (the class's descriptor itself when read from the class)."""
        if instance is None:
            return self
        return self._slot.__get__(self._owner_of(instance), owner)

    def __set__(self, instance: object, value: Any) -> None:
        """Set it on the owner, so the owner and every copy read it."""
        self._slot.__set__(self._owner_of(instance), value)

    def __delete__(self, instance: object) -> None:
        """Unset it on the owner, for every copy alike."""
        self._slot.__delete__(self._owner_of(instance))


def share_own_slots(cls: type, owner_of: Callable[[Any], Any]) -> None:
    """Replace each slot ``cls`` itself declares by an :class:`OwnersSlot` reading ``owner_of``.

    Only ``cls``'s own (a parent's were replaced when the parent was made); ``__dict__``
    and ``__weakref__`` are not slot descriptors and are left alone. Called from
    ``__init_subclass__``, when the class exists and before any instance does.

    Example:
        >>> class Base:
        ...     __slots__ = ("__dict__", "copied_from")
        >>> class Sub(Base):
        ...     __slots__ = ("header",)
        >>> share_own_slots(Sub, lambda sub: sub.copied_from or sub)
        >>> owner = Sub(); owner.copied_from = None; owner.header = "old"
        >>> copy = object.__new__(Sub); copy.copied_from = owner
        >>> owner.header = "new"
        >>> copy.header
        'new'
        >>> copy.header = "set through the copy"
        >>> owner.header
        'set through the copy'
    """
    for name, value in list(vars(cls).items()):
        if isinstance(value, types.MemberDescriptorType):
            setattr(cls, name, OwnersSlot(value, owner_of))
