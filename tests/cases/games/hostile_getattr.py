"""A module whose __getattr__ raises for every name it does not have."""


def __getattr__(name):
    raise RuntimeError(f"no {name} here")
